/**
 * The disks area's domain (spec part 2, "Disks"): rows, view, storage quota, billing, and the
 * state transitions of every disk command with their workflow effects.
 *
 * States (part 2, "States and transitions"): a new disk is PENDING and settles AVAILABLE,
 * unattached. attach needs AVAILABLE and detached; detach needs attached; resize only grows;
 * delete needs detached. While an attach, detach, resize or delete runs the disk is PENDING
 * (DELETING for a delete), so a second conflicting command answers 409; a delete may abandon a
 * create that has not finished (its workflow ends ABORTED).
 *
 * Billing: every disk is its own STORAGE billing subject (kind DISK), except the boot disk of a
 * PLAN instance, whose storage is part of the plan's flat price. The instance area creates and
 * frees boot and storage disks with the helpers here.
 */
import { conflict, fieldError, notFound } from "../core/errors";
import type { RouteContext } from "../core/router";
import type { Services } from "../core/services";
import { defineWorkflowEffect } from "../core/workflowEffects";
import { effectiveRole, type AccessNeed } from "../core/auth";
import { stableHash } from "../core/rng";
import { pricePart, rebill, startBilling, stopBilling } from "../pricing";
import type { DiskRow, InstanceRow, WorkflowRow } from "../model";
import type { WorkflowView } from "../core/choices";
import { nodesInRegion, workspaceSummary } from "./catalog";

export const DISK_BACKENDS = ["LOCAL", "CEPH"] as const;
export type DiskBackend = (typeof DISK_BACKENDS)[number];

export const DISK_READ: AccessNeed = { grant: ["DISK", "READ"] };
export const DISK_WRITE: AccessNeed = { role: "EDITOR", grant: ["DISK", "WRITE"] };

// ---------------------------------------------------------------------------------------------
// Rows, view, quota and billing

/** live.usage_pct: deterministic per disk and size while attached; null when not attached. */
function diskLive(disk: DiskRow): { usage_pct: number } | null {
  if (!disk.instanceId) return null;
  return { usage_pct: (stableHash(`${disk.id}:${disk.size}`) % 950) / 10 + 2 };
}

export function diskView(services: Services, disk: DiskRow) {
  const instance = disk.instanceId ? services.store.t.instances.get(disk.instanceId) : undefined;
  return {
    id: disk.id,
    name: disk.name,
    backend: disk.backend,
    boot: disk.boot,
    size: disk.size,
    instance: instance ? { id: instance.id, name: instance.name } : null,
    state: disk.state,
    region: disk.region,
    workspace: workspaceSummary(services, disk.workspaceId),
    live: diskLive(disk),
    created: disk.created,
  };
}

/** Bytes of disk storage a workspace holds (quota max_storage_bytes). */
export function usedStorage(services: Services, workspaceId: string): number {
  let total = 0;
  for (const d of services.store.t.disks.all()) if (d.workspaceId === workspaceId) total += d.size;
  return total;
}

/** 400 when adding `extraBytes` would pass the workspace's storage quota. */
export function checkStorageQuota(services: Services, workspaceId: string, extraBytes: number, field: string): void {
  const ws = services.store.t.workspaces.get(workspaceId);
  if (!ws) return;
  const max = ws.quota.max_storage_bytes;
  if (usedStorage(services, workspaceId) + extraBytes > max) {
    throw fieldError(field, `storage quota exceeded: the workspace may hold at most ${max} bytes of disks (max_storage_bytes)`);
  }
}

/** Hourly STORAGE rate of a disk (micro-USD), from the rate card of its region and backend. */
export function diskHourlyRate(services: Services, disk: Pick<DiskRow, "region" | "size" | "backend">): number {
  const priced = pricePart(
    services,
    disk.region,
    { type: "STORAGE", storage_bytes: disk.size, storage_backing: disk.backend.toLowerCase() },
    services.clock.now(),
  );
  return "hourly_rate" in priced ? priced.hourly_rate : 0;
}

export function startDiskBilling(services: Services, disk: DiskRow): void {
  startBilling(services, {
    workspaceId: disk.workspaceId,
    resourceId: disk.id,
    resourceKind: "DISK",
    resourceName: disk.name,
    hourlyRate: diskHourlyRate(services, disk),
  });
}

export function isDiskBilled(services: Services, diskId: string): boolean {
  return services.store.t.billingSubjects.find((b) => b.resourceId === diskId && b.endedAt === null) !== undefined;
}

/** Re-prices a billed disk after its size changed. */
export function rebillDisk(services: Services, disk: DiskRow): void {
  rebill(services, disk.id, diskHourlyRate(services, disk));
}

export function insertDisk(services: Services, d: Omit<DiskRow, "id" | "created">): DiskRow {
  const { store, clock } = services;
  return store.t.disks.insert({ ...d, id: store.newId(), created: clock.iso() });
}

/** Whether a region can hold a disk of this backend for this workspace: CEPH needs a CEPH node there. */
export function regionSupportsBackend(services: Services, workspaceId: string, region: string, backend: DiskBackend): boolean {
  const nodes = nodesInRegion(services, workspaceId, region);
  return backend === "CEPH" ? nodes.some((n) => n.flags.includes("CEPH")) : nodes.length > 0;
}

/** Removes a disk for good (its billing ends). */
export function destroyDisk(services: Services, diskId: string): void {
  stopBilling(services, diskId);
  services.store.t.disks.delete(diskId);
}

// ---------------------------------------------------------------------------------------------
// Workflow effects

function settleDisk(services: Services, diskId: string, patch: Partial<DiskRow>): DiskRow | undefined {
  const disk = services.store.t.disks.get(diskId);
  if (!disk) return undefined;
  return services.store.t.disks.update(diskId, { state: "AVAILABLE", ...patch });
}

const DISK_CREATED = defineWorkflowEffect("disk.created", (services, wf) => {
  settleDisk(services, wf.resource!.id, {});
});

const DISK_ATTACHED = defineWorkflowEffect("disk.attached", (services, wf) => {
  const instanceId = wf.args.instanceId as string;
  // The instance may have gone while the attach ran: the disk then stays detached.
  const present = services.store.t.instances.get(instanceId) !== undefined;
  settleDisk(services, wf.resource!.id, { instanceId: present ? instanceId : null });
});

const DISK_DETACHED = defineWorkflowEffect("disk.detached", (services, wf) => {
  settleDisk(services, wf.resource!.id, { instanceId: null });
});

const DISK_RESIZED = defineWorkflowEffect("disk.resized", (services, wf) => {
  const disk = settleDisk(services, wf.resource!.id, { size: wf.args.size as number });
  if (disk) rebillDisk(services, disk);
});

const DISK_DELETED = defineWorkflowEffect("disk.deleted", (services, wf) => {
  destroyDisk(services, wf.resource!.id);
});

/** Loads a disk and checks the caller may act on it; missing and invisible both answer 404. */
export function loadDisk(ctx: RouteContext, id: string, need: AccessNeed): DiskRow {
  const disk = ctx.store.t.disks.get(id);
  if (!disk) throw notFound("Disk");
  ctx.access(disk.workspaceId, need);
  return disk;
}

function diskWorkflow(ctx: RouteContext, disk: DiskRow, name: string, onComplete: string, args: Record<string, unknown> = {}) {
  const wf = ctx.startWorkflow({ name, workspaceId: disk.workspaceId, resource: { kind: "disks", id: disk.id }, onComplete, args });
  return ctx.workflows.view(wf);
}

function requireAvailable(disk: DiskRow, action: string): void {
  if (disk.state !== "AVAILABLE") throw conflict(`Disk is ${disk.state}; it must be AVAILABLE to ${action}`);
}

/** The instance a disk is being attached to: visible, same workspace and region, not going away. */
function attachTarget(ctx: RouteContext, disk: DiskRow, instanceId: string): InstanceRow {
  const instance = ctx.store.t.instances.get(instanceId);
  if (!instance || effectiveRole(ctx.services, ctx.principal, instance.workspaceId) === null) throw notFound("Instance");
  if (instance.workspaceId !== disk.workspaceId) throw fieldError("instance_id", "the instance must belong to the disk's workspace");
  if (instance.region !== disk.region)
    throw fieldError("instance_id", `the instance is in ${instance.region}; the disk is in ${disk.region}`);
  if (instance.state === "DELETING") throw conflict("Instance is being deleted");
  return instance;
}

// ---------------------------------------------------------------------------------------------
// Commands: each checks the disk's state, marks it busy and starts the workflow that settles it

export function createDisk(
  ctx: RouteContext,
  wid: string,
  input: { name: string; size: number; backend: DiskBackend; region: string },
): { disk: DiskRow; workflow: WorkflowView } {
  if (nodesInRegion(ctx.services, wid, input.region).length === 0)
    throw fieldError("region", `unknown region ${input.region}, or no node there serves this workspace`);
  if (!regionSupportsBackend(ctx.services, wid, input.region, input.backend))
    throw fieldError("backend", `CEPH disks need a CEPH node in ${input.region}`);
  checkStorageQuota(ctx.services, wid, input.size, "size");
  const disk = insertDisk(ctx.services, {
    workspaceId: wid,
    name: input.name,
    backend: input.backend,
    boot: false,
    size: input.size,
    instanceId: null,
    state: "PENDING",
    region: input.region,
  });
  startDiskBilling(ctx.services, disk);
  return { disk, workflow: diskWorkflow(ctx, disk, "create-disk", DISK_CREATED) };
}

export function renameDisk(ctx: RouteContext, disk: DiskRow, name: string): DiskRow {
  if (disk.state === "DELETING") throw conflict("Disk is being deleted");
  return ctx.store.t.disks.update(disk.id, { name });
}

export function attachDisk(ctx: RouteContext, disk: DiskRow, instanceId: string): WorkflowView {
  requireAvailable(disk, "attach it");
  if (disk.instanceId) throw conflict("Disk is already attached; detach it first");
  const instance = attachTarget(ctx, disk, instanceId);
  ctx.store.t.disks.update(disk.id, { state: "PENDING" });
  return diskWorkflow(ctx, disk, "attach-disk", DISK_ATTACHED, { instanceId: instance.id });
}

export function detachDisk(ctx: RouteContext, disk: DiskRow): WorkflowView {
  if (!disk.instanceId) throw conflict("Disk is not attached");
  // A boot disk belongs to its instance for life (choice: it cannot be detached).
  if (disk.boot) throw conflict("A boot disk cannot be detached from its instance");
  requireAvailable(disk, "detach it");
  ctx.store.t.disks.update(disk.id, { state: "PENDING" });
  return diskWorkflow(ctx, disk, "detach-disk", DISK_DETACHED);
}

export function resizeDisk(ctx: RouteContext, disk: DiskRow, size: number): WorkflowView {
  if (size <= disk.size) throw fieldError("size", `must be larger than the current size (${disk.size} bytes); shrinking is unsupported`);
  requireAvailable(disk, "resize it");
  checkStorageQuota(ctx.services, disk.workspaceId, size - disk.size, "size");
  ctx.store.t.disks.update(disk.id, { state: "PENDING" });
  return diskWorkflow(ctx, disk, "resize-disk", DISK_RESIZED, { size });
}

export function deleteDisk(ctx: RouteContext, disk: DiskRow): WorkflowView {
  if (disk.instanceId) throw conflict("Disk is attached; detach it before deleting");
  // A delete may abandon a create that has not finished (a disk stuck in PENDING must not be
  // undeletable), but not race a command that is changing the disk.
  const running: WorkflowRow[] = ctx.workflows.activeFor("disks", disk.id);
  const busy = disk.state === "DELETING" || running.some((w) => w.name !== "create-disk");
  if (busy) throw conflict(`Disk is ${disk.state}: ${running.map((w) => w.name).join(", ") || "deleting"} in progress`);
  ctx.workflows.abort(running);
  ctx.store.t.disks.update(disk.id, { state: "DELETING" });
  return diskWorkflow(ctx, disk, "delete-disk", DISK_DELETED);
}
