/**
 * Part 3 VPCs and VPC memberships against the emulator over real HTTP.
 */
import { fireHook } from "../src/core/hooks";
import { DEFAULT_QUOTA } from "../src/model";
import { useTestEmulator, type TestEmulator } from "../src/testing";
import { collectAfter, makeInstance, makeUser, makeWorkspace } from "./network";

let t: TestEmulator;
let vpcsPath: string;

useTestEmulator((started) => {
  t = started;
  vpcsPath = `/v1/workspaces/${t.workspaceId}/vpcs`;
});

const newVpc = (over: Record<string, unknown> = {}) => ({
  name: "backend",
  description: "private backend network",
  range: "10.1.2.3/16",
  ...over,
});

async function createVpc(over: Record<string, unknown> = {}) {
  const res = await t.api.post(vpcsPath, newVpc(over));
  expect(res.status).toBe(201);
  return res.body as { id: string; name: string; range: string; vlan: number };
}

async function attach(iid: string, vpcId: string) {
  return t.api.post(`/v1/instances/${iid}/vpcs`, undefined, { rawBody: `{"vpc":${vpcId}}` });
}

describe("VPCs", () => {
  it("creates a VPC with its range normalised to the network address and a VLAN tag", async () => {
    const res = await t.api.post(vpcsPath, newVpc());
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      name: "backend",
      description: "private backend network",
      range: "10.1.0.0/16",
      vlan: 100,
      workspace: { id: t.workspaceId, name: "demo-workspace" },
      created: expect.any(String),
    });
    expect((await t.api.get(`/v1/vpcs/${res.body.id}`)).body).toEqual(res.body);
  });

  it("gives each VPC of a workspace its own VLAN tag, reusing freed ones", async () => {
    const a = await createVpc({ name: "vpc-a" });
    const b = await createVpc({ name: "vpc-b", range: "192.168.10.0/24" });
    expect([a.vlan, b.vlan]).toEqual([100, 101]);
    expect((await t.api.delete(`/v1/vpcs/${a.id}`)).status).toBe(200);
    expect((await createVpc({ name: "vpc-c", range: "172.16.5.0/24" })).vlan).toBe(100);
  });

  it.each([
    ["a name of 3 characters", { name: "abc" }, "name"],
    ["a name of 33 characters", { name: "n".repeat(33) }, "name"],
    ["no description", { description: undefined }, "description"],
    ["a description of 241 characters", { description: "d".repeat(241) }, "description"],
    ["no range", { range: undefined }, "range"],
    ["a public range", { range: "8.8.8.0/24" }, "range"],
    ["a range wider than RFC 1918", { range: "10.0.0.0/7" }, "range"],
    ["a range just outside 172.16.0.0/12", { range: "172.32.0.0/16" }, "range"],
    ["a bare address", { range: "10.0.0.1" }, "range"],
    ["an IPv6 range", { range: "fd00::/8" }, "range"],
    ["garbage", { range: "private please" }, "range"],
  ])("refuses %s with 400", async (_label, over, field) => {
    const res = await t.api.post(vpcsPath, newVpc(over));
    expect(res.status).toBe(400);
    expect(res.message).toContain(field);
  });

  it("caps the number of VPCs at the workspace quota max_vpcs", async () => {
    await t.control.patch(`/_emulator/tables/workspaces/${t.workspaceId}`, { quota: { ...DEFAULT_QUOTA, max_vpcs: 1 } });
    await createVpc();
    const res = await t.api.post(vpcsPath, newVpc({ name: "second" }));
    expect(res.status).toBe(400);
    expect(res.message).toContain("max_vpcs");
  });

  it("lists with q, id, name and description filters", async () => {
    const a = await createVpc({ name: "alpha-net", description: "frontend tier" });
    const b = await createVpc({ name: "bravo-net", description: "database tier" });
    const c = await createVpc({ name: "charlie", description: "frontend cache" });
    const ids = async (query: Record<string, string | string[]>) =>
      (await t.api.get(vpcsPath, query)).body.items.map((v: { id: string }) => v.id);
    expect(await ids({})).toEqual([a.id, b.id, c.id].sort((x, y) => (BigInt(x) < BigInt(y) ? -1 : 1)));
    expect(await ids({ name: "-NET" })).toEqual(expect.arrayContaining([a.id, b.id]));
    expect(await ids({ name: "-NET" })).toHaveLength(2);
    expect(await ids({ description: "frontend" })).toHaveLength(2);
    expect(await ids({ q: "database" })).toEqual([b.id]);
    expect(await ids({ q: c.id })).toEqual([c.id]);
    expect(await ids({ id: [a.id, c.id], description: "cache" })).toEqual([c.id]);
  });

  it("pages by number and by keyset cursors", async () => {
    for (let i = 0; i < 5; i++) await createVpc({ name: `net-${i}xx` });
    const all = (await t.api.get(vpcsPath, { sort: "name" })).body.items.map((v: { name: string }) => v.name);
    expect(all).toEqual(["net-0xx", "net-1xx", "net-2xx", "net-3xx", "net-4xx"]);
    const page2 = await t.api.get(vpcsPath, { sort: "name", limit: 2, page: 2 });
    expect(page2.body.items.map((v: { name: string }) => v.name)).toEqual(["net-2xx", "net-3xx"]);
    const walked = await collectAfter<{ name: string }>(t.api, vpcsPath, { sort: "name", limit: 2 });
    expect(walked.map((v) => v.name)).toEqual(all);
    const back = await t.api.get(vpcsPath, { sort: "name", limit: 2, before: page2.body.before });
    expect(back.body.items.map((v: { name: string }) => v.name)).toEqual(["net-0xx", "net-1xx"]);
    expect(back.body.hasPrevious).toBe(false);
  });

  it("updates name and description with PATCH and validates them", async () => {
    const vpc = await createVpc();
    const res = await t.api.patch(`/v1/vpcs/${vpc.id}`, { name: "renamed", description: "" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: vpc.id, name: "renamed", description: "", range: "10.1.0.0/16" });
    expect((await t.api.patch(`/v1/vpcs/${vpc.id}`, { name: "no" })).status).toBe(400);
    expect((await t.api.patch(`/v1/vpcs/${vpc.id}`, { description: "x".repeat(241) })).status).toBe(400);
    expect((await t.api.get(`/v1/vpcs/${vpc.id}`)).body.name).toBe("renamed");
  });

  it("deletes with an audit entry, and answers 404 afterwards", async () => {
    const vpc = await createVpc();
    const res = await t.api.delete(`/v1/vpcs/${vpc.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      action: "vpc.delete",
      target: { kind: "VPC", id: vpc.id },
      actor: { id: t.emu.userId },
      workspace_id: t.workspaceId,
    });
    expect((await t.api.get(`/v1/vpcs/${vpc.id}`)).status).toBe(404);
    expect((await t.api.delete(`/v1/vpcs/${vpc.id}`)).status).toBe(404);
  });
});

describe("memberships", () => {
  it("attaches with 201 and an audit entry, allocating addresses from the range", async () => {
    const vpc = await createVpc();
    const a = makeInstance(t, { name: "app-1" });
    const b = makeInstance(t, { name: "app-2" });
    const res = await attach(a.id, vpc.id);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ action: "vpc.attach", target: { kind: "INSTANCE", id: a.id } });
    expect((await attach(b.id, vpc.id)).status).toBe(201);
    const members = await t.api.get(`/v1/vpcs/${vpc.id}/instances`, { sort: "ip" });
    expect(members.body.items).toEqual([
      { id: a.id, name: "app-1", ip: "10.1.0.2", vpc: { id: vpc.id, name: "backend" } },
      { id: b.id, name: "app-2", ip: "10.1.0.3", vpc: { id: vpc.id, name: "backend" } },
    ]);
    const fromInstance = await t.api.get(`/v1/instances/${a.id}/vpcs`);
    expect(fromInstance.body.items).toEqual([{ id: a.id, name: "app-1", ip: "10.1.0.2", vpc: { id: vpc.id, name: "backend" } }]);
  });

  it("filters memberships with q (instance name, private IP or instance ID)", async () => {
    const vpc = await createVpc();
    const a = makeInstance(t, { name: "web-frontend" });
    const b = makeInstance(t, { name: "db-primary" });
    await attach(a.id, vpc.id);
    await attach(b.id, vpc.id);
    const q = async (value: string) =>
      (await t.api.get(`/v1/vpcs/${vpc.id}/instances`, { q: value })).body.items.map((m: { id: string }) => m.id);
    expect(await q("front")).toEqual([a.id]);
    expect(await q("10.1.0.3")).toEqual([b.id]);
    expect(await q(b.id)).toEqual([b.id]);
    const other = await createVpc({ name: "second", range: "192.168.0.0/24" });
    await attach(a.id, other.id);
    const viaInstance = await t.api.get(`/v1/instances/${a.id}/vpcs`, { q: "192.168" });
    expect(viaInstance.body.items.map((m: { vpc: { id: string } }) => m.vpc.id)).toEqual([other.id]);
  });

  it("pages membership lists by keyset", async () => {
    const vpc = await createVpc();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const vm = makeInstance(t);
      ids.push(vm.id);
      await attach(vm.id, vpc.id);
    }
    const walked = await collectAfter<{ id: string }>(t.api, `/v1/vpcs/${vpc.id}/instances`, { limit: 2 });
    expect(walked.map((m) => m.id).sort()).toEqual([...ids].sort());
    const p3 = await t.api.get(`/v1/vpcs/${vpc.id}/instances`, { limit: 2, page: 3 });
    expect(p3.body.items).toHaveLength(1);
    expect(p3.body).toMatchObject({ hasNext: false, hasPrevious: true });
  });

  it("answers 409 for an instance already attached and when the range is full", async () => {
    const vpc = await createVpc({ range: "10.9.9.0/30" });
    const a = makeInstance(t);
    expect((await attach(a.id, vpc.id)).status).toBe(201);
    const again = await attach(a.id, vpc.id);
    expect(again.status).toBe(409);
    expect(again.message).toContain("already attached");
    const full = await attach(makeInstance(t).id, vpc.id);
    expect(full.status).toBe(409);
    expect(full.message).toContain("no free address");
  });

  it("refuses an attach body without a valid vpc (400) and an unknown VPC (404)", async () => {
    const vm = makeInstance(t);
    expect((await t.api.post(`/v1/instances/${vm.id}/vpcs`, {})).status).toBe(400);
    expect((await t.api.post(`/v1/instances/${vm.id}/vpcs`, { vpc: "12" })).status).toBe(400);
    expect((await attach(vm.id, "9007199254740993")).status).toBe(404);
    expect((await attach("9007199254740993", (await createVpc()).id)).status).toBe(404);
  });

  it("refuses a VPC of another workspace: 404 when invisible, 400 when the caller sees both", async () => {
    const { userId, api: both } = makeUser(t, { workspaceId: t.workspaceId, role: "OWNER" });
    const otherWs = makeWorkspace(t, userId);
    const theirVpc = (await both.post(`/v1/workspaces/${otherWs}/vpcs`, newVpc())).body.id;
    const mine = makeInstance(t);
    expect((await attach(mine.id, theirVpc)).status).toBe(404);
    const res = await both.post(`/v1/instances/${mine.id}/vpcs`, undefined, { rawBody: `{"vpc":${theirVpc}}` });
    expect(res.status).toBe(400);
    expect(res.message).toContain("vpc");
  });

  it("blocks VPC deletion with 400 while an instance is attached, and detaches with an audit entry", async () => {
    const vpc = await createVpc();
    const vm = makeInstance(t);
    await attach(vm.id, vpc.id);
    const blocked = await t.api.delete(`/v1/vpcs/${vpc.id}`);
    expect(blocked.status).toBe(400);
    expect(blocked.message).toContain("attached");
    const detach = await t.api.delete(`/v1/instances/${vm.id}/vpcs/${vpc.id}`);
    expect(detach.status).toBe(200);
    expect(detach.body).toMatchObject({ action: "vpc.detach", target: { kind: "INSTANCE", id: vm.id } });
    expect((await t.api.get(`/v1/vpcs/${vpc.id}/instances`)).body.items).toEqual([]);
    expect((await t.api.delete(`/v1/instances/${vm.id}/vpcs/${vpc.id}`)).status).toBe(404);
    expect((await t.api.delete(`/v1/vpcs/${vpc.id}`)).status).toBe(200);
  });

  it("frees a detached address for the next member", async () => {
    const vpc = await createVpc();
    const a = makeInstance(t);
    const b = makeInstance(t);
    await attach(a.id, vpc.id);
    await t.api.delete(`/v1/instances/${a.id}/vpcs/${vpc.id}`);
    await attach(b.id, vpc.id);
    expect((await t.api.get(`/v1/instances/${b.id}/vpcs`)).body.items[0].ip).toBe("10.1.0.2");
  });

  it("drops memberships of a deleted instance (idempotently) and shows them in the inventory", async () => {
    const vpc = await createVpc();
    const vm = makeInstance(t);
    await attach(vm.id, vpc.id);
    const inv = await t.control.get("/_emulator/inventory", { workspace: t.workspaceId });
    expect(inv.body.resources.vpcs).toEqual([{ id: vpc.id, name: "backend", workspaceId: t.workspaceId, state: null }]);
    expect(inv.body.resources.vpcMembers).toEqual([{ id: expect.any(String), name: "10.1.0.2", workspaceId: t.workspaceId, state: null }]);
    t.emu.services.store.t.instances.delete(vm.id);
    fireHook(t.emu.services, "instance.deleted", { instanceId: vm.id, workspaceId: t.workspaceId });
    fireHook(t.emu.services, "instance.deleted", { instanceId: vm.id, workspaceId: t.workspaceId });
    expect((await t.api.get(`/v1/vpcs/${vpc.id}/instances`)).body.items).toEqual([]);
    expect((await t.api.delete(`/v1/vpcs/${vpc.id}`)).status).toBe(200);
  });

  it("places a membership made in an instance's create body in its workspace's inventory, as an attach does", async () => {
    const vpc = await createVpc();
    const plan = (await t.api.get("/v1/plans", { name: "lightning-1" })).body.items[0];
    const created = await t.api.post(`/v1/workspaces/${t.workspaceId}/instances`, {
      type: "PLAN",
      name: "joined-at-birth",
      region: "NA_01",
      plan: BigInt(plan.id),
      ips: [],
      vpcs: [BigInt(vpc.id)],
    });
    expect(created.status).toBe(202);
    const inv = await t.control.get("/_emulator/inventory", { workspace: t.workspaceId });
    expect(inv.body.resources.vpcMembers).toEqual([{ id: expect.any(String), name: "10.1.0.2", workspaceId: t.workspaceId, state: null }]);
  });
});

describe("access", () => {
  it("answers 403 without a token", async () => {
    const res = await t.anon.get(vpcsPath);
    expect(res.status).toBe(403);
    expect(res.text).toBe("");
    expect((await t.anon.post(vpcsPath, newVpc())).status).toBe(403);
  });

  it("lets a VIEWER read but not change VPCs or memberships (403)", async () => {
    const vpc = await createVpc();
    const vm = makeInstance(t);
    const { api: viewer } = makeUser(t, { workspaceId: t.workspaceId, role: "VIEWER" });
    expect((await viewer.get(vpcsPath)).status).toBe(200);
    expect((await viewer.get(`/v1/vpcs/${vpc.id}`)).status).toBe(200);
    expect((await viewer.get(`/v1/vpcs/${vpc.id}/instances`)).status).toBe(200);
    expect((await viewer.get(`/v1/instances/${vm.id}/vpcs`)).status).toBe(200);
    for (const res of [
      await viewer.post(vpcsPath, newVpc()),
      await viewer.patch(`/v1/vpcs/${vpc.id}`, { name: "viewer-edit" }),
      await viewer.delete(`/v1/vpcs/${vpc.id}`),
      await viewer.post(`/v1/instances/${vm.id}/vpcs`, undefined, { rawBody: `{"vpc":${vpc.id}}` }),
    ]) {
      expect(res.status).toBe(403);
      expect(res.message).toContain("EDITOR");
    }
  });

  it("answers 404 for another workspace's VPCs", async () => {
    const { userId, api: stranger } = makeUser(t);
    const ws = makeWorkspace(t, userId);
    const theirs = (await stranger.post(`/v1/workspaces/${ws}/vpcs`, newVpc())).body.id;
    expect((await t.api.get(`/v1/workspaces/${ws}/vpcs`)).status).toBe(404);
    expect((await t.api.post(`/v1/workspaces/${ws}/vpcs`, newVpc())).status).toBe(404);
    expect((await t.api.get(`/v1/vpcs/${theirs}`)).status).toBe(404);
    expect((await t.api.patch(`/v1/vpcs/${theirs}`, { name: "mine-now" })).status).toBe(404);
    expect((await t.api.delete(`/v1/vpcs/${theirs}`)).status).toBe(404);
    expect((await t.api.get(`/v1/vpcs/${theirs}/instances`)).status).toBe(404);
  });

  it("round-trips identifiers above 2^53 exactly", async () => {
    const vpc = await createVpc();
    expect(BigInt(vpc.id)).toBeGreaterThan(2n ** 53n);
    const vm = makeInstance(t);
    expect((await attach(vm.id, vpc.id)).status).toBe(201);
    const list = await t.api.get(`/v1/instances/${vm.id}/vpcs`);
    expect(list.text).toContain(`"id":"${vm.id}"`);
    expect(list.body.items[0].vpc.id).toBe(vpc.id);
  });
});
