/**
 * Instance on both faces, in process (tests/support/inProcess.ts): created with a disk and a
 * firewall rule on it and VPC membership, every updateRequest and command field changed in place
 * in the requests the spec names (name and settings, a plan upgrade, a staged CUSTOM upgrade,
 * power, VPCs), a replace field recreating, drift read and put back under the same id, a failed
 * create deleted, a locked scheduled deletion refused. The disk's and the rule's own cases are
 * disk.test.ts and firewallRule.test.ts (tests/inprocess/support/compute.ts: what the three
 * share); every replace field is fields.test.ts. The refusals at preview are
 * tests/unit/resources/instance.test.ts; the engine's own part (a preview that fails writes
 * nothing, a replacement's order) is tests/e2e/conformance.ts.
 */
import { CallError, describeEachFace } from "../support/inProcess";
import { GiB, computeHarness } from "./support/compute";

describeEachFace("Instance, with a disk and a firewall rule on it", (ctx) => {
  const { ids, state, api, get, upLogged, vm1, vm2, disk, rule, setup, declareVm1, declareOnVm1, replacesOnChange } = computeHarness(ctx);

  beforeAll(setup);

  it("creates instances (PLAN and CUSTOM), an attached disk, a firewall rule and VPC membership", async () => {
    declareVm1();
    expect((await upLogged("vm1", "Instance", vm1)).step).toBe("create");
    expect((await upLogged("vm2", "Instance", vm2)).step).toBe("create");
    declareOnVm1();
    await upLogged("data", "Disk", disk);
    await upLogged("ssh", "FirewallRule", rule);
    const api1 = await get(`/v1/instances/${state.vm1.id}`);
    expect(api1).toMatchObject({ state: "AVAILABLE", online: true, firewall_enabled: true, plan: { id: ids.plan2 } });
    expect(api1.vpcs.map((m: { id: string }) => m.id)).toEqual([ids.net]);
    expect((await get(`/v1/instances/${state.vm2.id}`)).cpu).toBe(2);
    expect((await get(`/v1/disks/${state.data.id}`)).instance.id).toBe(state.vm1.id);
    expect(await get(`/v1/firewall-rules/${state.ssh.id}`)).toMatchObject({ state: "AVAILABLE", port_start: 22, remote: "0.0.0.0/0" });
    expect(state.vm1.outs.ipv4Address).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    expect(Object.keys(state.vm1.outs.privateIps as object)).toEqual([ids.net]);
  });

  it("diffs the same declaration as no change and sends no mutating request", async () => {
    for (const [name, kind, declared] of [
      ["vm1", "Instance", vm1],
      ["vm2", "Instance", vm2],
      ["data", "Disk", disk],
      ["ssh", "FirewallRule", rule],
    ] as const) {
      const { step, mutations } = await upLogged(name, kind, declared);
      expect({ name, step, mutations }).toEqual({ name, step: "same", mutations: [] });
    }
  });

  it("patches an instance's name and every setting in place, in one PATCH", async () => {
    const id = state.vm1.id;
    const now = await get(`/v1/instances/${id}`);
    const wanted = {
      name: "web-1a",
      firewall_enabled: !now.firewall_enabled,
      uefi: !now.uefi,
      secure_boot: !now.secure_boot,
      attach_virtio_cdb: !now.attach_virtio_cdb,
      sync_hostname: !now.sync_hostname,
      os_name: "Ubuntu (managed)",
    };
    Object.assign(vm1, {
      name: wanted.name,
      firewallEnabled: wanted.firewall_enabled,
      uefi: wanted.uefi,
      secureBoot: wanted.secure_boot,
      attachVirtioCdb: wanted.attach_virtio_cdb,
      syncHostname: wanted.sync_hostname,
      osName: wanted.os_name,
    });
    const { step, mutations, now: after } = await upLogged("vm1", "Instance", vm1);
    expect({ step, id: after.id }).toEqual({ step: "update", id });
    expect(mutations.map((m) => `${m.method} ${m.path}`)).toEqual([`PATCH /v1/instances/${id}`]);
    expect(mutations[0].body).toEqual(wanted);
    expect(await get(`/v1/instances/${id}`)).toMatchObject(wanted);
  });

  it("upgrades a PLAN instance in place and applies the upgrade when asked", async () => {
    const id = state.vm1.id;
    Object.assign(vm1, { planId: ids.plan4, applyUpgrades: true });
    const { step, mutations } = await upLogged("vm1", "Instance", vm1);
    expect(step).toBe("update");
    expect(mutations.map((m) => m.path)).toEqual(["/v1/commands/upgrade-instance", "/v1/commands/apply-upgrades"]);
    expect(await get(`/v1/instances/${id}`)).toMatchObject({ plan: { id: ids.plan4 }, pending_upgrades: false, cpu: 4, online: true });
  });

  it("stages an upgrade of an online CUSTOM instance without restarting it; staged hardware counts as declared", async () => {
    Object.assign(vm2, {
      cpu: 4,
      memoryBytes: 4 * GiB,
      bandwidth: { uploadBytesSec: 300_000_000, downloadBytesSec: 600_000_000 },
      storage: [{ sizeBytes: 30 * GiB, boot: true }],
    });
    const { step, mutations, now } = await upLogged("vm2", "Instance", vm2);
    expect(step).toBe("update");
    expect(mutations.map((m) => m.path)).toEqual(["/v1/commands/upgrade-instance"]);
    expect(mutations[0].body).toMatchObject({
      type: "CUSTOM",
      cpu: 4,
      memory: 4 * GiB,
      upload: 300_000_000,
      download: 600_000_000,
      disk: 30 * GiB,
    });
    expect(now.outs).toMatchObject({ cpu: 4, memoryBytes: 4 * GiB, pendingUpgrades: true });
    expect((await upLogged("vm2", "Instance", vm2)).step).toBe("same");
  });

  it("keeps the desired power state through the power command", async () => {
    const id = state.vm1.id;
    vm1.powerState = "stopped";
    let { mutations } = await upLogged("vm1", "Instance", vm1);
    expect(mutations).toEqual([expect.objectContaining({ path: `/v1/instances/${id}/power`, body: { action: "SHUTDOWN" } })]);
    expect((await get(`/v1/instances/${id}`)).online).toBe(false);
    vm1.powerState = "running";
    ({ mutations } = await upLogged("vm1", "Instance", vm1));
    expect(mutations[0]).toMatchObject({ body: { action: "POWER_ON" } });
    expect((await get(`/v1/instances/${id}`)).online).toBe(true);
  });

  it("detaches and re-attaches VPCs in place", async () => {
    const id = state.vm1.id;
    vm1.vpcIds = [];
    expect((await upLogged("vm1", "Instance", vm1)).step).toBe("update");
    expect((await get(`/v1/instances/${id}`)).vpcs).toEqual([]);
    vm1.vpcIds = [ids.net];
    const { mutations } = await upLogged("vm1", "Instance", vm1);
    expect(mutations).toEqual([expect.objectContaining({ method: "POST", path: `/v1/instances/${id}/vpcs` })]);
    expect((await get(`/v1/instances/${id}`)).vpcs.map((m: { id: string }) => m.id)).toEqual([ids.net]);
  });

  it.each([
    [
      "an instance's cloud-init",
      "vm2",
      "Instance",
      () => Object.assign(vm2, { cloudInit: "#cloud-config\npackages: [htop]\n" }),
      "cloudInit",
      (id: string) => `/v1/instances/${id}`,
    ],
  ])("replaces on a change of %s: new id, old one gone", async (_what, name, kind, change, field, path) => {
    await replacesOnChange(name, kind, change, field, path);
  });

  it("a read finds an out-of-band rename and power-off; the next up puts both back under the same id", async () => {
    const id = state.vm1.id;
    await api().patch(`/v1/instances/${id}`, { name: "renamed-by-hand" });
    const power = await api().post(`/v1/instances/${id}/power`, { action: "POWER_OFF" });
    await ctx().emu.waitWorkflow(power.body.id);
    const read = await ctx().face.read("Instance", id, state.vm1.outs, state.vm1.inputs);
    expect(read).toMatchObject({ id, outs: { name: "renamed-by-hand", powerState: "stopped" } });
    state.vm1 = { ...state.vm1, outs: read.outs, ...(read.inputs ? { inputs: read.inputs } : {}) };
    const { step, now } = await upLogged("vm1", "Instance", vm1);
    expect({ step, id: now.id }).toEqual({ step: "update", id });
    expect(await get(`/v1/instances/${id}`)).toMatchObject({ name: "web-1a", online: true });
  });

  it("deletes an instance whose create workflow failed, keeping nothing, and a second create makes it", async () => {
    await ctx().emu.control.post("/_emulator/faults", {
      kind: "workflow",
      outcome: "FAILED",
      method: "POST",
      path: "/v1/workspaces/*/instances",
      times: 1,
    });
    const flaky = { name: "flaky-1", planId: ids.plan2, region: "NA_01" };
    const err = (await upLogged("vm3", "Instance", flaky).catch((e: unknown) => e)) as CallError;
    expect(err).toBeInstanceOf(CallError);
    expect(err.message).toMatch(/Instance "flaky-1": create failed: workflow .* ended FAILED/);
    const failedId = /The Instance it made \(id (\d+)\) ended FAILED.*?, which a later up would replace, so it was deleted/s.exec(
      err.message,
    )?.[1];
    expect(failedId).toMatch(/^\d+$/);
    expect(err.kept).toBeUndefined(); // nothing for the engine to keep in state
    expect((await api().get(`/v1/instances/${failedId}`)).status).toBe(404);
    delete state.vm3;
    const { now } = await upLogged("vm3", "Instance", flaky);
    expect(now.id).not.toBe(failedId);
    expect(now.outs.state).toBe("AVAILABLE");
  });

  it("refuses a scheduled deletion while the instance is locked, naming the remedy; unlocked, schedules it", async () => {
    const id = state.vm3.id;
    await upLogged("vm3", "Instance", { name: "flaky-1", planId: ids.plan2, region: "NA_01", deletion: "scheduled" });
    await ctx().emu.control.patch(`/_emulator/tables/instances/${id}`, { locked: true });
    await expect(ctx().face.delete("Instance", id, state.vm3.outs)).rejects.toThrow(/is locked.*deletion: "immediate"/s);
    await ctx().emu.control.patch(`/_emulator/tables/instances/${id}`, { locked: false });
    await ctx().face.delete("Instance", id, state.vm3.outs);
    expect((await get(`/v1/instances/${id}`)).termination_scheduled_at).not.toBeNull();
    delete state.vm3;
  });

  it("deletes everything it made, leaving the inventory empty", async () => {
    for (const [name, kind] of [
      ["ssh", "FirewallRule"],
      ["data", "Disk"],
      ["vm1", "Instance"],
      ["vm2", "Instance"],
    ] as const) {
      await ctx().face.delete(kind, state[name].id, state[name].outs);
      delete state[name];
    }
    const vpc = (await api().get(`/v1/workspaces/${ctx().emu.workspaceId}/vpcs`)).body.items as Array<{ id: string }>;
    for (const v of vpc) await api().delete(`/v1/vpcs/${v.id}`);
    await ctx().emu.control.post("/_emulator/clock", { advanceMs: 73 * 3_600_000 });
    expect(((await ctx().emu.control.get("/_emulator/inventory")).body as { total: number }).total).toBe(0);
  });
});
