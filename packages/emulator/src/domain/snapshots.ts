/**
 * The snapshots area's domain. Part 2 names create-snapshot and restore-snapshot (instance
 * commands); the snapshot's fields and its list, fetch and delete endpoints are "not shown", so
 * the row, the view and GET /v1/snapshots/{id}, GET /v1/instances/{iid}/snapshots and
 * DELETE /v1/snapshots/{id} are choices (emulator/README.md).
 *
 * - create: instance AVAILABLE and not locked; the disk defaults to the boot disk and must be
 *   attached to the instance; PENDING, then AVAILABLE.
 * - restore: snapshot AVAILABLE, instance AVAILABLE, its disk still there; the instance must be
 *   offline unless restart (then off before, on after).
 * - delete: not while PENDING or DELETING; DELETING, then gone. Snapshots go with their instance.
 */
import { conflict, fieldError, notFound } from "../core/errors";
import type { AccessNeed } from "../core/auth";
import type { RouteContext } from "../core/router";
import type { Services } from "../core/services";
import type { Row } from "../core/store";
import type { WorkflowView } from "../core/choices";
import { defineWorkflowEffect } from "../core/workflowEffects";
import { onHook } from "../core/hooks";
import type { InstanceRow, ResourceState } from "../model";
import { workspaceSummary } from "./catalog";
import { requireInstanceState, requireNotLocked, requireOffline } from "./instances";
import { instanceWorkflow, setOnline } from "./instanceLifecycle";

export interface SnapshotRow extends Row {
  workspaceId: string;
  instanceId: string;
  diskId: string;
  name: string;
  size: number;
  state: ResourceState;
  created: string;
}

declare module "../core/store" {
  interface Tables {
    snapshots: SnapshotRow;
  }
}

/** Snapshot view (fields not shown in the spec; chosen). */
export function snapshotView(services: Services, snap: SnapshotRow) {
  const { t } = services.store;
  const instance = t.instances.get(snap.instanceId);
  const disk = t.disks.get(snap.diskId);
  return {
    id: snap.id,
    name: snap.name,
    state: snap.state,
    size: snap.size,
    instance: instance ? { id: instance.id, name: instance.name } : null,
    disk: disk ? { id: disk.id, name: disk.name } : null,
    workspace: workspaceSummary(services, snap.workspaceId),
    created: snap.created,
  };
}

/** Loads a snapshot and checks the caller may act on its instance; missing and invisible both answer 404. */
export function loadSnapshot(ctx: RouteContext, id: string, need: AccessNeed): SnapshotRow {
  const snap = ctx.store.t.snapshots.get(id);
  if (!snap) throw notFound("Snapshot");
  ctx.access(snap.workspaceId, { ...need, resource: { kind: "INSTANCE", id: snap.instanceId } });
  return snap;
}

// Snapshots go with their instance.
onHook("instance.deleted", (services, { instanceId }) => {
  for (const s of services.store.t.snapshots.filter((x) => x.instanceId === instanceId)) services.store.t.snapshots.delete(s.id);
});

const SNAPSHOT_READY = defineWorkflowEffect("snapshot.created", (services, wf) => {
  if (services.store.t.snapshots.get(wf.resource!.id)) services.store.t.snapshots.update(wf.resource!.id, { state: "AVAILABLE" });
});

const SNAPSHOT_DELETED = defineWorkflowEffect("snapshot.deleted", (services, wf) => {
  services.store.t.snapshots.delete(wf.resource!.id);
});

const RESTORED = defineWorkflowEffect("instance.snapshot-restored", (services, wf) => {
  const inst = services.store.t.instances.get(wf.resource!.id);
  if (inst && wf.args.restart) setOnline(services, inst, true);
});

export function createSnapshot(ctx: RouteContext, inst: InstanceRow, diskId: string | undefined): WorkflowView {
  requireInstanceState(inst, "AVAILABLE", "snapshot it");
  requireNotLocked(inst, "snapshot it");
  const disk = diskId ? ctx.store.t.disks.get(diskId) : ctx.store.t.disks.find((d) => d.instanceId === inst.id && d.boot);
  if (!disk || disk.workspaceId !== inst.workspaceId) throw notFound("Disk");
  if (disk.instanceId !== inst.id) throw fieldError("disk_id", "the disk is not attached to this instance");
  const { store, clock } = ctx;
  const snap = store.t.snapshots.insert({
    id: store.newId(),
    workspaceId: inst.workspaceId,
    instanceId: inst.id,
    diskId: disk.id,
    name: `${disk.name}-${clock.iso().replace(/[:.]/g, "-")}`,
    size: disk.size,
    state: "PENDING",
    created: clock.iso(),
  });
  const wf = ctx.startWorkflow({
    name: "create-snapshot",
    workspaceId: inst.workspaceId,
    resource: { kind: "snapshots", id: snap.id },
    onComplete: SNAPSHOT_READY,
  });
  return ctx.workflows.view(wf);
}

export function restoreSnapshot(ctx: RouteContext, snap: SnapshotRow, restart: boolean): WorkflowView {
  if (snap.state !== "AVAILABLE") throw conflict(`Snapshot is ${snap.state}; it must be AVAILABLE to restore`);
  const inst = ctx.store.t.instances.get(snap.instanceId);
  if (!inst) throw notFound("Instance");
  requireInstanceState(inst, "AVAILABLE", "restore a snapshot");
  if (!ctx.store.t.disks.get(snap.diskId)) throw conflict("The snapshot's disk no longer exists");
  if (!restart) requireOffline(inst, "restore a snapshot");
  else setOnline(ctx.services, inst, false);
  return ctx.workflows.view(instanceWorkflow(ctx, inst, "restore-snapshot", RESTORED, { snapshotId: snap.id, restart }, null));
}

export function deleteSnapshot(ctx: RouteContext, snap: SnapshotRow): WorkflowView {
  if (snap.state === "PENDING" || snap.state === "DELETING") throw conflict(`Snapshot is ${snap.state}`);
  ctx.store.t.snapshots.update(snap.id, { state: "DELETING" });
  const wf = ctx.startWorkflow({
    name: "delete-snapshot",
    workspaceId: snap.workspaceId,
    resource: { kind: "snapshots", id: snap.id },
    onComplete: SNAPSHOT_DELETED,
  });
  return ctx.workflows.view(wf);
}
