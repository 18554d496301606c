/**
 * Field by field on both faces, in process (tests/support/inProcess.ts): a replacement for every
 * replace field of Instance, Disk, Vpc and FirewallRule (each resource's declaration changes in one
 * replace field), an in-place boot-device patch, and for every kind drift read and
 * reverted under the same id, deletion read as gone, adoption and failed creates deleted. The
 * refusals and each field's effect at preview are tests/unit/resources/{instance,disk,vpc,
 * firewallRule}.test.ts; tests/inprocess/{instance,disk,firewallRule,vpc}.test.ts prove the
 * in-place changes; the engine's own part (a refresh recording drift and dropping what is gone,
 * several resources' order) is tests/e2e/conformance.ts's.
 *
 * Cross-cutting, not split into the kinds' files (`npm run test:kind` does not run it): each case
 * is one step over all four kinds at once (every replacement in one up, as the engine makes
 * independent changes; the rules need the instances as hosts; one loop per failed create), so its
 * rows split by kind would make each case four, each file its own hosts, and no case reads as one
 * kind's.
 */
import { CallError, describeEachFace, up, type Props, type Recorded, lastSeqOf, mutationsSince } from "../support/inProcess";

const GiB = 1024 ** 3;

/**
 * Each resource's replace field: its "after" declaration differs from its "before" in that field
 * alone, and the diff names it. Two name one more, which the declared one changes with: a PLAN
 * instance's recorded storage is its plan's, not the CUSTOM one declared, and a rule's remote
 * defaults to the whole address family (0.0.0.0/0, ::/0).
 */
const REPLACED: Record<string, string[]> = {
  "i-type": ["type", "storage"],
  "i-group": ["group"],
  "i-region": ["region"],
  "i-node": ["nodeId"],
  "i-image": ["imageId"],
  "i-ips": ["ips"],
  "i-dci": ["disableCloudInit"],
  "i-ws": ["workspaceId"],
  "d-region": ["region"],
  "d-ws": ["workspaceId"],
  "v-ws": ["workspaceId"],
  "f-instance": ["instanceId"],
  "f-type": ["type", "remote"],
  "f-protocol": ["protocol"],
  "f-action": ["action"],
  "f-portStart": ["portStart"],
  "f-portEnd": ["portEnd"],
  "f-remote": ["remote"],
  "f-local": ["local"],
  "f-bps": ["bpsLimit"],
  "f-pps": ["ppsLimit"],
  "f-priority": ["priority"],
  "f-description": ["description"],
};

const apiPath: Record<string, (id: string) => string> = {
  Instance: (id) => `/v1/instances/${id}`,
  Disk: (id) => `/v1/disks/${id}`,
  Vpc: (id) => `/v1/vpcs/${id}`,
  FirewallRule: (id) => `/v1/firewall-rules/${id}`,
};

describeEachFace("every replace field, and every kind's drift, adoption and failure", (ctx) => {
  const ids: Record<string, string> = {};
  const state: Record<string, Recorded> = {};
  const kinds: Record<string, string> = {};
  const api = () => ctx().emu.api;
  const status = async (p: string) => (await api().get(p)).status;
  const lastSeq = () => lastSeqOf(ctx().emu);
  const mutations = (since: number) => mutationsSince(ctx().emu, since);
  const upLogged = async (name: string, kind: string, declared: Props) => {
    const since = await lastSeq();
    const result = await up(ctx().face, kind, declared, state[name]);
    state[name] = result.now;
    kinds[name] = kind;
    return { ...result, mutations: await mutations(since) };
  };

  const plan = () => ({ planId: ids.small, region: "NA_01" });
  const custom = {
    type: "CUSTOM",
    group: "LIGHTNING",
    cpu: 1,
    memoryBytes: GiB,
    storage: [{ sizeBytes: 20 * GiB, boot: true }],
    region: "NA_01",
  };
  const rule = (args: Props) => ({ instanceId: state.host.id, type: "IPv4", protocol: "TCP", action: "ACCEPT", ...args });
  // firewallEnabled is declared, so it is managed: an out-of-band change to it is reverted.
  const host = () => ({ name: "host", ...plan(), firewallEnabled: false });

  /** name -> [kind, declaration before, declaration after] (made when the hosts' ids are known). */
  const batch = (): Record<string, [string, Props, Props]> => ({
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
    "f-instance": ["FirewallRule", rule({ portStart: 1 }), rule({ portStart: 1, instanceId: state.host2.id })],
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
  let declared: ReturnType<typeof batch>;

  beforeAll(async () => {
    const plans = (await api().get("/v1/plans", { limit: 100 })).body.items as Array<{ id: string; name: string }>;
    ids.small = plans.find((p) => p.name === "lightning-1")!.id;
    const images = (await api().get(`/v1/workspaces/${ctx().emu.workspaceId}/images`, { limit: 100 })).body.items as Array<{
      id: string;
      name: string;
    }>;
    ids.ubuntu = images.find((i) => i.name === "Ubuntu 24.04 LTS")!.id;
    ids.debian = images.find((i) => i.name === "Debian 12")!.id;
    ids.iso = images.find((i) => i.name === "Ubuntu 24.04 Live Server ISO")!.id;
    const nodes = (await ctx().emu.staff.get("/v1/nodes", { region: "NA_01", group: "LIGHTNING" })).body.items as Array<{ id: string }>;
    [ids.nodeA, ids.nodeB] = nodes.map((n) => n.id);
    ids.ws2 = (await api().post("/v1/workspaces", { name: "second-space" })).body.id;
    // Many instances, each with its default IPv4 and IPv6: lift the address quotas.
    for (const ws of [ctx().emu.workspaceId, ids.ws2]) {
      const quota = (await api().get(`/v1/workspaces/${ws}/quota`)).body;
      await ctx().emu.control.patch(`/_emulator/tables/workspaces/${ws}`, {
        quota: { ...quota, max_floating_ipv4: 100, max_floating_ipv6: 100, max_floating_ips: 200 },
      });
    }
  });

  it("creates one resource per replace field to be changed (and the hosts of the rules)", async () => {
    await upLogged("host", "Instance", host());
    await upLogged("host2", "Instance", { name: "host2", ...plan() });
    await upLogged("iso", "Instance", { name: "iso-boot", ...plan(), imageId: ids.iso, boot: "DISK" });
    declared = batch();
    const made = await Promise.all(
      Object.entries(declared).map(async ([name, [kind, before]]) => [name, (await upLogged(name, kind, before)).step]),
    );
    expect(made).toEqual(Object.keys(declared).map((name) => [name, "create"]));
    for (const [name, [kind]] of Object.entries(declared))
      expect({ name, status: await status(apiPath[kind](state[name].id)) }).toEqual({ name, status: 200 });
  });

  it("replaces each resource on a change of its replace field: new id, old one gone", async () => {
    // All at once, as one up of the engine would (they are independent); compared as one table, so a
    // failure names each resource that differs.
    const outcome = async ([name, [kind, , after]]: [string, [string, Props, Props]]) => {
      const before = state[name].id;
      const { step, diff, now } = await upLogged(name, kind, after);
      const statuses = { old: await status(apiPath[kind](before)), new: await status(apiPath[kind](now.id)), renewed: now.id !== before };
      return [name, { step, replaces: diff?.replaces, ...statuses }] as const;
    };
    const outcomes = Object.fromEntries(await Promise.all(Object.entries(declared).map(outcome)));
    expect(outcomes).toEqual(
      Object.fromEntries(
        Object.entries(REPLACED).map(([name, replaces]) => [name, { step: "replace", replaces, old: 404, new: 200, renewed: true }]),
      ),
    );
  });

  it("the replacements in another workspace are made there", async () => {
    expect((await api().get(`/v1/instances/${state["i-ws"].id}`)).body.workspace.id).toBe(ids.ws2);
    expect((await api().get(`/v1/vpcs/${state["v-ws"].id}`)).body.workspace.id).toBe(ids.ws2);
  });

  it("patches the boot device in place (same id)", async () => {
    const id = state.iso.id;
    const { step, now, mutations } = await upLogged("iso", "Instance", { name: "iso-boot", ...plan(), imageId: ids.iso, boot: "ISO" });
    expect({ step, id: now.id }).toEqual({ step: "update", id });
    expect(mutations.map((m) => [`${m.method} ${m.path}`, m.body])).toEqual([[`PATCH /v1/instances/${id}`, { boot: "ISO" }]]);
    expect((await api().get(`/v1/instances/${id}`)).body.boot).toBe("ISO");
  });

  it("a read finds out-of-band changes of a disk and an instance; the next up reverts them under the same ids", async () => {
    const disk = state["d-region"].id;
    const vm = state.host.id;
    await api().patch(`/v1/disks/${disk}`, { name: "renamed-disk" });
    await api().patch(`/v1/instances/${vm}`, { name: "renamed-host", firewall_enabled: true });
    for (const [name, outs] of [
      ["d-region", { name: "renamed-disk" }],
      ["host", { name: "renamed-host", firewallEnabled: true }],
    ] as const) {
      const read = await ctx().face.read(kinds[name], state[name].id, state[name].outs, state[name].inputs);
      expect(read).toMatchObject({ id: state[name].id, outs });
      state[name] = { ...state[name], outs: read.outs, ...(read.inputs ? { inputs: read.inputs } : {}) };
    }
    const d = await upLogged("d-region", "Disk", declared["d-region"][2]);
    expect({ step: d.step, id: d.now.id, mutations: d.mutations.map((m) => [`${m.method} ${m.path}`, m.body]) }).toEqual({
      step: "update",
      id: disk,
      mutations: [[`PATCH /v1/disks/${disk}`, { name: "d-region" }]],
    });
    const h = await upLogged("host", "Instance", host());
    expect({ step: h.step, id: h.now.id }).toEqual({ step: "update", id: vm });
    expect(h.mutations.map((m) => `${m.method} ${m.path}`)).toEqual([`PATCH /v1/instances/${vm}`]);
    expect(h.mutations[0].body).toMatchObject({ name: "host", firewall_enabled: false });
    expect((await api().get(`/v1/disks/${disk}`)).body.name).toBe("d-region");
    expect((await api().get(`/v1/instances/${vm}`)).body).toMatchObject({ name: "host", firewall_enabled: false });
  });

  it("a read of an instance, a disk and a firewall rule deleted outside Pulumi answers no id; the next up recreates them", async () => {
    const gone = { instance: state["i-dci"].id, disk: state["d-region"].id, rule: state["f-priority"].id };
    await ctx().emu.waitWorkflow((await api().delete(`/v1/instances/${gone.instance}`)).body.id);
    await ctx().emu.waitWorkflow((await api().delete(`/v1/disks/${gone.disk}`)).body.id);
    expect((await api().delete(`/v1/firewall-rules/${gone.rule}`)).status).toBe(200);
    for (const [name, id] of [
      ["i-dci", gone.instance],
      ["d-region", gone.disk],
      ["f-priority", gone.rule],
    ]) {
      expect({ name, read: (await ctx().face.read(kinds[name], id, state[name].outs, state[name].inputs)).id }).toEqual({ name, read: "" });
      delete state[name];
      const { step, now } = await upLogged(name, kinds[name], declared[name][2]);
      expect({ name, step, renewed: now.id !== id }).toEqual({ name, step: "create", renewed: true });
    }
  });

  it("adopts an existing instance and firewall rule, creating nothing", async () => {
    const made = await api().post(`/v1/workspaces/${ctx().emu.workspaceId}/instances`, {
      type: "PLAN",
      name: "hand-made",
      region: "NA_01",
      plan: BigInt(ids.small),
    });
    await ctx().emu.waitWorkflow(made.body.workflow.id);
    const madeRule = await api().post(`/v1/instances/${state.host.id}/firewall-rules`, {
      type: "IPv4",
      protocol: "TCP",
      action: "ACCEPT",
      port_start: 4242,
    });
    await ctx().emu.waitWorkflow(madeRule.body.workflow.id);
    const vm = await upLogged("adopted-vm", "Instance", { name: "now-managed", ...plan(), adoptId: made.body.resource.id });
    const fw = await upLogged("adopted-rule", "FirewallRule", { ...rule({ portStart: 4242 }), adoptId: madeRule.body.resource.id });
    expect(vm.now.id).toBe(made.body.resource.id);
    expect(fw.now.id).toBe(madeRule.body.resource.id);
    expect((await api().get(`/v1/instances/${made.body.resource.id}`)).body.name).toBe("now-managed");
    expect([...vm.mutations, ...fw.mutations].filter((m) => m.method === "POST")).toEqual([]);
  });

  it("deletes the FAILED object of each kind's failed create, keeping nothing, and the next up creates them", async () => {
    for (const p of ["/v1/workspaces/*/instances", "/v1/workspaces/*/disks", "/v1/instances/*/firewall-rules"])
      await ctx().emu.control.post("/_emulator/faults", { kind: "workflow", outcome: "FAILED", method: "POST", path: p, times: 1 });
    const bad: Array<[string, string, Props]> = [
      ["bad-vm", "Instance", { name: "bad-vm", ...plan() }],
      ["bad-disk", "Disk", { name: "bad-disk", size: GiB, backend: "LOCAL", region: "NA_01" }],
      ["bad-rule", "FirewallRule", rule({ portStart: 5353, protocol: "UDP" })],
    ];
    for (const [name, kind, args] of bad) {
      const err = await up(ctx().face, kind, args).then(
        () => new Error("expected the create to fail, but it succeeded"),
        (e: unknown) => e,
      );
      expect({ name, failed: err instanceof CallError }).toEqual({ name, failed: true });
      const { message, kept } = err as CallError;
      expect(message).toMatch(/create failed: workflow .* ended FAILED/);
      const id = new RegExp(
        `The ${kind} it made \\(id (\\d+)\\) ended FAILED.*?, which a later up would replace, so it was deleted`,
        "s",
      ).exec(message)?.[1];
      expect({ name, deleted: id, kept }).toEqual({ name, deleted: expect.stringMatching(/^\d+$/), kept: undefined });
      expect({ name, api: await status(apiPath[kind](id!)) }).toEqual({ name, api: 404 });
      const { now } = await upLogged(name, kind, args);
      expect({ name, renewed: now.id !== id, state: now.outs.state }).toEqual({ name, renewed: true, state: "AVAILABLE" });
    }
  });

  it("deletes everything it made, leaving nothing but the workspace it created through the API", async () => {
    // Rules before their instances; within a kind, all at once, as the engine deletes independent resources.
    for (const kind of ["FirewallRule", "Disk", "Instance", "Vpc"]) {
      const names = Object.keys(state).filter((name) => kinds[name] === kind);
      await Promise.all(names.map((name) => ctx().face.delete(kind, state[name].id, state[name].outs)));
      for (const name of names) delete state[name];
    }
    expect(state).toEqual({});
    // A deleted instance's addresses go back to the pool after a cool-down.
    await ctx().emu.control.post("/_emulator/clock", { advanceMs: 73 * 3_600_000 });
    const inventory = (await ctx().emu.control.get("/_emulator/inventory")).body as { resources: Record<string, unknown[]> };
    const left = Object.entries(inventory.resources).filter(([, rows]) => rows.length);
    expect(left.map(([table, rows]) => [table, rows.length])).toEqual([["workspaces", 1]]);
  });
});
