/**
 * Adopting a workspace made by hand on the dynamic face: `svc-import --dynamic <dir>` writes the
 * TypeScript program (`pulumi-svc`'s classes, each with the `import` option), which the first
 * `pulumi up` takes in with no write. First with `--retain`, whose stack's destroy leaves the
 * workspace as it was; then, on the same objects, a second stack without it, through the checks of
 * the plugin languages (./adopt.ts): a clean preview, references, secrets from config, one edit in
 * place, and a destroy that empties the workspace.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { changes, startE2E, type E2E } from "./harness";
import { makeHandmadeWorkspace, type Handmade } from "./handmade";
import { secretConfig, secretValues, svcImport, TIES, typeCheck } from "./adopt";

jest.setTimeout(600_000);

/** A TypeScript project on the dynamic face, with no program yet (svc-import writes index.ts). */
function project(name: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `svc-${name}-`));
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), `name: ${name}\nruntime:\n  name: nodejs\n  options:\n    typescript: true\n`);
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name, private: true, main: "index.ts" }, null, 2));
  fs.writeFileSync(path.join(dir, "index.ts"), "");
  return dir;
}

/** The live objects of the emulator's inventory, by table. */
async function live(e2e: E2E): Promise<Record<string, string[]>> {
  const inventory = (await e2e.inventoryTotal()).resources as Record<string, Array<{ id: string }>>;
  return Object.fromEntries(Object.entries(inventory).flatMap(([t, rows]) => (rows.length ? [[t, rows.map((r) => r.id).sort()]] : [])));
}

describe("adopting a workspace made by hand on the dynamic face (svc-import --dynamic)", () => {
  let retained: E2E;
  let e2e: E2E;
  let made: Handmade;
  const dirs: string[] = [];
  const setSecrets = async (stack: E2E) => {
    for (const [key, value] of Object.entries(secretConfig(made))) await stack.stack.setConfig(key, { value, secret: true });
  };

  beforeAll(async () => {
    dirs.push(project("adopt-retained"), project("adopt-dynamic"));
    retained = await startE2E("adopt-retained", { programDir: dirs[0], staff: true, workflowMs: 40 });
    made = await makeHandmadeWorkspace(retained.emu);
    e2e = await startE2E("adopt-dynamic", { programDir: dirs[1], staff: true, emulator: retained.emu });
  });
  afterAll(async () => {
    await e2e?.stop();
    await retained?.stop();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("with --retain: the first up imports every object with no write, and destroy leaves the workspace as it was", async () => {
    const before = await live(retained);
    const since = await retained.lastSeq();
    const out = await svcImport(["--dynamic", ".", "--retain"], { cwd: retained.dir, env: retained.env });
    expect(out).toMatchObject({ code: 0, stderr: "" });
    const program = fs.readFileSync(path.join(retained.dir, "index.ts"), "utf8");
    expect(program.match(/retainOnDelete: true/g)).toHaveLength(32);
    await setSecrets(retained);
    // The dynamic host cannot serve the engine's import: each import option counts as a create (README, "Limits").
    expect(changes(await retained.up([]))).toEqual({ create: 33 });
    expect(await retained.mutations(since)).toEqual([]);
    expect((await retained.preview()).changeSummary).toEqual({ same: 33 });
    await retained.destroy();
    expect(await retained.state()).toEqual([]);
    expect(await live(retained)).toEqual(before);
    expect(await retained.mutations(since)).toEqual([]);
  });

  it("writes the program with references where the API ties objects and secrets read from config", async () => {
    const since = await e2e.lastSeq();
    const out = await svcImport(["--dynamic", "."], { cwd: e2e.dir, env: e2e.env });
    expect(out).toMatchObject({ code: 0, stderr: "" });
    expect(await e2e.mutations(since)).toEqual([]);
    const program = fs.readFileSync(path.join(e2e.dir, "index.ts"), "utf8");
    const variables = new Map([...program.matchAll(/const (\w+) = new svc\.\w+\("([^"]+)"/g)].map((m) => [m[2], m[1]]));
    expect(variables.size).toBe(32);
    for (const [from, field, to] of TIES) {
      const start = program.indexOf(`new svc.`, program.indexOf(`const ${variables.get(from)} =`));
      const block = program.slice(start, program.indexOf("});", start));
      expect({ from, field, block }).toEqual({ from, field, block: expect.stringMatching(new RegExp(`${variables.get(to)}\\.(id|name)`)) });
    }
    for (const key of Object.keys(secretConfig(made))) expect(program).toContain(`config.requireSecret("${key}")`);
    for (const value of secretValues(made)) expect(program + out.stdout).not.toContain(value);
    expect(program).not.toMatch(/retainOnDelete/);
    // As `pulumi new typescript` compiles it (the run itself is transpile-only).
    typeCheck(path.join(e2e.dir, "index.ts"));
  });

  it("the first up takes every object in with no write; the next preview is clean", async () => {
    await setSecrets(e2e);
    const { result, mutations } = await e2e.upLogged([]);
    expect(changes(result)).toEqual({ create: 33 });
    expect(mutations).toEqual([]);
    expect((await e2e.state()).map((r) => r.id).sort()).toEqual(expect.arrayContaining(Object.values(made.ids).sort()));
    expect((await e2e.preview()).changeSummary).toEqual({ same: 33 });
    for (const value of secretValues(made)) expect(await e2e.rawState()).not.toContain(value);
  });

  it("applies one edited field in place, with one request", async () => {
    const file = path.join(e2e.dir, "index.ts");
    fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace('"web tier"', '"web tier, adopted"'));
    const { result, mutations } = await e2e.upLogged([]);
    expect(changes(result)).toEqual({ same: 32, update: 1 });
    expect(mutations.map((m) => `${m.method} ${m.path}`)).toEqual([`PATCH /v1/vpcs/${made.ids.appNet}`]);
  });

  it("pulumi destroy empties the workspace", async () => {
    await e2e.destroy();
    expect(await e2e.state()).toEqual([]);
    expect(await live(e2e)).toEqual({});
  });
});
