/**
 * Instance, Disk and FirewallRule (with a Vpc) through the real pulumi engine: every updateRequest and
 * command field changes in place, every replace field recreates, drift is read and repaired,
 * adoption, a failed create is kept and repaired, and destroy leaves nothing behind.
 *
 * Kinds: Instance, Disk, FirewallRule (scripts/testsOf.js: this file is their end-to-end proof)
 */
import { ref, startE2E, withReplaced, type Declaration, type E2E } from "./harness";

jest.setTimeout(900_000);

const GiB = 1024 ** 3;

describe("Instance, Disk and FirewallRule through the real pulumi engine", () => {
  let e2e: E2E;
  let plan2: string;
  let plan4: string;
  let ubuntu: string;

  beforeAll(async () => {
    e2e = await startE2E("compute");
    const plans = (await e2e.emu.api.get("/v1/plans", { limit: 100 })).body.items as Array<{ id: string; name: string }>;
    plan2 = plans.find((p) => p.name === "lightning-2")!.id;
    plan4 = plans.find((p) => p.name === "lightning-4")!.id;
    const images = (await e2e.emu.api.get(`/v1/workspaces/${e2e.emu.workspaceId}/images`, { name: "Ubuntu 24.04 LTS" })).body.items;
    ubuntu = images[0].id;
  });
  afterAll(async () => {
    await e2e?.stop();
  });

  // The declaration, changed step by step.
  const vm1: Record<string, unknown> = {
    name: "web-1",
    planId: "",
    region: "NA_01",
    imageId: "",
    firewallEnabled: true,
    vpcIds: [ref("net.id")],
  };
  const vm2: Record<string, unknown> = {
    name: "batch-1",
    type: "CUSTOM",
    group: "LIGHTNING",
    cpu: 2,
    memoryBytes: 2 * GiB,
    storage: [{ sizeBytes: 20 * GiB, boot: true }],
    region: "NA_01",
  };
  const disk: Record<string, unknown> = { name: "data", size: 10 * GiB, backend: "LOCAL", region: "NA_01", instanceId: ref("vm1.id") };
  const rule: Record<string, unknown> = {
    instanceId: ref("vm1.id"),
    type: "IPv4",
    protocol: "TCP",
    action: "ACCEPT",
    portStart: 22,
    description: "ssh",
  };
  const extra: Declaration[] = [];
  const declaration = (): Declaration[] => [
    { type: "Vpc", name: "net", args: { name: "compute-net", description: "compute", range: "10.8.0.0/16" } },
    { type: "Instance", name: "vm1", args: { ...vm1 } },
    { type: "Instance", name: "vm2", args: { ...vm2 } },
    { type: "Disk", name: "data", args: { ...disk } },
    { type: "FirewallRule", name: "ssh", args: { ...rule } },
    ...extra,
  ];
  const get = async (path: string) => (await e2e.emu.api.get(path)).body;
  /** Runs up and returns the mutating requests it made. */
  const upLogged = () => e2e.upLogged(declaration());

  it("creates instances (PLAN and CUSTOM), an attached disk, a firewall rule and VPC membership", async () => {
    vm1.planId = plan2;
    vm1.imageId = ubuntu;
    const result = await e2e.up(declaration());
    expect(result.summary.resourceChanges).toMatchObject({ create: 6 });
    const [v1, v2, d, r, net] = await Promise.all(["vm1", "vm2", "data", "ssh", "net"].map(e2e.idOf));
    const api1 = await get(`/v1/instances/${v1}`);
    expect(api1).toMatchObject({ state: "AVAILABLE", online: true, firewall_enabled: true, plan: { id: plan2 } });
    expect(api1.vpcs.map((m: { id: string }) => m.id)).toEqual([net]);
    expect((await get(`/v1/instances/${v2}`)).cpu).toBe(2);
    expect((await get(`/v1/disks/${d}`)).instance.id).toBe(v1);
    expect(await get(`/v1/firewall-rules/${r}`)).toMatchObject({ state: "AVAILABLE", port_start: 22, remote: "0.0.0.0/0" });
    const out1 = await e2e.outputsOf("vm1");
    expect(out1.ipv4Address).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    expect(Object.keys(out1.privateIps as object)).toEqual([net]);
  });

  it("previews no change and sends no mutating request", async () => {
    const since = await e2e.lastSeq();
    const preview = await e2e.preview(declaration());
    expect(preview.changeSummary).toEqual({ same: 6 });
    expect(await e2e.mutations(since)).toEqual([]);
  });

  it.each([
    ["a disk that would shrink", () => [{ type: "Disk", name: "data", args: { ...disk, size: 5 * GiB } }], /size.*cannot shrink/s],
    [
      "a port range without its start",
      () => [{ type: "FirewallRule", name: "ssh", args: { ...rule, portStart: undefined, portEnd: 80 } }],
      /portEnd needs portStart/,
    ],
    [
      "ports on ICMP",
      () => [{ type: "FirewallRule", name: "ssh", args: { ...rule, protocol: "ICMP" } }],
      /ports apply only to TCP and UDP/,
    ],
    [
      "bps and pps together",
      () => [{ type: "FirewallRule", name: "ssh", args: { ...rule, bpsLimit: 10, ppsLimit: 10 } }],
      /mutually exclusive/,
    ],
    [
      "an IPv6 remote on an IPv4 rule",
      () => [{ type: "FirewallRule", name: "ssh", args: { ...rule, remote: "2001:db8::/32" } }],
      /not an IPv4 CIDR/,
    ],
    ["a priority out of range", () => [{ type: "FirewallRule", name: "ssh", args: { ...rule, priority: 101 } }], /priority.*1 to 100/s],
    ["cpu on a PLAN instance", () => [{ type: "Instance", name: "vm1", args: { ...vm1, cpu: 4 } }], /cpu is for CUSTOM instances/],
    [
      "two boot disks",
      () => [
        {
          type: "Instance",
          name: "vm2",
          args: {
            ...vm2,
            storage: [
              { sizeBytes: GiB, boot: true },
              { sizeBytes: GiB, boot: true },
            ],
          },
        },
      ],
      /exactly one storage entry/,
    ],
  ])("preview rejects %s, naming the property and the rule, before any API call", async (_what, change, message) => {
    const decl = withReplaced(declaration(), change() as Declaration[]);
    const since = await e2e.lastSeq();
    await expect(e2e.preview(decl)).rejects.toThrow(message);
    expect(await e2e.mutations(since)).toEqual([]);
  });

  it("patches an instance's name and every setting in place, in one PATCH", async () => {
    const id = await e2e.idOf("vm1");
    // Flip every boolean setting from what the API holds now, so each one is a change.
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
    const { mutations } = await upLogged();
    expect(await e2e.idOf("vm1")).toBe(id);
    expect(mutations.map((m) => `${m.method} ${m.path}`)).toEqual([`PATCH /v1/instances/${id}`]);
    expect(mutations[0].body).toEqual(wanted);
    expect(await get(`/v1/instances/${id}`)).toMatchObject(wanted);
  });

  it("upgrades a PLAN instance in place and applies the upgrade when asked", async () => {
    const id = await e2e.idOf("vm1");
    Object.assign(vm1, { planId: plan4, applyUpgrades: true });
    const { mutations } = await upLogged();
    expect(await e2e.idOf("vm1")).toBe(id);
    expect(mutations.map((m) => m.path)).toEqual(["/v1/commands/upgrade-instance", "/v1/commands/apply-upgrades"]);
    expect(await get(`/v1/instances/${id}`)).toMatchObject({ plan: { id: plan4 }, pending_upgrades: false, cpu: 4, online: true });
  });

  it("stages an upgrade of an online CUSTOM instance (cpu, memory, bandwidth, boot disk growth) without restarting it", async () => {
    const id = await e2e.idOf("vm2");
    Object.assign(vm2, {
      cpu: 4,
      memoryBytes: 4 * GiB,
      bandwidth: { uploadBytesSec: 300_000_000, downloadBytesSec: 600_000_000 },
      storage: [{ sizeBytes: 30 * GiB, boot: true }],
    });
    const { mutations } = await upLogged();
    expect(await e2e.idOf("vm2")).toBe(id);
    expect(mutations.map((m) => m.path)).toEqual(["/v1/commands/upgrade-instance"]);
    expect(mutations[0].body).toMatchObject({
      type: "CUSTOM",
      cpu: 4,
      memory: 4 * GiB,
      upload: 300_000_000,
      download: 600_000_000,
      disk: 30 * GiB,
    });
    const out = await e2e.outputsOf("vm2");
    expect(out).toMatchObject({
      cpu: 4,
      memoryBytes: 4 * GiB,
      bandwidth: { uploadBytesSec: 300_000_000, downloadBytesSec: 600_000_000 },
      pendingUpgrades: true,
    });
    // Staged hardware counts as declared: nothing left to do.
    expect((await e2e.preview(declaration())).changeSummary).toEqual({ same: 6 });
  });

  it("rejects shrinking the boot disk at preview", async () => {
    const decl = declaration().map((d) =>
      d.name === "vm2" ? { ...d, args: { ...vm2, storage: [{ sizeBytes: 10 * GiB, boot: true }] } } : d,
    );
    await expect(e2e.preview(decl)).rejects.toThrow(/boot disk cannot shrink/);
  });

  it("keeps the desired power state through the power command", async () => {
    const id = await e2e.idOf("vm1");
    vm1.powerState = "stopped";
    let { mutations } = await upLogged();
    expect(mutations).toEqual([expect.objectContaining({ path: `/v1/instances/${id}/power`, body: { action: "SHUTDOWN" } })]);
    expect((await get(`/v1/instances/${id}`)).online).toBe(false);
    vm1.powerState = "running";
    ({ mutations } = await upLogged());
    expect(mutations[0]).toMatchObject({ body: { action: "POWER_ON" } });
    expect((await get(`/v1/instances/${id}`)).online).toBe(true);
    expect(await e2e.idOf("vm1")).toBe(id);
  });

  it("detaches and re-attaches VPCs in place", async () => {
    const id = await e2e.idOf("vm1");
    const net = await e2e.idOf("net");
    vm1.vpcIds = [];
    await e2e.up(declaration());
    expect((await get(`/v1/instances/${id}`)).vpcs).toEqual([]);
    vm1.vpcIds = [ref("net.id")];
    const { mutations } = await upLogged();
    expect(mutations).toEqual([expect.objectContaining({ method: "POST", path: `/v1/instances/${id}/vpcs` })]);
    expect((await get(`/v1/instances/${id}`)).vpcs.map((m: { id: string }) => m.id)).toEqual([net]);
  });

  it("renames, resizes and moves a disk between instances in place", async () => {
    const id = await e2e.idOf("data");
    const v2 = await e2e.idOf("vm2");
    Object.assign(disk, { name: "data-2", size: 20 * GiB, instanceId: ref("vm2.id") });
    const { mutations } = await upLogged();
    expect(await e2e.idOf("data")).toBe(id);
    expect(mutations.map((m) => `${m.method} ${m.path}`)).toEqual([
      `PATCH /v1/disks/${id}`,
      `POST /v1/disks/${id}/resize`,
      `POST /v1/disks/${id}/detach`,
      `POST /v1/disks/${id}/attach`,
    ]);
    expect(await get(`/v1/disks/${id}`)).toMatchObject({ name: "data-2", size: 20 * GiB, instance: { id: v2 } });
    disk.instanceId = null;
    await e2e.up(declaration());
    expect((await get(`/v1/disks/${id}`)).instance).toBeNull();
  });

  it.each([
    ["a disk's backend", "data", () => Object.assign(disk, { backend: "CEPH" }), (id: string) => `/v1/disks/${id}`],
    ["a firewall rule's port", "ssh", () => Object.assign(rule, { portStart: 2222 }), (id: string) => `/v1/firewall-rules/${id}`],
    [
      "an instance's cloud-init",
      "vm2",
      () => Object.assign(vm2, { cloudInit: "#cloud-config\npackages: [htop]\n" }),
      (id: string) => `/v1/instances/${id}`,
    ],
  ])("replaces on a change of %s: new id, old one gone", async (_what, name, change, path) => {
    const before = await e2e.idOf(name);
    change();
    const result = await e2e.up(declaration());
    expect(result.summary.resourceChanges).toMatchObject({ replace: 1 });
    const after = await e2e.idOf(name);
    expect(after).not.toBe(before);
    expect((await e2e.emu.api.get(path(before))).status).toBe(404);
    expect((await e2e.emu.api.get(path(after))).status).toBe(200);
  });

  it("refresh reads an out-of-band rename and power-off; the next up restores both", async () => {
    const id = await e2e.idOf("vm1");
    await e2e.emu.api.patch(`/v1/instances/${id}`, { name: "renamed-by-hand" });
    const power = await e2e.emu.api.post(`/v1/instances/${id}/power`, { action: "POWER_OFF" });
    await e2e.emu.waitWorkflow(power.body.id);
    await e2e.refresh();
    expect(await e2e.outputsOf("vm1")).toMatchObject({ name: "renamed-by-hand", powerState: "stopped" });
    await e2e.up(declaration());
    expect(await get(`/v1/instances/${id}`)).toMatchObject({ name: "web-1a", online: true });
  });

  it("refresh drops a firewall rule deleted outside Pulumi, and the next up recreates it", async () => {
    const id = await e2e.idOf("ssh");
    expect((await e2e.emu.api.delete(`/v1/firewall-rules/${id}`)).status).toBe(200);
    await e2e.refresh();
    expect((await e2e.state()).some((r) => r.urn.endsWith("::ssh"))).toBe(false);
    await e2e.up(declaration());
    expect(await e2e.idOf("ssh")).not.toBe(id);
  });

  it("adopts an existing disk and converges its name", async () => {
    const made = await e2e.emu.api.post(`/v1/workspaces/${e2e.emu.workspaceId}/disks`, {
      name: "legacy-disk",
      size: 5 * GiB,
      backend: "LOCAL",
      region: "NA_01",
    });
    await e2e.emu.waitWorkflow(made.body.workflow.id);
    extra.push({
      type: "Disk",
      name: "legacy",
      args: { name: "legacy-managed", size: 5 * GiB, backend: "LOCAL", region: "NA_01", adoptId: made.body.resource.id },
    });
    await e2e.up(declaration());
    expect(await e2e.idOf("legacy")).toBe(made.body.resource.id);
    expect((await get(`/v1/disks/${made.body.resource.id}`)).name).toBe("legacy-managed");
  });

  it("deletes an instance whose create workflow failed, keeping nothing, and the next up creates it", async () => {
    await e2e.emu.control.post("/_emulator/faults", {
      kind: "workflow",
      outcome: "FAILED",
      method: "POST",
      path: "/v1/workspaces/*/instances",
      times: 1,
    });
    extra.push({ type: "Instance", name: "vm3", args: { name: "flaky-1", planId: plan2, region: "NA_01" } });
    const message = await e2e.upFails(declaration());
    expect(message).toMatch(/Instance "flaky-1": create failed: workflow .* ended FAILED/);
    const failedId = /The Instance it made \(id (\d+)\) ended FAILED.*?, which a later up would replace, so it was deleted/.exec(
      message,
    )?.[1];
    expect(failedId).toMatch(/^\d+$/);
    expect((await e2e.state()).some((r) => r.urn.endsWith("::vm3"))).toBe(false);
    expect((await e2e.emu.api.get(`/v1/instances/${failedId}`)).status).toBe(404);
    const result = await e2e.up(declaration());
    expect(result.summary.resourceChanges).toMatchObject({ create: 1 });
    const repaired = await e2e.resource("vm3");
    expect(repaired.id).not.toBe(failedId);
    expect(repaired.outputs.state).toBe("AVAILABLE");
  });

  it("a scheduled deletion is refused while the instance is locked", async () => {
    const id = await e2e.idOf("vm3");
    extra[extra.length - 1].args = { ...extra[extra.length - 1].args, deletion: "scheduled" };
    await e2e.up(declaration());
    await e2e.emu.control.patch(`/_emulator/tables/instances/${id}`, { locked: true });
    extra.pop();
    const message = await e2e.upFails(declaration());
    expect(message).toMatch(/is locked.*deletion: "immediate"/s);
    await e2e.emu.control.patch(`/_emulator/tables/instances/${id}`, { locked: false });
    await e2e.up(declaration());
    expect((await get(`/v1/instances/${id}`)).termination_scheduled_at).not.toBeNull();
    expect((await e2e.state()).some((r) => r.urn.endsWith("::vm3"))).toBe(false);
  });

  it("destroy leaves the emulator's inventory empty", async () => {
    await e2e.destroy();
    // The scheduled termination of vm3 completes three days later.
    await e2e.emu.control.post("/_emulator/clock", { advanceMs: 73 * 3_600_000 });
    const inventory = await e2e.inventoryTotal();
    expect(inventory.total).toBe(0);
  });
});
