/**
 * Part 3 network commands (attach-ip, detach-ip, network-auto-attach, suspend-network,
 * unsuspend-network) against the emulator over real HTTP.
 */
import { DEFAULT_QUOTA } from "../src/model";
import { useTestEmulator, type TestEmulator } from "../src/testing";
import { makeFloatingIp, makeInstance, makeUser, makeWorkspace } from "./network";

let t: TestEmulator;
useTestEmulator((started) => (t = started));

const ipRow = (id: string) => t.emu.services.store.t.floatingIps.get(id);
const ipsOf = (instanceId: string) => t.emu.services.store.t.floatingIps.filter((ip) => ip.instanceId === instanceId);
const raw = (fields: Record<string, string | boolean | object>) =>
  `{${Object.entries(fields)
    .map(([k, v]) => `"${k}":${typeof v === "string" ? v : JSON.stringify(v)}`)
    .join(",")}}`;
const command = (name: string, fields: Record<string, string | boolean | object>, api = t.api) =>
  api.post(`/v1/commands/${name}`, undefined, { rawBody: raw(fields) });

describe("attach-ip and detach-ip", () => {
  it("attaches a free address and returns the floating IP object with the instance", async () => {
    const vm = makeInstance(t, { name: "web" });
    const ip = makeFloatingIp(t, { address: "198.18.0.50" });
    const res = await command("attach-ip", { ip: ip.id, instance: vm.id });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: ip.id,
      address: "198.18.0.50",
      family: "IPv4",
      ddos: false,
      protected: false,
      origin: "ALLOCATED",
      instance_id: vm.id,
      instance: { id: vm.id, name: "web" },
      workspace: { id: t.workspaceId, name: "demo-workspace" },
      created: ip.created,
    });
    expect(res.text).toContain(`"instance_id":"${vm.id}"`);
    expect(ipRow(ip.id)!.instanceId).toBe(vm.id);
    // Attaching to the instance that already holds it changes nothing.
    expect((await command("attach-ip", { ip: ip.id, instance: vm.id })).status).toBe(200);
  });

  it("answers 409 when the address is attached to another instance", async () => {
    const holder = makeInstance(t);
    const ip = makeFloatingIp(t, { instanceId: holder.id, origin: "INSTANCE" });
    const res = await command("attach-ip", { ip: ip.id, instance: makeInstance(t).id });
    expect(res.status).toBe(409);
    expect(res.message).toContain("attached to another instance");
    expect(ipRow(ip.id)!.instanceId).toBe(holder.id);
  });

  it("detaches from whichever instance holds it; the address then lives on its own", async () => {
    const vm = makeInstance(t);
    const ip = makeFloatingIp(t, { instanceId: vm.id, origin: "INSTANCE" });
    const res = await command("detach-ip", { ip: ip.id });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: ip.id, instance_id: null, instance: null });
    expect(ipRow(ip.id)).toMatchObject({ instanceId: null, origin: "ALLOCATED" });
    const again = await command("detach-ip", { ip: ip.id });
    expect(again.status).toBe(200);
    expect(again.body.instance).toBeNull();
  });

  it.each([
    ["attach-ip without ip", "attach-ip", { instance: "1" }, "ip"],
    ["attach-ip without instance", "attach-ip", { ip: "1" }, "instance"],
    ["attach-ip with a string ip", "attach-ip", { ip: '"1"', instance: "1" }, "ip"],
    ["detach-ip without ip", "detach-ip", {}, "ip"],
    ["detach-ip with ip 0", "detach-ip", { ip: "0" }, "ip"],
  ])("refuses %s with 400", async (_label, name, fields, field) => {
    const res = await command(name, fields);
    expect(res.status).toBe(400);
    expect(res.message).toContain(field);
  });

  it("answers 404 for unknown or invisible addresses and instances, 400 across workspaces", async () => {
    const vm = makeInstance(t);
    const ip = makeFloatingIp(t);
    expect((await command("attach-ip", { ip: "9007199254740993", instance: vm.id })).status).toBe(404);
    expect((await command("attach-ip", { ip: ip.id, instance: "9007199254740993" })).status).toBe(404);
    const { userId, api: both } = makeUser(t, { workspaceId: t.workspaceId, role: "OWNER" });
    const otherWs = makeWorkspace(t, userId);
    const theirIp = makeFloatingIp(t, { workspaceId: otherWs });
    const theirVm = makeInstance(t, { workspaceId: otherWs });
    expect((await command("attach-ip", { ip: theirIp.id, instance: vm.id })).status).toBe(404);
    expect((await command("detach-ip", { ip: theirIp.id })).status).toBe(404);
    expect((await command("attach-ip", { ip: ip.id, instance: theirVm.id })).status).toBe(404);
    const across = await command("attach-ip", { ip: ip.id, instance: theirVm.id }, both);
    expect(across.status).toBe(400);
    expect(across.message).toContain("instance");
  });

  it("needs EDITOR and the FLOATING_IP grant (403), and a token (403)", async () => {
    const vm = makeInstance(t);
    const ip = makeFloatingIp(t);
    const { api: viewer } = makeUser(t, { workspaceId: t.workspaceId, role: "VIEWER" });
    expect((await command("attach-ip", { ip: ip.id, instance: vm.id }, viewer)).status).toBe(403);
    const { api: noGrant } = makeUser(t, { workspaceId: t.workspaceId, role: "OWNER", grants: { INSTANCE: "WRITE" } });
    const denied = await command("detach-ip", { ip: ip.id }, noGrant);
    expect(denied.status).toBe(403);
    expect(denied.message).toContain("FLOATING_IP");
    expect((await command("attach-ip", { ip: ip.id, instance: vm.id }, t.anon)).status).toBe(403);
  });
});

describe("network-auto-attach", () => {
  it("reuses a free address of the workspace and attaches it when the workflow completes", async () => {
    const vm = makeInstance(t, { name: "auto" });
    const free = makeFloatingIp(t, { address: "198.18.1.1" });
    const res = await command("network-auto-attach", { instance: vm.id, skip_duplicate: false, v4: { filtered: false } });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({
      workflow: { id: expect.any(String), name: "network-auto-attach", state: "QUEUED" },
      result: {
        instance: { id: vm.id, name: "auto" },
        attached: [{ id: free.id, address: "198.18.1.1", family: "IPv4", ddos: false }],
        skipped: [],
      },
    });
    expect(ipRow(free.id)!.instanceId).toBeNull();
    expect(await t.waitWorkflow(res.body.workflow.id)).toBe("COMPLETED");
    expect(ipRow(free.id)!.instanceId).toBe(vm.id);
  });

  it("allocates a DDoS-filtered address when filtered is true and no filtered one is free", async () => {
    const vm = makeInstance(t);
    makeFloatingIp(t, { ddos: false });
    const before = t.emu.services.store.t.floatingIps.count();
    const res = await command("network-auto-attach", {
      instance: vm.id,
      skip_duplicate: false,
      v4: { filtered: true },
      v6: { filtered: false },
    });
    expect(res.status).toBe(202);
    const [v4, v6] = res.body.result.attached;
    expect(v4).toMatchObject({ family: "IPv4", ddos: true });
    expect(v6).toMatchObject({ family: "IPv6", ddos: false });
    expect(t.emu.services.store.t.floatingIps.count()).toBe(before + 2);
    const billed = t.emu.services.store.t.billingSubjects.filter((b) => b.resourceId === v4.id || b.resourceId === v6.id);
    expect(billed).toHaveLength(2);
    expect(billed.every((b) => b.hourlyRate > 0 && b.endedAt === null)).toBe(true);
    await t.waitWorkflow(res.body.workflow.id);
    expect(
      ipsOf(vm.id)
        .map((ip) => ip.id)
        .sort(),
    ).toEqual([v4.id, v6.id].sort());
  });

  it("with skip_duplicate skips a family where the instance already has a matching address", async () => {
    const vm = makeInstance(t);
    makeFloatingIp(t, { instanceId: vm.id, origin: "INSTANCE" });
    const skip = await command("network-auto-attach", { instance: vm.id, skip_duplicate: true, v4: { filtered: false } });
    expect(skip.status).toBe(202);
    expect(skip.body.result).toMatchObject({ attached: [], skipped: ["IPv4"] });
    await t.waitWorkflow(skip.body.workflow.id);
    expect(ipsOf(vm.id)).toHaveLength(1);
    // A filtered request is not satisfied by an unfiltered address.
    const filtered = await command("network-auto-attach", { instance: vm.id, skip_duplicate: true, v4: { filtered: true } });
    expect(filtered.body.result.skipped).toEqual([]);
    expect(filtered.body.result.attached).toHaveLength(1);
    // Without skip_duplicate another address is attached.
    const extra = await command("network-auto-attach", { instance: vm.id, skip_duplicate: false, v4: { filtered: false } });
    await t.waitWorkflow(extra.body.workflow.id);
    await t.waitWorkflow(filtered.body.workflow.id);
    expect(ipsOf(vm.id)).toHaveLength(3);
  });

  it("does nothing for omitted families", async () => {
    const vm = makeInstance(t);
    const res = await command("network-auto-attach", { instance: vm.id, skip_duplicate: false });
    expect(res.status).toBe(202);
    expect(res.body.result).toMatchObject({ attached: [], skipped: [] });
  });

  it("checks the floating IP quotas before allocating anything (400)", async () => {
    const vm = makeInstance(t);
    await t.control.patch(`/_emulator/tables/workspaces/${t.workspaceId}`, { quota: { ...DEFAULT_QUOTA, max_floating_ipv6: 0 } });
    const before = t.emu.services.store.t.floatingIps.count();
    const res = await command("network-auto-attach", {
      instance: vm.id,
      skip_duplicate: false,
      v4: { filtered: false },
      v6: { filtered: false },
    });
    expect(res.status).toBe(400);
    expect(res.message).toContain("max_floating_ipv6");
    expect(t.emu.services.store.t.floatingIps.count()).toBe(before);
    await t.control.patch(`/_emulator/tables/workspaces/${t.workspaceId}`, { quota: { ...DEFAULT_QUOTA, max_floating_ips: 1 } });
    const total = await command("network-auto-attach", {
      instance: vm.id,
      skip_duplicate: false,
      v4: { filtered: false },
      v6: { filtered: false },
    });
    expect(total.status).toBe(400);
    expect(total.message).toContain("max_floating_ips");
  });

  it("releases the addresses it allocated when the workflow fails", async () => {
    const vm = makeInstance(t);
    const free = makeFloatingIp(t);
    await t.control.post("/_emulator/faults", { kind: "workflow", outcome: "FAILED", path: "/v1/commands/network-auto-attach" });
    const res = await command("network-auto-attach", {
      instance: vm.id,
      skip_duplicate: false,
      v4: { filtered: false },
      v6: { filtered: true },
    });
    const fresh = res.body.result.attached.find((a: { family: string }) => a.family === "IPv6");
    expect(await t.waitWorkflow(res.body.workflow.id)).toBe("FAILED");
    expect(ipRow(fresh.id)).toBeUndefined();
    expect(ipRow(free.id)).toMatchObject({ instanceId: null });
    expect(t.emu.services.store.t.billingSubjects.find((b) => b.resourceId === fresh.id)!.endedAt).not.toBeNull();
  });

  it.each([
    ["no instance", { skip_duplicate: false }, "instance"],
    ["no skip_duplicate", { instance: "1" }, "skip_duplicate"],
    ["a v4 object without filtered", { instance: "1", skip_duplicate: true, v4: {} }, "v4.filtered"],
    ["a non-boolean filtered", { instance: "1", skip_duplicate: true, v6: { filtered: "yes" } }, "v6.filtered"],
  ])("refuses %s with 400", async (_label, fields, field) => {
    const res = await command("network-auto-attach", fields);
    expect(res.status).toBe(400);
    expect(res.message).toContain(field);
  });

  it("answers 404 for another workspace's instance and 403 to a VIEWER", async () => {
    const { userId } = makeUser(t);
    const theirs = makeInstance(t, { workspaceId: makeWorkspace(t, userId) });
    expect((await command("network-auto-attach", { instance: theirs.id, skip_duplicate: false })).status).toBe(404);
    const { api: viewer } = makeUser(t, { workspaceId: t.workspaceId, role: "VIEWER" });
    expect((await command("network-auto-attach", { instance: makeInstance(t).id, skip_duplicate: false }, viewer)).status).toBe(403);
  });
});

describe("suspend-network and unsuspend-network", () => {
  it("lets an Administrator cut and restore an instance's network, with audit entries", async () => {
    const vm = makeInstance(t);
    const res = await command("suspend-network", { instance: vm.id }, t.staff);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: expect.any(String),
      action: "instance.network.suspend",
      target: { kind: "INSTANCE", id: vm.id },
      workspace_id: t.workspaceId,
      actor: { name: "Operator" },
    });
    expect(t.emu.services.store.t.instances.get(vm.id)!.networkSuspended).toBe(true);
    const back = await command("unsuspend-network", { instance: vm.id }, t.staff);
    expect(back.status).toBe(200);
    expect(back.body.action).toBe("instance.network.unsuspend");
    expect(t.emu.services.store.t.instances.get(vm.id)!.networkSuspended).toBe(false);
  });

  it("answers 400 to a user-scoped token, 403 without a token, 404 for an unknown instance, 400 for a bad body", async () => {
    const vm = makeInstance(t);
    const user = await command("suspend-network", { instance: vm.id });
    expect(user.status).toBe(400);
    expect(user.message).toContain("administrator");
    expect(t.emu.services.store.t.instances.get(vm.id)!.networkSuspended).toBe(false);
    expect((await command("unsuspend-network", { instance: vm.id }, t.anon)).status).toBe(403);
    expect((await command("suspend-network", { instance: "9007199254740993" }, t.staff)).status).toBe(404);
    expect((await command("suspend-network", {}, t.staff)).status).toBe(400);
  });
});
