/**
 * VpcAttachment, FloatingIp, FloatingIpAttachment, NetLoadBalancer, NetLoadBalancerMember,
 * BgpConfig and BgpPrefix on both faces, in process (tests/support/inProcess.ts), with the
 * operator (staff) token: creating and deleting load balancers is Administrator-only, and the
 * emulator treats the operator as OWNER in every workspace. Proven here: creates checked against
 * the API (synthetic ids, a prefix id above 2^53 kept to its digits, the BGP password a secret
 * output on the plugin face), in-place changes with the exact requests, replacements (a dependent
 * following its floating IP in the engine's order), drift read and put back under the same id,
 * deletions read as gone, the API's refusals, lost create answers recovered without duplicates,
 * adoption of every kind, a member whose join never applied, and the getNodes lookup. Each case
 * builds on the previous one's state.
 *
 * Elsewhere: the refusals at preview are tests/unit/resources/<kind>.test.ts (those no unit test
 * names are checked below); getNodes called from a real program is the lookup path of
 * tests/e2e/lookups.test.ts; an output marked secret kept as ciphertext in the state file is
 * tests/e2e/access.test.ts and tests/e2e/conformance.ts (additionalSecretOutputs); the engine's
 * order of dependents (dependsOn, deleteBeforeReplace) is tests/e2e/conformance.ts.
 */
import {
  CallError,
  describeEachFace,
  opened,
  secret,
  up,
  type Props,
  type Recorded,
  lastSeqOf,
  requestsSince,
  type Logged,
} from "../support/inProcess";

describeEachFace(
  "Networking resources",
  (ctx) => {
    let ws: string;
    let pc: string;
    let vm1: string;
    let vm2: string;
    let net: string;
    let net2: string;
    const state: Record<string, Recorded> = {};
    const face = () => ctx().face;
    const staff = () => ctx().emu.staff;
    const get = async (path: string, query?: Record<string, string | number>) => (await staff().get(path, query)).body;
    const status = async (path: string) => (await staff().get(path)).status;
    const lastSeq = () => lastSeqOf(ctx().emu);
    const requests = async (since: number) => (await requestsSince(ctx().emu, since)).filter((r) => r.path.startsWith("/v1/"));
    const mutations = async (since: number) => (await requests(since)).filter((r) => r.method !== "GET");
    const calls = (logged: Logged[], path: string | RegExp) =>
      logged.filter((m) => (typeof path === "string" ? m.path === path : path.test(m.path)));
    /** One resource's up in the engine's order of calls; the mutating requests it made. */
    const upLogged = async (name: string, kind: string, declared: Props) => {
      const since = await lastSeq();
      const result = await up(face(), kind, declared, state[name]);
      state[name] = result.now;
      return { ...result, mutations: await mutations(since) };
    };
    /** The recorded outputs with secrets opened, and which of them were marked secret. */
    const outs = (name: string) => opened(state[name].outs).value as Props;
    const secretsOf = (name: string) => opened(state[name].outs).secrets;
    /** A program's secret input: the engine sends it as a secret to the plugin; the dynamic host takes plain values only. */
    const secretIn = (value: string) => (face().name === "plugin" ? secret(value) : value);
    const members = async (lbId: string) => ((await get(`/v1/net-lbs/${lbId}/instances`)).items as Array<{ id: string }>).map((m) => m.id);
    const vpcMembers = async (vpcId: string) => (await get(`/v1/vpcs/${vpcId}/instances`)).items as Array<{ id: string; ip: string }>;
    const prefixes = async () =>
      (await get(`/v1/workspaces/${ws}/bgp/prefixes`)).items as Array<{ id: bigint; prefix: string; enabled: boolean; community: string }>;
    /** A read as a refresh makes it, recorded as the engine records it (the plugin's inputs too). */
    const refresh = async (name: string, kind: string) => {
      const read = await face().read(kind, state[name].id, state[name].outs, state[name].inputs);
      if (read.id) state[name] = { ...state[name], outs: read.outs, ...(read.inputs ? { inputs: read.inputs } : {}) };
      else delete state[name];
      return read;
    };
    /**
     * A replacement a dependent follows, in the engine's order: the new object first, then the
     * dependents (their inputs name the new id), and the old object's delete last, once nothing
     * uses it (a floating IP still attached cannot be released).
     */
    const replaceBeforeDependents = async (name: string, kind: string, declared: Props) => {
      const old = state[name];
      const checked = await face().check(kind, declared, old.inputs);
      const inputs = opened(checked.inputs).value as Props;
      const diff = await face().diff(kind, old.id, old.outs, inputs, old.inputs);
      expect({ changes: diff.changes, deleteBeforeReplace: diff.deleteBeforeReplace }).toEqual({
        changes: true,
        deleteBeforeReplace: false,
      });
      const made = await face().create(kind, inputs);
      state[name] = { id: made.id, inputs, outs: made.outs };
      return { replaces: diff.replaces, deleteOld: () => face().delete(kind, old.id, old.outs) };
    };

    // The declaration, changed case by case (ids filled in before the first case).
    const att: Props = {};
    const fip: Props = { family: "IPv4" };
    const fipAtt: Props = {};
    const lb: Props = { name: "web-lb", address: "203.0.113.80" };
    const lb2: Props = { name: "moving-lb", address: "2001:DB8:0:0::50" };
    const member: Props = {};
    let bgp: Props = { asn: 64512, maxPrefixes: 3 };
    let pfx: Props = { prefix: "198.51.100.7/24" };
    const extra: Record<string, [kind: string, declared: Props]> = {};

    beforeAll(async () => {
      ws = ctx().emu.workspaceId;
      const plans = (await ctx().emu.api.get("/v1/plans", { name: "lightning-1" })).body.items as Array<{ id: string; name: string }>;
      const plan = plans.find((p) => p.name === "lightning-1")!.id;
      pc = ((await get("/v1/workspaces", { name: "private-cloud" })).items as Array<{ id: string; name: string }>).find(
        (w) => w.name === "private-cloud",
      )!.id;
      net = (await upLogged("net", "Vpc", { name: "net-one", description: "first", range: "10.30.0.0/16" })).now.id;
      net2 = (await upLogged("net2", "Vpc", { name: "net-two", description: "second", range: "10.31.0.0/16" })).now.id;
      vm1 = (await upLogged("vm1", "Instance", { name: "net-vm-1", planId: plan, region: "NA_01" })).now.id;
      vm2 = (await upLogged("vm2", "Instance", { name: "net-vm-2", planId: plan, region: "NA_01" })).now.id;
      Object.assign(att, { instanceId: vm1, vpcId: net });
      Object.assign(member, { instanceId: vm1 });
      bgp.password = secretIn("first-bgp-secret");
    });

    it("creates every networking resource, with synthetic ids where the API has none", async () => {
      await upLogged("att", "VpcAttachment", att);
      await upLogged("fip", "FloatingIp", fip);
      fipAtt.ipId = state.fip.id;
      fipAtt.instanceId = vm1;
      await upLogged("fipAtt", "FloatingIpAttachment", fipAtt);
      await upLogged("lb", "NetLoadBalancer", lb);
      await upLogged("lb2", "NetLoadBalancer", lb2);
      member.loadBalancerId = state.lb.id;
      await upLogged("member", "NetLoadBalancerMember", member);
      await upLogged("bgp", "BgpConfig", bgp);
      pfx.configId = state.bgp.id;
      await upLogged("pfx", "BgpPrefix", pfx);

      // VpcAttachment: id instance:vpc, the private address the API allocated.
      expect(state.att.id).toBe(`${vm1}:${net}`);
      const membership = (await vpcMembers(net)).find((m) => m.id === vm1)!;
      expect(membership.ip).toMatch(/^10\.30\./);
      expect(outs("att")).toMatchObject({ instanceId: vm1, vpcId: net, privateIp: membership.ip, instanceName: "net-vm-1" });

      // FloatingIp and its attachment (id = the IP's id).
      const ip = await get(`/v1/ips/${state.fip.id}`);
      expect(ip).toMatchObject({ family: "IPv4", ddos: false, instance_id: vm1 });
      expect(outs("fip")).toMatchObject({ family: "IPv4", ddos: false, address: ip.address, workspaceId: ws });
      expect(state.fipAtt.id).toBe(state.fip.id);
      expect(outs("fipAtt")).toMatchObject({ ipId: state.fip.id, instanceId: vm1, address: ip.address });

      // Load balancers (created with the operator token), the address as the API writes it, and the member (id lb:instance).
      expect(await get(`/v1/net-lbs/${state.lb.id}`)).toMatchObject({ name: "web-lb", address: "203.0.113.80", owner: { id: ws } });
      expect((await get(`/v1/net-lbs/${state.lb2.id}`)).address).toBe("2001:db8::50");
      expect(outs("lb2").address).toBe("2001:db8::50");
      expect(state.member.id).toBe(`${state.lb.id}:${vm1}`);
      expect(outs("member")).toMatchObject({ state: "ACTIVE", instanceName: "net-vm-1" });
      expect(await members(state.lb.id)).toEqual([vm1]);

      // BGP: the password is read back decrypted, and the plugin records it secret (the dynamic
      // face answers plain values: there the generated class names it in additionalSecretOutputs).
      const config = await get(`/v1/workspaces/${ws}/bgp`);
      expect(config).toMatchObject({ data: { asn: 64512, max_prefixes: 3, instance: null }, live: { password: "first-bgp-secret" } });
      expect(state.bgp.id).toBe(String(config.data.id));
      expect(outs("bgp")).toMatchObject({ asn: 64512, maxPrefixes: 3, instanceId: null, password: "first-bgp-secret" });
      expect(secretsOf("bgp")).toEqual(face().name === "plugin" ? ["password"] : []);

      // BgpPrefix: the id is a bare JSON integer above 2^53; the recorded id is its exact digits.
      const pfxId = state.pfx.id;
      expect(BigInt(pfxId)).toBeGreaterThan(2n ** 53n);
      const listed = await staff().get(`/v1/workspaces/${ws}/bgp/prefixes`);
      expect(listed.text).toContain(`"id":${pfxId},`);
      expect(listed.body.items.map((p: { id: bigint }) => String(p.id))).toEqual([pfxId]);
      expect((await ctx().emu.control.get(`/_emulator/tables/bgpPrefixes/${pfxId}`)).body).toMatchObject({
        id: pfxId,
        prefix: "198.51.100.0/24",
      });
      expect(outs("pfx")).toMatchObject({
        prefix: "198.51.100.0/24",
        source: "MANUAL",
        enabled: true,
        community: "DEFAULT",
        configId: state.bgp.id,
      });
    });

    it("getNodes answers the workspace's nodes (none), a private cloud's, and the platform's with filters", async () => {
      /** The plugin answers an invoke with an object, a list as { items }; a program's lookup returns the list. */
      const nodes = async (args: Props) => {
        const answer = await face().invoke("getNodes", args);
        if (face().name === "dynamic") return answer as Array<Record<string, unknown>>;
        expect(Object.keys(answer as object)).toEqual(["items"]);
        return (answer as { items: Array<Record<string, unknown>> }).items;
      };
      expect(await nodes({})).toEqual([]);
      const pcNodes = (await get(`/v1/workspaces/${pc}/nodes`)).items as Array<{
        id: string;
        name: string;
        group: string;
        region: string;
        cores: number;
        max_memory: number;
        flags: string[];
      }>;
      expect(pcNodes).toHaveLength(1);
      expect(await nodes({ workspaceId: pc })).toEqual(
        pcNodes.map((n) => ({
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
      const platform = (await get("/v1/nodes", { region: "NA_01", group: "LIGHTNING", limit: 1000 })).items.map(
        (n: { id: string }) => n.id,
      );
      expect(platform.length).toBeGreaterThan(1);
      const filtered = await nodes({ scope: "platform", region: "NA_01", group: "LIGHTNING" });
      expect(filtered.map((n) => n.id)).toEqual(platform);
      expect(filtered.every((n) => n.region === "NA_01" && n.group === "LIGHTNING")).toBe(true);
      const searched = await nodes({ scope: "platform", q: "eu01" });
      expect(searched.length).toBeGreaterThan(0);
      expect(searched.map((n) => n.name)).toEqual(
        (await get("/v1/nodes", { q: "eu01", limit: 1000 })).items.map((n: { name: string }) => n.name),
      );
    });

    it("diffs the same declarations as no change and sends no mutating request", async () => {
      for (const [name, kind, declared] of [
        ["att", "VpcAttachment", att],
        ["fip", "FloatingIp", fip],
        ["fipAtt", "FloatingIpAttachment", fipAtt],
        ["lb", "NetLoadBalancer", lb],
        ["lb2", "NetLoadBalancer", lb2],
        ["member", "NetLoadBalancerMember", member],
        ["bgp", "BgpConfig", bgp],
        ["pfx", "BgpPrefix", pfx],
      ] as const) {
        const { step, mutations } = await upLogged(name, kind, declared);
        expect({ name, step, mutations }).toEqual({ name, step: "same", mutations: [] });
      }
    });

    // The other rows of the preview table are the kinds' unit tests (vpcAttachment's instanceId,
    // floatingIp's family, netLoadBalancer's address, bgpConfig's asn, bgpPrefix's prefix and community).
    it.each([
      ["VpcAttachment", () => ({ ...att, vpcId: "net-one" }), "vpcId", /must be the VPC id/],
      ["FloatingIpAttachment", () => ({ ...fipAtt, instanceId: "vm-1" }), "instanceId", /must be the instance id/],
      ["NetLoadBalancerMember", () => ({ ...member, loadBalancerId: "lb" }), "loadBalancerId", /must be the load balancer id/],
    ])("check refuses a bad %s id, naming the property and the rule, before any API request", async (kind, declared, property, reason) => {
      const since = await lastSeq();
      const { failures } = await face().check(kind, declared());
      expect(failures).toEqual([{ property, reason: expect.stringMatching(reason) }]);
      expect(await requests(since)).toEqual([]);
    });

    it("changes in place: moves a floating IP, patches balancers (owner too), the BGP session and a prefix", async () => {
      const fipId = state.fip.id;
      const pfxId = state.pfx.id;
      fipAtt.instanceId = vm2;
      Object.assign(lb, { name: "web-lb-2", address: "203.0.113.81" });
      lb2.ownerWorkspaceId = pc;
      bgp = { ...bgp, asn: 64513, password: secretIn("second-bgp-secret"), maxPrefixes: 5, instanceId: vm1 };
      pfx = { ...pfx, enabled: false, community: "PROTECTED" };
      const logged: Logged[] = [];
      for (const [name, kind, declared] of [
        ["fipAtt", "FloatingIpAttachment", fipAtt],
        ["lb", "NetLoadBalancer", lb],
        ["lb2", "NetLoadBalancer", lb2],
        ["bgp", "BgpConfig", bgp],
        ["pfx", "BgpPrefix", pfx],
      ] as const) {
        const before = state[name].id;
        const { step, now, mutations } = await upLogged(name, kind, declared);
        expect({ name, step, id: now.id }).toEqual({ name, step: "update", id: before });
        logged.push(...mutations);
      }

      expect(logged.map((m) => `${m.method} ${m.path}`)).toEqual([
        "POST /v1/commands/detach-ip",
        "POST /v1/commands/attach-ip",
        `PATCH /v1/workspaces/${ws}/net-lbs/${state.lb.id}`,
        `PATCH /v1/workspaces/${ws}/net-lbs/${state.lb2.id}`,
        `PATCH /v1/workspaces/${ws}/bgp`,
        `PUT /v1/workspaces/${ws}/bgp/prefixes/${pfxId}`,
      ]);
      expect(calls(logged, /^\/v1\/commands\//).map((m) => m.body)).toEqual([{ ip: fipId }, { ip: fipId, instance: vm2 }]);
      expect((await get(`/v1/ips/${fipId}`)).instance_id).toBe(vm2);
      expect(calls(logged, `/v1/workspaces/${ws}/net-lbs/${state.lb.id}`)[0].body).toEqual({ name: "web-lb-2", address: "203.0.113.81" });
      expect(calls(logged, `/v1/workspaces/${ws}/net-lbs/${state.lb2.id}`)[0].body).toEqual({ owner: pc });
      expect((await get(`/v1/net-lbs/${state.lb2.id}`)).owner.id).toBe(pc);
      expect(outs("lb2")).toMatchObject({ ownerWorkspaceId: pc, ownerWorkspaceName: "private-cloud" });
      // The request log masks the password; the API holds the new one.
      expect(calls(logged, `/v1/workspaces/${ws}/bgp`)[0].body).toEqual({
        asn: 64513,
        password: "[masked]",
        instance_id: vm1,
        max_prefixes: 5,
      });
      expect(await get(`/v1/workspaces/${ws}/bgp`)).toMatchObject({
        data: { asn: 64513, max_prefixes: 5, instance: { id: vm1 } },
        live: { password: "second-bgp-secret" },
      });
      expect(secretsOf("bgp")).toEqual(face().name === "plugin" ? ["password"] : []);
      // The PUT addresses the entry by the exact digits recorded.
      expect(calls(logged, `/v1/workspaces/${ws}/bgp/prefixes/${pfxId}`)[0].body).toEqual({
        prefix: "198.51.100.0/24",
        source: "MANUAL",
        enabled: false,
        community: "PROTECTED",
      });
      expect(await prefixes()).toEqual([
        { id: BigInt(pfxId), prefix: "198.51.100.0/24", source: "MANUAL", enabled: false, community: "PROTECTED" },
      ]);
    });

    it("changes a prefix's CIDR in place, clears the BGP endpoint, and moves a balancer back through its owner's route", async () => {
      const pfxId = state.pfx.id;
      pfx = { ...pfx, prefix: "198.51.100.128/25" };
      bgp = { ...bgp, instanceId: null };
      lb2.ownerWorkspaceId = ws;
      const pfxUp = await upLogged("pfx", "BgpPrefix", pfx);
      expect({ step: pfxUp.step, id: pfxUp.now.id }).toEqual({ step: "update", id: pfxId });
      expect(calls(pfxUp.mutations, `/v1/workspaces/${ws}/bgp/prefixes/${pfxId}`)[0].body).toMatchObject({ prefix: "198.51.100.128/25" });
      const bgpUp = await upLogged("bgp", "BgpConfig", bgp);
      expect(bgpUp.mutations).toEqual([expect.objectContaining({ path: `/v1/workspaces/${ws}/bgp`, body: { instance_id: null } })]);
      expect((await get(`/v1/workspaces/${ws}/bgp`)).data.instance).toBeNull();
      // The balancer is in the private cloud: its PATCH goes through its owner's route then.
      const lbUp = await upLogged("lb2", "NetLoadBalancer", lb2);
      expect(lbUp.mutations).toEqual([
        expect.objectContaining({ method: "PATCH", path: `/v1/workspaces/${pc}/net-lbs/${state.lb2.id}`, body: { owner: ws } }),
      ]);
      expect((await get(`/v1/net-lbs/${state.lb2.id}`)).owner.id).toBe(ws);
      for (const [name, kind, declared] of [
        ["pfx", "BgpPrefix", pfx],
        ["bgp", "BgpConfig", bgp],
        ["lb2", "NetLoadBalancer", lb2],
      ] as const) {
        const { step, mutations } = await upLogged(name, kind, declared);
        expect({ name, step, mutations }).toEqual({ name, step: "same", mutations: [] });
      }
    });

    it("surfaces the API's refusals (a VPC of another workspace, max_prefixes reached) and keeps nothing of either", async () => {
      const foreign = await staff().post(`/v1/workspaces/${pc}/vpcs`, { name: "pc-net", description: "elsewhere", range: "10.77.0.0/16" });
      expect(foreign.status).toBe(201);
      const attached = (await upLogged("foreign", "VpcAttachment", { instanceId: vm2, vpcId: foreign.body.id }).catch(
        (e: unknown) => e,
      )) as CallError;
      expect(attached).toBeInstanceOf(CallError);
      expect(attached.message).toMatch(/VpcAttachment of instance .* refused the attachment .*same workspace/s);
      expect(attached.kept).toBeUndefined();
      expect(await vpcMembers(foreign.body.id)).toEqual([]);

      bgp = { ...bgp, maxPrefixes: 1 };
      expect((await upLogged("bgp", "BgpConfig", bgp)).step).toBe("update");
      const refused = (await upLogged("pfx2", "BgpPrefix", { prefix: "192.0.2.0/24", configId: state.bgp.id }).catch(
        (e: unknown) => e,
      )) as CallError;
      expect(refused).toBeInstanceOf(CallError);
      expect(refused.message).toMatch(/BgpPrefix 192\.0\.2\.0\/24: .*400.*max_prefixes.*raise the BgpConfig's maxPrefixes/s);
      expect(refused.kept).toBeUndefined();
      expect((await prefixes()).map((p) => p.prefix)).toEqual(["198.51.100.128/25"]);

      bgp = { ...bgp, maxPrefixes: 5 };
      expect((await upLogged("bgp", "BgpConfig", bgp)).step).toBe("update");
      expect((await get(`/v1/workspaces/${ws}/bgp`)).data.max_prefixes).toBe(5);
      expect((await staff().delete(`/v1/vpcs/${foreign.body.id}`)).status).toBe(200);
    });

    it("replaces on a change of a replace field: new id, old one gone, the new one made first", async () => {
      const lbId = state.lb.id;
      const fipId = state.fip.id;
      att.vpcId = net2;
      fip.ddos = true;
      member.instanceId = vm2;

      const attUp = await upLogged("att", "VpcAttachment", att);
      expect({ step: attUp.step, replaces: attUp.diff?.replaces, first: attUp.diff?.deleteBeforeReplace }).toEqual({
        step: "replace",
        replaces: ["vpcId"],
        first: false,
      });
      expect(state.att.id).toBe(`${vm1}:${net2}`);
      expect((await vpcMembers(net)).map((m) => m.id)).toEqual([]);
      expect((await vpcMembers(net2)).map((m) => m.id)).toEqual([vm1]);

      // A new address (ddos) takes the attachment with it: its ipId names the new IP.
      const newIp = await replaceBeforeDependents("fip", "FloatingIp", fip);
      expect(newIp.replaces).toEqual(["ddos"]);
      fipAtt.ipId = state.fip.id;
      const fipAttUp = await upLogged("fipAtt", "FloatingIpAttachment", fipAtt);
      expect({ step: fipAttUp.step, replaces: fipAttUp.diff?.replaces }).toEqual({ step: "replace", replaces: ["ipId"] });
      await newIp.deleteOld();
      expect(state.fip.id).not.toBe(fipId);
      expect(await status(`/v1/ips/${fipId}`)).toBe(404);
      expect(await get(`/v1/ips/${state.fip.id}`)).toMatchObject({ family: "IPv4", ddos: true, instance_id: vm2 });
      expect(state.fipAtt.id).toBe(state.fip.id);

      const memberUp = await upLogged("member", "NetLoadBalancerMember", member);
      expect({ step: memberUp.step, replaces: memberUp.diff?.replaces, first: memberUp.diff?.deleteBeforeReplace }).toEqual({
        step: "replace",
        replaces: ["instanceId"],
        first: false,
      });
      expect(state.member.id).toBe(`${lbId}:${vm2}`);
      expect(await members(lbId)).toEqual([vm2]);

      // The other end of each membership (the instance of an attachment, the balancer of a member), and the family of an address.
      const ddosIp = state.fip.id;
      const lb2Id = state.lb2.id;
      att.instanceId = vm2;
      member.loadBalancerId = lb2Id;
      Object.assign(fip, { family: "IPv6", ddos: false });
      expect((await upLogged("att", "VpcAttachment", att)).diff?.replaces).toEqual(["instanceId"]);
      const ipv6 = await replaceBeforeDependents("fip", "FloatingIp", fip);
      expect(ipv6.replaces.sort()).toEqual(["ddos", "family"]);
      fipAtt.ipId = state.fip.id;
      expect((await upLogged("fipAtt", "FloatingIpAttachment", fipAtt)).diff?.replaces).toEqual(["ipId"]);
      await ipv6.deleteOld();
      expect((await upLogged("member", "NetLoadBalancerMember", member)).diff?.replaces).toEqual(["loadBalancerId"]);
      expect(state.fip.id).not.toBe(ddosIp);
      expect(await status(`/v1/ips/${ddosIp}`)).toBe(404);
      expect(await get(`/v1/ips/${state.fip.id}`)).toMatchObject({ family: "IPv6", ddos: false, instance_id: vm2 });
      expect(state.fipAtt.id).toBe(state.fip.id);
      expect(state.att.id).toBe(`${vm2}:${net2}`);
      expect((await vpcMembers(net2)).map((m) => m.id)).toEqual([vm2]);
      expect(state.member.id).toBe(`${lb2Id}:${vm2}`);
      expect(await members(lbId)).toEqual([]);
      expect(await members(lb2Id)).toEqual([vm2]);
    });

    it("a read finds out-of-band changes; the next up puts the declaration back under the same ids", async () => {
      const api = ctx().emu.api;
      const ids = { fipAtt: state.fipAtt.id, lb: state.lb.id, bgp: state.bgp.id, pfx: state.pfx.id };
      expect((await api.post(`/v1/commands/detach-ip`, { ip: BigInt(ids.fipAtt) })).status).toBe(200);
      expect((await api.patch(`/v1/workspaces/${ws}/net-lbs/${ids.lb}`, { name: "renamed-by-hand" })).status).toBe(200);
      expect((await api.patch(`/v1/workspaces/${ws}/bgp`, { password: "changed-by-hand" })).status).toBe(200);
      const put = await api.put(`/v1/workspaces/${ws}/bgp/prefixes/${ids.pfx}`, {
        prefix: "198.51.100.128/25",
        source: "MANUAL",
        enabled: true,
        community: "PROTECTED",
      });
      expect(put.status).toBe(200);

      expect((await refresh("fipAtt", "FloatingIpAttachment")).id).toBe(ids.fipAtt);
      expect(outs("fipAtt").instanceId).toBeNull();
      await refresh("lb", "NetLoadBalancer");
      expect(outs("lb").name).toBe("renamed-by-hand");
      await refresh("bgp", "BgpConfig");
      expect(outs("bgp").password).toBe("changed-by-hand");
      // What a read finds of the password is as secret as what was declared.
      expect(secretsOf("bgp")).toEqual(face().name === "plugin" ? ["password"] : []);
      await refresh("pfx", "BgpPrefix");
      expect(outs("pfx").enabled).toBe(true);

      const logged: Logged[] = [];
      for (const [name, kind, declared] of [
        ["fipAtt", "FloatingIpAttachment", fipAtt],
        ["lb", "NetLoadBalancer", lb],
        ["bgp", "BgpConfig", bgp],
        ["pfx", "BgpPrefix", pfx],
      ] as const) {
        const { step, now, mutations } = await upLogged(name, kind, declared);
        expect({ name, step, id: now.id }).toEqual({ name, step: "update", id: ids[name] });
        logged.push(...mutations);
      }
      expect(calls(logged, /^\/v1\/commands\//).map((m) => m.path)).toEqual(["/v1/commands/attach-ip"]);
      expect((await get(`/v1/ips/${ids.fipAtt}`)).instance_id).toBe(vm2);
      expect((await get(`/v1/net-lbs/${ids.lb}`)).name).toBe("web-lb-2");
      expect((await get(`/v1/workspaces/${ws}/bgp`)).live.password).toBe("second-bgp-secret");
      expect((await prefixes())[0].enabled).toBe(false);
    });

    it("a read of what was deleted outside Pulumi answers no id (a BGP configuration takes its prefixes along)", async () => {
      const api = ctx().emu.api;
      const fipId = state.fip.id;
      const lb2Id = state.lb2.id;
      expect((await api.delete(`/v1/instances/${vm2}/vpcs/${net2}`)).status).toBe(200);
      expect((await api.post(`/v1/commands/detach-ip`, { ip: BigInt(fipId) })).status).toBe(200);
      expect((await api.delete(`/v1/ips/${fipId}`)).status).toBe(204);
      expect((await staff().delete(`/v1/net-lbs/${state.lb.id}`)).status).toBe(202);
      expect((await api.delete(`/v1/workspaces/${ws}/net-lbs/${lb2Id}/instances/${vm2}`)).status).toBe(202);
      await ctx().emu.waitFor(`/v1/workspaces/${ws}/net-lbs/${lb2Id}/instances`, (b: { items: unknown[] }) => b.items.length === 0);
      expect((await api.delete(`/v1/workspaces/${ws}/bgp`)).status).toBe(200);
      const gone: Array<[string, string]> = [
        ["att", "VpcAttachment"],
        ["fip", "FloatingIp"],
        ["fipAtt", "FloatingIpAttachment"],
        ["lb", "NetLoadBalancer"],
        ["member", "NetLoadBalancerMember"],
        ["bgp", "BgpConfig"],
        ["pfx", "BgpPrefix"],
      ];
      for (const [name, kind] of gone) expect({ name, id: (await refresh(name, kind)).id }).toEqual({ name, id: "" });
      expect((await refresh("lb2", "NetLoadBalancer")).id).toBe(lb2Id);
      expect(Object.keys(state).sort()).toEqual(["lb2", "net", "net2", "vm1", "vm2"]);
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
      for (const [method, path] of drops) await ctx().emu.control.post("/_emulator/faults", { kind: "drop", method, path, times: 1 });
      const since = await lastSeq();
      // In the engine's order: each after what its inputs name.
      expect((await upLogged("att", "VpcAttachment", att)).step).toBe("create");
      expect((await upLogged("fip", "FloatingIp", fip)).step).toBe("create");
      fipAtt.ipId = state.fip.id;
      expect((await upLogged("fipAtt", "FloatingIpAttachment", fipAtt)).step).toBe("create");
      expect((await upLogged("lb", "NetLoadBalancer", lb)).step).toBe("create");
      expect((await upLogged("member", "NetLoadBalancerMember", member)).step).toBe("create");
      expect((await upLogged("bgp", "BgpConfig", bgp)).step).toBe("create");
      pfx.configId = state.bgp.id;
      expect((await upLogged("pfx", "BgpPrefix", pfx)).step).toBe("create");
      const logged = await mutations(since);
      // Every answer was lost (the emulator logs a dropped request with status 0).
      expect(logged.filter((m) => m.status === 0)).toHaveLength(drops.length);
      // One POST each: the lost answers were recovered by looking the resource up, not by sending again.
      expect(calls(logged, `/v1/instances/${vm2}/vpcs`)).toHaveLength(1);
      expect(calls(logged, `/v1/workspaces/${ws}/ips`)).toHaveLength(1);
      expect(calls(logged, "/v1/commands/attach-ip")).toHaveLength(1);
      expect(calls(logged, "/v1/net-lbs")).toHaveLength(1);
      expect(calls(logged, `/v1/workspaces/${ws}/bgp/prefixes`)).toHaveLength(1);
      // PUT and PATCH are idempotent: the client sends them again.
      expect(calls(logged, `/v1/workspaces/${ws}/net-lbs/${state.lb2.id}/instances/${vm2}`).length).toBeGreaterThanOrEqual(1);
      expect(calls(logged, `/v1/workspaces/${ws}/bgp`).length).toBeGreaterThanOrEqual(1);

      expect(state.att.id).toBe(`${vm2}:${net2}`);
      expect((await vpcMembers(net2)).map((m) => m.id)).toEqual([vm2]);
      // The instance's own address (made by its create) aside, vm2 holds one IPv6 address: no duplicate was allocated.
      const ips = (await get(`/v1/workspaces/${ws}/ips`, { family: "IPv6", limit: 100 })).items.filter(
        (ip: { instance_id: string | null; origin: string }) => ip.instance_id === vm2 && ip.origin !== "INSTANCE",
      );
      expect(ips.map((ip: { id: string }) => ip.id)).toEqual([state.fip.id]);
      expect(await get(`/v1/ips/${state.fip.id}`)).toMatchObject({ family: "IPv6", instance_id: vm2 });
      expect(state.fipAtt.id).toBe(state.fip.id);
      expect((await get(`/v1/workspaces/${ws}/net-lbs`, { name: "web-lb-2" })).items.map((l: { id: string }) => l.id)).toEqual([
        state.lb.id,
      ]);
      expect(await members(state.lb2.id)).toEqual([vm2]);
      expect(String((await get(`/v1/workspaces/${ws}/bgp`)).data.id)).toBe(state.bgp.id);
      expect((await prefixes()).map((p) => String(p.id))).toEqual([state.pfx.id]);
      const inventory = (await ctx().emu.control.get("/_emulator/inventory")).body as { resources: Record<string, unknown[]> };
      expect(inventory.resources.netLbs).toHaveLength(2);
      expect(inventory.resources.bgpConfigs).toHaveLength(1);
      expect(inventory.resources.bgpPrefixes).toHaveLength(1);
      for (const [name, kind, declared] of [
        ["att", "VpcAttachment", att],
        ["fip", "FloatingIp", fip],
        ["fipAtt", "FloatingIpAttachment", fipAtt],
        ["lb", "NetLoadBalancer", lb],
        ["member", "NetLoadBalancerMember", member],
        ["bgp", "BgpConfig", bgp],
        ["pfx", "BgpPrefix", pfx],
      ] as const) {
        const { step, mutations: made } = await upLogged(name, kind, declared);
        expect({ name, step, made }).toEqual({ name, step: "same", made: [] });
      }
    });

    it("refuses to take over an existing BGP configuration, naming it for adoptId", async () => {
      const api = ctx().emu.api;
      // The stack's configuration is replaced by one made by hand, with a prefix.
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
      // Another configuration is not the recorded one: both read as gone.
      expect((await refresh("bgp", "BgpConfig")).id).toBe("");
      expect((await refresh("pfx", "BgpPrefix")).id).toBe("");
      const since = await lastSeq();
      const err = (await upLogged("bgp", "BgpConfig", bgp).catch((e: unknown) => e)) as CallError;
      expect(err).toBeInstanceOf(CallError);
      expect(err.message).toMatch(
        new RegExp(`already has a BGP configuration \\(id ${made.body.data.id}.*adoptId: "${made.body.data.id}"`, "s"),
      );
      expect(err.kept).toBeUndefined();
      expect(calls(await mutations(since), `/v1/workspaces/${ws}/bgp`)).toEqual([]);
      expect((await get(`/v1/workspaces/${ws}/bgp`)).data.asn).toBe(65000);
    });

    it("adopts existing resources of every kind by adoptId and converges them, creating nothing", async () => {
      const api = ctx().emu.api;
      const config = String((await get(`/v1/workspaces/${ws}/bgp`)).data.id);
      const handPrefix = String((await prefixes())[0].id);
      expect((await api.post(`/v1/instances/${vm1}/vpcs`, { vpc: BigInt(net) })).status).toBe(201);
      const ip = (await api.post(`/v1/workspaces/${ws}/ips`, { family: "IPv4" })).body;
      expect((await api.post(`/v1/commands/attach-ip`, { ip: BigInt(ip.id), instance: BigInt(vm2) })).status).toBe(200);
      const legacy = (await staff().post(`/v1/net-lbs`, { name: "legacy-lb", address: "203.0.113.90", owner: BigInt(ws) })).body;
      expect((await api.put(`/v1/workspaces/${ws}/net-lbs/${legacy.id}/instances/${vm1}`)).status).toBe(202);
      await ctx().emu.waitFor(`/v1/workspaces/${ws}/net-lbs/${legacy.id}/instances`, (b: { items: unknown[] }) => b.items.length === 1);

      bgp = { ...bgp, adoptId: config };
      pfx = { ...pfx, adoptId: handPrefix };
      const since = await lastSeq();
      await upLogged("bgp", "BgpConfig", bgp);
      pfx.configId = state.bgp.id;
      await upLogged("pfx", "BgpPrefix", pfx);
      extra.attAdopted = ["VpcAttachment", { instanceId: vm1, vpcId: net, adoptId: `${vm1}:${net}` }];
      extra.fipAdopted = ["FloatingIp", { family: "IPv4", adoptId: ip.id }];
      for (const name of ["attAdopted", "fipAdopted"]) expect((await upLogged(name, ...extra[name])).step).toBe("create");
      extra.fipAttAdopted = ["FloatingIpAttachment", { ipId: state.fipAdopted.id, instanceId: vm1, adoptId: ip.id }];
      extra.lbAdopted = ["NetLoadBalancer", { name: "legacy-lb-managed", address: "203.0.113.90", adoptId: legacy.id }];
      for (const name of ["fipAttAdopted", "lbAdopted"]) expect((await upLogged(name, ...extra[name])).step).toBe("create");
      extra.memberAdopted = [
        "NetLoadBalancerMember",
        { loadBalancerId: state.lbAdopted.id, instanceId: vm1, adoptId: `${legacy.id}:${vm1}` },
      ];
      expect((await upLogged("memberAdopted", ...extra.memberAdopted)).step).toBe("create");
      const logged = await mutations(since);

      // Nothing was created: no POST that allocates, no PUT of a member, no PATCH creating a configuration.
      expect(logged.filter((m) => m.method === "POST" && !m.path.startsWith("/v1/commands/"))).toEqual([]);
      expect(logged.filter((m) => m.method === "PUT" && m.path.includes("/net-lbs/"))).toEqual([]);
      expect(state.bgp.id).toBe(config);
      expect(state.pfx.id).toBe(handPrefix);
      expect(state.attAdopted.id).toBe(`${vm1}:${net}`);
      expect(state.fipAdopted.id).toBe(String(ip.id));
      expect(state.fipAttAdopted.id).toBe(String(ip.id));
      expect(state.lbAdopted.id).toBe(String(legacy.id));
      expect(state.memberAdopted.id).toBe(`${legacy.id}:${vm1}`);
      // Converged to the declaration.
      expect(calls(logged, /^\/v1\/commands\//).map((m) => m.path)).toEqual(["/v1/commands/detach-ip", "/v1/commands/attach-ip"]);
      expect((await get(`/v1/ips/${ip.id}`)).instance_id).toBe(vm1);
      expect((await get(`/v1/net-lbs/${legacy.id}`)).name).toBe("legacy-lb-managed");
      expect(await get(`/v1/workspaces/${ws}/bgp`)).toMatchObject({
        data: { asn: 64513, max_prefixes: 5 },
        live: { password: "second-bgp-secret" },
      });
      expect(await prefixes()).toEqual([
        { id: BigInt(handPrefix), prefix: "198.51.100.128/25", source: "MANUAL", enabled: false, community: "PROTECTED" },
      ]);
      expect(outs("attAdopted")).toMatchObject({ instanceId: vm1, vpcId: net });
      expect(outs("memberAdopted")).toMatchObject({ state: "ACTIVE" });
      for (const [name, kind, declared] of [
        ["bgp", "BgpConfig", bgp] as const,
        ["pfx", "BgpPrefix", pfx] as const,
        ...Object.entries(extra).map(([n, [k, d]]) => [n, k, d] as const),
      ]) {
        const { step, mutations: made } = await upLogged(name, kind, declared);
        expect({ name, step, made }).toEqual({ name, step: "same", made: [] });
      }
    });

    it("deletes a member whose join never applied (JOINING, which the next up would replace), and the next up creates it", async () => {
      const legacy = state.lbAdopted.id;
      await ctx().emu.control.post("/_emulator/faults", {
        kind: "workflow",
        outcome: "FAILED",
        method: "PUT",
        path: "/v1/workspaces/*/net-lbs/*/instances/*",
        times: 1,
      });
      // A deadline of its own, short: the join never applies, so the create waits all of it.
      const flaky = { loadBalancerId: legacy, instanceId: vm2, timeouts: { create: "1s" } };
      const err = (await upLogged("flaky", "NetLoadBalancerMember", flaky).catch((e: unknown) => e)) as CallError;
      expect(err).toBeInstanceOf(CallError);
      expect(err.message).toMatch(
        /NetLoadBalancerMember instance .* did not finish before its deadline.*The NetLoadBalancerMember it made \(id \d+:\d+\) ended JOINING, which a later up would replace, so it was deleted/s,
      );
      expect(err.kept).toBeUndefined(); // nothing for the engine to keep in state
      // The API agrees: it is not a member.
      expect(await members(legacy)).toEqual([vm1]);
      const rows = ((await ctx().emu.control.get("/_emulator/inventory")).body as { resources: { netLbMembers: Array<{ name: string }> } })
        .resources.netLbMembers;
      expect(rows.map((r) => r.name).sort()).toEqual(
        [`instance ${vm1} in balancer ${legacy}`, `instance ${vm2} in balancer ${state.lb2.id}`].sort(),
      );
      const { step, now } = await upLogged("flaky", "NetLoadBalancerMember", flaky);
      expect(step).toBe("create");
      expect(opened(now.outs).value).toMatchObject({ state: "ACTIVE" });
      expect((await members(legacy)).sort()).toEqual([vm1, vm2].sort());
    });

    it("deletes everything it made, dependents first, leaving the inventory empty", async () => {
      for (const [name, kind] of [
        ["flaky", "NetLoadBalancerMember"],
        ["memberAdopted", "NetLoadBalancerMember"],
        ["member", "NetLoadBalancerMember"],
        ["fipAttAdopted", "FloatingIpAttachment"],
        ["fipAtt", "FloatingIpAttachment"],
        ["attAdopted", "VpcAttachment"],
        ["att", "VpcAttachment"],
        ["pfx", "BgpPrefix"],
        ["bgp", "BgpConfig"],
        ["lbAdopted", "NetLoadBalancer"],
        ["lb", "NetLoadBalancer"],
        ["lb2", "NetLoadBalancer"],
        ["fipAdopted", "FloatingIp"],
        ["fip", "FloatingIp"],
        ["vm1", "Instance"],
        ["vm2", "Instance"],
        ["net", "Vpc"],
        ["net2", "Vpc"],
      ] as const) {
        await face().delete(kind, state[name].id, state[name].outs);
        delete state[name];
      }
      expect(state).toEqual({});
      const inventory = (await ctx().emu.control.get("/_emulator/inventory")).body as {
        total: number;
        resources: Record<string, unknown[]>;
      };
      for (const table of ["vpcMembers", "floatingIps", "netLbs", "netLbMembers", "bgpConfigs", "bgpPrefixes"])
        expect({ table, rows: inventory.resources[table] ?? [] }).toEqual({ table, rows: [] });
      expect(inventory.total).toBe(0);
    });
  },
  { staff: true },
);
