/**
 * Adopting a workspace made by hand (./handmade.ts) with svc-import, as the guide tells people
 * (docs/guides/adopting.md), in each language of the plugin face: `svc-import --file`, `pulumi
 * import --file` into a new stack, `svc-import --finish`, the config secrets set, then the checks
 * every language must pass, declared once here and run per language by its own test file (jest
 * runs them in parallel): the import writes nothing; the program refers where the API ties
 * objects; nothing secret is in plain text in the import file, the program or the state; the
 * first up changes nothing and writes nothing; one edited field is applied in place;
 * `pulumi destroy` empties the workspace.
 */
import { execFile, execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { languageOf } from "../../importer/languages";
import { REFERENCES } from "../../importer/references";
import { changes, PACKAGE_DIR, startE2E, type E2E, type E2EOptions } from "./harness";
import { makeHandmadeWorkspace, type Handmade } from "./handmade";
import { TSC } from "./nodeSdk";

const execFileAsync = promisify(execFile);
export const REPO = path.join(__dirname, "..", "..");
const CLI = path.join(PACKAGE_DIR, "dist", "importer", "cli.js");

/** Runs svc-import in the stack's project directory, as a person would; its exit code and what it printed. */
export async function svcImport(
  args: string[],
  opts: { cwd: string; env: Record<string, string> },
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await execFileAsync(process.execPath, [CLI, ...args], {
      cwd: opts.cwd,
      env: { ...process.env, ...opts.env },
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? -1, stdout: e.stdout ?? "", stderr: e.stderr ?? "" };
  }
}

/** The config secrets of the handmade workspace, by the keys svc-import names them with (its printed list is checked against these). */
export const secretConfig = (made: Handmade): Record<string, string> => ({
  ghcrIoPassword: made.secrets.registryPassword,
  appSecretDbPassword: made.secrets.secretData.DB_PASSWORD,
  appSecretApiKey: made.secrets.secretData.API_KEY,
  bgpPassword: made.secrets.bgpPassword,
});

/** Every value of a secret the workspace was made with: none may appear in plain text anywhere svc-import or pulumi writes. */
export const secretValues = (made: Handmade) => Object.values(secretConfig(made));

/** The ties the API makes between the handmade objects: (referrer, input, target), by the names svc-import gives them. */
export const TIES: Array<[string, string, string]> = [
  ["pg-data", "instanceId", "db-1"],
  ["web-1-tcp-80", "instanceId", "web-1"],
  ["web-1-tcp-443", "instanceId", "web-1"],
  ["db-1-tcp-5432", "instanceId", "db-1"],
  ["web-1-in-app-net", "instanceId", "web-1"],
  ["web-1-in-app-net", "vpcId", "app-net"],
  ["db-1-in-db-net", "vpcId", "db-net"],
  ["web-1-node", "instanceId", "web-1"],
  ["web-2-node", "instanceId", "web-2"],
  ["shop", "targetInstanceIds", "web-1"],
  ["shop", "targetInstanceIds", "web-2"],
  ["shop", "secretRefs", "app-secret"],
  ["shop-lb-web-1", "loadBalancerId", "shop-lb"],
  ["shop-lb-web-2", "instanceId", "web-2"],
  ["bgp", "instanceId", "db-1"],
  ["bgp-198-51-100-0-24", "configId", "bgp"],
];

/** A language of the plugin face: its project files, the program file `pulumi import --out` writes, and what the run needs. */
export interface PluginLanguage {
  name: string;
  /** Writes Pulumi.yaml and whatever else the project needs into `dir`; returns extra options for the harness. */
  project(dir: string, plugin: string): E2EOptions | Promise<E2EOptions>;
  /** The program file: where `pulumi import --out` writes, unless `generated` names another file (YAML: the host reads Main.yaml during the import). */
  program: string;
  generated?: string;
  /** Checks the finished program compiles, where the run would not show it (TypeScript runs transpile-only). */
  compiles?(file: string): void;
  /**
   * Edit the adopted program and apply it: the plugin's in-place update, which no language changes,
   * so one language (YAML's, the quickest host) proves it for all.
   */
  editsInPlace?: boolean;
}

/**
 * Type-checks a TypeScript program as `pulumi new typescript` compiles it (strict), its imports
 * resolved from its directory or `paths` (a module name to the directory of a built package).
 */
export function typeCheck(file: string, paths: Record<string, string> = {}): void {
  const config = {
    compilerOptions: {
      strict: true,
      noEmit: true,
      module: "commonjs",
      target: "es2020",
      moduleResolution: "node",
      types: ["node"],
      typeRoots: [path.join(REPO, "node_modules", "@types")],
      baseUrl: path.dirname(file),
      paths: Object.fromEntries(Object.entries(paths).map(([name, dir]) => [name, [dir]])),
    },
    files: [file],
  };
  const tsconfig = path.join(path.dirname(file), "tsconfig.check.json");
  fs.writeFileSync(tsconfig, JSON.stringify(config));
  try {
    execFileSync(TSC, ["-p", tsconfig], { stdio: "pipe", encoding: "utf8" });
  } catch (err) {
    throw new Error(`${path.basename(file)} does not compile:\n${(err as { stdout?: string }).stdout ?? err}`);
  } finally {
    fs.rmSync(tsconfig, { force: true });
  }
}

/** Reads a file of the project. */
const read = (e2e: E2E, file: string) => fs.readFileSync(path.join(e2e.dir, file), "utf8");

export function describeAdoption(lang: PluginLanguage): void {
  describe(`adopting a workspace made by hand, in ${lang.name} through the plugin`, () => {
    let e2e: E2E;
    let made: Handmade;
    let work: string;
    const run = (args: string[]) => svcImport(args, { cwd: e2e.dir, env: e2e.env });

    beforeAll(async () => {
      work = fs.mkdtempSync(path.join(os.tmpdir(), `svc-adopt-${lang.name.toLowerCase()}-`));
      const programDir = path.join(work, "project");
      fs.mkdirSync(programDir);
      const options = await lang.project(programDir, path.join(PACKAGE_DIR, "bin"));
      // The operator's token: deleting the load balancer is Administrator-only (spec part 3).
      e2e = await startE2E(`adopt-${lang.name.toLowerCase()}`, { ...options, programDir, staff: true, workflowMs: 40 });
      made = await makeHandmadeWorkspace(e2e.emu);
    });
    afterAll(async () => {
      await e2e?.stop();
      fs.rmSync(work, { recursive: true, force: true });
    });

    it("svc-import lists the workspace through the API and writes the import file, reading only", async () => {
      const since = await e2e.lastSeq();
      const out = await run(["--file", "import.json"]);
      expect(out).toMatchObject({ code: 0, stderr: "" });
      expect(await e2e.mutations(since)).toEqual([]);
      const file = JSON.parse(read(e2e, "import.json")) as { resources: Array<{ type: string; name: string; id: string }> };
      const byKind: Record<string, number> = {};
      for (const r of file.resources) byKind[r.type.replace("svc:index:", "")] = (byKind[r.type.replace("svc:index:", "")] ?? 0) + 1;
      expect(byKind).toEqual(made.counts);
      expect(file.resources.map((r) => r.id)).toEqual(expect.arrayContaining(Object.values(made.ids)));
      // What the API made on its own is left out, and said.
      expect(out.stdout).toMatch(/Disk web-1-boot: the boot disk of instance web-1/);
      expect(out.stdout).toMatch(/FloatingIp [\d.:a-f]+: an address of instance web-1, made by its create/);
      // Each secret to set is named, never its value.
      for (const key of Object.keys(secretConfig(made))) expect(out.stdout).toContain(`pulumi config set --secret ${key} <value>`);
      for (const value of secretValues(made)) expect(read(e2e, "import.json") + out.stdout).not.toContain(value);
    });

    it("pulumi import --file adopts every object with no write and no provider warning", async () => {
      const since = await e2e.lastSeq();
      const printed = await e2e.cli([
        "import",
        "--file",
        "import.json",
        "--protect=false",
        "--out",
        lang.generated ?? lang.program,
        "--yes",
      ]);
      expect(printed).not.toMatch(/warning|failed to validate|almost certainly a bug/i);
      expect(await e2e.mutations(since)).toEqual([]);
      const state = await e2e.state();
      expect(state.map((r) => r.id).sort()).toEqual(
        (JSON.parse(read(e2e, "import.json")) as { resources: Array<{ id: string }> }).resources.map((r) => r.id).sort(),
      );
    });

    it("svc-import --finish completes the program: references where the API ties objects, secrets from config", async () => {
      const out = await run(["--finish", lang.generated ?? lang.program, ...(lang.generated ? ["--out", lang.program] : [])]);
      expect(out).toMatchObject({ code: 0, stderr: "" });
      const program = read(e2e, lang.program);
      const language = languageOf(lang.program)!;
      const declarations = new Map(language.declarations(program).map((d) => [d.name, d]));
      for (const [from, field, to] of TIES) {
        const by = Object.values(REFERENCES).find((r) => r[field])![field].by;
        const target = declarations.get(to)!;
        const block = program.slice(declarations.get(from)!.start, declarations.get(from)!.end);
        expect({ from, field, to, block }).toEqual({
          from,
          field,
          to,
          block: expect.stringContaining(language.reference(target.variable!, to, by)),
        });
      }
      for (const key of Object.keys(secretConfig(made))) expect(program).toContain(language.configRead(key));
      for (const value of secretValues(made)) expect(program).not.toContain(value);
      expect(program).not.toContain("svc-import-secret:");
      // Every number whole, without an exponent (pulumi-yaml writes a 20 GiB disk as 2.147483648e+10: issue 37).
      expect(program.match(/(?<![\w.+/-])-?\d+(?:\.\d+)?[eE][+-]?\d+(?![\w.])/g) ?? []).toEqual([]);
      lang.compiles?.(path.join(e2e.dir, lang.program));
    });

    // The up is the guide's preview and more: the engine plans it the same way, then writes the
    // state. A preview of its own first would prove nothing this does not (33 resources, once per language).
    it("with the config secrets set, the first up changes nothing and writes nothing, and records the dependencies the program states", async () => {
      for (const [key, value] of Object.entries(secretConfig(made))) await e2e.stack.setConfig(key, { value, secret: true });
      const { result, mutations } = await e2e.upLogged([]);
      expect(changes(result)).toEqual({ same: 33 });
      expect(mutations).toEqual([]);
      const disk = await e2e.resource("pg-data");
      expect((disk as unknown as { dependencies?: string[] }).dependencies).toEqual([expect.stringMatching(/::db-1$/)]);
      for (const value of secretValues(made)) expect(await e2e.rawState()).not.toContain(value);
    });

    if (lang.editsInPlace)
      it("applies one edited field in place, with one request", async () => {
        const file = path.join(e2e.dir, lang.program);
        const text = fs.readFileSync(file, "utf8");
        expect(text).toContain("web tier");
        fs.writeFileSync(file, text.replace("web tier", "web tier, adopted"));
        const { result, mutations } = await e2e.upLogged([]);
        expect(changes(result)).toEqual({ same: 32, update: 1 });
        expect(mutations.map((m) => `${m.method} ${m.path}`)).toEqual([`PATCH /v1/vpcs/${made.ids.appNet}`]);
        expect((await e2e.emu.api.get(`/v1/vpcs/${made.ids.appNet}`)).body.description).toBe("web tier, adopted");
        expect((await e2e.preview()).changeSummary).toEqual({ same: 33 });
      });

    it("pulumi destroy empties the workspace", async () => {
      await e2e.destroy();
      expect(await e2e.state()).toEqual([]);
      const inventory = await e2e.inventoryTotal();
      expect(Object.entries(inventory.resources).filter(([, rows]) => rows.length > 0)).toEqual([]);
    });
  });
}
