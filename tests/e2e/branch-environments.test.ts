/**
 * Branch environments through the real pulumi engine: two stacks of one program that names
 * nothing (a VPC, a disk, a K3sSecret and an App), side by side in one workspace, as pipelines
 * make them, one per branch. One stack declares the program on the dynamic face, the other on the
 * plugin, so each face proves what only the engine shows (docs/guides/how-resources-behave.md, Names):
 * - `pulumi:autonaming` through the CLI: the stack's pattern `${stack}-${name}` previews exactly
 *   those names, a type's mode `verbatim` its logical name, and `disabled` fails at preview naming
 *   `name` (a type's pattern with a random part is conformance.ts's);
 * - the default: each name is its logical name and a suffix, different in the two stacks, kept
 *   (a second preview is clean);
 * - `pulumi up --replace` of the K3sSecret, and the App moved to another instance, each create
 *   before the delete of the old object (unique names, yet no gap: the replacement is named anew);
 * - destroying one stack leaves the other whole.
 * What check and diff decide, per kind, is tests/inprocess/autonaming.test.ts and the kinds' files.
 */
import { startE2E, type Declaration, type E2E, type Face } from "./harness";

jest.setTimeout(600_000);

const FACES: Face[] = ["dynamic", "plugin"];

describe("branch environments: two stacks of one unnamed program in one workspace", () => {
  const stacks = {} as Record<Face, E2E>;
  /** Two running instances per stack, made through the API: the App's first and second host. */
  const hosts = {} as Record<Face, [string, string]>;
  let wid: string;

  beforeAll(async () => {
    stacks.dynamic = await startE2E("branch-dynamic", { face: "dynamic" });
    stacks.plugin = await startE2E("branch-plugin", { face: "plugin", emulator: stacks.dynamic.emu });
    const { api } = stacks.dynamic.emu;
    wid = stacks.dynamic.emu.workspaceId;
    const plans = (await api.get("/v1/plans", { name: "lightning-2" })).body.items as Array<{ id: string; name: string }>;
    const plan = BigInt(plans.find((p) => p.name === "lightning-2")!.id);
    const made = await Promise.all(
      ["d1", "d2", "p1", "p2"].map((name) => api.post(`/v1/workspaces/${wid}/instances`, { type: "PLAN", name, region: "NA_01", plan })),
    );
    const ids = made.map((res) => String(res.body.resource.id));
    hosts.dynamic = [ids[0], ids[1]];
    hosts.plugin = [ids[2], ids[3]];
    // The K3sSecrets live in the workspace's cluster.
    const cluster = await api.post(`/v1/workspaces/${wid}/k3s`, {});
    await stacks.dynamic.emu.waitWorkflow(cluster.body.id ?? cluster.body.workflow?.id);
    await Promise.all(
      ids.map((id) =>
        stacks.dynamic.emu.waitFor(
          `/v1/instances/${id}`,
          (b: { state: string; online: boolean }) => b.state === "AVAILABLE" && b.online,
          10_000,
        ),
      ),
    );
  });
  afterAll(async () => {
    await stacks.plugin?.stop();
    await stacks.dynamic?.stop();
  });

  /** The program: nothing named. The App's host is the stack's first or second instance. */
  const program = (face: Face, host = 0): Declaration[] => [
    { type: "Vpc", name: "network", args: { description: "branch", range: "10.50.0.0/16" } },
    { type: "Disk", name: "volume", args: { size: 10, backend: "LOCAL", region: "NA_01" } },
    { type: "K3sSecret", name: "creds", args: { data: { TOKEN: "branch-token" } } },
    { type: "App", name: "webapp", args: { instanceId: hosts[face][host], image: "nginx:1.27" } },
  ];
  const both = <T>(run: (face: Face, e2e: E2E) => Promise<T>) => Promise.all(FACES.map((face) => run(face, stacks[face])));
  /** Each resource's name as recorded, by its logical name. */
  const namesOf = async (e2e: E2E) =>
    Object.fromEntries((await e2e.state()).map((r) => [r.urn.split("::").pop()!, r.outputs.name as string]));

  it("pulumi:autonaming through the CLI: a stack's pattern previews exactly its names, a type's verbatim its logical name, disabled fails at preview naming name", async () => {
    await both(async (face, e2e) => {
      // One preview for two settings: the stack's pattern, and the Disk's own mode over it.
      await e2e.stack.setAllConfig(
        {
          "pulumi:autonaming.pattern": { value: "${stack}-${name}" },
          [`pulumi:autonaming.providers.svc.resources["svc:index:Disk"].mode`]: { value: "verbatim" },
        },
        true,
      );
      const named = await e2e.preview(program(face));
      for (const name of ["e2e-network", "volume", "e2e-creds", "e2e-webapp"])
        expect(named.stdout).toMatch(new RegExp(`\n +name +: "${name}"\n`));
      await e2e.stack.removeConfig("pulumi:autonaming", true);
      await e2e.stack.setConfig("pulumi:autonaming.mode", { value: "disabled" }, true);
      const refused = await e2e.preview(program(face)).then(
        () => "",
        (err: Error) => err.message,
      );
      expect(refused).toMatch(/no name declared, and pulumi:autonaming's mode "disabled" makes none: declare name/);
      await e2e.stack.removeConfig("pulumi:autonaming", true);
    });
  });

  it("by default each stack names each resource from its logical name, the two stacks differently, and a second preview is clean", async () => {
    await both((face, e2e) => e2e.up(program(face)));
    const [dynamic, plugin] = await Promise.all(FACES.map((face) => namesOf(stacks[face])));
    for (const names of [dynamic, plugin])
      expect(Object.entries(names).map(([logical, name]) => [logical, name.replace(/-[0-9a-f]{7}$/, "-*")])).toEqual(
        expect.arrayContaining(["network", "volume", "creds", "webapp"].map((logical) => [logical, `${logical}-*`])),
      );
    for (const logical of ["network", "volume", "creds", "webapp"]) expect(dynamic[logical]).not.toBe(plugin[logical]);
    await both((face, e2e) => e2e.preview(program(face), { expectNoChanges: true }));
  });

  it("pulumi up --replace of the K3sSecret and the App moved to another instance each create the new object before deleting the old", async () => {
    const before = await Promise.all(
      FACES.map(async (face) => ({ names: await namesOf(stacks[face]), state: await stacks[face].state() })),
    );
    const since = await stacks.dynamic.lastSeq();
    await both(async (face, e2e) => e2e.up(program(face, 1), { replace: [(await e2e.resource("creds")).urn] }));
    const requests = await stacks.dynamic.requests(since);
    const created = (name: string) => requests.findIndex((r) => r.method === "POST" && JSON.stringify(r.body ?? {}).includes(`"${name}"`));
    const deleted = (path: string) => requests.findIndex((r) => r.method === "DELETE" && r.path === path && r.status < 300);
    for (const [i, face] of FACES.entries()) {
      const names = await namesOf(stacks[face]);
      const old = Object.fromEntries(before[i].state.map((r) => [r.urn.split("::").pop()!, r.id!]));
      const order = {
        face,
        renamed: [names.creds !== before[i].names.creds, names.webapp !== before[i].names.webapp],
        secret: [created(names.creds), deleted(`/v1/workspaces/${wid}/k3s/secrets/${old.creds}`)],
        app: [created(names.webapp), deleted(`/v1/apps/${old.webapp}`)],
      };
      // Each new object's POST (its new name in the body) before the old one's DELETE.
      expect(order).toEqual({ face, renamed: [true, true], secret: ascending(order.secret), app: ascending(order.app) });
    }
    await both(async (_face, e2e) => expectEachRecordedExists(e2e));
  });

  it("destroying one stack leaves the other whole", async () => {
    const kept = await stacks.plugin.state();
    const gone = await stacks.dynamic.state();
    await stacks.dynamic.destroy();
    expect(await stacks.dynamic.state()).toEqual([]);
    for (const r of gone) expect({ urn: r.urn, status: await statusOf(stacks.plugin, r) }).toEqual({ urn: r.urn, status: 404 });
    await expectEachRecordedExists(stacks.plugin);
    expect((await stacks.plugin.state()).map((r) => r.id)).toEqual(kept.map((r) => r.id));
  });

  /** Two request positions, both found, the first before the second (else returned as they are, to fail). */
  const ascending = ([a, b]: number[]) => (a >= 0 && a < b ? [a, b] : [NaN, NaN]);

  /** Where the API answers one recorded object: 200 while it exists, 404 once gone. */
  async function statusOf(e2e: E2E, r: { type: string; id?: string }): Promise<number> {
    const kind = r.type.split(":").pop()!;
    if (kind === "K3sSecret") {
      const listed = (await e2e.emu.api.get(`/v1/workspaces/${wid}/k3s/secrets`, { limit: 100 })).body.items as Array<{ id: unknown }>;
      return listed.some((s) => String(s.id) === r.id) ? 200 : 404;
    }
    const path = { Vpc: "/v1/vpcs", Disk: "/v1/disks", App: "/v1/apps" }[kind];
    return (await e2e.emu.api.get(`${path}/${r.id}`)).status;
  }

  /** The stack's state against the API where two stacks share the workspace: each recorded object exists. */
  async function expectEachRecordedExists(e2e: E2E): Promise<void> {
    const state = await e2e.state();
    expect(state).toHaveLength(4);
    for (const r of state) expect({ urn: r.urn, status: await statusOf(e2e, r) }).toEqual({ urn: r.urn, status: 200 });
  }
});
