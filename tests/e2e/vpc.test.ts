/**
 * Vpc through the real pulumi engine: create, a clean preview, a refusal at preview, rename in place,
 * replace, refresh (drift and deletion), adoption by adoptId and recovery from a lost create answer.
 *
 * Kinds: Vpc (scripts/testsOf.js: this file is their end-to-end proof)
 */
import { startE2E, type E2E } from "./harness";

jest.setTimeout(600_000);

describe("Vpc through the real pulumi engine", () => {
  let e2e: E2E;
  beforeAll(async () => {
    e2e = await startE2E("vpc");
  });
  afterAll(async () => {
    await e2e?.stop();
  });

  const base = { name: "app-net", description: "app tier", range: "10.20.3.4/16" };
  const vpc = (args: Record<string, unknown> = {}, name = "net") => ({ type: "Vpc", name, args: { ...base, ...args } });
  const idOf = async (name = "net") => (await e2e.resource(name)).id!;

  it("creates a VPC with the range normalised and a VLAN tag", async () => {
    const result = await e2e.up([vpc()]);
    expect(result.summary.resourceChanges).toMatchObject({ create: 2 });
    const state = await e2e.resource("net");
    expect(state.outputs).toMatchObject({ name: "app-net", range: "10.20.0.0/16", workspaceId: e2e.emu.workspaceId });
    expect(typeof state.outputs.vlan).toBe("number");
    expect(BigInt(state.id!)).toBeGreaterThan(2n ** 53n);
    const api = await e2e.emu.api.get(`/v1/vpcs/${state.id}`);
    expect(api.body).toMatchObject({ id: state.id, name: "app-net", range: "10.20.0.0/16" });
  });

  it("previews no change and sends no mutating request", async () => {
    const since = await e2e.lastSeq();
    const preview = await e2e.preview([vpc()]);
    expect(preview.changeSummary).toEqual({ same: 2 });
    expect(await e2e.mutations(since)).toEqual([]);
  });

  it("rejects a public range at preview, naming the property and the rule, before any API call", async () => {
    const since = await e2e.lastSeq();
    await expect(e2e.preview([vpc({ range: "8.8.8.0/24" })])).rejects.toThrow(/range.*RFC 1918/s);
    expect(await e2e.requests(since)).toEqual([]);
  });

  it("renames in place (same id)", async () => {
    const before = await idOf();
    const result = await e2e.up([vpc({ name: "app-net-2", description: "renamed" })]);
    expect(result.summary.resourceChanges).toMatchObject({ update: 1 });
    expect(await idOf()).toBe(before);
    expect((await e2e.emu.api.get(`/v1/vpcs/${before}`)).body).toMatchObject({ name: "app-net-2", description: "renamed" });
  });

  it("replaces the VPC when its range changes (new id, old one gone)", async () => {
    const before = await idOf();
    const result = await e2e.up([vpc({ name: "app-net-2", description: "renamed", range: "192.168.7.0/24" })]);
    expect(result.summary.resourceChanges).toMatchObject({ replace: 1 });
    const after = await idOf();
    expect(after).not.toBe(before);
    expect((await e2e.emu.api.get(`/v1/vpcs/${before}`)).status).toBe(404);
    expect((await e2e.resource("net")).outputs.range).toBe("192.168.7.0/24");
  });

  it("refresh reads an out-of-band change, and the next up puts the declaration back", async () => {
    const id = await idOf();
    await e2e.emu.api.patch(`/v1/vpcs/${id}`, { name: "changed-by-hand" });
    await e2e.refresh();
    const refreshed = await e2e.resource("net");
    expect(refreshed.outputs.name).toBe("changed-by-hand");
    // read() answers the inputs as the API reports them (recorded since @pulumi/pulumi 3.216), so
    // the preview shows the drift property by property, as the plugin face does.
    expect(refreshed.inputs).toMatchObject({ name: "changed-by-hand", description: "renamed", range: "192.168.7.0/24" });
    const preview = await e2e.preview([vpc({ name: "app-net-2", description: "renamed", range: "192.168.7.0/24" })]);
    expect(preview.stdout).toMatch(/~ name\s*: "changed-by-hand" => "app-net-2"/);
    const result = await e2e.up([vpc({ name: "app-net-2", description: "renamed", range: "192.168.7.0/24" })]);
    expect(result.summary.resourceChanges).toMatchObject({ update: 1 });
    expect((await e2e.emu.api.get(`/v1/vpcs/${id}`)).body.name).toBe("app-net-2");
  });

  it("refresh drops a VPC deleted outside Pulumi, and the next up recreates it", async () => {
    const id = await idOf();
    expect((await e2e.emu.api.delete(`/v1/vpcs/${id}`)).status).toBe(200);
    await e2e.refresh();
    expect((await e2e.state()).map((r) => r.urn)).not.toContainEqual(expect.stringMatching(/::net$/));
    await e2e.up([vpc({ name: "app-net-2", description: "renamed", range: "192.168.7.0/24" })]);
    expect(await idOf()).not.toBe(id);
  });

  it("adopts an existing VPC by adoptId and converges it to the declaration", async () => {
    const existing = await e2e.emu.api.post(`/v1/workspaces/${e2e.emu.workspaceId}/vpcs`, {
      name: "legacy-net",
      description: "made by hand",
      range: "172.16.0.0/20",
    });
    expect(existing.status).toBe(201);
    const declared = {
      type: "Vpc",
      name: "legacy",
      args: { name: "legacy-net", description: "now managed", range: "172.16.0.0/20", adoptId: existing.body.id },
    };
    const since = await e2e.lastSeq();
    await e2e.up([vpc({ name: "app-net-2", description: "renamed", range: "192.168.7.0/24" }), declared]);
    expect(await idOf("legacy")).toBe(existing.body.id);
    expect((await e2e.emu.api.get(`/v1/vpcs/${existing.body.id}`)).body.description).toBe("now managed");
    expect((await e2e.mutations(since)).filter((r) => r.method === "POST")).toEqual([]);
  });

  it("refuses to adopt when a field that can only be set at creation differs", async () => {
    const existing = await e2e.emu.api.post(`/v1/workspaces/${e2e.emu.workspaceId}/vpcs`, {
      name: "other-net",
      description: "x",
      range: "172.20.0.0/16",
    });
    const message = await e2e.upFails([
      vpc({ name: "app-net-2", description: "renamed", range: "192.168.7.0/24" }),
      { type: "Vpc", name: "bad-adopt", args: { name: "other-net", description: "x", range: "172.21.0.0/16", adoptId: existing.body.id } },
    ]);
    expect(message).toMatch(/cannot adopt Vpc .*range/);
    await e2e.emu.api.delete(`/v1/vpcs/${existing.body.id}`);
  });

  it("recovers from a create whose answer was lost: one VPC, adopted, not duplicated", async () => {
    await e2e.emu.control.post("/_emulator/faults", { kind: "drop", method: "POST", path: "/v1/workspaces/*/vpcs", times: 1 });
    const since = await e2e.lastSeq();
    await e2e.up([
      vpc({ name: "app-net-2", description: "renamed", range: "192.168.7.0/24" }),
      { type: "Vpc", name: "dropped", args: { name: "dropped-net", description: "d", range: "10.99.0.0/16" } },
    ]);
    const posts = (await e2e.mutations(since)).filter((r) => r.method === "POST");
    expect(posts).toHaveLength(1);
    const list = await e2e.emu.api.get(`/v1/workspaces/${e2e.emu.workspaceId}/vpcs`, { name: "dropped-net" });
    expect(list.body.items).toHaveLength(1);
    expect(await idOf("dropped")).toBe(list.body.items[0].id);
  });

  it("destroy leaves the emulator's inventory without VPCs", async () => {
    await e2e.destroy();
    const inventory = await e2e.inventoryTotal();
    expect(inventory.resources.vpcs).toEqual([]);
  });
});
