/**
 * Part 3 firewall rules against the emulator over real HTTP.
 */
import { fireHook } from "../src/core/hooks";
import { DEFAULT_QUOTA } from "../src/model";
import { useTestEmulator, type TestEmulator } from "../src/testing";
import { collectAfter, makeInstance, makeInstanceToken, makeUser, makeWorkspace } from "./network";

let t: TestEmulator;
useTestEmulator((started) => (t = started));

const tick = () => t.control.post("/_emulator/clock", { advanceMs: 1000 });
const rulesPath = (iid: string) => `/v1/instances/${iid}/firewall-rules`;
const tcp = { type: "IPv4", protocol: "TCP", action: "ACCEPT", port_start: 22 };

describe("create", () => {
  it("answers 201 with the workflow and a PENDING rule that becomes AVAILABLE when the workflow completes", async () => {
    const vm = makeInstance(t);
    const res = await t.api.post(rulesPath(vm.id), tcp);
    expect(res.status).toBe(201);
    expect(res.body.workflow).toEqual({ id: expect.any(String), name: "firewall-rule.create", state: "QUEUED" });
    expect(res.body.resource).toEqual({
      id: expect.any(String),
      instance_id: vm.id,
      type: "IPv4",
      protocol: "TCP",
      action: "ACCEPT",
      port_start: 22,
      port_end: null,
      remote: "0.0.0.0/0",
      local: null,
      bps_limit: null,
      pps_limit: null,
      priority: 1,
      description: null,
      state: "PENDING",
      created: expect.any(String),
    });
    expect(await t.waitWorkflow(res.body.workflow.id)).toBe("COMPLETED");
    const rule = await t.api.get(`/v1/firewall-rules/${res.body.resource.id}`);
    expect(rule.status).toBe(200);
    expect(rule.body.state).toBe("AVAILABLE");
  });

  it("defaults an IPv6 rule's remote to ::/0 and writes CIDRs in canonical form", async () => {
    const vm = makeInstance(t);
    const v6 = await t.api.post(rulesPath(vm.id), { type: "IPv6", protocol: "ICMP", action: "DROP" });
    expect(v6.status).toBe(201);
    expect(v6.body.resource).toMatchObject({ remote: "::/0", port_start: null });
    const v4 = await t.api.post(rulesPath(vm.id), {
      ...tcp,
      remote: "10.1.2.3/16",
      local: "203.0.113.7",
      port_end: 25,
      priority: 100,
      description: "ssh and smtp",
    });
    expect(v4.body.resource).toMatchObject({
      remote: "10.1.0.0/16",
      local: "203.0.113.7/32",
      port_start: 22,
      port_end: 25,
      priority: 100,
      description: "ssh and smtp",
    });
  });

  it("keeps only pps_limit when both limits are sent, and bps_limit alone otherwise", async () => {
    const vm = makeInstance(t);
    const both = await t.api.post(rulesPath(vm.id), { ...tcp, bps_limit: 5_000_000, pps_limit: 10_000 });
    expect(both.body.resource).toMatchObject({ bps_limit: null, pps_limit: 10_000 });
    const bps = await t.api.post(rulesPath(vm.id), { ...tcp, bps_limit: 10_000_000_000 });
    expect(bps.body.resource).toMatchObject({ bps_limit: 10_000_000_000, pps_limit: null });
  });

  it.each([
    ["type missing", { protocol: "TCP", action: "ACCEPT" }, "type"],
    ["type unknown", { ...tcp, type: "IPv5" }, "type"],
    ["protocol unknown", { ...tcp, protocol: "SCTP" }, "protocol"],
    ["action unknown", { ...tcp, action: "REJECT" }, "action"],
    ["port_start 0", { ...tcp, port_start: 0 }, "port_start"],
    ["port_start 65536", { ...tcp, port_start: 65536 }, "port_start"],
    ["port on ICMP", { type: "IPv4", protocol: "ICMP", action: "ACCEPT", port_start: 80 }, "port_start"],
    ["port_end without port_start", { type: "IPv4", protocol: "UDP", action: "ACCEPT", port_end: 80 }, "port_end"],
    ["port_end below port_start", { ...tcp, port_start: 100, port_end: 99 }, "port_end"],
    ["port_end 65536", { ...tcp, port_end: 65536 }, "port_end"],
    ["remote not a CIDR", { ...tcp, remote: "anywhere" }, "remote"],
    ["remote of the other family", { ...tcp, remote: "2001:db8::/32" }, "remote"],
    ["local of the other family", { type: "IPv6", protocol: "TCP", action: "ACCEPT", local: "10.0.0.0/8" }, "local"],
    ["bps_limit 0", { ...tcp, bps_limit: 0 }, "bps_limit"],
    ["pps_limit above 10^10", { ...tcp, pps_limit: 10_000_000_001 }, "pps_limit"],
    ["priority 0", { ...tcp, priority: 0 }, "priority"],
    ["priority 101", { ...tcp, priority: 101 }, "priority"],
    ["description of 256 characters", { ...tcp, description: "x".repeat(256) }, "description"],
  ])("refuses %s with 400", async (_label, body, field) => {
    const vm = makeInstance(t);
    const res = await t.api.post(rulesPath(vm.id), body);
    expect(res.status).toBe(400);
    expect(res.message).toContain(field);
    expect(res.body.errors[0].field).toBe(field);
  });

  it("caps the rules of each family at the workspace quota firewall_rules_per_ip", async () => {
    await t.control.patch(`/_emulator/tables/workspaces/${t.workspaceId}`, { quota: { ...DEFAULT_QUOTA, firewall_rules_per_ip: 2 } });
    const vm = makeInstance(t);
    expect((await t.api.post(rulesPath(vm.id), tcp)).status).toBe(201);
    expect((await t.api.post(rulesPath(vm.id), tcp)).status).toBe(201);
    const third = await t.api.post(rulesPath(vm.id), tcp);
    expect(third.status).toBe(400);
    expect(third.message).toContain("firewall_rules_per_ip");
    expect((await t.api.post(rulesPath(vm.id), { type: "IPv6", protocol: "TCP", action: "ACCEPT" })).status).toBe(201);
    expect((await t.api.post(rulesPath(makeInstance(t).id), tcp)).status).toBe(201);
  });

  it("ends FAILED when the workflow fails", async () => {
    const vm = makeInstance(t);
    await t.control.post("/_emulator/faults", { kind: "workflow", outcome: "FAILED", path: "/v1/instances/*/firewall-rules", times: 1 });
    const res = await t.api.post(rulesPath(vm.id), tcp);
    expect(await t.waitWorkflow(res.body.workflow.id)).toBe("FAILED");
    expect((await t.api.get(`/v1/firewall-rules/${res.body.resource.id}`)).body.state).toBe("FAILED");
  });

  it("answers 404 for an unknown instance and 400 for a malformed path id", async () => {
    expect((await t.api.post(rulesPath("9007199254740993"), tcp)).status).toBe(404);
    expect((await t.api.post(rulesPath("abc"), tcp)).status).toBe(400);
  });
});

describe("list, fetch and delete", () => {
  async function seedRules(iid: string) {
    const bodies = [
      { type: "IPv4", protocol: "TCP", action: "ACCEPT", port_start: 22, priority: 50 },
      { type: "IPv4", protocol: "UDP", action: "DROP", port_start: 53, priority: 10 },
      { type: "IPv6", protocol: "TCP", action: "DROP", port_start: 80, priority: 90 },
      { type: "IPv6", protocol: "ICMP", action: "ACCEPT", priority: 30 },
      { type: "IPv4", protocol: "ICMP", action: "DROP", priority: 70 },
    ];
    const ids: string[] = [];
    for (const body of bodies) {
      ids.push((await t.api.post(rulesPath(iid), body)).body.resource.id);
      await tick();
    }
    return ids;
  }

  it("lists newest first and filters by type, protocol and action", async () => {
    const vm = makeInstance(t);
    const ids = await seedRules(vm.id);
    const all = await t.api.get(rulesPath(vm.id));
    expect(all.status).toBe(200);
    expect(all.body.items.map((r: { id: string }) => r.id)).toEqual([...ids].reverse());
    expect(all.body).toMatchObject({ hasNext: false, hasPrevious: false, after: null, before: null });
    const ids6 = (await t.api.get(rulesPath(vm.id), { type: "IPv6" })).body.items.map((r: { id: string }) => r.id);
    expect(ids6).toEqual([ids[3], ids[2]]);
    const icmp = (await t.api.get(rulesPath(vm.id), { protocol: "ICMP", action: "DROP" })).body.items.map((r: { id: string }) => r.id);
    expect(icmp).toEqual([ids[4]]);
    expect((await t.api.get(rulesPath(vm.id), { protocol: "GRE" })).status).toBe(400);
  });

  it("orders by descending priority on request", async () => {
    const vm = makeInstance(t);
    await seedRules(vm.id);
    const res = await t.api.get(rulesPath(vm.id), { sort: "priority", dir: "desc" });
    expect(res.body.items.map((r: { priority: number }) => r.priority)).toEqual([90, 70, 50, 30, 10]);
  });

  it("pages by page number and by keyset cursors in both directions", async () => {
    const vm = makeInstance(t);
    const ids = [...(await seedRules(vm.id))].reverse();
    const p2 = await t.api.get(rulesPath(vm.id), { limit: 2, page: 2 });
    expect(p2.body.items.map((r: { id: string }) => r.id)).toEqual(ids.slice(2, 4));
    expect(p2.body).toMatchObject({ hasNext: true, hasPrevious: true });
    const viaAfter = await collectAfter<{ id: string }>(t.api, rulesPath(vm.id), { limit: 2 });
    expect(viaAfter.map((r) => r.id)).toEqual(ids);
    const last = await t.api.get(rulesPath(vm.id), { limit: 2, page: 3 });
    const back = await t.api.get(rulesPath(vm.id), { limit: 2, before: last.body.before });
    expect(back.body.items.map((r: { id: string }) => r.id)).toEqual(ids.slice(2, 4));
  });

  it("deletes at once and answers WorkflowData with the deleted rule", async () => {
    const vm = makeInstance(t);
    const created = await t.api.post(rulesPath(vm.id), tcp);
    const id = created.body.resource.id;
    const del = await t.api.delete(`/v1/firewall-rules/${id}`);
    expect(del.status).toBe(200);
    expect(del.body.workflow).toMatchObject({ name: "firewall-rule.delete" });
    expect(del.body.data).toMatchObject({ id, instance_id: vm.id, type: "IPv4" });
    expect((await t.api.get(`/v1/firewall-rules/${id}`)).status).toBe(404);
    expect((await t.api.get(rulesPath(vm.id))).body.items).toEqual([]);
    expect((await t.api.delete(`/v1/firewall-rules/${id}`)).status).toBe(404);
  });

  it("summarises the workspace: instance, name and rule count per instance with rules", async () => {
    const a = makeInstance(t, { name: "alpha" });
    const b = makeInstance(t, { name: "bravo" });
    makeInstance(t, { name: "no-rules" });
    for (let i = 0; i < 3; i++) await t.api.post(rulesPath(a.id), tcp);
    await t.api.post(rulesPath(b.id), tcp);
    const res = await t.api.get(`/v1/workspaces/${t.workspaceId}/firewall-rules`, { sort: "name" });
    expect(res.status).toBe(200);
    expect(res.body.items).toEqual([
      { instance: a.id, name: "alpha", rules: 3 },
      { instance: b.id, name: "bravo", rules: 1 },
    ]);
  });

  it("removes an instance's rules when the instance is deleted (idempotently)", async () => {
    const vm = makeInstance(t);
    const keep = makeInstance(t);
    const gone = (await t.api.post(rulesPath(vm.id), tcp)).body.resource.id;
    const kept = (await t.api.post(rulesPath(keep.id), tcp)).body.resource.id;
    t.emu.services.store.t.instances.delete(vm.id);
    fireHook(t.emu.services, "instance.deleted", { instanceId: vm.id, workspaceId: t.workspaceId });
    fireHook(t.emu.services, "instance.deleted", { instanceId: vm.id, workspaceId: t.workspaceId });
    expect((await t.api.get(`/v1/firewall-rules/${gone}`)).status).toBe(404);
    expect((await t.api.get(`/v1/firewall-rules/${kept}`)).status).toBe(200);
  });

  it("shows rules in the inventory with their workspace and state", async () => {
    const vm = makeInstance(t);
    // A stuck workflow keeps the rule PENDING however long the test takes.
    await t.control.post("/_emulator/faults", { kind: "stuck", path: "/v1/instances/*/firewall-rules" });
    const id = (await t.api.post(rulesPath(vm.id), tcp)).body.resource.id;
    const inv = await t.control.get("/_emulator/inventory", { workspace: t.workspaceId });
    expect(inv.body.resources.firewallRules).toEqual([
      { id, name: "IPv4 TCP ACCEPT 0.0.0.0/0", workspaceId: t.workspaceId, state: "PENDING" },
    ]);
  });
});

describe("identifiers and access", () => {
  it("round-trips identifiers above 2^53 exactly", async () => {
    const vm = makeInstance(t);
    expect(BigInt(vm.id)).toBeGreaterThan(2n ** 53n);
    const res = await t.api.post(rulesPath(vm.id), undefined, {
      rawBody: '{"type":"IPv4","protocol":"TCP","action":"ACCEPT","port_start":443}',
    });
    expect(res.text).toContain(`"instance_id":"${vm.id}"`);
    const fetched = await t.api.get(`/v1/firewall-rules/${res.body.resource.id}`);
    expect(fetched.body.id).toBe(res.body.resource.id);
    // One above the id: a client that rounded would land on the same number.
    expect((await t.api.get(`/v1/firewall-rules/${BigInt(res.body.resource.id) + 1n}`)).status).toBe(404);
  });

  it("answers 403 without a token", async () => {
    const vm = makeInstance(t);
    const res = await t.anon.post(rulesPath(vm.id), tcp);
    expect(res.status).toBe(403);
    expect(res.message).toBeTruthy();
    expect((await t.anon.get(rulesPath(vm.id))).status).toBe(403);
  });

  it("lets a VIEWER read but not write (403)", async () => {
    const vm = makeInstance(t);
    const id = (await t.api.post(rulesPath(vm.id), tcp)).body.resource.id;
    const { api: viewer } = makeUser(t, { workspaceId: t.workspaceId, role: "VIEWER" });
    expect((await viewer.get(rulesPath(vm.id))).status).toBe(200);
    expect((await viewer.get(`/v1/firewall-rules/${id}`)).status).toBe(200);
    expect((await viewer.get(`/v1/workspaces/${t.workspaceId}/firewall-rules`)).status).toBe(200);
    const create = await viewer.post(rulesPath(vm.id), tcp);
    expect(create.status).toBe(403);
    expect(create.message).toContain("EDITOR");
    expect((await viewer.delete(`/v1/firewall-rules/${id}`)).status).toBe(403);
  });

  it("needs the INSTANCE grant (403 when it is missing or read-only for writes)", async () => {
    const vm = makeInstance(t);
    const { api: noGrant } = makeUser(t, { workspaceId: t.workspaceId, role: "OWNER", grants: { DISK: "WRITE" } });
    expect((await noGrant.get(rulesPath(vm.id))).status).toBe(403);
    const { api: readOnly } = makeUser(t, { workspaceId: t.workspaceId, role: "OWNER", grants: { INSTANCE: "READ" } });
    expect((await readOnly.get(rulesPath(vm.id))).status).toBe(200);
    expect((await readOnly.post(rulesPath(vm.id), tcp)).status).toBe(403);
  });

  it("answers 404 for another workspace's instance and rules", async () => {
    const { userId, api: stranger } = makeUser(t);
    const theirs = makeInstance(t, { workspaceId: makeWorkspace(t, userId) });
    const theirRule = (await stranger.post(rulesPath(theirs.id), tcp)).body.resource.id;
    expect((await t.api.post(rulesPath(theirs.id), tcp)).status).toBe(404);
    expect((await t.api.get(rulesPath(theirs.id))).status).toBe(404);
    expect((await t.api.get(`/v1/firewall-rules/${theirRule}`)).status).toBe(404);
    expect((await t.api.delete(`/v1/firewall-rules/${theirRule}`)).status).toBe(404);
    expect((await t.api.get(`/v1/workspaces/${theirs.workspaceId}/firewall-rules`)).status).toBe(404);
  });

  it("lets a resource token reach its own instance's rules only", async () => {
    const vm = makeInstance(t);
    const other = makeInstance(t);
    const token = makeInstanceToken(t, vm.id);
    expect((await token.post(rulesPath(vm.id), tcp)).status).toBe(201);
    expect((await token.get(rulesPath(other.id))).status).toBe(404);
    expect((await token.get(`/v1/workspaces/${t.workspaceId}/firewall-rules`)).status).toBe(403);
  });
});
