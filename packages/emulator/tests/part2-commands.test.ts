/**
 * Part 2 Instance commands (everything under /v1/commands/ except install-recipe) and the
 * snapshot endpoints (create-snapshot) chosen for the "not shown" list, fetch and delete.
 */
import { useTestEmulator, type TestEmulator } from "../src/testing";
import {
  advanceClock,
  command,
  createInstance,
  imageId,
  member,
  nodeId,
  otherWorkspace,
  patchRow,
  planId,
  withSlowWorkflows,
} from "./compute";

let t: TestEmulator;
useTestEmulator((started) => (t = started));

const store = () => t.emu.services.store;
const id = (x: { id: string }) => BigInt(x.id);
const get = async (instanceId: string) => (await t.api.get(`/v1/instances/${instanceId}`)).body;
const DAY = 24 * 3600 * 1000;

async function expectStatus(name: string, body: unknown, status: number, message?: RegExp, api = t.api) {
  const res = await api.post(`/v1/commands/${name}`, body);
  expect({ status: res.status, message: res.message }).toEqual({ status, message: expect.any(String) });
  if (message) expect(res.message).toMatch(message);
  return res;
}

async function powerOff(instanceId: string) {
  const res = await t.api.post(`/v1/instances/${instanceId}/power`, { action: "POWER_OFF" });
  await t.waitWorkflow(res.body.id);
}

describe("snapshots", () => {
  test("create-snapshot: workflow, snapshot PENDING then AVAILABLE; list, fetch, delete", async () => {
    const inst = await createInstance(t);
    const { res, pending } = await withSlowWorkflows(t, 1000, async () => {
      const res = await t.api.post("/v1/commands/create-snapshot", { instance_id: id(inst) });
      return { res, pending: (await t.api.get(`/v1/instances/${inst.id}/snapshots`)).body.items };
    });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ id: expect.any(String), name: "create-snapshot", state: "QUEUED" });
    expect(pending).toHaveLength(1);
    expect(pending[0]).toMatchObject({
      state: "PENDING",
      instance: { id: inst.id },
      disk: { id: inst.disks[0].id },
      size: inst.disks[0].size,
    });
    expect(await t.waitWorkflow(res.body.id)).toBe("COMPLETED");
    const snap = (await t.api.get(`/v1/snapshots/${pending[0].id}`)).body;
    expect(snap.state).toBe("AVAILABLE");

    await advanceClock(t, 1000);
    await command(t, "create-snapshot", { instance_id: id(inst), disk_id: BigInt(inst.disks[0].id) });
    const list = (await t.api.get(`/v1/instances/${inst.id}/snapshots`)).body;
    expect(list.items).toHaveLength(2);
    expect(list.items[1].id).toBe(snap.id); // newest first
    const page = (await t.api.get(`/v1/instances/${inst.id}/snapshots`, { limit: 1 })).body;
    expect((await t.api.get(`/v1/instances/${inst.id}/snapshots`, { limit: 1, after: page.after })).body.items[0].id).toBe(snap.id);
    const inv = (await t.control.get("/_emulator/inventory")).body.resources.snapshots;
    expect(inv).toHaveLength(2);

    const { del, during } = await withSlowWorkflows(t, 1000, async () => {
      const del = await t.api.delete(`/v1/snapshots/${snap.id}`);
      return { del, during: (await t.api.get(`/v1/snapshots/${snap.id}`)).body };
    });
    expect(del.status).toBe(202);
    expect(during.state).toBe("DELETING");
    await t.waitWorkflow(del.body.id);
    expect((await t.api.get(`/v1/snapshots/${snap.id}`)).status).toBe(404);
  });

  test("create-snapshot rules: AVAILABLE, not locked, disk on this instance, access", async () => {
    const inst = await createInstance(t);
    const other = await createInstance(t);
    await expectStatus("create-snapshot", {}, 400, /instance_id/);
    await expectStatus("create-snapshot", { instance_id: "1" }, 400, /instance_id/);
    await expectStatus("create-snapshot", { instance_id: 9007199254740993n }, 404, /Instance/);
    await expectStatus("create-snapshot", { instance_id: id(inst), disk_id: BigInt(other.disks[0].id) }, 400, /not attached/);
    await patchRow(t, "instances", inst.id, { locked: true });
    await expectStatus("create-snapshot", { instance_id: id(inst) }, 409, /locked/);
    await patchRow(t, "instances", inst.id, { locked: false, state: "SUSPENDED" });
    await expectStatus("create-snapshot", { instance_id: id(inst) }, 409, /SUSPENDED/);
    await expectStatus("create-snapshot", { instance_id: id(other) }, 403, undefined, member(t, t.workspaceId, "VIEWER"));
    await expectStatus("create-snapshot", { instance_id: id(other) }, 404, undefined, otherWorkspace(t).api);
    expect((await t.anon.post("/v1/commands/create-snapshot", { instance_id: id(other) })).status).toBe(403);
  });

  test("identifiers above 2^53 as raw JSON integers", async () => {
    const inst = await createInstance(t);
    expect(BigInt(inst.id)).toBeGreaterThan(2n ** 53n);
    const res = await t.api.post("/v1/commands/create-snapshot", undefined, { rawBody: `{"instance_id":${inst.id}}` });
    expect(res.status).toBe(202);
    const near = (BigInt(inst.id) + 1n).toString();
    expect((await t.api.post("/v1/commands/create-snapshot", undefined, { rawBody: `{"instance_id":${near}}` })).status).toBe(404);
  });

  test("restore-snapshot: AVAILABLE snapshot; offline unless restart; restart powers off then on", async () => {
    const inst = await createInstance(t);
    await command(t, "create-snapshot", { instance_id: id(inst) });
    const snap = (await t.api.get(`/v1/instances/${inst.id}/snapshots`)).body.items[0];
    await expectStatus("restore-snapshot", { snapshot_id: BigInt(snap.id) }, 409, /online/);
    await expectStatus("restore-snapshot", { snapshot_id: 9007199254740993n }, 404, /Snapshot/);
    await expectStatus("restore-snapshot", { snapshot_id: BigInt(snap.id), restart: "yes" }, 400, /restart/);

    const { res, during } = await withSlowWorkflows(t, 1000, async () => {
      const res = await t.api.post("/v1/commands/restore-snapshot", { snapshot_id: BigInt(snap.id), restart: true });
      return { res, during: await get(inst.id) };
    });
    expect(res.status).toBe(202);
    expect(during.online).toBe(false);
    expect(await t.waitWorkflow(res.body.id)).toBe("COMPLETED");
    expect((await get(inst.id)).online).toBe(true);

    await powerOff(inst.id);
    expect(await command(t, "restore-snapshot", { snapshot_id: BigInt(snap.id) })).toBe("COMPLETED");
    expect((await get(inst.id)).online).toBe(false);

    await patchRow(t, "snapshots", snap.id, { state: "PENDING" });
    await expectStatus("restore-snapshot", { snapshot_id: BigInt(snap.id) }, 409, /AVAILABLE/);
    await expectStatus("restore-snapshot", { snapshot_id: BigInt(snap.id) }, 404, undefined, otherWorkspace(t).api);
  });
});

describe("ISO commands", () => {
  test("attach-iso updates the CDROM at once; detach-iso clears it and boots from disk", async () => {
    const inst = await createInstance(t);
    const iso = imageId(t, "Ubuntu 24.04 Live Server ISO");
    const { res, during } = await withSlowWorkflows(t, 1000, async () => {
      const res = await t.api.post("/v1/commands/attach-iso", { instance: id(inst), iso });
      return { res, during: await get(inst.id) };
    });
    expect(res.status).toBe(202);
    expect(during.iso).toEqual({ id: String(iso), name: "Ubuntu 24.04 Live Server ISO" });
    expect(await t.waitWorkflow(res.body.id)).toBe("COMPLETED");
    await t.api.patch(`/v1/instances/${inst.id}`, { boot: "ISO" });
    expect(await command(t, "detach-iso", { instance: id(inst) })).toBe("COMPLETED");
    expect(await get(inst.id)).toMatchObject({ iso: null, boot: "DISK" });
  });

  test("ISO rules: an ISO kind, official or the workspace's, AVAILABLE; detach needs an attached ISO", async () => {
    const inst = await createInstance(t);
    await expectStatus("attach-iso", { instance: id(inst) }, 400, /iso/);
    await expectStatus("attach-iso", { instance: id(inst), iso: imageId(t, "Debian 12") }, 400, /not an ISO/);
    await expectStatus("attach-iso", { instance: id(inst), iso: 9007199254740993n }, 404, /ISO/);
    const s = store();
    const base = s.t.images.find((i) => i.kind === "ISO")!;
    const foreign = s.t.images.insert({ ...base, id: s.newId(), seed: false, official: false, workspaceId: otherWorkspace(t).workspaceId });
    await expectStatus("attach-iso", { instance: id(inst), iso: BigInt(foreign.id) }, 404, /ISO/);
    const own = s.t.images.insert({ ...base, id: s.newId(), seed: false, official: false, workspaceId: t.workspaceId, state: "PENDING" });
    await expectStatus("attach-iso", { instance: id(inst), iso: BigInt(own.id) }, 409, /AVAILABLE/);
    await patchRow(t, "images", own.id, { state: "AVAILABLE" });
    expect(await command(t, "attach-iso", { instance: id(inst), iso: BigInt(own.id) })).toBe("COMPLETED");
    await command(t, "detach-iso", { instance: id(inst) });
    await expectStatus("detach-iso", { instance: id(inst) }, 409, /No ISO/);
    await expectStatus("detach-iso", { instance: id(inst) }, 403, undefined, member(t, t.workspaceId, "VIEWER"));
  });
});

describe("password, SSH keys, hostname", () => {
  test("reset-instance-password: synchronous, 14 characters, task_id a bare integer audit entry id", async () => {
    const inst = await createInstance(t);
    const res = await t.api.post("/v1/commands/reset-instance-password", { instance_id: id(inst) });
    expect(res.status).toBe(200);
    expect(res.body.password).toMatch(/^[A-Za-z0-9]{14}$/);
    expect(res.text).toMatch(/"task_id":\d+[,}]/);
    const entry = store().t.audit.get(String(res.body.task_id));
    expect(entry).toMatchObject({ action: "instance.reset-password", target: { kind: "INSTANCE", id: inst.id } });
    const again = await t.api.post("/v1/commands/reset-instance-password", { instance_id: id(inst) });
    expect(again.body.password).not.toBe(res.body.password);
    await patchRow(t, "instances", inst.id, { state: "SUSPENDED" });
    await expectStatus("reset-instance-password", { instance_id: id(inst) }, 409);
    await expectStatus("reset-instance-password", {}, 400, /instance_id/);
  });

  test("sync-instance-ssh-keys: online Linux or BSD only", async () => {
    const linux = await createInstance(t);
    const bsd = await createInstance(t, { image: imageId(t, "FreeBSD 14.1") });
    const windows = await createInstance(t, { image: imageId(t, "Windows Server 2022") });
    const res = await t.api.post("/v1/commands/sync-instance-ssh-keys", { instance_id: id(linux) });
    expect(res.status).toBe(202);
    expect(res.body.name).toBe("sync-instance-ssh-keys");
    expect(await t.waitWorkflow(res.body.id)).toBe("COMPLETED");
    expect(await command(t, "sync-instance-ssh-keys", { instance_id: id(bsd) })).toBe("COMPLETED");
    await expectStatus("sync-instance-ssh-keys", { instance_id: id(windows) }, 409, /LINUX or BSD/);
    await powerOff(linux.id);
    await expectStatus("sync-instance-ssh-keys", { instance_id: id(linux) }, 409, /offline/);
  });

  test("update-instance-hostname: Linux, offline, 4 to 32 characters; answers an audit entry", async () => {
    const inst = await createInstance(t);
    await expectStatus("update-instance-hostname", { instance_id: id(inst), hostname: "web-01" }, 409, /online/);
    await powerOff(inst.id);
    await expectStatus("update-instance-hostname", { instance_id: id(inst), hostname: "abc" }, 400, /hostname/);
    await expectStatus("update-instance-hostname", { instance_id: id(inst), hostname: "a".repeat(33) }, 400, /hostname/);
    await expectStatus("update-instance-hostname", { instance_id: id(inst), hostname: "bad name!" }, 400, /hostname/);
    const res = await t.api.post("/v1/commands/update-instance-hostname", { instance_id: id(inst), hostname: "web-01.example" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: expect.any(String),
      action: "instance.update-hostname",
      target: { kind: "INSTANCE", id: inst.id },
      workspace_id: t.workspaceId,
      actor: { name: "Demo User" },
    });
    expect((await get(inst.id)).hostname).toBe("web-01.example");
    const bsd = await createInstance(t, { image: imageId(t, "FreeBSD 14.1"), start: false });
    await expectStatus("update-instance-hostname", { instance_id: id(bsd), hostname: "bsd-host" }, 409, /LINUX/);
  });
});

describe("upgrades", () => {
  test("online: specs staged, pending_upgrades set, billing adjusted at once; apply-upgrades with restart applies them", async () => {
    const inst = await createInstance(t);
    const rate = () => store().t.billingSubjects.find((b) => b.resourceId === inst.id && b.endedAt === null)!.hourlyRate;
    expect(rate()).toBe(6_000);
    const { res, rateDuring } = await withSlowWorkflows(t, 1000, async () => {
      const res = await t.api.post("/v1/commands/upgrade-instance", { type: "PLAN", instance: id(inst), plan: planId(t, "lightning-2") });
      return { res, rateDuring: rate() };
    });
    expect(res.status).toBe(202);
    expect(rateDuring).toBe(18_000);
    await t.waitWorkflow(res.body.id);
    expect(await get(inst.id)).toMatchObject({ pending_upgrades: true, cpu: 1, plan: { name: "lightning-1" }, online: true });

    await expectStatus("apply-upgrades", { instance: id(inst) }, 409, /online/);
    expect(await command(t, "apply-upgrades", { instance: id(inst), restart: true })).toBe("COMPLETED");
    const after = await get(inst.id);
    expect(after).toMatchObject({ pending_upgrades: false, cpu: 2, memory: 4 * 1024 ** 3, plan: { name: "lightning-2" }, online: true });
    expect(after.disks[0].size).toBe(50 * 1024 ** 3);
    await expectStatus("apply-upgrades", { instance: id(inst) }, 409, /no staged/);
  });

  test("offline: the upgrade applies when the workflow completes; CUSTOM converts and bills the boot disk", async () => {
    const inst = await createInstance(t, { start: false });
    expect(
      await command(t, "upgrade-instance", {
        type: "CUSTOM",
        instance: id(inst),
        cpu: 3,
        memory: 3 * 1024 ** 3,
        upload: 1_000_000,
        download: 2_000_000,
        disk: 40 * 1024 ** 3,
        io_limits: { read_bytes_sec: 1, write_bytes_sec: 2, read_iops: 3, write_iops: 4 },
      }),
    ).toBe("COMPLETED");
    const after = await get(inst.id);
    expect(after).toMatchObject({
      type: "CUSTOM",
      plan: null,
      cpu: 3,
      memory: 3 * 1024 ** 3,
      bandwidth: { upload_bytes_sec: 1_000_000, download_bytes_sec: 2_000_000 },
      io_limits: { read_bytes_sec: 1, write_bytes_sec: 2, read_iops: 3, write_iops: 4 },
      pending_upgrades: false,
    });
    expect(after.disks[0].size).toBe(40 * 1024 ** 3);
    const diskSubject = store().t.billingSubjects.find((b) => b.resourceId === after.disks[0].id && b.endedAt === null);
    expect(diskSubject).toMatchObject({ resourceKind: "DISK", hourlyRate: 40 * 120 });
    expect(store().t.billingSubjects.find((b) => b.resourceId === inst.id && b.endedAt === null)!.hourlyRate).toBe(3 * 3_600 + 3 * 1_800);
  });

  test("a POWER_CYCLE is the next restart: staged upgrades apply", async () => {
    const inst = await createInstance(t);
    await command(t, "upgrade-instance", { type: "CUSTOM", instance: id(inst), cpu: 2 });
    expect((await get(inst.id)).pending_upgrades).toBe(true);
    const cycle = await t.api.post(`/v1/instances/${inst.id}/power`, { action: "POWER_CYCLE" });
    await t.waitWorkflow(cycle.body.id);
    expect(await get(inst.id)).toMatchObject({ pending_upgrades: false, cpu: 2, type: "CUSTOM" });
  });

  test("upgrade rules", async () => {
    const inst = await createInstance(t);
    await expectStatus("upgrade-instance", { type: "PLAN", instance: id(inst) }, 400, /plan/);
    await expectStatus("upgrade-instance", { type: "BIGGER", instance: id(inst) }, 400, /type/);
    await expectStatus("upgrade-instance", { type: "CUSTOM", instance: id(inst) }, 400, /at least one/);
    await expectStatus("upgrade-instance", { type: "CUSTOM", instance: id(inst), disk: 1024 ** 3 }, 400, /only grow/);
    await expectStatus("upgrade-instance", { type: "PLAN", instance: id(inst), plan: planId(t, "lightning-legacy") }, 400, /disabled/);
    await expectStatus("upgrade-instance", { type: "PLAN", instance: id(inst), plan: planId(t, "ryzen-2") }, 400, /RYZEN/);
    await expectStatus("upgrade-instance", { type: "PLAN", instance: id(inst), plan: 9007199254740993n }, 404, /Plan/);
    await expectStatus("upgrade-instance", { type: "CUSTOM", instance: id(inst), cpu: 100 }, 400, /node/);
    const quota = { ...store().t.workspaces.get(t.workspaceId)!.quota, max_storage_bytes: 30 * 1024 ** 3 };
    await patchRow(t, "workspaces", t.workspaceId, { quota });
    await expectStatus("upgrade-instance", { type: "CUSTOM", instance: id(inst), disk: 40 * 1024 ** 3 }, 400, /max_storage_bytes/);
    await expectStatus(
      "upgrade-instance",
      { type: "CUSTOM", instance: id(inst), cpu: 2 },
      403,
      undefined,
      member(t, t.workspaceId, "EDITOR"),
    );
    await patchRow(t, "instances", inst.id, { locked: true });
    await expectStatus("upgrade-instance", { type: "CUSTOM", instance: id(inst), cpu: 2 }, 409, /locked/);
    await patchRow(t, "instances", inst.id, { locked: false, state: "PENDING" });
    await expectStatus("upgrade-instance", { type: "CUSTOM", instance: id(inst), cpu: 2 }, 409, /PENDING/);
  });

  test("a failed upgrade workflow unstages the hardware and restores billing", async () => {
    const inst = await createInstance(t);
    await t.control.post("/_emulator/faults", { kind: "workflow", outcome: "FAILED", path: "/v1/commands/upgrade-instance", times: 1 });
    expect(await command(t, "upgrade-instance", { type: "PLAN", instance: id(inst), plan: planId(t, "lightning-4") })).toBe("FAILED");
    expect(await get(inst.id)).toMatchObject({ state: "AVAILABLE", pending_upgrades: false, cpu: 1 });
    expect(store().t.instances.get(inst.id)!.staged).toBeNull();
    expect(store().t.billingSubjects.find((b) => b.resourceId === inst.id && b.endedAt === null)!.hourlyRate).toBe(6_000);
  });
});

describe("batch commands", () => {
  test("batch-instance-power: in sequence, skipping locked, unavailable and inaccessible instances", async () => {
    const a = await createInstance(t);
    const locked = await createInstance(t);
    const suspended = await createInstance(t);
    const other = otherWorkspace(t);
    const foreign = await createInstance(t, {}, other.api, other.workspaceId);
    await patchRow(t, "instances", locked.id, { locked: true });
    await patchRow(t, "instances", suspended.id, { state: "SUSPENDED" });
    const res = await t.api.post("/v1/commands/batch-instance-power", {
      instances: [id(a), id(locked), id(suspended), id(foreign), 9007199254740993n],
      action: "POWER_OFF",
    });
    expect(res.status).toBe(202);
    expect(res.body.name).toBe("batch-instance-power");
    expect(await t.waitWorkflow(res.body.id)).toBe("COMPLETED");
    expect((await get(a.id)).online).toBe(false);
    expect((await get(locked.id)).online).toBe(true);
    expect((await get(suspended.id)).online).toBe(true);
    expect((await other.api.get(`/v1/instances/${foreign.id}`)).body.online).toBe(true);

    await expectStatus("batch-instance-power", { instances: [id(locked), id(foreign)], action: "POWER_ON" }, 409, /eligible/);
    await expectStatus("batch-instance-power", { instances: [], action: "POWER_ON" }, 400, /instances/);
    await expectStatus("batch-instance-power", { instances: [id(a)], action: "JUMP" }, 400, /action/);
    await expectStatus(
      "batch-instance-power",
      { instances: [id(a)], action: "POWER_ON" },
      409,
      undefined,
      member(t, t.workspaceId, "VIEWER"),
    );
  });

  test("batch-instance-terminate: immediate true removes; locked skipped; immediate false schedules and powers off", async () => {
    const a = await createInstance(t);
    const b = await createInstance(t);
    const locked = await createInstance(t);
    await patchRow(t, "instances", locked.id, { locked: true });
    expect(await command(t, "batch-instance-terminate", { instances: [id(a), id(locked)], immediate: true })).toBe("COMPLETED");
    expect((await t.api.get(`/v1/instances/${a.id}`)).status).toBe(404);
    expect((await get(locked.id)).state).toBe("AVAILABLE");

    expect(await command(t, "batch-instance-terminate", { instances: [id(b)], immediate: false })).toBe("COMPLETED");
    const scheduled = await get(b.id);
    expect(scheduled).toMatchObject({ state: "SUSPENDED", online: false });
    expect(Date.parse(scheduled.termination_scheduled_at) - Date.now()).toBeGreaterThan(3 * DAY - 60_000);
    await expectStatus("batch-instance-terminate", { instances: [id(b), id(locked)], immediate: false }, 409, /eligible/);
    await expectStatus(
      "batch-instance-terminate",
      { instances: [id(locked)], immediate: true },
      409,
      /eligible/,
      member(t, t.workspaceId, "EDITOR"),
    );
    await expectStatus("batch-instance-terminate", { instances: [id(b)] }, 400, /immediate/);
  });

  test("batch-instance-suspend: Administrator only; suspend needs AVAILABLE, resume needs SUSPENDED", async () => {
    const a = await createInstance(t);
    const b = await createInstance(t);
    await expectStatus("batch-instance-suspend", { instances: [id(a)], suspend: true }, 400, /administrator/i);
    expect(await command(t, "batch-instance-suspend", { instances: [id(a), id(b)], suspend: true }, t.staff)).toBe("COMPLETED");
    expect(await get(a.id)).toMatchObject({ state: "SUSPENDED", online: false });
    await expectStatus("batch-instance-suspend", { instances: [id(a)], suspend: true }, 409, /eligible/, t.staff);
    expect(await command(t, "batch-instance-suspend", { instances: [id(a)], suspend: false }, t.staff)).toBe("COMPLETED");
    expect(await get(a.id)).toMatchObject({ state: "AVAILABLE", online: false });
    expect((await get(b.id)).state).toBe("SUSPENDED");
  });
});

describe("termination", () => {
  test("terminate-instance immediate false: suspended, powered off, removed once the clock passes 3 days", async () => {
    const inst = await createInstance(t);
    const { res, during } = await withSlowWorkflows(t, 1000, async () => {
      const res = await t.api.post("/v1/commands/terminate-instance", { instance: id(inst), immediate: false });
      return { res, during: await get(inst.id) };
    });
    expect(res.status).toBe(202);
    expect(during).toMatchObject({ state: "SUSPENDED", online: true });
    await t.waitWorkflow(res.body.id);
    const scheduled = await get(inst.id);
    expect(scheduled).toMatchObject({ state: "SUSPENDED", online: false });
    const at = Date.parse(scheduled.termination_scheduled_at);
    await expectStatus("terminate-instance", { instance: id(inst), immediate: false }, 409, /already scheduled/);
    await advanceClock(t, 3 * DAY - 60_000);
    expect((await get(inst.id)).termination_scheduled_at).toBe(new Date(at).toISOString());
    await advanceClock(t, 120_000);
    expect((await t.api.get(`/v1/instances/${inst.id}`)).status).toBe(404);
    expect(store().t.disks.filter((d) => d.instanceId === inst.id)).toEqual([]);
  });

  test("cancel-termination resumes to an offline state and answers an audit entry; no effect when none is scheduled", async () => {
    const inst = await createInstance(t);
    await command(t, "terminate-instance", { instance: id(inst), immediate: false });
    const res = await t.api.post("/v1/commands/cancel-termination", { instance: id(inst) });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ action: "instance.cancel-termination", target: { kind: "INSTANCE", id: inst.id } });
    expect(await get(inst.id)).toMatchObject({ state: "AVAILABLE", online: false, termination_scheduled_at: null });
    await advanceClock(t, 4 * DAY);
    expect((await t.api.get(`/v1/instances/${inst.id}`)).status).toBe(200);

    const noop = await t.api.post("/v1/commands/cancel-termination", { instance: id(inst) });
    expect(noop.status).toBe(200);
    expect(await get(inst.id)).toMatchObject({ state: "AVAILABLE", online: false });
    await expectStatus("cancel-termination", { instance: id(inst) }, 403, undefined, member(t, t.workspaceId, "EDITOR"));
  });

  test("terminate-instance: locked refuses immediate false; immediate true removes now", async () => {
    const inst = await createInstance(t);
    await patchRow(t, "instances", inst.id, { locked: true });
    await expectStatus("terminate-instance", { instance: id(inst), immediate: false }, 409, /locked/);
    const { res, during } = await withSlowWorkflows(t, 1000, async () => {
      const res = await t.api.post("/v1/commands/terminate-instance", { instance: id(inst), immediate: true });
      return { res, during: await get(inst.id) };
    });
    expect(res.status).toBe(202);
    expect(during.state).toBe("DELETING");
    await t.waitWorkflow(res.body.id);
    expect((await t.api.get(`/v1/instances/${inst.id}`)).status).toBe(404);
    await expectStatus("terminate-instance", { instance: id(inst) }, 400, /immediate/);
    const other = await createInstance(t);
    await expectStatus("terminate-instance", { instance: id(other), immediate: true }, 404, undefined, otherWorkspace(t).api);
  });
});

describe("staff commands", () => {
  test("suspend-instance: Administrator only, synchronous, audit entry", async () => {
    const inst = await createInstance(t);
    await expectStatus("suspend-instance", { instance: id(inst), suspend: true }, 400, /administrator/i);
    const res = await t.staff.post("/v1/commands/suspend-instance", { instance: id(inst), suspend: true });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ action: "instance.suspend", target: { kind: "INSTANCE", id: inst.id }, actor: { name: "Operator" } });
    expect(await get(inst.id)).toMatchObject({ state: "SUSPENDED", online: false });
    await expectStatus("suspend-instance", { instance: id(inst), suspend: true }, 409, /SUSPENDED/, t.staff);
    expect((await t.staff.post("/v1/commands/suspend-instance", { instance: id(inst), suspend: false })).body.action).toBe(
      "instance.resume",
    );
    expect((await get(inst.id)).state).toBe("AVAILABLE");
    await expectStatus("suspend-instance", { instance: id(inst), suspend: false }, 409, /AVAILABLE/, t.staff);
    await expectStatus("suspend-instance", { instance: id(inst) }, 400, /suspend/, t.staff);
  });

  test("migrate-instance: Administrator only; to a named node, a region, or the platform's pick", async () => {
    const inst = await createInstance(t);
    await expectStatus("migrate-instance", { instance: id(inst) }, 400, /administrator/i);
    const current = inst.node.name;
    const target = current === "na01-l1.svc.internal" ? "na01-l2.svc.internal" : "na01-l1.svc.internal";
    expect(await command(t, "migrate-instance", { instance: id(inst), node: nodeId(t, target) }, t.staff)).toBe("COMPLETED");
    expect((await get(inst.id)).node.name).toBe(target);
    expect(await command(t, "migrate-instance", { instance: id(inst), region: "EU_01" }, t.staff)).toBe("COMPLETED");
    const moved = await get(inst.id);
    expect(moved).toMatchObject({ region: "EU_01", node: { name: "eu01-l1.svc.internal" } });
    expect((await t.api.get(`/v1/disks/${moved.disks[0].id}`)).body.region).toBe("EU_01");
    expect(await command(t, "migrate-instance", { instance: id(inst) }, t.staff)).toBe("COMPLETED");
    expect((await get(inst.id)).region).toBe("NA_01");

    await expectStatus("migrate-instance", { instance: id(inst), node: nodeId(t, "na01-r1.svc.internal") }, 400, /cannot host/, t.staff);
    await expectStatus("migrate-instance", { instance: id(inst), node: BigInt((await get(inst.id)).node.id) }, 400, /already/, t.staff);
    await expectStatus("migrate-instance", { instance: id(inst), region: "MARS_01" }, 400, /MARS_01/, t.staff);
    await expectStatus("migrate-instance", { instance: id(inst), node: 9007199254740993n }, 404, /Node/, t.staff);
  });
});
