/**
 * Drift, exactly, on both faces, in process (tests/support/inProcess.ts). A refresh (read) records
 * the declared inputs alone, each as the API now reports it. A preview after it then names exactly
 * the fields changed outside Pulumi: the plugin's detailed diff, and the recorded inputs against the
 * declared ones, which is all the dynamic host's preview shows. The stack's own attachments (a
 * VpcAttachment, a FloatingIpAttachment, a NetLoadBalancerMember) are no drift, and the first
 * refresh after the up that made them moves no output (`ownOutputs`). The dynamic face carries the declared
 * inputs in its outputs for this (provider/dynamic/declaredInputs.ts). That the engine shows what
 * these tests compute is tests/e2e/conformance.ts's refresh case.
 */
import { setProgressSink } from "../../provider/runtime/progress";
import { describeEachFace, opened, secret, up, type Props, type Recorded } from "../support/inProcess";

const lines: string[] = [];
setProgressSink((line) => lines.push(line));

/** The properties whose recorded and declared values differ: what a preview without a detailed diff shows. */
function differing(recorded: Props, declared: Props): string[] {
  const plain = (p: Props) =>
    opened(Object.fromEntries(Object.entries(p).filter(([k]) => !["__provider", "__inputs"].includes(k)))).value as Props;
  const [a, b] = [plain(recorded), plain(declared)];
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k])).sort();
}

describeEachFace(
  "Drift",
  (ctx) => {
    const state: Record<string, Recorded> = {};
    const declared: Record<string, [string, () => Props]> = {};
    const api = () => ctx().emu.api;
    const face = () => ctx().face;
    const upAll = async () =>
      Object.fromEntries(
        await Promise.all(
          Object.entries(declared).map(async ([name, [kind, props]]) => {
            const result = await up(face(), kind, props(), state[name], { logicalName: name });
            state[name] = result.now;
            return [name, { step: result.step, id: result.now.id }] as const;
          }),
        ),
      );
    /** A refresh of every resource: the recorded inputs and outputs it moved, by resource, and the notices it printed. */
    const refreshAll = async () => {
      lines.length = 0;
      const moved: Record<string, string[]> = {};
      const outputs: Record<string, string[]> = {};
      for (const [name, [kind]] of Object.entries(declared)) {
        const read = await face().read(kind, state[name].id, state[name].outs, state[name].inputs);
        expect(read.id).toBe(state[name].id);
        // The dynamic host records inputs from read's answer as the plugin does (@pulumi/pulumi >= 3.216).
        moved[name] = differing(state[name].inputs, read.inputs!);
        outputs[name] = differing(state[name].outs, read.outs);
        state[name] = { ...state[name], outs: read.outs, inputs: read.inputs! };
      }
      return { moved, outputs, notices: lines.map((l) => l.replace(/^svc: /, "")) };
    };
    /** What the next preview shows of each resource: the recorded inputs against the declared ones, and the plugin's detailed diff. */
    const previewAll = async () => {
      const shown: Record<string, { inputs: string[]; detailed?: string[] }> = {};
      for (const [name, [kind, props]] of Object.entries(declared)) {
        const checked = opened((await face().check(kind, props(), state[name].inputs)).inputs).value as Props;
        const diff = await face().diff(kind, state[name].id, state[name].outs, checked, state[name].inputs);
        shown[name] = {
          inputs: differing(state[name].inputs, checked),
          ...(diff.detailed ? { detailed: Object.keys(diff.detailed).sort() } : {}),
        };
      }
      return shown;
    };
    const secretIn = (value: string) => (face().name === "plugin" ? secret(value) : value);

    beforeAll(async () => {
      const plans = (await api().get("/v1/plans")).body.items as Array<{ id: string; name: string }>;
      const plan = plans.find((p) => p.name === "lightning-1")!.id;
      declared.net = ["Vpc", () => ({ name: "drift-net", description: "declared", range: "10.40.0.0/16" })];
      declared.vm = ["Instance", () => ({ name: "drift-vm", planId: plan, region: "NA_01", cloudInit: "#cloud-config\n" })];
      declared.bgp = ["BgpConfig", () => ({ asn: 64512, password: secretIn("declared-secret") })];
      declared.ip = ["FloatingIp", () => ({ family: "IPv4" })];
      declared.lb = ["NetLoadBalancer", () => ({ name: "drift-lb", address: "203.0.113.90" })];
      await upAll();
      declared.att = ["VpcAttachment", () => ({ instanceId: state.vm.id, vpcId: state.net.id })];
      declared.data = ["Disk", () => ({ name: "drift-data", size: 10, backend: "LOCAL", region: "NA_01", instanceId: state.vm.id })];
      declared.ipOn = ["FloatingIpAttachment", () => ({ ipId: state.ip.id, instanceId: state.vm.id })];
      declared.member = ["NetLoadBalancerMember", () => ({ loadBalancerId: state.lb.id, instanceId: state.vm.id })];
      await upAll();
    });

    const none = { net: [], vm: [], bgp: [], ip: [], lb: [], att: [], data: [], ipOn: [], member: [] };

    it("the first refresh after the up moves no input and no output and tells of no drift, though the up attached a VPC, an address and a balancer to the instance", async () => {
      const { moved, outputs, notices } = await refreshAll();
      expect({ moved, outputs, notices }).toEqual({ moved: none, outputs: none, notices: [] });
      // What the attachments made is theirs.
      const api = (path: string) =>
        ctx()
          .emu.api.get(path)
          .then((r) => r.body);
      const vm = await api(`/v1/instances/${state.vm.id}`);
      expect(vm.vpcs.map((v: { id: unknown }) => String(v.id))).toEqual([state.net.id]);
      expect(vm.ips.map((ip: { id: unknown }) => String(ip.id))).toContain(state.ip.id);
      expect({ vpcIds: state.vm.outs.vpcIds, privateIps: state.vm.outs.privateIps }).toEqual({ vpcIds: [], privateIps: {} });
      expect(state.att.outs.privateIp).toBe(vm.vpcs[0].ip);
      expect((state.vm.outs.ipAddresses as Array<{ id: string }>).map((ip) => ip.id)).not.toContain(state.ip.id);
      expect(state.ipOn.outs.address).toBe(state.ip.outs.address);
    });

    it("a refresh after changes outside Pulumi records the declared inputs as the API has them: the preview names exactly what changed", async () => {
      await api().patch(`/v1/vpcs/${state.net.id}`, { description: "edited by hand" });
      // The firewall switch is not declared: the instance's rename alone is drift.
      await api().patch(`/v1/instances/${state.vm.id}`, { name: "renamed-by-hand", firewall_enabled: true });
      await api().patch(`/v1/workspaces/${ctx().emu.workspaceId}/bgp`, { password: "changed-by-hand" });
      const detached = await api().post(`/v1/disks/${state.data.id}/detach`, {});
      if (detached.body?.id) await ctx().emu.waitWorkflow(detached.body.id);
      const { moved, notices } = await refreshAll();
      const drifted = { ...none, net: ["description"], vm: ["name"], bgp: ["password"], data: ["instanceId"] };
      expect(moved).toEqual(drifted);
      expect(notices.map((n) => n.replace(/; the next.*/, ""))).toEqual([
        expect.stringMatching(/^Vpc "drift-net".*: drifted outside Pulumi: description$/),
        expect.stringMatching(/^Instance "drift-vm".*: drifted outside Pulumi: name$/),
        expect.stringMatching(/^BgpConfig .*: drifted outside Pulumi: password$/),
        expect.stringMatching(/^Disk "drift-data".*: drifted outside Pulumi: instanceId$/),
      ]);
      // A secret's new value is recorded, so its change shows; the plugin keeps it secret.
      expect(opened(state.bgp.inputs)).toEqual({
        value: expect.objectContaining({ password: "changed-by-hand" }),
        secrets: face().name === "plugin" ? ["password"] : [],
      });
      expect(state.data.inputs.instanceId).toBeNull();
      // An input the API does not report (the instance's cloud-init) stays as declared.
      expect(opened(state.vm.inputs).value).toMatchObject({ cloudInit: "#cloud-config\n" });
      const shown = await previewAll();
      for (const [name, fields] of Object.entries(drifted))
        expect({ name, ...shown[name] }).toEqual({ name, inputs: fields, ...(face().name === "plugin" ? { detailed: fields } : {}) });
    });

    it("a refresh keeps an input the program made secret secret: the plugin marks it (the dynamic host takes no secrets)", async () => {
      const declared = { ...state.vm.inputs, cloudInit: secretIn("#cloud-config\n") };
      const read = await face().read("Instance", state.vm.id, state.vm.outs, declared);
      expect(opened(read.inputs).secrets).toEqual(face().name === "plugin" ? ["cloudInit"] : []);
    });

    it("the next up puts each back under the same id, and a refresh after it moves nothing", async () => {
      const ids = Object.fromEntries(Object.entries(state).map(([name, r]) => [name, r.id]));
      const steps = await upAll();
      const same = (name: string) => ({ step: "same", id: ids[name] });
      const updated = (name: string) => ({ step: "update", id: ids[name] });
      expect(steps).toEqual({
        ...Object.fromEntries(Object.keys(none).map((name) => [name, same(name)])),
        ...Object.fromEntries(["net", "vm", "bgp", "data"].map((name) => [name, updated(name)])),
      });
      expect((await api().get(`/v1/disks/${ids.data}`)).body.instance?.id).toBe(ids.vm);
      const { moved, outputs, notices } = await refreshAll();
      expect({ moved, outputs, notices }).toEqual({ moved: none, outputs: none, notices: [] });
    });
  },
  // A balancer is made with the operator's token (spec part 3, Network load balancers).
  { staff: true },
);
