/**
 * Snapshot on both faces, in process (tests/support/inProcess.ts): a change of its disk replaces it,
 * and the replacement copies the declared disk. Its create, its no-change diff, deletion outside
 * Pulumi read as gone and a failed create deleted are image.test.ts's cases, which make snapshots
 * beside the images of the same instance. The refusals at preview are
 * tests/unit/resources/snapshot.test.ts.
 */
import { describeEachFace, up, type Props, type Recorded } from "../support/inProcess";

const GiB = 1024 ** 3;

describeEachFace("Snapshot", (ctx) => {
  const state: Record<string, Recorded> = {};
  const api = () => ctx().emu.api;
  const get = async (p: string) => (await api().get(p)).body;
  const upState = async (name: string, kind: string, declared: Props) => {
    const result = await up(ctx().face, kind, declared, state[name]);
    state[name] = result.now;
    return result;
  };
  const snap: Props = { instanceId: "" };

  beforeAll(async () => {
    const plan = (await api().get("/v1/plans", { name: "lightning-2" })).body.items.find(
      (p: { name: string }) => p.name === "lightning-2",
    ).id;
    // The instance and the disk the snapshot is made from (what they are is instance.test.ts's and disk.test.ts's to prove).
    await upState("vm", "Instance", { name: "snapshots-vm", planId: plan, region: "NA_01" });
    await upState("data", "Disk", { name: "snapshots-data", size: 10 * GiB, backend: "LOCAL", region: "NA_01", instanceId: state.vm.id });
    snap.instanceId = state.vm.id;
    await upState("snap", "Snapshot", snap);
  });

  it.each([
    [
      "a snapshot's disk",
      "snap",
      "Snapshot",
      () => Object.assign(snap, { diskId: state.data.id }),
      "diskId",
      (id: string) => `/v1/snapshots/${id}`,
    ],
  ])("replaces on a change of %s: new id, old one gone", async (_what, name, kind, change, field, apiPath) => {
    const before = state[name].id;
    const { step, diff, now } = await upState(name, kind, change());
    expect({ step, replaces: diff?.replaces }).toEqual({ step: "replace", replaces: [field] });
    expect(now.id).not.toBe(before);
    expect((await api().get(apiPath(before))).status).toBe(404);
    expect((await get(apiPath(now.id))).state).toBe("AVAILABLE");
  });

  it("the replacement snapshot copies the declared disk", async () => {
    expect(await get(`/v1/snapshots/${state.snap.id}`)).toMatchObject({ disk: { id: state.data.id } });
  });
});
