/**
 * Field by field, through the real engine: a replacement for every replace field of Instance,
 * Disk, Vpc and FirewallRule (each resource of a batch differs from its old self in exactly one
 * field, so one `up` proves them all), an in-place boot-device patch, and — for every kind at
 * once — refresh after out-of-band changes and deletions, adoption, and failed creates.
 *
 * Kinds: Instance, Disk, Vpc, FirewallRule (scripts/testsOf.js: this file is their end-to-end proof)
 */
import { ref, startE2E, type Declaration, type E2E } from "./harness";

jest.setTimeout(900_000);

const GiB = 1024 ** 3;

describe("every replace field, and every kind's drift, adoption and failure", () => {
  let e2e: E2E;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    e2e = await startE2E("fields");
    const api = e2e.emu.api;
    const plans = (await api.get("/v1/plans", { limit: 100 })).body.items as Array<{ id: string; name: string }>;
    ids.small = plans.find((p) => p.name === "lightning-1")!.id;
    const images = (await api.get(`/v1/workspaces/${e2e.emu.workspaceId}/images`, { limit: 100 })).body.items as Array<{
      id: string;
      name: string;
    }>;
    ids.ubuntu = images.find((i) => i.name === "Ubuntu 24.04 LTS")!.id;
    ids.debian = images.find((i) => i.name === "Debian 12")!.id;
    ids.iso = images.find((i) => i.name === "Ubuntu 24.04 Live Server ISO")!.id;
    const nodes = (await e2e.emu.staff.get("/v1/nodes", { region: "NA_01", group: "LIGHTNING" })).body.items as Array<{ id: string }>;
    [ids.nodeA, ids.nodeB] = nodes.map((n) => n.id);
    ids.ws2 = (await api.post("/v1/workspaces", { name: "second-space" })).body.id;
    // Many instances, each with its default IPv4 and IPv6: lift the address quotas.
    for (const ws of [e2e.emu.workspaceId, ids.ws2]) {
      const quota = (await api.get(`/v1/workspaces/${ws}/quota`)).body;
      await e2e.emu.control.patch(`/_emulator/tables/workspaces/${ws}`, {
        quota: { ...quota, max_floating_ipv4: 100, max_floating_ipv6: 100, max_floating_ips: 200 },
      });
    }
  });
  afterAll(async () => {
    await e2e?.stop();
  });

  const plan = () => ({ planId: ids.small, region: "NA_01" });
  const custom = {
    type: "CUSTOM",
    group: "LIGHTNING",
    cpu: 1,
    memoryBytes: GiB,
    storage: [{ sizeBytes: 20 * GiB, boot: true }],
    region: "NA_01",
  };
  const rule = (args: Record<string, unknown>) => ({
    instanceId: ref("host.id"),
    type: "IPv4",
    protocol: "TCP",
    action: "ACCEPT",
    ...args,
  });

  /** name -> [kind, args before, args after]: each "after" differs in exactly one replace field. */
  const batch = (): Record<string, [string, Record<string, unknown>, Record<string, unknown>]> => ({
    "i-type": ["Instance", { name: "i-type", ...plan() }, { name: "i-type", ...custom }],
    "i-group": ["Instance", { name: "i-group", ...custom }, { name: "i-group", ...custom, group: "RYZEN" }],
    "i-region": ["Instance", { name: "i-region", ...plan() }, { name: "i-region", ...plan(), region: "EU_01" }],
    "i-node": [
      "Instance",
      { name: "i-node", planId: ids.small, nodeId: ids.nodeA },
      { name: "i-node", planId: ids.small, nodeId: ids.nodeB },
    ],
    "i-image": ["Instance", { name: "i-image", ...plan(), imageId: ids.ubuntu }, { name: "i-image", ...plan(), imageId: ids.debian }],
    "i-ips": [
      "Instance",
      { name: "i-ips", ...plan(), ips: [{ family: "IPv4" }] },
      { name: "i-ips", ...plan(), ips: [{ family: "IPv4" }, { family: "IPv6" }] },
    ],
    "i-dci": ["Instance", { name: "i-dci", ...plan(), disableCloudInit: false }, { name: "i-dci", ...plan(), disableCloudInit: true }],
    "i-ws": ["Instance", { name: "i-ws", ...plan() }, { name: "i-ws", ...plan(), workspaceId: ids.ws2 }],
    "d-region": [
      "Disk",
      { name: "d-region", size: GiB, backend: "LOCAL", region: "NA_01" },
      { name: "d-region", size: GiB, backend: "LOCAL", region: "EU_01" },
    ],
    "d-ws": [
      "Disk",
      { name: "d-ws", size: GiB, backend: "LOCAL", region: "NA_01" },
      { name: "d-ws", size: GiB, backend: "LOCAL", region: "NA_01", workspaceId: ids.ws2 },
    ],
    "v-ws": [
      "Vpc",
      { name: "v-ws", description: "x", range: "10.60.0.0/16" },
      { name: "v-ws", description: "x", range: "10.60.0.0/16", workspaceId: ids.ws2 },
    ],
    "f-instance": ["FirewallRule", rule({ portStart: 1 }), rule({ portStart: 1, instanceId: ref("host2.id") })],
    "f-type": ["FirewallRule", rule({ portStart: 2 }), rule({ portStart: 2, type: "IPv6" })],
    "f-protocol": ["FirewallRule", rule({ portStart: 3 }), rule({ portStart: 3, protocol: "UDP" })],
    "f-action": ["FirewallRule", rule({ portStart: 4 }), rule({ portStart: 4, action: "DROP" })],
    "f-portStart": ["FirewallRule", rule({ portStart: 5 }), rule({ portStart: 6 })],
    "f-portEnd": ["FirewallRule", rule({ portStart: 1000, portEnd: 2000 }), rule({ portStart: 1000, portEnd: 3000 })],
    "f-remote": ["FirewallRule", rule({ portStart: 7, remote: "10.0.0.0/8" }), rule({ portStart: 7, remote: "192.168.0.0/16" })],
    "f-local": ["FirewallRule", rule({ portStart: 8, local: "10.1.0.0/16" }), rule({ portStart: 8, local: "10.2.0.0/16" })],
    "f-bps": ["FirewallRule", rule({ portStart: 9, bpsLimit: 1000 }), rule({ portStart: 9, bpsLimit: 2000 })],
    "f-pps": ["FirewallRule", rule({ portStart: 10, ppsLimit: 1000 }), rule({ portStart: 10, ppsLimit: 2000 })],
    "f-priority": ["FirewallRule", rule({ portStart: 11, priority: 10 }), rule({ portStart: 11, priority: 20 })],
    "f-description": ["FirewallRule", rule({ portStart: 12, description: "before" }), rule({ portStart: 12, description: "after" })],
  });
  const apiPath: Record<string, (id: string) => string> = {
    Instance: (id) => `/v1/instances/${id}`,
    Disk: (id) => `/v1/disks/${id}`,
    Vpc: (id) => `/v1/vpcs/${id}`,
    FirewallRule: (id) => `/v1/firewall-rules/${id}`,
  };

  let phase: "before" | "after" = "before";
  const extra: Declaration[] = [];
  const declaration = (): Declaration[] => [
    // firewallEnabled is declared, so it is managed: an out-of-band change to it is reverted.
    { type: "Instance", name: "host", args: { name: "host", ...plan(), firewallEnabled: false } },
    { type: "Instance", name: "host2", args: { name: "host2", ...plan() } },
    { type: "Instance", name: "iso", args: { name: "iso-boot", ...plan(), imageId: ids.iso, boot: phase === "after" ? "ISO" : "DISK" } },
    ...Object.entries(batch()).map(([name, [type, before, after]]) => ({ type, name, args: phase === "before" ? before : after })),
    ...extra,
  ];
  const status = async (path: string) => (await e2e.emu.api.get(path)).status;

  it("creates one resource per replace field to be changed (and hosts for the rules)", async () => {
    const result = await e2e.up(declaration());
    expect(result.summary.resourceChanges).toMatchObject({ create: 3 + Object.keys(batch()).length + 1 });
  });

  it("replaces each resource whose replace field changed, and patches the boot device in place", async () => {
    const before: Record<string, string> = {};
    for (const name of Object.keys(batch())) before[name] = await e2e.idOf(name);
    const isoId = await e2e.idOf("iso");
    phase = "after";
    const result = await e2e.up(declaration());
    expect(result.summary.resourceChanges).toMatchObject({ replace: Object.keys(batch()).length, update: 1 });
    for (const [name, [type]] of Object.entries(batch())) {
      const after = await e2e.idOf(name);
      expect({ name, changed: after !== before[name] }).toEqual({ name, changed: true });
      expect({ name, old: await status(apiPath[type](before[name])) }).toEqual({ name, old: 404 });
      expect({ name, new: await status(apiPath[type](after)) }).toEqual({ name, new: 200 });
    }
    expect(await e2e.idOf("iso")).toBe(isoId);
    expect((await e2e.emu.api.get(`/v1/instances/${isoId}`)).body.boot).toBe("ISO");
    expect((await e2e.emu.api.get(`/v1/instances/${await e2e.idOf("i-ws")}`)).body.workspace.id).toBe(ids.ws2);
  });

  it("refresh reads out-of-band changes of each kind, and the next up reverts them", async () => {
    const disk = await e2e.idOf("d-region");
    const host = await e2e.idOf("host");
    await e2e.emu.api.patch(`/v1/disks/${disk}`, { name: "renamed-disk" });
    await e2e.emu.api.patch(`/v1/instances/${host}`, { name: "renamed-host", firewall_enabled: true });
    await e2e.refresh();
    expect((await e2e.resource("d-region")).outputs.name).toBe("renamed-disk");
    expect((await e2e.resource("host")).outputs).toMatchObject({ name: "renamed-host", firewallEnabled: true });
    const result = await e2e.up(declaration());
    expect(result.summary.resourceChanges).toMatchObject({ update: 2 });
    expect((await e2e.emu.api.get(`/v1/disks/${disk}`)).body.name).toBe("d-region");
    expect((await e2e.emu.api.get(`/v1/instances/${host}`)).body).toMatchObject({ name: "host", firewall_enabled: false });
  });

  it("refresh drops an instance, a disk and a firewall rule deleted outside Pulumi; the next up recreates them", async () => {
    const gone = { instance: await e2e.idOf("i-dci"), disk: await e2e.idOf("d-region"), rule: await e2e.idOf("f-priority") };
    const del = await e2e.emu.api.delete(`/v1/instances/${gone.instance}`);
    await e2e.emu.waitWorkflow(del.body.id);
    await e2e.emu.waitWorkflow((await e2e.emu.api.delete(`/v1/disks/${gone.disk}`)).body.id);
    expect((await e2e.emu.api.delete(`/v1/firewall-rules/${gone.rule}`)).status).toBe(200);
    await e2e.refresh();
    const names = (await e2e.state()).map((r) => r.urn.split("::").pop());
    for (const n of ["i-dci", "d-region", "f-priority"]) expect(names).not.toContain(n);
    const result = await e2e.up(declaration());
    expect(result.summary.resourceChanges).toMatchObject({ create: 3 });
    expect(await e2e.idOf("i-dci")).not.toBe(gone.instance);
  });

  it("adopts an existing instance and firewall rule", async () => {
    const made = await e2e.emu.api.post(`/v1/workspaces/${e2e.emu.workspaceId}/instances`, {
      type: "PLAN",
      name: "hand-made",
      region: "NA_01",
      plan: BigInt(ids.small),
    });
    await e2e.emu.waitWorkflow(made.body.workflow.id);
    const host = await e2e.idOf("host");
    const madeRule = await e2e.emu.api.post(`/v1/instances/${host}/firewall-rules`, {
      type: "IPv4",
      protocol: "TCP",
      action: "ACCEPT",
      port_start: 4242,
    });
    await e2e.emu.waitWorkflow(madeRule.body.workflow.id);
    extra.push(
      { type: "Instance", name: "adopted-vm", args: { name: "now-managed", ...plan(), adoptId: made.body.resource.id } },
      { type: "FirewallRule", name: "adopted-rule", args: { ...rule({ portStart: 4242 }), adoptId: madeRule.body.resource.id } },
    );
    const since = await e2e.lastSeq();
    await e2e.up(declaration());
    expect(await e2e.idOf("adopted-vm")).toBe(made.body.resource.id);
    expect(await e2e.idOf("adopted-rule")).toBe(madeRule.body.resource.id);
    expect((await e2e.emu.api.get(`/v1/instances/${made.body.resource.id}`)).body.name).toBe("now-managed");
    expect((await e2e.mutations(since)).filter((m) => m.method === "POST")).toEqual([]);
  });

  it("deletes the FAILED object of each kind's failed create, keeping nothing in state or the API, and the next up creates them", async () => {
    for (const path of ["/v1/workspaces/*/instances", "/v1/workspaces/*/disks", "/v1/instances/*/firewall-rules"]) {
      await e2e.emu.control.post("/_emulator/faults", { kind: "workflow", outcome: "FAILED", method: "POST", path, times: 1 });
    }
    extra.push(
      { type: "Instance", name: "bad-vm", args: { name: "bad-vm", ...plan() } },
      { type: "Disk", name: "bad-disk", args: { name: "bad-disk", size: GiB, backend: "LOCAL", region: "NA_01" } },
      { type: "FirewallRule", name: "bad-rule", args: rule({ portStart: 5353, protocol: "UDP" }) },
    );
    const message = await e2e.upFails(declaration(), { continueOnError: true });
    expect(message).toMatch(/ended FAILED/);
    const failed: Record<string, string> = {};
    for (const [name, kind] of [
      ["bad-vm", "Instance"],
      ["bad-disk", "Disk"],
      ["bad-rule", "FirewallRule"],
    ]) {
      const id = new RegExp(`The ${kind} it made \\(id (\\d+)\\) ended FAILED.*?, which a later up would replace, so it was deleted`).exec(
        message,
      )?.[1];
      expect({ name, deleted: id }).toEqual({ name, deleted: expect.stringMatching(/^\d+$/) });
      expect({ name, inState: (await e2e.state()).some((r) => r.urn.endsWith(`::${name}`)) }).toEqual({ name, inState: false });
      expect({ name, api: await status(apiPath[kind](id!)) }).toEqual({ name, api: 404 });
      failed[name] = id!;
    }
    const result = await e2e.up(declaration());
    expect(result.summary.resourceChanges).toMatchObject({ create: 3 });
    for (const [name, kind] of [
      ["bad-vm", "Instance"],
      ["bad-disk", "Disk"],
      ["bad-rule", "FirewallRule"],
    ]) {
      const r = await e2e.resource(name);
      expect(r.id).not.toBe(failed[name]);
      expect(r.outputs.state).toBe("AVAILABLE");
      expect(await status(apiPath[kind](failed[name]))).toBe(404);
    }
  });

  it("destroy leaves nothing but the workspace it created through the API", async () => {
    await e2e.destroy();
    const inventory = await e2e.inventoryTotal();
    const left = Object.entries(inventory.resources).filter(([, rows]) => rows.length);
    expect(left.map(([table, rows]) => [table, rows.length])).toEqual([["workspaces", 1]]);
  });
});
