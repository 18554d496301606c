/**
 * Part 3 network load balancers (/v1/net-lbs, and their Administrator mirrors) against the emulator.
 */
import { fireHook } from "../src/core/hooks";
import { useTestEmulator, type TestEmulator } from "../src/testing";
import { collectAfter, makeFloatingIp, makeInstance, makeUser, makeWorkspace } from "./network";

let t: TestEmulator;
let lbsPath: string;

useTestEmulator((started) => {
  t = started;
  lbsPath = `/v1/workspaces/${t.workspaceId}/net-lbs`;
});

/** Creates a balancer as staff; the owner goes out as a raw JSON integer (above 2^53). */
async function createLb(over: { name?: string; address?: string; owner?: string } = {}) {
  const { owner = t.workspaceId, ...rest } = over;
  const fields = JSON.stringify({ name: "edge", address: "203.0.113.10", ...rest });
  const res = await t.staff.post("/v1/net-lbs", undefined, { rawBody: `${fields.slice(0, -1)},"owner":${owner}}` });
  expect(res.status).toBe(201);
  return res.body as { id: string; name: string; address: string };
}

const lbPath = (bid: string) => `${lbsPath}/${bid}`;
const membersOf = async (bid: string, query: Record<string, string | number | boolean | string[]> = {}) =>
  (await t.api.get(`${lbPath(bid)}/instances`, query)).body.items.map((i: { id: string }) => i.id);
const waitMembers = (bid: string, done: (ids: string[]) => boolean) =>
  t.waitFor<{ items: Array<{ id: string }> }>(`${lbPath(bid)}/instances`, (b) => done(b.items.map((i) => i.id)));
const memberStates = async () =>
  ((await t.control.get("/_emulator/inventory", { workspace: t.workspaceId })).body.resources.netLbMembers as Array<{ state: string }>).map(
    (m) => m.state,
  );
const stuck = (method: string) => t.control.post("/_emulator/faults", { kind: "stuck", method, path: "/v1/**/net-lbs/*/instances/*" });

describe("balancers", () => {
  it("lets an Administrator create one (201, balancer detail) and answers 400 to a user-scoped token", async () => {
    const res = await t.staff.post("/v1/net-lbs", undefined, {
      rawBody: `{"name":"edge","address":"203.0.113.10","owner":${t.workspaceId}}`,
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      name: "edge",
      address: "203.0.113.10",
      owner: { id: t.workspaceId, name: "demo-workspace" },
      instances: [],
      created: expect.any(String),
    });
    const user = await t.api.post("/v1/net-lbs", { name: "edge", address: "203.0.113.10", owner: BigInt(t.workspaceId) });
    expect(user.status).toBe(400);
    expect(user.message).toContain("administrator");
    expect((await t.anon.post("/v1/net-lbs", {})).status).toBe(403);
  });

  it.each([
    ["no name", { address: "203.0.113.1", owner: 1 }, "name"],
    ["an empty name", { name: "", address: "203.0.113.1", owner: 1 }, "name"],
    ["no address", { name: "lb", owner: 1 }, "address"],
    ["an invalid address", { name: "lb", address: "300.1.1.1", owner: 1 }, "address"],
    ["no owner", { name: "lb", address: "203.0.113.1" }, "owner"],
    ["an owner sent as a string", { name: "lb", address: "203.0.113.1", owner: "1" }, "owner"],
  ])("refuses %s with 400", async (_label, body, field) => {
    const res = await t.staff.post("/v1/net-lbs", body);
    expect(res.status).toBe(400);
    expect(res.message).toContain(field);
  });

  it("answers 404 for an owner that is not a workspace", async () => {
    expect(
      (await t.staff.post("/v1/net-lbs", undefined, { rawBody: '{"name":"lb","address":"2001:db8::1","owner":9007199254740993}' })).status,
    ).toBe(404);
  });

  it("lists the workspace's balancers with q, id, name, address, owner and instances filters", async () => {
    const a = await createLb({ name: "edge-a", address: "203.0.113.10" });
    const b = await createLb({ name: "edge-b", address: "2001:db8::10" });
    const c = await createLb({ name: "internal", address: "198.51.100.7" });
    const vm = makeInstance(t);
    await t.api.put(`${lbPath(c.id)}/instances/${vm.id}`);
    await waitMembers(c.id, (ids) => ids.length === 1);
    const ids = async (query: Record<string, string | string[]>) =>
      (await t.api.get(lbsPath, query)).body.items.map((lb: { id: string }) => lb.id);
    const list = await t.api.get(lbsPath);
    expect(list.status).toBe(200);
    expect(list.body.items).toHaveLength(3);
    expect(list.body.items[0]).toEqual({
      id: expect.any(String),
      name: expect.any(String),
      address: expect.any(String),
      owner: { id: t.workspaceId, name: "demo-workspace" },
    });
    expect(await ids({ name: "edge" })).toHaveLength(2);
    expect(await ids({ address: "2001:db8" })).toEqual([b.id]);
    expect(await ids({ q: "internal" })).toEqual([c.id]);
    expect(await ids({ q: a.id })).toEqual([a.id]);
    expect(await ids({ id: [a.id, b.id], name: "-b" })).toEqual([b.id]);
    expect(await ids({ owner: [t.workspaceId] })).toHaveLength(3);
    expect(await ids({ owner: ["12345"] })).toEqual([]);
    expect(await ids({ instances: [vm.id] })).toEqual([c.id]);
  });

  it("pages balancers by number and by keyset cursors", async () => {
    for (let i = 0; i < 5; i++) await createLb({ name: `lb-${i}` });
    const walked = await collectAfter<{ name: string }>(t.api, lbsPath, { sort: "name", limit: 2 });
    expect(walked.map((lb) => lb.name)).toEqual(["lb-0", "lb-1", "lb-2", "lb-3", "lb-4"]);
    const p2 = await t.api.get(lbsPath, { sort: "name", limit: 2, page: 2 });
    expect(p2.body.items.map((lb: { name: string }) => lb.name)).toEqual(["lb-2", "lb-3"]);
    const back = await t.api.get(lbsPath, { sort: "name", limit: 2, before: p2.body.before });
    expect(back.body.items.map((lb: { name: string }) => lb.name)).toEqual(["lb-0", "lb-1"]);
  });

  it("fetches the detail, and updates name and address with 200 and no body", async () => {
    const lb = await createLb();
    const res = await t.api.patch(lbPath(lb.id), { name: "renamed", address: "2001:DB8:0:0::5" });
    expect(res.status).toBe(200);
    expect(res.text).toBe("");
    const detail = await t.api.get(lbPath(lb.id));
    expect(detail.body).toMatchObject({ id: lb.id, name: "renamed", address: "2001:db8::5", instances: [] });
    expect((await t.api.patch(lbPath(lb.id), { address: "nowhere" })).status).toBe(400);
    expect((await t.api.patch(lbPath(lb.id), { name: "" })).status).toBe(400);
  });

  it("moves a balancer to another owner, dropping members outside the new workspace", async () => {
    const { userId, api: both } = makeUser(t, { workspaceId: t.workspaceId, role: "OWNER" });
    const otherWs = makeWorkspace(t, userId);
    const lb = await createLb();
    const vm = makeInstance(t);
    await t.api.put(`${lbPath(lb.id)}/instances/${vm.id}`);
    await waitMembers(lb.id, (ids) => ids.length === 1);
    expect((await t.api.patch(lbPath(lb.id), undefined, { rawBody: `{"owner":${otherWs}}` })).status).toBe(404);
    expect((await both.patch(lbPath(lb.id), undefined, { rawBody: `{"owner":${otherWs}}` })).status).toBe(200);
    expect((await t.api.get(lbPath(lb.id))).status).toBe(404);
    const moved = await both.get(`/v1/workspaces/${otherWs}/net-lbs/${lb.id}`);
    expect(moved.body).toMatchObject({ owner: { id: otherWs, name: "other-workspace" }, instances: [] });
  });

  it("lets an Administrator delete a balancer (202, no body); a user token gets 400", async () => {
    const lb = await createLb();
    const vm = makeInstance(t);
    await t.api.put(`${lbPath(lb.id)}/instances/${vm.id}`);
    expect((await t.api.delete(`/v1/net-lbs/${lb.id}`)).status).toBe(400);
    const res = await t.staff.delete(`/v1/net-lbs/${lb.id}`);
    expect(res.status).toBe(202);
    expect(res.text).toBe("");
    expect((await t.api.get(lbPath(lb.id))).status).toBe(404);
    expect((await t.staff.delete(`/v1/net-lbs/${lb.id}`)).status).toBe(404);
    const inv = await t.control.get("/_emulator/inventory", { workspace: t.workspaceId });
    expect(inv.body.resources.netLbs).toEqual([]);
    expect(inv.body.resources.netLbMembers).toEqual([]);
  });
});

describe("members", () => {
  it("adds a member asynchronously: 202, PENDING (not yet listed), then AVAILABLE and listed", async () => {
    const lb = await createLb();
    const vm = makeInstance(t, { name: "web-1" });
    await stuck("PUT");
    const res = await t.api.put(`${lbPath(lb.id)}/instances/${vm.id}`);
    expect(res.status).toBe(202);
    expect(res.text).toBe("");
    expect(await memberStates()).toEqual(["PENDING"]);
    expect(await membersOf(lb.id)).toEqual([]);
    await t.control.delete("/_emulator/faults");
    const other = makeInstance(t, { name: "web-2" });
    await t.api.put(`${lbPath(lb.id)}/instances/${other.id}`);
    const done = await waitMembers(lb.id, (ids) => ids.includes(other.id));
    expect(done.items).toEqual([{ id: other.id, name: "web-2" }]);
    expect((await t.api.get(lbPath(lb.id))).body.instances).toEqual([{ id: other.id, name: "web-2" }]);
  });

  it("removes a member asynchronously: 202, still listed while DELETING, then gone", async () => {
    const lb = await createLb();
    const vm = makeInstance(t);
    await t.api.put(`${lbPath(lb.id)}/instances/${vm.id}`);
    await waitMembers(lb.id, (ids) => ids.length === 1);
    await stuck("DELETE");
    const res = await t.api.delete(`${lbPath(lb.id)}/instances/${vm.id}`);
    expect(res.status).toBe(202);
    expect(await memberStates()).toEqual(["DELETING"]);
    expect(await membersOf(lb.id)).toEqual([vm.id]);
    // A second DELETE while the removal runs is a no-op; a PUT brings the member back.
    expect((await t.api.delete(`${lbPath(lb.id)}/instances/${vm.id}`)).status).toBe(202);
    await t.control.delete("/_emulator/faults");
    const second = makeInstance(t);
    await t.api.put(`${lbPath(lb.id)}/instances/${second.id}`);
    await waitMembers(lb.id, (ids) => ids.includes(second.id));
    await t.api.delete(`${lbPath(lb.id)}/instances/${second.id}`);
    await waitMembers(lb.id, (ids) => !ids.includes(second.id));
    expect((await t.api.delete(`${lbPath(lb.id)}/instances/${second.id}`)).status).toBe(404);
  });

  it("treats a repeated PUT as a no-op and a failed addition as never joined", async () => {
    const lb = await createLb();
    const vm = makeInstance(t);
    await t.api.put(`${lbPath(lb.id)}/instances/${vm.id}`);
    await t.api.put(`${lbPath(lb.id)}/instances/${vm.id}`);
    await waitMembers(lb.id, (ids) => ids.length === 1);
    expect(await memberStates()).toEqual(["AVAILABLE"]);
    const failing = makeInstance(t);
    await t.control.post("/_emulator/faults", { kind: "workflow", outcome: "FAILED", method: "PUT", path: "/v1/**" });
    expect((await t.api.put(`${lbPath(lb.id)}/instances/${failing.id}`)).status).toBe(202);
    await t.waitFor<{ resources: { netLbMembers: unknown[] } }>("/_emulator/inventory", (b) => b.resources.netLbMembers.length === 1);
    expect(await membersOf(lb.id)).toEqual([vm.id]);
  });

  it("refuses an instance of another workspace: 400 when visible, 404 when not", async () => {
    const { userId, api: both } = makeUser(t, { workspaceId: t.workspaceId, role: "OWNER" });
    const otherWs = makeWorkspace(t, userId);
    const foreign = makeInstance(t, { workspaceId: otherWs });
    const lb = await createLb();
    expect((await t.api.put(`${lbPath(lb.id)}/instances/${foreign.id}`)).status).toBe(404);
    const res = await both.put(`${lbPath(lb.id)}/instances/${foreign.id}`);
    expect(res.status).toBe(400);
    expect(res.message).toContain("workspace");
    expect((await t.api.put(`${lbPath(lb.id)}/instances/9007199254740993`)).status).toBe(404);
    expect((await t.api.delete(`${lbPath(lb.id)}/instances/${makeInstance(t).id}`)).status).toBe(404);
  });

  it("filters members with the instance search parameters and pages them", async () => {
    const lb = await createLb();
    const nodes = t.emu.services.store.t.nodes.all();
    const plans = t.emu.services.store.t.plans.all();
    const web = makeInstance(t, { name: "web-frontend", online: true, nodeId: nodes[0].id, planId: plans[0].id });
    const db = makeInstance(t, { name: "db-primary", online: false, state: "SUSPENDED", nodeId: nodes[1].id, planId: plans[1].id });
    const cache = makeInstance(t, { name: "cache", online: true, nodeId: nodes[1].id, planId: plans[1].id, isoId: "4242" });
    makeFloatingIp(t, { instanceId: db.id, address: "198.18.77.5" });
    for (const vm of [web, db, cache]) await t.api.put(`${lbPath(lb.id)}/instances/${vm.id}`);
    await waitMembers(lb.id, (ids) => ids.length === 3);
    expect(await membersOf(lb.id, { q: "front" })).toEqual([web.id]);
    expect(await membersOf(lb.id, { q: "198.18.77.5" })).toEqual([db.id]);
    expect(await membersOf(lb.id, { q: cache.id })).toEqual([cache.id]);
    expect(await membersOf(lb.id, { ip: "198.18.77.5" })).toEqual([db.id]);
    expect(await membersOf(lb.id, { id: [web.id, db.id], name: "db" })).toEqual([db.id]);
    expect((await membersOf(lb.id, { node: [nodes[1].id] })).sort()).toEqual([db.id, cache.id].sort());
    expect(await membersOf(lb.id, { plan: [plans[0].id] })).toEqual([web.id]);
    expect(await membersOf(lb.id, { iso: ["4242"] })).toEqual([cache.id]);
    expect((await membersOf(lb.id, { online: true })).sort()).toEqual([web.id, cache.id].sort());
    expect(await membersOf(lb.id, { state: "SUSPENDED" })).toEqual([db.id]);
    expect((await t.api.get(`${lbPath(lb.id)}/instances`, { online: "maybe" })).status).toBe(400);
    const walked = await collectAfter<{ name: string }>(t.api, `${lbPath(lb.id)}/instances`, { sort: "name", limit: 2 });
    expect(walked.map((i) => i.name)).toEqual(["cache", "db-primary", "web-frontend"]);
    const p2 = await t.api.get(`${lbPath(lb.id)}/instances`, { sort: "name", limit: 2, page: 2 });
    expect(p2.body.items).toEqual([{ id: web.id, name: "web-frontend" }]);
  });

  it("drops memberships of a deleted instance (idempotently)", async () => {
    const lb = await createLb();
    const vm = makeInstance(t);
    await t.api.put(`${lbPath(lb.id)}/instances/${vm.id}`);
    await waitMembers(lb.id, (ids) => ids.length === 1);
    t.emu.services.store.t.instances.delete(vm.id);
    fireHook(t.emu.services, "instance.deleted", { instanceId: vm.id, workspaceId: t.workspaceId });
    fireHook(t.emu.services, "instance.deleted", { instanceId: vm.id, workspaceId: t.workspaceId });
    expect(await membersOf(lb.id)).toEqual([]);
  });
});

describe("Administrator mirrors", () => {
  it("serve fetch, update and members under /v1/net-lbs/{bid} for staff, 400 for a user token", async () => {
    const lb = await createLb();
    const vm = makeInstance(t, { name: "mirror-vm" });
    expect((await t.staff.get(`/v1/net-lbs/${lb.id}`)).body).toMatchObject({ id: lb.id, name: "edge" });
    expect((await t.staff.patch(`/v1/net-lbs/${lb.id}`, { name: "staff-edit" })).status).toBe(200);
    expect((await t.api.get(lbPath(lb.id))).body.name).toBe("staff-edit");
    expect((await t.staff.put(`/v1/net-lbs/${lb.id}/instances/${vm.id}`)).status).toBe(202);
    await waitMembers(lb.id, (ids) => ids.length === 1);
    expect((await t.staff.get(`/v1/net-lbs/${lb.id}/instances`)).body.items).toEqual([{ id: vm.id, name: "mirror-vm" }]);
    expect((await t.staff.delete(`/v1/net-lbs/${lb.id}/instances/${vm.id}`)).status).toBe(202);
    await waitMembers(lb.id, (ids) => ids.length === 0);
    for (const res of [
      await t.api.get(`/v1/net-lbs/${lb.id}`),
      await t.api.patch(`/v1/net-lbs/${lb.id}`, { name: "nope" }),
      await t.api.get(`/v1/net-lbs/${lb.id}/instances`),
      await t.api.put(`/v1/net-lbs/${lb.id}/instances/${vm.id}`),
      await t.api.delete(`/v1/net-lbs/${lb.id}/instances/${vm.id}`),
    ])
      expect(res.status).toBe(400);
    expect((await t.staff.get("/v1/net-lbs/9007199254740993")).status).toBe(404);
  });
});

describe("access", () => {
  it("answers 403 without a token and 404 for another workspace's balancer", async () => {
    const { userId } = makeUser(t);
    const otherWs = makeWorkspace(t, userId);
    const theirs = await createLb({ owner: otherWs });
    expect((await t.anon.get(lbsPath)).status).toBe(403);
    expect((await t.api.get(`/v1/workspaces/${otherWs}/net-lbs`)).status).toBe(404);
    expect((await t.api.get(`/v1/workspaces/${otherWs}/net-lbs/${theirs.id}`)).status).toBe(404);
    // Reaching it through one's own workspace path does not help either.
    expect((await t.api.get(lbPath(theirs.id))).status).toBe(404);
    expect((await t.api.patch(lbPath(theirs.id), { name: "mine" })).status).toBe(404);
  });

  it("lets a VIEWER read but not change (403), and needs the NET_BALANCER grant", async () => {
    const lb = await createLb();
    const vm = makeInstance(t);
    const { api: viewer } = makeUser(t, { workspaceId: t.workspaceId, role: "VIEWER" });
    expect((await viewer.get(lbsPath)).status).toBe(200);
    expect((await viewer.get(lbPath(lb.id))).status).toBe(200);
    expect((await viewer.get(`${lbPath(lb.id)}/instances`)).status).toBe(200);
    expect((await viewer.patch(lbPath(lb.id), { name: "viewer" })).status).toBe(403);
    expect((await viewer.put(`${lbPath(lb.id)}/instances/${vm.id}`)).status).toBe(403);
    const { api: noGrant } = makeUser(t, { workspaceId: t.workspaceId, role: "OWNER", grants: { INSTANCE: "WRITE" } });
    const denied = await noGrant.get(lbsPath);
    expect(denied.status).toBe(403);
    expect(denied.message).toContain("NET_BALANCER");
  });

  it("round-trips identifiers above 2^53 exactly", async () => {
    const lb = await createLb();
    expect(BigInt(lb.id)).toBeGreaterThan(2n ** 53n);
    const res = await t.api.get(lbPath(lb.id));
    expect(res.text).toContain(`"id":"${lb.id}"`);
    expect(res.text).toContain(`"owner":{"id":"${t.workspaceId}"`);
    expect((await t.api.get(lbPath(String(BigInt(lb.id) + 1n)))).status).toBe(404);
  });
});
