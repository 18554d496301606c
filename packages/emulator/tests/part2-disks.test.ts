/**
 * Part 2 Disks: create, fetch, rename, attach, detach, resize, delete, the workspace list and
 * the administrator list.
 */
import { useTestEmulator, type TestEmulator } from "../src/testing";
import { advanceClock, createInstance, member, otherWorkspace, patchRow, withSlowWorkflows } from "./compute";

let t: TestEmulator;
let wsPath: string;
const GiB = 1024 ** 3;

useTestEmulator((started) => {
  t = started;
  wsPath = `/v1/workspaces/${t.workspaceId}`;
});

const store = () => t.emu.services.store;

async function createDisk(body: Record<string, unknown> = {}, api = t.api, workspaceId = t.workspaceId) {
  const res = await api.post(`/v1/workspaces/${workspaceId}/disks`, {
    name: "data-1",
    size: 10 * GiB,
    backend: "LOCAL",
    region: "NA_01",
    ...body,
  });
  if (res.status !== 202) throw new Error(`create disk: ${res.status} ${res.message}`);
  return res.body.resource;
}

/** Waits until a disk leaves PENDING. */
async function settle(diskId: string) {
  return t.waitFor(`/v1/disks/${diskId}`, (d: { state: string }) => d.state !== "PENDING");
}

async function post(path: string, body?: unknown, api = t.api) {
  return api.post(path, body);
}

describe("create and read", () => {
  test("create: 202 WorkflowWithResource, PENDING then AVAILABLE, detached, billed", async () => {
    const { res, during } = await withSlowWorkflows(t, 1000, async () => {
      const res = await t.api.post(`${wsPath}/disks`, { name: "data-1", size: 10 * GiB, backend: "CEPH", region: "NA_01" });
      return { res, during: (await t.api.get(`/v1/disks/${res.body.resource.id}`)).body };
    });
    expect(res.status).toBe(202);
    expect(res.body.workflow).toMatchObject({ name: "create-disk", state: "QUEUED" });
    expect(res.body.resource).toMatchObject({
      name: "data-1",
      size: 10 * GiB,
      backend: "CEPH",
      boot: false,
      instance: null,
      state: "PENDING",
      region: "NA_01",
      live: null,
      workspace: { id: t.workspaceId },
    });
    expect(during.state).toBe("PENDING");
    expect(BigInt(res.body.resource.id)).toBeGreaterThan(2n ** 53n);
    expect(await t.waitWorkflow(res.body.workflow.id)).toBe("COMPLETED");
    const disk = (await t.api.get(`/v1/disks/${res.body.resource.id}`)).body;
    expect(disk).toMatchObject({ state: "AVAILABLE", instance: null, live: null });
    // CEPH storage: 10 GiB x 180 micro-USD (current card).
    expect(store().t.billingSubjects.find((b) => b.resourceId === disk.id)).toMatchObject({
      resourceKind: "DISK",
      hourlyRate: 10 * 180,
      endedAt: null,
    });
    const inv = (await t.control.get("/_emulator/inventory")).body.resources.disks;
    expect(inv).toEqual([{ id: disk.id, name: "data-1", workspaceId: t.workspaceId, state: "AVAILABLE" }]);
  });

  test("create validation and rules", async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ name: undefined }, "name"],
      [{ name: "" }, "name"],
      [{ size: 0 }, "size"],
      [{ size: "10" }, "size"],
      [{ backend: "NVME" }, "backend"],
      [{ region: undefined }, "region"],
      [{ region: "MARS_01" }, "region"],
      [{ region: "PRIVATE_CLOUD" }, "region"],
    ];
    for (const [override, field] of cases) {
      const res = await t.api.post(`${wsPath}/disks`, { name: "data-1", size: GiB, backend: "LOCAL", region: "NA_01", ...override });
      expect({ status: res.status, field: res.body.errors?.[0]?.field }).toEqual({ status: 400, field });
      expect(res.message).toBeTruthy();
    }
    // CEPH needs a CEPH-flagged node in the region.
    for (const node of store().t.nodes.filter((n) => n.region === "EU_01")) await patchRow(t, "nodes", node.id, { flags: [] });
    const ceph = await t.api.post(`${wsPath}/disks`, { name: "d", size: GiB, backend: "CEPH", region: "EU_01" });
    expect(ceph.status).toBe(400);
    expect(ceph.message).toMatch(/CEPH/);
    expect((await t.api.post(`${wsPath}/disks`, { name: "d", size: GiB, backend: "LOCAL", region: "EU_01" })).status).toBe(202);

    const quota = { ...store().t.workspaces.get(t.workspaceId)!.quota, max_storage_bytes: 5 * GiB };
    await patchRow(t, "workspaces", t.workspaceId, { quota });
    const over = await t.api.post(`${wsPath}/disks`, { name: "d", size: 5 * GiB, backend: "LOCAL", region: "NA_01" });
    expect(over.status).toBe(400);
    expect(over.message).toMatch(/max_storage_bytes/);
  });

  test("private-cloud workspaces create disks in PRIVATE_CLOUD (LOCAL only: no CEPH node there)", async () => {
    const pc = store().t.workspaces.find((w) => w.privateCloud)!;
    expect(
      (await t.staff.post(`/v1/workspaces/${pc.id}/disks`, { name: "pc", size: GiB, backend: "LOCAL", region: "PRIVATE_CLOUD" })).status,
    ).toBe(202);
    const ceph = await t.staff.post(`/v1/workspaces/${pc.id}/disks`, { name: "pc", size: GiB, backend: "CEPH", region: "PRIVATE_CLOUD" });
    expect(ceph.status).toBe(400);
  });

  test("authorization: no token 403, VIEWER cannot create, other workspace 404, DISK grant", async () => {
    const disk = await createDisk();
    expect((await t.anon.get(`/v1/disks/${disk.id}`)).status).toBe(403);
    expect((await t.anon.post(`${wsPath}/disks`, {})).status).toBe(403);
    const viewer = member(t, t.workspaceId, "VIEWER");
    expect((await viewer.get(`/v1/disks/${disk.id}`)).status).toBe(200);
    expect((await viewer.post(`${wsPath}/disks`, { name: "d", size: GiB, backend: "LOCAL", region: "NA_01" })).status).toBe(403);
    expect((await viewer.patch(`/v1/disks/${disk.id}`, { name: "x" })).status).toBe(403);
    const noDisk = member(t, t.workspaceId, "OWNER", { INSTANCE: "WRITE" });
    expect((await noDisk.get(`/v1/disks/${disk.id}`)).status).toBe(403);
    const other = otherWorkspace(t);
    expect((await other.api.get(`/v1/disks/${disk.id}`)).status).toBe(404);
    expect((await other.api.get(`${wsPath}/disks`)).status).toBe(404);
    expect((await t.api.get(`/v1/disks/9007199254740993`)).status).toBe(404);
  });

  test("PATCH renames", async () => {
    const disk = await createDisk();
    const res = await t.api.patch(`/v1/disks/${disk.id}`, { name: "renamed" });
    expect(res.status).toBe(200);
    expect(res.body.name).toBe("renamed");
    expect((await t.api.patch(`/v1/disks/${disk.id}`, { name: "" })).status).toBe(400);
    expect((await t.api.patch(`/v1/disks/${disk.id}`, {})).status).toBe(400);
  });
});

describe("attach, detach, resize, delete", () => {
  test("attach -> attached with live.usage_pct; detach -> detached", async () => {
    const inst = await createInstance(t);
    const disk = await createDisk();
    await settle(disk.id);
    const res = await t.api.post(`/v1/disks/${disk.id}/attach`, { instance_id: BigInt(inst.id) });
    expect(res.status).toBe(202);
    expect(res.body.name).toBe("attach-disk");
    expect(await t.waitWorkflow(res.body.id)).toBe("COMPLETED");
    const attached = (await t.api.get(`/v1/disks/${disk.id}`)).body;
    expect(attached).toMatchObject({ state: "AVAILABLE", instance: { id: inst.id, name: inst.name } });
    expect(attached.live.usage_pct).toBeGreaterThanOrEqual(0);
    expect(attached.live.usage_pct).toBeLessThanOrEqual(100);
    expect((await t.api.get(`/v1/disks/${disk.id}`)).body.live).toEqual(attached.live);
    expect((await t.api.get(`/v1/instances/${inst.id}`)).body.disks.map((d: { id: string }) => d.id)).toContain(disk.id);

    const again = await post(`/v1/disks/${disk.id}/attach`, { instance_id: BigInt(inst.id) });
    expect(again.status).toBe(409);
    const del = await t.api.delete(`/v1/disks/${disk.id}`);
    expect(del.status).toBe(409);
    expect(del.message).toMatch(/detach/);

    const detach = await post(`/v1/disks/${disk.id}/detach`);
    expect(detach.status).toBe(202);
    await t.waitWorkflow(detach.body.id);
    expect((await t.api.get(`/v1/disks/${disk.id}`)).body).toMatchObject({ instance: null, live: null });
    const notAttached = await post(`/v1/disks/${disk.id}/detach`);
    expect(notAttached.status).toBe(409);
    expect(notAttached.message).toMatch(/not attached/);
  });

  test("attach rules: AVAILABLE, same workspace and region; boot disks stay", async () => {
    const inst = await createInstance(t);
    const eu = await createInstance(t, { region: "EU_01" });
    const other = otherWorkspace(t);
    const foreign = await createInstance(t, {}, other.api, other.workspaceId);
    const disk = await createDisk();
    await settle(disk.id);
    expect((await post(`/v1/disks/${disk.id}/attach`, {})).status).toBe(400);
    const region = await post(`/v1/disks/${disk.id}/attach`, { instance_id: BigInt(eu.id) });
    expect(region.status).toBe(400);
    expect(region.message).toMatch(/EU_01/);
    expect((await post(`/v1/disks/${disk.id}/attach`, { instance_id: BigInt(foreign.id) })).status).toBe(404);
    expect((await post(`/v1/disks/${disk.id}/attach`, { instance_id: 9007199254740993n })).status).toBe(404);
    await patchRow(t, "disks", disk.id, { state: "FAILED" });
    expect((await post(`/v1/disks/${disk.id}/attach`, { instance_id: BigInt(inst.id) })).status).toBe(409);
    const boot = await post(`/v1/disks/${inst.disks[0].id}/detach`);
    expect(boot.status).toBe(409);
    expect(boot.message).toMatch(/boot disk/);
    expect((await member(t, t.workspaceId, "VIEWER").post(`/v1/disks/${disk.id}/attach`, { instance_id: BigInt(inst.id) })).status).toBe(
      403,
    );
  });

  test("resize grows only and re-prices; delete removes a detached disk and ends its billing", async () => {
    const disk = await createDisk();
    await settle(disk.id);
    const smaller = await post(`/v1/disks/${disk.id}/resize`, { size: 10 * GiB });
    expect(smaller.status).toBe(400);
    expect(smaller.message).toMatch(/larger/);
    expect((await post(`/v1/disks/${disk.id}/resize`, {})).status).toBe(400);
    const res = await post(`/v1/disks/${disk.id}/resize`, { size: 20 * GiB });
    expect(res.status).toBe(202);
    await t.waitWorkflow(res.body.id);
    expect((await t.api.get(`/v1/disks/${disk.id}`)).body.size).toBe(20 * GiB);
    expect(store().t.billingSubjects.find((b) => b.resourceId === disk.id && b.endedAt === null)!.hourlyRate).toBe(20 * 120);
    const quota = { ...store().t.workspaces.get(t.workspaceId)!.quota, max_storage_bytes: 25 * GiB };
    await patchRow(t, "workspaces", t.workspaceId, { quota });
    expect((await post(`/v1/disks/${disk.id}/resize`, { size: 30 * GiB })).status).toBe(400);

    const { del, during, busy } = await withSlowWorkflows(t, 1000, async () => {
      const del = await t.api.delete(`/v1/disks/${disk.id}`);
      return { del, during: (await t.api.get(`/v1/disks/${disk.id}`)).body, busy: await t.api.delete(`/v1/disks/${disk.id}`) };
    });
    expect(del.status).toBe(202);
    expect(during.state).toBe("DELETING");
    expect(busy.status).toBe(409);
    await t.waitWorkflow(del.body.id);
    expect((await t.api.get(`/v1/disks/${disk.id}`)).status).toBe(404);
    expect(store().t.billingSubjects.find((b) => b.resourceId === disk.id)!.endedAt).not.toBeNull();
  });

  test("a pending disk cannot be attached or resized (409), but deleting it abandons the create", async () => {
    const inst = await createInstance(t);
    await withSlowWorkflows(t, 1000, async () => {
      const disk = await createDisk();
      expect((await post(`/v1/disks/${disk.id}/attach`, { instance_id: BigInt(inst.id) })).status).toBe(409);
      expect((await post(`/v1/disks/${disk.id}/resize`, { size: 20 * GiB })).status).toBe(409);
      const createWorkflow = store().t.workflows.find((w) => w.resource?.id === disk.id && w.name === "create-disk")!;
      const del = await t.api.delete(`/v1/disks/${disk.id}`);
      expect(del.status).toBe(202);
      expect((await t.api.get(`/v1/workflows/${createWorkflow.id}`)).body.state).toBe("ABORTED");
      await t.waitWorkflow(del.body.id, 3000);
      expect((await t.api.get(`/v1/disks/${disk.id}`)).status).toBe(404);
    });
  });

  test("a disk busy with a command cannot be deleted (409)", async () => {
    const disk = await createDisk();
    await settle(disk.id);
    await withSlowWorkflows(t, 1000, async () => {
      expect((await post(`/v1/disks/${disk.id}/resize`, { size: 20 * GiB })).status).toBe(202);
      const refused = await t.api.delete(`/v1/disks/${disk.id}`);
      expect(refused.status).toBe(409);
      expect(refused.message).toMatch(/resize-disk in progress/);
    });
  });
});

describe("lists", () => {
  test("workspace list: every filter, page numbers and keyset cursors", async () => {
    const inst = await createInstance(t, { name: "vm" });
    const a = await createDisk({ name: "alpha", backend: "CEPH" });
    await advanceClock(t, 1000);
    const b = await createDisk({ name: "beta", size: 20 * GiB });
    await settle(a.id);
    await settle(b.id);
    const attach = await post(`/v1/disks/${a.id}/attach`, { instance_id: BigInt(inst.id) });
    await t.waitWorkflow(attach.body.id);
    const ids = async (query: Record<string, string | number | boolean | string[]>) =>
      (await t.api.get(`${wsPath}/disks`, query)).body.items.map((d: { name: string }) => d.name).sort();

    expect(await ids({})).toEqual(["alpha", "beta", "vm-boot"]);
    expect(await ids({ boot: true })).toEqual(["vm-boot"]);
    expect(await ids({ boot: false })).toEqual(["alpha", "beta"]);
    expect(await ids({ instance: inst.id })).toEqual(["alpha", "vm-boot"]);
    expect(await ids({ backend: "CEPH" })).toEqual(["alpha"]);
    expect(await ids({ backend: ["CEPH", "LOCAL"] })).toEqual(["alpha", "beta", "vm-boot"]);
    expect(await ids({ state: "AVAILABLE" })).toEqual(["alpha", "beta", "vm-boot"]);
    expect(await ids({ state: ["PENDING", "FAILED"] })).toEqual([]);
    expect(await ids({ name: "ALP" })).toEqual(["alpha"]);
    expect(await ids({ q: "bet" })).toEqual(["beta"]);
    expect(await ids({ q: b.id })).toEqual(["beta"]);
    expect(await ids({ id: [a.id, b.id] })).toEqual(["alpha", "beta"]);
    expect(await ids({ owner: t.workspaceId })).toEqual(["alpha", "beta", "vm-boot"]);
    expect((await t.api.get(`${wsPath}/disks`, { backend: "TAPE" })).status).toBe(400);
    expect((await t.api.get(`${wsPath}/disks`, { state: "GONE" })).status).toBe(400);

    const names = (body: { items: Array<{ name: string }> }) => body.items.map((d) => d.name);
    const p1 = (await t.api.get(`${wsPath}/disks`, { sort: "name", limit: 2 })).body;
    expect(names(p1)).toEqual(["alpha", "beta"]);
    expect(p1.hasNext).toBe(true);
    const p2 = (await t.api.get(`${wsPath}/disks`, { sort: "name", limit: 2, page: 2 })).body;
    expect(names(p2)).toEqual(["vm-boot"]);
    const k2 = (await t.api.get(`${wsPath}/disks`, { sort: "name", limit: 2, after: p1.after })).body;
    expect(names(k2)).toEqual(["vm-boot"]);
    expect(names((await t.api.get(`${wsPath}/disks`, { sort: "name", limit: 2, before: k2.before })).body)).toEqual(["alpha", "beta"]);
    expect(names((await t.api.get(`${wsPath}/disks`, { sort: "size", dir: "desc", limit: 1 })).body)).toEqual(["vm-boot"]);
  });

  test("administrator list: staff only (user token 400), across workspaces, owner filter", async () => {
    await createDisk({ name: "mine" });
    const other = otherWorkspace(t);
    await createDisk({ name: "theirs" }, other.api, other.workspaceId);
    const user = await t.api.get("/v1/disks");
    expect(user.status).toBe(400);
    expect(user.message).toMatch(/administrator/i);
    const all = (await t.staff.get("/v1/disks")).body.items.map((d: { name: string }) => d.name).sort();
    expect(all).toEqual(["mine", "theirs"]);
    const theirs = (await t.staff.get("/v1/disks", { owner: other.workspaceId })).body.items;
    expect(theirs.map((d: { name: string }) => d.name)).toEqual(["theirs"]);
    expect((await t.anon.get("/v1/disks")).status).toBe(403);
  });
});
