/**
 * The examples/web-tier program, as a user would run it: its own files in a project directory
 * (node_modules linked to this repository's), the real pulumi CLI, the operator token (load
 * balancers are Administrator-only). Up, outputs checked against the emulator, a clean preview,
 * destroy, nothing left.
 */
import * as path from "node:path";
import { startE2E, type E2E } from "./harness";

jest.setTimeout(600_000);

const EXAMPLE = path.resolve(__dirname, "..", "..", "examples", "web-tier");

interface InstanceOut {
  name: string;
  id: string;
  publicIp: string;
  privateIp: string;
  state: string;
}

describe("examples/web-tier end to end", () => {
  let e2e: E2E;
  beforeAll(async () => {
    e2e = await startE2E("web-tier", { programDir: EXAMPLE, staff: true });
  });
  afterAll(async () => {
    await e2e?.stop();
  });

  const get = async (p: string, query?: Record<string, string | number>) => (await e2e.emu.staff.get(p, query)).body;

  it("creates the web tier, and its outputs match the API", async () => {
    const result = await e2e.up([]);
    // 2 x (instance, VPC attachment, floating IP and its attachment, 3 firewall rules, LB member),
    // the VPC, the virtual IP, the balancer, and the stack.
    expect(result.summary.resourceChanges).toMatchObject({ create: 2 * 8 + 3 + 1 });
    const out = Object.fromEntries(Object.entries(await e2e.outputs()).map(([k, v]) => [k, v.value]));
    expect(out).toMatchObject({
      planName: "lightning-1",
      imageName: "Ubuntu 24.04 LTS",
      vpcRange: "10.60.0.0/16",
      url: `http://${out.loadBalancer.address}/`,
    });

    const instances = out.instances as InstanceOut[];
    expect(instances.map((i) => i.name)).toEqual(["web-1", "web-2"]);
    const plan = (await get("/v1/plans", { name: "lightning-1" })).items[0];
    const vpc = (await get(`/v1/workspaces/${e2e.emu.workspaceId}/vpcs`, { name: "web-net" })).items[0];
    const members = (await get(`/v1/vpcs/${vpc.id}/instances`)).items as Array<{ id: string; ip: string }>;
    for (const vm of instances) {
      const api = await get(`/v1/instances/${vm.id}`);
      expect(api).toMatchObject({
        name: vm.name,
        state: "AVAILABLE",
        online: true,
        firewall_enabled: true,
        plan: { id: plan.id },
        image: { name: "Ubuntu 24.04 LTS" },
      });
      // Its only public address is the stack's floating IP; its private one is from the VPC.
      expect(api.ips.map((ip: { address: string }) => ip.address)).toEqual([vm.publicIp]);
      expect(members.find((m) => m.id === vm.id)?.ip).toBe(vm.privateIp);
      expect(vm.privateIp).toMatch(/^10\.60\./);
      const rules = (await get(`/v1/instances/${vm.id}/firewall-rules`)).items as Array<{
        port_start: number;
        remote: string;
        state: string;
      }>;
      expect(rules.map((r) => [r.port_start, r.remote, r.state]).sort()).toEqual([
        [22, "203.0.113.0/24", "AVAILABLE"],
        [443, "0.0.0.0/0", "AVAILABLE"],
        [80, "0.0.0.0/0", "AVAILABLE"],
      ]);
    }

    // The balancer spreads the virtual IP (a floating IP no instance holds) over both instances.
    const lb = await get(`/v1/net-lbs/${out.loadBalancer.id}`);
    expect(lb).toMatchObject({ name: "web-lb", address: out.loadBalancer.address, owner: { id: e2e.emu.workspaceId } });
    expect(lb.instances.map((m: { id: string }) => m.id).sort()).toEqual(instances.map((i) => i.id).sort());
    expect([...out.loadBalancer.members].sort()).toEqual(instances.map((i) => i.id).sort());
    const ips = (await get(`/v1/workspaces/${e2e.emu.workspaceId}/ips`, { limit: 100 })).items as Array<{
      address: string;
      instance_id: string | null;
    }>;
    expect(ips).toHaveLength(3);
    expect(ips.find((ip) => ip.address === out.loadBalancer.address)?.instance_id).toBeNull();
  });

  it("previews no change and sends no mutating request", async () => {
    const since = await e2e.lastSeq();
    const preview = await e2e.preview();
    expect(preview.changeSummary).toEqual({ same: 2 * 8 + 3 + 1 });
    expect(await e2e.mutations(since)).toEqual([]);
  });

  it("destroy leaves the emulator's inventory empty", async () => {
    await e2e.destroy();
    expect((await e2e.inventoryTotal()).total).toBe(0);
  });
});
