/**
 * Networking end to end: VpcAttachment, FloatingIp, FloatingIpAttachment, NetLoadBalancer,
 * NetLoadBalancerMember, BgpConfig and BgpPrefix (and the getNodes lookup) through the real
 * pulumi engine against the in-process emulator. One stack, run with the operator (staff) token:
 * creating and deleting load balancers is Administrator-only, and the emulator treats the
 * operator as OWNER in every workspace. Each test builds on the previous one's state.
 *
 * Kinds: VpcAttachment, FloatingIp, FloatingIpAttachment, NetLoadBalancer, NetLoadBalancerMember, BgpConfig, BgpPrefix (scripts/testsOf.js: this file is their end-to-end proof)
 */
import { markedSecret, plain, ref, secret, startE2E, type Declaration, type E2E, type LoggedRequest } from "./harness";

jest.setTimeout(900_000);

type Args = Record<string, unknown>;

describe("Networking resources through the real pulumi engine", () => {
  let e2e: E2E;
  let ws: string;
  let pc: string;
  let plan: string;

  beforeAll(async () => {
    e2e = await startE2E("network", { staff: true });
    ws = e2e.emu.workspaceId;
    plan = (await e2e.emu.api.get("/v1/plans", { name: "lightning-1" })).body.items.find(
      (p: { name: string }) => p.name === "lightning-1",
    ).id;
    pc = (await e2e.emu.staff.get("/v1/workspaces", { name: "private-cloud" })).body.items.find(
      (w: { name: string }) => w.name === "private-cloud",
    ).id;
  });
  afterAll(async () => {
    await e2e?.stop();
  });

  // The declaration, changed test by test.
  const att: Args = { instanceId: ref("vm1.id"), vpcId: ref("net.id") };
  const fip: Args = { family: "IPv4" };
  const fipAtt: Args = { ipId: ref("fip.id"), instanceId: ref("vm1.id") };
  const lb: Args = { name: "web-lb", address: "203.0.113.80" };
  const lb2: Args = { name: "moving-lb", address: "2001:DB8:0:0::50" };
  const member: Args = { loadBalancerId: ref("lb.id"), instanceId: ref("vm1.id") };
  let bgp: Args = { asn: 64512, password: secret("first-bgp-secret"), maxPrefixes: 3 };
  let pfx: Args = { prefix: "198.51.100.7/24", configId: ref("bgp.id") };
  let extra: Declaration[] = [];
  const lookups = (): Declaration[] => [
    { lookup: "getNodes", name: "wsNodes", args: {} },
    { lookup: "getNodes", name: "pcNodes", args: { workspaceId: pc } },
    { lookup: "getNodes", name: "platformNodes", args: { scope: "platform", region: "NA_01", group: "LIGHTNING" } },
    { lookup: "getNodes", name: "searchedNodes", args: { scope: "platform", q: "eu01" } },
  ];
  const resources = (): Declaration[] => [
    { type: "Vpc", name: "net", args: { name: "net-one", description: "first", range: "10.30.0.0/16" } },
    { type: "Vpc", name: "net2", args: { name: "net-two", description: "second", range: "10.31.0.0/16" } },
    { type: "Instance", name: "vm1", args: { name: "net-vm-1", planId: plan, region: "NA_01" } },
    { type: "Instance", name: "vm2", args: { name: "net-vm-2", planId: plan, region: "NA_01" } },
    { type: "VpcAttachment", name: "att", args: { ...att } },
    { type: "FloatingIp", name: "fip", args: { ...fip } },
    { type: "FloatingIpAttachment", name: "fipAtt", args: { ...fipAtt } },
    { type: "NetLoadBalancer", name: "lb", args: { ...lb } },
    { type: "NetLoadBalancer", name: "lb2", args: { ...lb2 } },
    { type: "NetLoadBalancerMember", name: "member", args: { ...member } },
    { type: "BgpConfig", name: "bgp", args: { ...bgp } },
    { type: "BgpPrefix", name: "pfx", args: { ...pfx } },
    ...extra,
  ];
  const declaration = (): Declaration[] => [...resources(), ...lookups()];
  const COUNT = 13; // 12 resources and the stack

  /** State values marked secret come back as an envelope holding the plaintext. */
  const get = async (path: string, query?: Record<string, string | number>) => (await e2e.emu.staff.get(path, query)).body;
  const status = async (path: string) => (await e2e.emu.staff.get(path)).status;
  const members = async (lbId: string) => ((await get(`/v1/net-lbs/${lbId}/instances`)).items as Array<{ id: string }>).map((m) => m.id);
  const vpcMembers = async (vpcId: string) => (await get(`/v1/vpcs/${vpcId}/instances`)).items as Array<{ id: string; ip: string }>;
  const prefixes = async () =>
    (await get(`/v1/workspaces/${ws}/bgp/prefixes`)).items as Array<{ id: bigint; prefix: string; enabled: boolean; community: string }>;
  const calls = (mutations: LoggedRequest[], path: string | RegExp) =>
    mutations.filter((m) => (typeof path === "string" ? m.path === path : path.test(m.path)));
  const upLogged = () => e2e.upLogged(declaration());
  const sameIds = async (names: string[]) => Object.fromEntries(await Promise.all(names.map(async (n) => [n, await e2e.idOf(n)])));

  it("creates every networking resource, with synthetic ids where the API has none", async () => {
    const result = await e2e.up(declaration());
    expect(result.summary.resourceChanges).toMatchObject({ create: COUNT });
    const [vm1, net, fipId, lbId, lb2Id] = await Promise.all(["vm1", "net", "fip", "lb", "lb2"].map(e2e.idOf));

    // VpcAttachment: id instance:vpc, the private address the API allocated.
    expect(await e2e.idOf("att")).toBe(`${vm1}:${net}`);
    const membership = (await vpcMembers(net)).find((m) => m.id === vm1)!;
    expect(membership.ip).toMatch(/^10\.30\./);
    expect(await e2e.outputsOf("att")).toMatchObject({ instanceId: vm1, vpcId: net, privateIp: membership.ip, instanceName: "net-vm-1" });

    // FloatingIp and its attachment (id = the IP's id).
    const ip = await get(`/v1/ips/${fipId}`);
    expect(ip).toMatchObject({ family: "IPv4", ddos: false, instance_id: vm1 });
    expect(await e2e.outputsOf("fip")).toMatchObject({ family: "IPv4", ddos: false, address: ip.address, workspaceId: ws });
    expect(await e2e.idOf("fipAtt")).toBe(fipId);
    expect(await e2e.outputsOf("fipAtt")).toMatchObject({ ipId: fipId, instanceId: vm1, address: ip.address });

    // Load balancers (created with the operator token) and the member (id lb:instance).
    expect(await get(`/v1/net-lbs/${lbId}`)).toMatchObject({ name: "web-lb", address: "203.0.113.80", owner: { id: ws } });
    expect((await get(`/v1/net-lbs/${lb2Id}`)).address).toBe("2001:db8::50");
    expect((await e2e.outputsOf("lb2")).address).toBe("2001:db8::50");
    expect(await e2e.idOf("member")).toBe(`${lbId}:${vm1}`);
    expect(await e2e.outputsOf("member")).toMatchObject({ state: "ACTIVE", instanceName: "net-vm-1" });
    expect(await members(lbId)).toEqual([vm1]);

    // BGP: the password is read back decrypted into a secret output, never stored in plain.
    const config = await get(`/v1/workspaces/${ws}/bgp`);
    expect(config).toMatchObject({ data: { asn: 64512, max_prefixes: 3, instance: null }, live: { password: "first-bgp-secret" } });
    expect(await e2e.idOf("bgp")).toBe(config.data.id);
    const bgpOut = await e2e.outputsOf("bgp");
    expect(bgpOut).toMatchObject({ asn: 64512, maxPrefixes: 3, instanceId: null });
    expect(markedSecret(bgpOut.password)).toBe(true);
    expect(plain(bgpOut.password)).toBe("first-bgp-secret");
    expect(await e2e.rawState()).not.toContain("first-bgp-secret");

    // BgpPrefix: the id is a bare JSON integer above 2^53; the state holds its exact digits.
    const pfxId = await e2e.idOf("pfx");
    expect(BigInt(pfxId)).toBeGreaterThan(2n ** 53n);
    const listed = await e2e.emu.staff.get(`/v1/workspaces/${ws}/bgp/prefixes`);
    expect(listed.text).toContain(`"id":${pfxId},`);
    expect(listed.body.items.map((p: { id: bigint }) => String(p.id))).toEqual([pfxId]);
    expect((await e2e.emu.control.get(`/_emulator/tables/bgpPrefixes/${pfxId}`)).body).toMatchObject({
      id: pfxId,
      prefix: "198.51.100.0/24",
    });
    expect(await e2e.outputsOf("pfx")).toMatchObject({
      prefix: "198.51.100.0/24",
      source: "MANUAL",
      enabled: true,
      community: "DEFAULT",
      configId: config.data.id,
    });

    // Lookups: nodes of the workspace (none: not a private cloud), of the private cloud, and the platform's.
    const out = await e2e.outputs();
    expect(out.wsNodes.value).toEqual([]);
    const pcNodes = (await get(`/v1/workspaces/${pc}/nodes`)).items;
    expect(out.pcNodes.value).toEqual(
      pcNodes.map((n: { id: string; name: string; group: string; region: string; cores: number; max_memory: number; flags: string[] }) => ({
        id: n.id,
        name: n.name,
        owner: { id: pc, name: "private-cloud" },
        group: n.group,
        region: n.region,
        maxMemory: n.max_memory,
        cores: n.cores,
        flags: n.flags,
      })),
    );
    expect(out.pcNodes.value).toHaveLength(1);
    const platform = (await get("/v1/nodes", { region: "NA_01", group: "LIGHTNING", limit: 1000 })).items.map((n: { id: string }) => n.id);
    expect(platform.length).toBeGreaterThan(1);
    expect(out.platformNodes.value.map((n: { id: string }) => n.id)).toEqual(platform);
    expect(out.platformNodes.value.every((n: { region: string; group: string }) => n.region === "NA_01" && n.group === "LIGHTNING")).toBe(
      true,
    );
    expect(out.searchedNodes.value.map((n: { name: string }) => n.name)).toEqual(
      (await get("/v1/nodes", { q: "eu01", limit: 1000 })).items.map((n: { name: string }) => n.name),
    );
    expect(out.searchedNodes.value.length).toBeGreaterThan(0);
  });

  it("previews no change and sends no mutating request", async () => {
    const since = await e2e.lastSeq();
    const preview = await e2e.preview(declaration());
    expect(preview.changeSummary).toEqual({ same: COUNT });
    expect(await e2e.mutations(since)).toEqual([]);
  });

  it.each([
    ["VpcAttachment", "att", { vpcId: "net-one" }, /vpcId.*must be the VPC id/s],
    ["FloatingIp", "fip", { family: "IPv5" }, /family.*must be IPv4 or IPv6/s],
    ["FloatingIpAttachment", "fipAtt", { instanceId: "vm-1" }, /instanceId.*must be the instance id/s],
    ["NetLoadBalancer", "lb", { address: "203.0.113.300" }, /address.*must be an IP address/s],
    ["NetLoadBalancerMember", "member", { loadBalancerId: "lb" }, /loadBalancerId.*must be the load balancer id/s],
    ["BgpConfig", "bgp", { asn: 0 }, /asn.*32-bit AS number/s],
    ["BgpPrefix", "pfx", { prefix: "198.51.100.0" }, /prefix.*with its length/s],
    ["BgpPrefix", "pfx", { community: "NO_EXPORT" }, /community.*DEFAULT or PROTECTED/s],
  ])("preview rejects a bad %s (%j), naming the property and the rule, before any API call", async (_kind, name, change, message) => {
    const decl = resources().map((d) => (d.name === name ? { ...d, args: { ...d.args, ...change } } : d));
    const since = await e2e.lastSeq();
    await expect(e2e.preview(decl)).rejects.toThrow(message);
    expect(await e2e.requests(since)).toEqual([]);
  });

  it("changes in place: moves a floating IP, patches balancers (owner too), the BGP session and a prefix", async () => {
    const before = await sameIds(["fipAtt", "lb", "lb2", "bgp", "pfx"]);
    const [vm1, vm2, fipId, lbId, lb2Id, pfxId] = await Promise.all(["vm1", "vm2", "fip", "lb", "lb2", "pfx"].map(e2e.idOf));
    fipAtt.instanceId = ref("vm2.id");
    Object.assign(lb, { name: "web-lb-2", address: "203.0.113.81" });
    lb2.ownerWorkspaceId = pc;
    bgp = { ...bgp, asn: 64513, password: secret("second-bgp-secret"), maxPrefixes: 5, instanceId: ref("vm1.id") };
    pfx = { ...pfx, enabled: false, community: "PROTECTED" };
    const { result, mutations } = await upLogged();
    expect(result.summary.resourceChanges).toMatchObject({ update: 5 });
    expect(await sameIds(Object.keys(before))).toEqual(before);

    expect(calls(mutations, /^\/v1\/commands\//).map((m) => [m.path, m.body])).toEqual([
      ["/v1/commands/detach-ip", { ip: fipId }],
      ["/v1/commands/attach-ip", { ip: fipId, instance: vm2 }],
    ]);
    expect((await get(`/v1/ips/${fipId}`)).instance_id).toBe(vm2);
    expect(calls(mutations, `/v1/workspaces/${ws}/net-lbs/${lbId}`)).toEqual([
      expect.objectContaining({ method: "PATCH", body: { name: "web-lb-2", address: "203.0.113.81" } }),
    ]);
    expect(calls(mutations, `/v1/workspaces/${ws}/net-lbs/${lb2Id}`)).toEqual([
      expect.objectContaining({ method: "PATCH", body: { owner: pc } }),
    ]);
    expect((await get(`/v1/net-lbs/${lb2Id}`)).owner.id).toBe(pc);
    expect(await e2e.outputsOf("lb2")).toMatchObject({ ownerWorkspaceId: pc, ownerWorkspaceName: "private-cloud" });
    expect(calls(mutations, `/v1/workspaces/${ws}/bgp`)).toEqual([
      expect.objectContaining({ method: "PATCH", body: { asn: 64513, password: "[masked]", instance_id: vm1, max_prefixes: 5 } }),
    ]);
    expect(await get(`/v1/workspaces/${ws}/bgp`)).toMatchObject({
      data: { asn: 64513, max_prefixes: 5, instance: { id: vm1 } },
      live: { password: "second-bgp-secret" },
    });
    // The PUT addresses the entry by the exact digits recorded in state.
    expect(calls(mutations, `/v1/workspaces/${ws}/bgp/prefixes/${pfxId}`)).toEqual([
      expect.objectContaining({
        method: "PUT",
        body: { prefix: "198.51.100.0/24", source: "MANUAL", enabled: false, community: "PROTECTED" },
      }),
    ]);
    expect(await prefixes()).toEqual([
      { id: BigInt(pfxId), prefix: "198.51.100.0/24", source: "MANUAL", enabled: false, community: "PROTECTED" },
    ]);
  });

  it("changes a prefix's CIDR in place, clears the BGP endpoint, and moves a balancer back", async () => {
    const [pfxId, lb2Id] = await Promise.all(["pfx", "lb2"].map(e2e.idOf));
    pfx = { ...pfx, prefix: "198.51.100.128/25" };
    bgp = { ...bgp, instanceId: null };
    lb2.ownerWorkspaceId = ws;
    const { result, mutations } = await upLogged();
    expect(result.summary.resourceChanges).toMatchObject({ update: 3 });
    expect(await e2e.idOf("pfx")).toBe(pfxId);
    expect(calls(mutations, `/v1/workspaces/${ws}/bgp/prefixes/${pfxId}`)[0].body).toMatchObject({ prefix: "198.51.100.128/25" });
    expect(calls(mutations, `/v1/workspaces/${ws}/bgp`)).toEqual([expect.objectContaining({ body: { instance_id: null } })]);
    expect((await get(`/v1/workspaces/${ws}/bgp`)).data.instance).toBeNull();
    // The balancer was in the private cloud: the PATCH goes through its owner's route then.
    expect(calls(mutations, `/v1/workspaces/${pc}/net-lbs/${lb2Id}`)).toEqual([
      expect.objectContaining({ method: "PATCH", body: { owner: ws } }),
    ]);
    expect((await get(`/v1/net-lbs/${lb2Id}`)).owner.id).toBe(ws);
    const since = await e2e.lastSeq();
    expect((await e2e.preview(declaration())).changeSummary).toEqual({ same: COUNT });
    expect(await e2e.mutations(since)).toEqual([]);
  });

  it("surfaces the API's refusals: a VPC of another workspace, and max_prefixes reached", async () => {
    const foreign = await e2e.emu.staff.post(`/v1/workspaces/${pc}/vpcs`, {
      name: "pc-net",
      description: "elsewhere",
      range: "10.77.0.0/16",
    });
    expect(foreign.status).toBe(201);
    extra = [{ type: "VpcAttachment", name: "foreign", args: { instanceId: ref("vm2.id"), vpcId: foreign.body.id } }];
    const message = await e2e.upFails(declaration());
    expect(message).toMatch(/VpcAttachment of instance .* refused the attachment .*same workspace/s);
    expect(await vpcMembers(foreign.body.id)).toEqual([]);

    bgp = { ...bgp, maxPrefixes: 1 };
    extra = [{ type: "BgpPrefix", name: "pfx2", args: { prefix: "192.0.2.0/24", configId: ref("bgp.id") } }];
    const refused = await e2e.upFails(declaration());
    expect(refused).toMatch(/BgpPrefix 192\.0\.2\.0\/24: .*400.*max_prefixes.*raise the BgpConfig's maxPrefixes/s);
    expect((await prefixes()).map((p) => p.prefix)).toEqual(["198.51.100.128/25"]);
    const names = (await e2e.state()).map((r) => r.urn.split("::").pop());
    expect(names).not.toContain("pfx2");
    expect(names).not.toContain("foreign");
    extra = [];
    bgp = { ...bgp, maxPrefixes: 5 };
    await e2e.up(declaration());
    expect((await get(`/v1/workspaces/${ws}/bgp`)).data.max_prefixes).toBe(5);
    expect((await e2e.emu.staff.delete(`/v1/vpcs/${foreign.body.id}`)).status).toBe(200);
  });

  it("replaces on a change of a replace field: new id, old one gone", async () => {
    const [vm1, vm2, net, net2, fipId, lbId] = await Promise.all(["vm1", "vm2", "net", "net2", "fip", "lb"].map(e2e.idOf));
    att.vpcId = ref("net2.id");
    fip.ddos = true;
    member.instanceId = ref("vm2.id");
    const { result } = await upLogged();
    // fip (ddos), fipAtt (ipId follows the new address), att (vpcId), member (instanceId).
    expect(result.summary.resourceChanges).toMatchObject({ replace: 4 });
    expect(await e2e.idOf("att")).toBe(`${vm1}:${net2}`);
    expect((await vpcMembers(net)).map((m) => m.id)).toEqual([]);
    expect((await vpcMembers(net2)).map((m) => m.id)).toEqual([vm1]);
    const newFip = await e2e.idOf("fip");
    expect(newFip).not.toBe(fipId);
    expect(await status(`/v1/ips/${fipId}`)).toBe(404);
    expect(await get(`/v1/ips/${newFip}`)).toMatchObject({ family: "IPv4", ddos: true, instance_id: vm2 });
    expect(await e2e.idOf("fipAtt")).toBe(newFip);
    expect(await e2e.idOf("member")).toBe(`${lbId}:${vm2}`);
    expect(await members(lbId)).toEqual([vm2]);

    // The other end of each membership (the instance of an attachment, the balancer of a member), and the family of an address.
    const lb2Id = await e2e.idOf("lb2");
    att.instanceId = ref("vm2.id");
    member.loadBalancerId = ref("lb2.id");
    Object.assign(fip, { family: "IPv6", ddos: false });
    const second = await e2e.up(declaration());
    expect(second.summary.resourceChanges).toMatchObject({ replace: 4 });
    const ipv6 = await e2e.idOf("fip");
    expect(ipv6).not.toBe(newFip);
    expect(await status(`/v1/ips/${newFip}`)).toBe(404);
    expect(await get(`/v1/ips/${ipv6}`)).toMatchObject({ family: "IPv6", ddos: false, instance_id: vm2 });
    expect(await e2e.idOf("fipAtt")).toBe(ipv6);
    expect(await e2e.idOf("att")).toBe(`${vm2}:${net2}`);
    expect((await vpcMembers(net2)).map((m) => m.id)).toEqual([vm2]);
    expect(await e2e.idOf("member")).toBe(`${lb2Id}:${vm2}`);
    expect(await members(lbId)).toEqual([]);
    expect(await members(lb2Id)).toEqual([vm2]);
  });

  it("refresh reads out-of-band changes, and the next up puts the declaration back", async () => {
    const [vm2, fipId, lbId, pfxId] = await Promise.all(["vm2", "fip", "lb", "pfx"].map(e2e.idOf));
    const api = e2e.emu.api;
    expect((await api.post(`/v1/commands/detach-ip`, { ip: BigInt(fipId) })).status).toBe(200);
    expect((await api.patch(`/v1/workspaces/${ws}/net-lbs/${lbId}`, { name: "renamed-by-hand" })).status).toBe(200);
    expect((await api.patch(`/v1/workspaces/${ws}/bgp`, { password: "changed-by-hand" })).status).toBe(200);
    expect(
      (
        await api.put(`/v1/workspaces/${ws}/bgp/prefixes/${pfxId}`, {
          prefix: "198.51.100.128/25",
          source: "MANUAL",
          enabled: true,
          community: "PROTECTED",
        })
      ).status,
    ).toBe(200);
    await e2e.refresh();
    expect((await e2e.outputsOf("fipAtt")).instanceId).toBeNull();
    expect((await e2e.outputsOf("lb")).name).toBe("renamed-by-hand");
    expect(plain((await e2e.outputsOf("bgp")).password)).toBe("changed-by-hand");
    expect((await e2e.outputsOf("pfx")).enabled).toBe(true);
    const { result, mutations } = await upLogged();
    expect(result.summary.resourceChanges).toMatchObject({ update: 4 });
    expect(calls(mutations, /^\/v1\/commands\//).map((m) => m.path)).toEqual(["/v1/commands/attach-ip"]);
    expect((await get(`/v1/ips/${fipId}`)).instance_id).toBe(vm2);
    expect((await get(`/v1/net-lbs/${lbId}`)).name).toBe("web-lb-2");
    expect((await get(`/v1/workspaces/${ws}/bgp`)).live.password).toBe("second-bgp-secret");
    expect((await prefixes())[0].enabled).toBe(false);
    expect(await e2e.rawState()).not.toContain("changed-by-hand");
  });

  it("refresh drops what was deleted outside Pulumi (a BGP configuration takes its prefixes along)", async () => {
    const [vm2, net2, fipId, lbId, lb2Id] = await Promise.all(["vm2", "net2", "fip", "lb", "lb2"].map(e2e.idOf));
    const api = e2e.emu.api;
    expect((await api.delete(`/v1/instances/${vm2}/vpcs/${net2}`)).status).toBe(200);
    expect((await api.post(`/v1/commands/detach-ip`, { ip: BigInt(fipId) })).status).toBe(200);
    expect((await api.delete(`/v1/ips/${fipId}`)).status).toBe(204);
    expect((await e2e.emu.staff.delete(`/v1/net-lbs/${lbId}`)).status).toBe(202);
    expect((await api.delete(`/v1/workspaces/${ws}/net-lbs/${lb2Id}/instances/${vm2}`)).status).toBe(202);
    await e2e.emu.waitFor(`/v1/workspaces/${ws}/net-lbs/${lb2Id}/instances`, (b: { items: unknown[] }) => b.items.length === 0);
    expect((await api.delete(`/v1/workspaces/${ws}/bgp`)).status).toBe(200);
    await e2e.refresh();
    const names = (await e2e.state()).map((r) => r.urn.split("::").pop());
    for (const gone of ["att", "fip", "fipAtt", "lb", "member", "bgp", "pfx"]) expect(names).not.toContain(gone);
    expect(names).toEqual(expect.arrayContaining(["net", "net2", "vm1", "vm2", "lb2"]));
  });

  it("recreates them even when every create answer is lost: each found and adopted, none duplicated", async () => {
    const drops: Array<[string, string]> = [
      ["POST", "/v1/instances/*/vpcs"],
      ["POST", "/v1/workspaces/*/ips"],
      ["POST", "/v1/commands/attach-ip"],
      ["POST", "/v1/net-lbs"],
      ["PUT", "/v1/workspaces/*/net-lbs/*/instances/*"],
      ["PATCH", "/v1/workspaces/*/bgp"],
      ["POST", "/v1/workspaces/*/bgp/prefixes"],
    ];
    for (const [method, path] of drops) await e2e.emu.control.post("/_emulator/faults", { kind: "drop", method, path, times: 1 });
    const { result, mutations } = await upLogged();
    expect(result.summary.resourceChanges).toMatchObject({ create: 7 });
    // Every answer was lost (the emulator logs a dropped request with status 0).
    expect(mutations.filter((m) => m.status === 0)).toHaveLength(drops.length);
    const [vm2, net2, fipId, lbId, lb2Id, bgpId, pfxId] = await Promise.all(
      ["vm2", "net2", "fip", "lb", "lb2", "bgp", "pfx"].map(e2e.idOf),
    );
    // One POST each: the lost answers were recovered by looking the resource up, not by sending again.
    expect(calls(mutations, `/v1/instances/${vm2}/vpcs`)).toHaveLength(1);
    expect(calls(mutations, `/v1/workspaces/${ws}/ips`)).toHaveLength(1);
    expect(calls(mutations, "/v1/commands/attach-ip")).toHaveLength(1);
    expect(calls(mutations, "/v1/net-lbs")).toHaveLength(1);
    expect(calls(mutations, `/v1/workspaces/${ws}/bgp/prefixes`)).toHaveLength(1);
    // PUT and PATCH are idempotent: the client sends them again.
    expect(calls(mutations, `/v1/workspaces/${ws}/net-lbs/${lb2Id}/instances/${vm2}`).length).toBeGreaterThanOrEqual(1);
    expect(calls(mutations, `/v1/workspaces/${ws}/bgp`).length).toBeGreaterThanOrEqual(1);

    expect(await e2e.idOf("att")).toBe(`${vm2}:${net2}`);
    expect((await vpcMembers(net2)).map((m) => m.id)).toEqual([vm2]);
    const ips = (await get(`/v1/workspaces/${ws}/ips`, { family: "IPv6", limit: 100 })).items.filter(
      (ip: { instance_id: string | null }) => ip.instance_id === vm2,
    );
    expect(ips.map((ip: { id: string; address: string }) => ip.id)).toContain(fipId);
    expect(await get(`/v1/ips/${fipId}`)).toMatchObject({ family: "IPv6", instance_id: vm2 });
    expect(await e2e.idOf("fipAtt")).toBe(fipId);
    const lbs = (await get(`/v1/workspaces/${ws}/net-lbs`, { name: "web-lb-2" })).items;
    expect(lbs.map((l: { id: string }) => l.id)).toEqual([lbId]);
    expect(await members(lb2Id)).toEqual([vm2]);
    expect((await get(`/v1/workspaces/${ws}/bgp`)).data.id).toBe(bgpId);
    expect((await prefixes()).map((p) => String(p.id))).toEqual([pfxId]);
    const inventory = await e2e.inventoryTotal();
    expect(inventory.resources.netLbs).toHaveLength(2);
    expect(inventory.resources.bgpConfigs).toHaveLength(1);
    expect(inventory.resources.bgpPrefixes).toHaveLength(1);
    const since = await e2e.lastSeq();
    expect((await e2e.preview(declaration())).changeSummary).toEqual({ same: COUNT });
    expect(await e2e.mutations(since)).toEqual([]);
  });

  it("refuses to take over an existing BGP configuration, naming it for adoptId", async () => {
    const api = e2e.emu.api;
    // Replace the stack's configuration by one made by hand, with a prefix.
    expect((await api.delete(`/v1/workspaces/${ws}/bgp`)).status).toBe(200);
    const made = await api.patch(`/v1/workspaces/${ws}/bgp`, { asn: 65000, max_prefixes: 4, password: "hand-made-secret" });
    expect(made.status).toBe(200);
    const handPrefix = await api.post(`/v1/workspaces/${ws}/bgp/prefixes`, {
      prefix: "198.51.100.128/25",
      source: "MANUAL",
      enabled: true,
      community: "DEFAULT",
    });
    expect(handPrefix.status).toBe(201);
    await e2e.refresh();
    const since = await e2e.lastSeq();
    const message = await e2e.upFails(declaration());
    expect(message).toMatch(new RegExp(`already has a BGP configuration \\(id ${made.body.data.id}.*adoptId: "${made.body.data.id}"`, "s"));
    expect(calls(await e2e.mutations(since), `/v1/workspaces/${ws}/bgp`)).toEqual([]);
    expect((await get(`/v1/workspaces/${ws}/bgp`)).data.asn).toBe(65000);
  });

  it("adopts existing resources of every kind by adoptId and converges them", async () => {
    const api = e2e.emu.api;
    const [vm1, vm2, net] = await Promise.all(["vm1", "vm2", "net"].map(e2e.idOf));
    const config = (await get(`/v1/workspaces/${ws}/bgp`)).data.id as string;
    const handPrefix = String((await prefixes())[0].id);
    expect((await api.post(`/v1/instances/${vm1}/vpcs`, { vpc: BigInt(net) })).status).toBe(201);
    const ip = (await api.post(`/v1/workspaces/${ws}/ips`, { family: "IPv4" })).body;
    expect((await api.post(`/v1/commands/attach-ip`, { ip: BigInt(ip.id), instance: BigInt(vm2) })).status).toBe(200);
    const legacy = (await e2e.emu.staff.post(`/v1/net-lbs`, { name: "legacy-lb", address: "203.0.113.90", owner: BigInt(ws) })).body;
    expect((await api.put(`/v1/workspaces/${ws}/net-lbs/${legacy.id}/instances/${vm1}`)).status).toBe(202);
    await e2e.emu.waitFor(`/v1/workspaces/${ws}/net-lbs/${legacy.id}/instances`, (b: { items: unknown[] }) => b.items.length === 1);

    bgp = { ...bgp, adoptId: config };
    pfx = { ...pfx, adoptId: handPrefix };
    extra = [
      { type: "VpcAttachment", name: "attAdopted", args: { instanceId: ref("vm1.id"), vpcId: ref("net.id"), adoptId: `${vm1}:${net}` } },
      { type: "FloatingIp", name: "fipAdopted", args: { family: "IPv4", adoptId: ip.id } },
      {
        type: "FloatingIpAttachment",
        name: "fipAttAdopted",
        args: { ipId: ref("fipAdopted.id"), instanceId: ref("vm1.id"), adoptId: ip.id },
      },
      { type: "NetLoadBalancer", name: "lbAdopted", args: { name: "legacy-lb-managed", address: "203.0.113.90", adoptId: legacy.id } },
      {
        type: "NetLoadBalancerMember",
        name: "memberAdopted",
        args: { loadBalancerId: ref("lbAdopted.id"), instanceId: ref("vm1.id"), adoptId: `${legacy.id}:${vm1}` },
      },
    ];
    const { result, mutations } = await upLogged();
    expect(result.summary.resourceChanges).toMatchObject({ create: 7 });
    // Nothing was created: no POST that allocates, no PUT of a member, no PATCH creating a configuration.
    expect(mutations.filter((m) => m.method === "POST" && !m.path.startsWith("/v1/commands/"))).toEqual([]);
    expect(mutations.filter((m) => m.method === "PUT" && m.path.includes("/net-lbs/"))).toEqual([]);
    expect(await e2e.idOf("bgp")).toBe(config);
    expect(await e2e.idOf("pfx")).toBe(handPrefix);
    expect(await e2e.idOf("attAdopted")).toBe(`${vm1}:${net}`);
    expect(await e2e.idOf("fipAdopted")).toBe(ip.id);
    expect(await e2e.idOf("fipAttAdopted")).toBe(ip.id);
    expect(await e2e.idOf("lbAdopted")).toBe(legacy.id);
    expect(await e2e.idOf("memberAdopted")).toBe(`${legacy.id}:${vm1}`);
    // Converged to the declaration.
    expect(calls(mutations, /^\/v1\/commands\//).map((m) => m.path)).toEqual(["/v1/commands/detach-ip", "/v1/commands/attach-ip"]);
    expect((await get(`/v1/ips/${ip.id}`)).instance_id).toBe(vm1);
    expect((await get(`/v1/net-lbs/${legacy.id}`)).name).toBe("legacy-lb-managed");
    expect(await get(`/v1/workspaces/${ws}/bgp`)).toMatchObject({
      data: { asn: 64513, max_prefixes: 5 },
      live: { password: "second-bgp-secret" },
    });
    expect(await prefixes()).toEqual([
      { id: BigInt(handPrefix), prefix: "198.51.100.128/25", source: "MANUAL", enabled: false, community: "PROTECTED" },
    ]);
    expect(await e2e.outputsOf("attAdopted")).toMatchObject({ instanceId: vm1, vpcId: net });
    expect(await e2e.outputsOf("memberAdopted")).toMatchObject({ state: "ACTIVE" });
    const since = await e2e.lastSeq();
    expect((await e2e.preview(declaration())).changeSummary).toEqual({ same: COUNT + 5 });
    expect(await e2e.mutations(since)).toEqual([]);
  });

  it("deletes a member whose join never applied (JOINING, which the next up would replace), and the next up creates it", async () => {
    const vm2 = await e2e.idOf("vm2");
    const legacy = await e2e.idOf("lbAdopted");
    await e2e.emu.control.post("/_emulator/faults", {
      kind: "workflow",
      outcome: "FAILED",
      method: "PUT",
      path: "/v1/workspaces/*/net-lbs/*/instances/*",
      times: 1,
    });
    extra.push({
      type: "NetLoadBalancerMember",
      name: "flaky",
      args: { loadBalancerId: ref("lbAdopted.id"), instanceId: ref("vm2.id"), timeouts: { create: "3s" } },
    });
    const message = await e2e.upFails(declaration());
    expect(message).toMatch(
      /NetLoadBalancerMember instance .* did not finish before its deadline.*The NetLoadBalancerMember it made \(id \d+:\d+\) ended JOINING, which a later up would replace, so it was deleted/s,
    );
    expect((await e2e.state()).some((r) => r.urn.endsWith("::flaky"))).toBe(false);
    // State and API agree: it is not a member.
    expect(await members(legacy)).toEqual([await e2e.idOf("vm1")]);
    const rows = (await e2e.inventoryTotal()).resources.netLbMembers as Array<{ name: string }>;
    expect(rows.map((r) => r.name).sort()).toEqual(
      [`instance ${await e2e.idOf("vm1")} in balancer ${legacy}`, `instance ${vm2} in balancer ${await e2e.idOf("lb2")}`].sort(),
    );
    const result = await e2e.up(declaration());
    expect(result.summary.resourceChanges).toMatchObject({ create: 1 });
    expect((await e2e.resource("flaky")).outputs.state).toBe("ACTIVE");
    expect((await members(legacy)).sort()).toEqual([await e2e.idOf("vm1"), vm2].sort());
  });

  it("destroy leaves the emulator's inventory empty", async () => {
    await e2e.destroy();
    const inventory = await e2e.inventoryTotal();
    for (const table of ["vpcMembers", "floatingIps", "netLbs", "netLbMembers", "bgpConfigs", "bgpPrefixes"])
      expect(inventory.resources[table] ?? []).toEqual([]);
    expect(inventory.total).toBe(0);
  });
});
