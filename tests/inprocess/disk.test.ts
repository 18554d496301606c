/**
 * Disk on both faces, in process (tests/support/inProcess.ts), on the instances of
 * tests/inprocess/support/compute.ts: renamed, resized, moved between instances and detached in
 * place, replaced on its backend, adopted by adoptId. Its create and its no-change diff are
 * instance.test.ts's first cases (the disk is made on an instance there); every replace field,
 * drift, deletion outside Pulumi and a failed create are fields.test.ts. The refusals at preview
 * are tests/unit/resources/disk.test.ts.
 */
import { describeEachFace } from "../support/inProcess";
import { GiB, computeHarness } from "./support/compute";

describeEachFace("Disk", (ctx) => {
  const { state, api, get, upLogged, disk, setup, hosts, replacesOnChange } = computeHarness(ctx);

  beforeAll(async () => {
    await setup();
    await hosts();
    await upLogged("data", "Disk", disk);
  });

  it("renames, resizes and moves a disk between instances in place, then detaches it", async () => {
    const id = state.data.id;
    Object.assign(disk, { name: "data-2", size: 20 * GiB, instanceId: state.vm2.id });
    const { mutations } = await upLogged("data", "Disk", disk);
    expect(mutations.map((m) => `${m.method} ${m.path}`)).toEqual([
      `PATCH /v1/disks/${id}`,
      `POST /v1/disks/${id}/resize`,
      `POST /v1/disks/${id}/detach`,
      `POST /v1/disks/${id}/attach`,
    ]);
    expect(await get(`/v1/disks/${id}`)).toMatchObject({ name: "data-2", size: 20 * GiB, instance: { id: state.vm2.id } });
    disk.instanceId = null;
    expect((await upLogged("data", "Disk", disk)).step).toBe("update");
    expect((await get(`/v1/disks/${id}`)).instance).toBeNull();
  });

  it.each([
    ["a disk's backend", "data", "Disk", () => Object.assign(disk, { backend: "CEPH" }), "backend", (id: string) => `/v1/disks/${id}`],
  ])("replaces on a change of %s: new id, old one gone", async (_what, name, kind, change, field, path) => {
    await replacesOnChange(name, kind, change, field, path);
  });

  it("adopts an existing disk by adoptId and converges its name", async () => {
    const made = await api().post(`/v1/workspaces/${ctx().emu.workspaceId}/disks`, {
      name: "legacy-disk",
      size: 5 * GiB,
      backend: "LOCAL",
      region: "NA_01",
    });
    await ctx().emu.waitWorkflow(made.body.workflow.id);
    const { now } = await upLogged("legacy", "Disk", {
      name: "legacy-managed",
      size: 5 * GiB,
      backend: "LOCAL",
      region: "NA_01",
      adoptId: made.body.resource.id,
    });
    expect(now.id).toBe(made.body.resource.id);
    expect((await get(`/v1/disks/${now.id}`)).name).toBe("legacy-managed");
  });
});
