/**
 * Explicit providers on the default (dynamic) face, through the real engine: one TypeScript
 * program puts a Vpc and a Disk in each of two workspaces, the first through the stack's `svc:*`
 * config (the default provider), the second through an `svc.Provider` with a workspace token of
 * its own; a lookup given the same provider reads the second workspace. The second token is never
 * in plaintext, a changed provider setting previews as the plugin face's `pulumi:providers:svc`
 * does (the provider updated, its resources untouched), and destroy empties both workspaces.
 */
import { changes, startE2E, type Declaration, type E2E } from "./harness";

jest.setTimeout(600_000);

const GiB = 1024 ** 3;
const DAY_MS = 86_400_000;

describe("svc.Provider: two workspaces and two tokens from one program on the dynamic face", () => {
  let e2e: E2E;
  let second: { workspaceId: string; token: string };

  beforeAll(async () => {
    e2e = await startE2E("explicit-provider");
    const workspaceId = String((await e2e.emu.api.post("/v1/workspaces", { name: "second-team" })).body.id);
    const now = Date.parse((await e2e.emu.control.get("/_emulator/clock")).body.now);
    const token = await e2e.emu.api.post(`/v1/workspaces/${workspaceId}/tokens`, {
      name: "second-team-deploy",
      expires: new Date(now + 30 * DAY_MS).toISOString(),
      grants: { WORKSPACE: "WRITE", INSTANCE: "WRITE", DISK: "WRITE" },
    });
    expect(token.status).toBe(201);
    second = { workspaceId, token: token.body.code };
  });
  afterAll(async () => {
    await e2e?.stop();
  });

  /** "<workspace> <table>" to the ids there, sorted: what the emulator holds, and what the state records. */
  const inventoryByWorkspace = async () => {
    const { resources } = await e2e.inventoryTotal();
    const rows = ["vpcs", "disks"].flatMap((table) =>
      (resources[table] as Array<{ id: string; workspaceId: string }>).map((r) => [`${r.workspaceId} ${table}`, String(r.id)]),
    );
    return grouped(rows);
  };
  const stateByWorkspace = async () =>
    grouped((await e2e.state()).map((r) => [`${r.outputs.workspaceId} ${r.type.endsWith(":Vpc") ? "vpcs" : "disks"}`, r.id!]));
  const grouped = (rows: string[][]) => {
    const out: Record<string, string[]> = {};
    for (const [key, id] of rows) (out[key] ??= []).push(id);
    for (const ids of Object.values(out)) ids.sort();
    return out;
  };

  /** The program: a Vpc and a Disk per workspace, and a lookup through the second provider. */
  const program = (settings: Record<string, unknown> = {}): Declaration[] => [
    // The token passed plain: svc.Provider makes it a secret itself.
    {
      type: "Provider",
      name: "second",
      args: { baseUrl: e2e.emu.emu.url, token: second.token, workspaceId: second.workspaceId, ...settings },
    },
    ...["a", "b"].flatMap((side): Declaration[] => {
      const opts = side === "b" ? { provider: "second" } : undefined;
      return [
        { type: "Vpc", name: `net-${side}`, args: { name: `net-${side}`, description: side, range: "10.5.0.0/16" }, opts },
        { type: "Disk", name: `disk-${side}`, args: { name: `disk-${side}`, size: 10 * GiB, backend: "LOCAL", region: "NA_01" }, opts },
      ];
    }),
    { lookup: "getWorkspaceTopology", name: "topologyB", opts: { provider: "second" } },
  ];

  it("creates each side in its own workspace with its own token, then previews no change", async () => {
    const result = await e2e.up(program());
    expect(changes(result)).toEqual({ create: 6 }); // the stack, the provider, two VPCs, two disks
    for (const [side, workspaceId] of [
      ["a", e2e.emu.workspaceId],
      ["b", second.workspaceId],
    ]) {
      for (const [name, path] of [
        [`net-${side}`, "vpcs"],
        [`disk-${side}`, "disks"],
      ]) {
        const api = (await e2e.emu.api.get(`/v1/${path}/${await e2e.idOf(name)}`)).body;
        expect({ name, workspace: String(api.workspace.id), recorded: (await e2e.outputsOf(name)).workspaceId }).toEqual({
          name,
          workspace: workspaceId,
          recorded: workspaceId,
        });
      }
    }
    expect(await inventoryByWorkspace()).toEqual(await stateByWorkspace());

    const preview = await e2e.preview(program());
    expect(preview.changeSummary).toEqual({ same: 6 });
  });

  it("keeps the second token out of the exported state and out of everything the CLI printed", async () => {
    const exported = await e2e.cli(["stack", "export"]);
    const provider = (
      JSON.parse(exported).deployment.resources as Array<{ type: string; urn: string; inputs: Record<string, unknown> }>
    ).find((r) => r.urn.endsWith("::second"))!;
    expect(provider.type).toBe("pulumi:providers:pulumi-nodejs");
    expect(provider.inputs).toMatchObject({
      baseUrl: e2e.emu.emu.url,
      workspaceId: second.workspaceId,
      token: { ciphertext: expect.any(String) },
    });
    expect(exported).not.toContain(second.token);
    expect(await e2e.rawState()).not.toContain(second.token);
    expect(e2e.output()).not.toContain(second.token);
  });

  it("previews a changed provider setting as an update of the provider alone, as the plugin face does; up applies it in place", async () => {
    const ids = await Promise.all(["net-b", "disk-b"].map(e2e.idOf));
    const changed = program({ maxRequestsPerSecond: 20 });
    const preview = await e2e.preview(changed);
    expect(preview.changeSummary).toEqual({ update: 1, same: 5 });
    expect(preview.stdout).toMatch(/~ pulumi:providers:pulumi-nodejs: \(update\)\n.*\n.*::second\]\n[^]*?\+ maxRequestsPerSecond: 20\n/);
    const result = await e2e.up(changed);
    expect(changes(result)).toEqual({ update: 1, same: 5 });
    expect(await Promise.all(["net-b", "disk-b"].map(e2e.idOf))).toEqual(ids);
    // The lookup ran after the VPCs existed this time: the second workspace's topology, its one VPC.
    const topology = (await e2e.outputs()).topologyB.value as { vpcs: Array<{ id: string }> };
    expect(topology.vpcs.map((v) => String(v.id))).toEqual([ids[0]]);
  });

  it("fails the preview of a provider without a token, saying what to set, before any API call", async () => {
    const since = await e2e.lastSeq();
    const lacking: Declaration[] = [
      ...program(),
      { type: "Provider", name: "third", args: { baseUrl: e2e.emu.emu.url, workspaceId: second.workspaceId } },
      { type: "Vpc", name: "net-c", args: { name: "net-c", description: "c", range: "10.6.0.0/16" }, opts: { provider: "third" } },
    ];
    await expect(e2e.preview(lacking)).rejects.toThrow(
      /Vpc resource 'net-c' has a problem: no API token: set the svc.Provider's token or SVC_TOKEN/,
    );
    expect(await e2e.mutations(since)).toEqual([]);
  });

  it("destroys both sides: neither workspace keeps anything", async () => {
    await e2e.destroy();
    expect(await e2e.state()).toEqual([]);
    // The second workspace and its token were made by the test, not the program: they stay.
    const { resources } = await e2e.inventoryTotal();
    expect({ vpcs: resources.vpcs, disks: resources.disks }).toEqual({ vpcs: [], disks: [] });
  });
});
