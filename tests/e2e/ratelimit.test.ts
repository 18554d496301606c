/**
 * Many stacks on one token under the API's rate limit (issue 17), through the real pulumi engine:
 * three dynamic-face stacks and one YAML stack (the plugin face) run `pulumi up` at once against
 * one emulator whose general limit is a few requests per second, all with the same token, their
 * provider processes sharing one pace as processes on one machine do (provider/client/paceStore.ts).
 *
 * The measure is the emulator's inventory against each stack's state: every up succeeds, every
 * object a stack records exists exactly once and nothing else does, and destroy (all at once,
 * still limited) empties the inventory. What a person sees is checked too: no line per refused
 * request, and one summary line per process that waited. No timing is asserted (the figures come
 * from `npm run bench:ratelimit`).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startTestEmulator, type TestEmulator } from "pulumi-svc-emulator/testing";
import { startE2E, type Declaration, type E2E, type StateResource } from "./harness";

jest.setTimeout(900_000);

const REPO = path.resolve(__dirname, "..", "..");
/** Tight for four stacks: each alone would send faster than this. */
const LIMIT = { burst: 10, perSecond: 5 };
const DISKS = 6;
/** Four stacks' VPCs within the workspace's default quota of 10. */
const VPCS = 2;

/** A stack's Disks and Vpcs, named and ranged by its index so stacks can share the workspace. */
function declarations(stack: number): Declaration[] {
  const disks = Array.from({ length: DISKS }, (_, i) => ({
    type: "Disk",
    name: `disk-${i}`,
    args: { name: `s${stack}-disk-${i}`, size: 1024 ** 3, backend: "LOCAL", region: "NA_01" },
  }));
  const vpcs = Array.from({ length: VPCS }, (_, i) => ({
    type: "Vpc",
    name: `vpc-${i}`,
    args: { name: `s${stack}-vpc-${i}`, description: "rate-limit e2e", range: `10.${stack}.${i}.0/24` },
  }));
  return [...disks, ...vpcs];
}

/** The same kinds as a Pulumi YAML program through the plugin (YAML has no loops: written out). */
function yamlProject(stack: number): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "svc-e2e-ratelimit-yaml-"));
  const resources = declarations(stack).flatMap((d) => [
    `  ${d.name}:`,
    `    type: svc:index:${d.type}`,
    `    properties: ${JSON.stringify(d.args)}`,
  ]);
  const program = [
    "name: ratelimit-yaml",
    "runtime: yaml",
    "plugins:",
    "  providers:",
    "    - name: svc",
    `      path: ${path.join(REPO, "bin")}`,
  ];
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), [...program, "resources:", ...resources, ""].join("\n"));
  return dir;
}

const TABLE_OF: Record<string, string> = { Disk: "disks", Vpc: "vpcs" };
const kindOf = (r: StateResource) => r.type.split(":").pop()!;

describe("four stacks at once on one token under a tight rate limit", () => {
  let emu: TestEmulator;
  let stacks: E2E[] = [];
  let yamlDir: string;
  let paceDir: string;

  beforeAll(async () => {
    emu = await startTestEmulator({ workflowMs: 1000, seed: 1717 });
    yamlDir = yamlProject(3);
    paceDir = fs.mkdtempSync(path.join(os.tmpdir(), "svc-e2e-pace-"));
    // One machine: the four stacks' provider processes share what they learn of the limit.
    const env = { SVC_PACE_DIR: paceDir };
    stacks = await Promise.all([
      ...[0, 1, 2].map((i) => startE2E(`ratelimit-${i}`, { emulator: emu, env })),
      startE2E("ratelimit-yaml", { emulator: emu, programDir: yamlDir, env }),
    ]);
    const set = await emu.control.post("/_emulator/settings", { rateLimits: { general: LIMIT } });
    expect(set.status).toBe(200);
  });

  afterAll(async () => {
    await emu?.control.post("/_emulator/settings", { rateLimits: { general: { burst: 2000, perSecond: 1000 } } });
    for (const e2e of stacks) await e2e.stop();
    await emu?.stop();
    if (yamlDir) fs.rmSync(yamlDir, { recursive: true, force: true });
    if (paceDir) fs.rmSync(paceDir, { recursive: true, force: true });
  });

  it("all four ups succeed, and each stack's state equals its share of the inventory", async () => {
    const since = await stacks[0].lastSeq();
    const results = await Promise.allSettled(
      // The YAML program declares its own resources.
      stacks.map((e2e, i) => e2e.up(i < 3 ? declarations(i) : [])),
    );
    expect(results.map((r) => (r.status === "fulfilled" ? "ok" : String(r.reason).slice(-2000)))).toEqual(["ok", "ok", "ok", "ok"]);

    // The limit really bit: the API refused requests while the stacks ran.
    const refused = (await stacks[0].requests(since)).filter((r) => r.status === 429).length;
    expect(refused).toBeGreaterThan(0);
    // And both faces' processes learned it in one place: one pace, cut from a 429, no lock left.
    const files = fs.readdirSync(paceDir);
    expect(files).toEqual([expect.stringMatching(/^[0-9a-f]{32}\.json$/)]);
    const shared = JSON.parse(fs.readFileSync(path.join(paceDir, files[0]), "utf8"));
    expect(shared.state).toMatchObject({ rate: expect.any(Number), cutAt: expect.any(Number) });

    const inventory = (await stacks[0].inventoryTotal()).resources as Record<string, Array<{ id: string; name?: string }>>;
    const states = await Promise.all(stacks.map((e2e) => e2e.state()));
    for (const [kind, table] of Object.entries(TABLE_OF)) {
      const recorded = states.flatMap((state) => state.filter((r) => kindOf(r) === kind).map((r) => String(r.id)));
      const live = (inventory[table] ?? []).map((row) => String(row.id));
      expect({ kind, ids: [...live].sort() }).toEqual({ kind, ids: [...recorded].sort() });
    }
    for (const state of states)
      expect(Object.fromEntries(Object.keys(TABLE_OF).map((k) => [k, state.filter((r) => kindOf(r) === k).length]))).toEqual({
        Disk: DISKS,
        Vpc: VPCS,
      });
  });

  it("shows no line per refused request, and says what waiting on the limit cost", async () => {
    const output = stacks.map((e2e) => e2e.output()).join("\n");
    expect(output).not.toMatch(/answered 429; retrying/);
    expect(output).toMatch(/svc: API requests: \d+ sent, \d+ answered 429 \(\d+\.\d%\), \S+ waiting on the API's rate limit/);
  });

  it("destroys all four at once under the same limit, leaving the inventory empty", async () => {
    const results = await Promise.allSettled(stacks.map((e2e) => e2e.destroy()));
    expect(results.map((r) => (r.status === "fulfilled" ? "ok" : String(r.reason).slice(-2000)))).toEqual(["ok", "ok", "ok", "ok"]);
    for (const e2e of stacks) expect(await e2e.state()).toEqual([]);
    const inventory = await stacks[0].inventoryTotal();
    expect(Object.entries(inventory.resources).filter(([, rows]) => rows.length > 0)).toEqual([]);
  });
});

describe("svc:maxRequestsPerSecond, the cap for people who know their limit", () => {
  let dynamic: E2E;
  let plugin: E2E;
  let yamlDir: string;
  beforeAll(async () => {
    yamlDir = yamlProject(0);
    [dynamic, plugin] = await Promise.all([startE2E("cap-dynamic"), startE2E("cap-yaml", { programDir: yamlDir })]);
  });
  afterAll(async () => {
    await dynamic?.stop();
    await plugin?.stop();
    if (yamlDir) fs.rmSync(yamlDir, { recursive: true, force: true });
  });

  it("is refused at preview when it is not a positive number, on both faces, before any API call", async () => {
    for (const e2e of [dynamic, plugin]) {
      await e2e.stack.setConfig("svc:maxRequestsPerSecond", { value: "0" });
      const since = await e2e.lastSeq();
      await expect(e2e.preview(e2e === dynamic ? declarations(0) : undefined)).rejects.toThrow(
        /svc:maxRequestsPerSecond "0" is not a positive number of requests per second/,
      );
      expect(await e2e.requests(since)).toEqual([]);
    }
  });

  it("spaces a stack's requests at the cap: none refused, and the wait summed up in one line", async () => {
    await dynamic.stack.setConfig("svc:maxRequestsPerSecond", { value: "4" });
    const since = await dynamic.lastSeq();
    await dynamic.up(declarations(0));
    const requests = (await dynamic.requests(since)).filter((r) => r.path.startsWith("/v1/"));
    expect(requests.filter((r) => r.status === 429)).toEqual([]);
    expect(await dynamic.state()).toHaveLength(DISKS + VPCS);
    // Twelve resources at 4 requests/s: the provider said it waited, once per process.
    expect(dynamic.output()).toMatch(/svc: API requests: \d+ sent, 0 answered 429 \(0\.0%\), \S+ waiting on the API's rate limit/);
  });
});
