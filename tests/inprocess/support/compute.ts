/**
 * What the Instance, Disk and FirewallRule files share (tests/inprocess/{instance,disk,firewallRule}.test.ts):
 * one emulator's recorded state, its requests, the declarations the cases change (two instances, a
 * disk and a firewall rule on the first), the catalog ids they name, and the replacement case each
 * file runs for its own replace fields.
 */
import { up, type InProcess, type Props, type Recorded, upRecorded } from "../../support/inProcess";

export const GiB = 1024 ** 3;

/** One emulator's state and declarations for the compute kinds; `setup()` in the file's beforeAll. */
export function computeHarness(ctx: () => InProcess) {
  const ids = { plan2: "", plan4: "", ubuntu: "", net: "" };
  const state: Record<string, Recorded> = {};
  const api = () => ctx().emu.api;
  const get = async (path: string) => (await api().get(path)).body;
  const upLogged = (name: string, kind: string, declared: Props) => upRecorded(ctx(), state, name, kind, declared);

  const vm1: Props = { name: "web-1", region: "NA_01", firewallEnabled: true };
  const vm2: Props = {
    name: "batch-1",
    type: "CUSTOM",
    group: "LIGHTNING",
    cpu: 2,
    memoryBytes: 2 * GiB,
    storage: [{ sizeBytes: 20 * GiB, boot: true }],
    region: "NA_01",
  };
  const disk: Props = { name: "data", size: 10 * GiB, backend: "LOCAL", region: "NA_01" };
  const rule: Props = { type: "IPv4", protocol: "TCP", action: "ACCEPT", portStart: 22, description: "ssh" };

  /** The plans and image the instances name, and the VPC web-1 joins. */
  async function setup() {
    const plans = (await api().get("/v1/plans", { limit: 100 })).body.items as Array<{ id: string; name: string }>;
    ids.plan2 = plans.find((p) => p.name === "lightning-2")!.id;
    ids.plan4 = plans.find((p) => p.name === "lightning-4")!.id;
    ids.ubuntu = (await api().get(`/v1/workspaces/${ctx().emu.workspaceId}/images`, { name: "Ubuntu 24.04 LTS" })).body.items[0].id;
    const vpc = await up(ctx().face, "Vpc", { name: "compute-net", description: "compute", range: "10.8.0.0/16" });
    ids.net = vpc.now.id;
  }
  /** web-1's plan, image and VPC, once setup() has found them. */
  const declareVm1 = () => Object.assign(vm1, { planId: ids.plan2, imageId: ids.ubuntu, vpcIds: [ids.net] });
  /** The disk and the rule on web-1, once it is made. */
  const declareOnVm1 = () => {
    Object.assign(disk, { instanceId: state.vm1.id });
    Object.assign(rule, { instanceId: state.vm1.id });
  };
  /** web-1 and batch-1 made, for the files whose kind lives on them (what they are is instance.test.ts's to prove). */
  async function hosts() {
    declareVm1();
    await upLogged("vm1", "Instance", vm1);
    await upLogged("vm2", "Instance", vm2);
    declareOnVm1();
  }

  /** A change of one replace field: the diff names it, a new id, the old object gone from the API. */
  async function replacesOnChange(name: string, kind: string, change: () => Props, field: string, path: (id: string) => string) {
    const before = state[name].id;
    const declared = change();
    const { step, diff, now } = await upLogged(name, kind, declared);
    expect({ step, replaces: diff?.replaces }).toEqual({ step: "replace", replaces: [field] });
    expect(now.id).not.toBe(before);
    expect((await api().get(path(before))).status).toBe(404);
    expect((await api().get(path(now.id))).status).toBe(200);
  }

  return { ids, state, api, get, upLogged, vm1, vm2, disk, rule, setup, declareVm1, declareOnVm1, hosts, replacesOnChange };
}
