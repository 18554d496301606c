/**
 * Disks (spec part 2, "Disks"): block volumes. Every instance has a boot disk (created by the
 * instance area); standalone disks are created here and attached later.
 *
 * States (part 2, "States and transitions"): a new disk is PENDING and settles AVAILABLE,
 * unattached. attach needs AVAILABLE and detached; detach needs attached; resize only grows;
 * delete needs detached. While an attach, detach, resize or delete runs the disk is PENDING
 * (DELETING for a delete), so a second conflicting command answers 409; a delete may abandon a
 * create that has not finished (its workflow ends ABORTED).
 *
 * Billing: every disk is its own STORAGE billing subject (kind DISK), except the boot disk of a
 * PLAN instance, whose storage is part of the plan's flat price.
 */
import { z } from "zod";
import type { Domain } from "../core/domain";
import { badRequest, conflict, fieldError, notFound } from "../core/errors";
import { paginate } from "../core/paging";
import { accepted, ok, type RouteContext } from "../core/router";
import type { Services } from "../core/services";
import { defineWorkflowEffect } from "../core/workflows";
import { contains, parseWith, pathId, queryBool, queryIds, queryList, zId, zInt } from "../core/validation";
import { workflowWithResource } from "../core/choices";
import { effectiveRole, type AccessNeed } from "../core/auth";
import { pricePart, rebill, startBilling, stopBilling } from "../pricing";
import { RESOURCE_STATES, type DiskRow, type InstanceRow } from "../model";
import { nodesInRegion, workspaceSummary } from "./catalog";

export const DISK_BACKENDS = ["LOCAL", "CEPH"] as const;
export type DiskBackend = (typeof DISK_BACKENDS)[number];

const DISK_READ: AccessNeed = { grant: ["DISK", "READ"] };
const DISK_WRITE: AccessNeed = { role: "EDITOR", grant: ["DISK", "WRITE"] };

// ---------------------------------------------------------------------------------------------
// Shared helpers (the instance area creates boot and storage disks with these)

/** A small stable hash of a string, for deterministic "live" figures. */
export function stableHash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 16777619) >>> 0;
  }
  return h >>> 0;
}

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
  const priced = pricePart(services, disk.region, { type: "STORAGE", storage_bytes: disk.size, storage_backing: disk.backend.toLowerCase() }, services.clock.now());
  return "hourly_rate" in priced ? priced.hourly_rate : 0;
}

export function startDiskBilling(services: Services, disk: DiskRow): void {
  startBilling(services, { workspaceId: disk.workspaceId, resourceId: disk.id, resourceKind: "DISK", resourceName: disk.name, hourlyRate: diskHourlyRate(services, disk) });
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

// ---------------------------------------------------------------------------------------------
// Requests

const NAME = z.string().trim().min(1, "must not be empty").max(64, "must be at most 64 characters");
const SIZE = zInt.refine((v) => v > 0, "must be a positive number of bytes");

const CreateDisk = z.object({
  name: NAME,
  size: SIZE,
  backend: z.enum(DISK_BACKENDS),
  region: z.string().min(1, "must not be empty"),
});

const PatchDisk = z.object({ name: NAME });
const AttachDisk = z.object({ instance_id: zId });
const ResizeDisk = z.object({ size: SIZE });

function loadDisk(ctx: RouteContext, need: AccessNeed): DiskRow {
  const disk = ctx.store.t.disks.get(pathId(ctx.params.did, "did"));
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
  if (instance.region !== disk.region) throw fieldError("instance_id", `the instance is in ${instance.region}; the disk is in ${disk.region}`);
  if (instance.state === "DELETING") throw conflict("Instance is being deleted");
  return instance;
}

function filterDisks(ctx: RouteContext, rows: DiskRow[]): DiskRow[] {
  const q = ctx.query;
  const ids = queryIds(q.id, "id");
  const instances = queryIds(q.instance, "instance");
  const owners = queryIds(q.owner, "owner");
  const boot = queryBool(q.boot, "boot");
  const states = enumList(q.state, "state", RESOURCE_STATES);
  const backends = enumList(q.backend, "backend", DISK_BACKENDS);
  return rows.filter(
    (d) =>
      (!ids.length || ids.includes(d.id)) &&
      (!instances.length || (d.instanceId !== null && instances.includes(d.instanceId))) &&
      (!owners.length || owners.includes(d.workspaceId)) &&
      (boot === undefined || d.boot === boot) &&
      (!states.length || states.includes(d.state)) &&
      (!backends.length || backends.includes(d.backend)) &&
      contains(d.name, q.name) &&
      (!q.q || d.id === String(q.q) || contains(d.name, q.q)),
  );
}

/** A repeatable enum query parameter (`?state=PENDING&state=FAILED` or comma separated). */
export function enumList<T extends string>(value: unknown, name: string, allowed: readonly T[]): T[] {
  const items = queryList(value);
  for (const item of items) {
    if (!allowed.includes(item as T)) throw badRequest(`Invalid query: ${name} must be one of ${allowed.join(", ")}`, [{ field: name, message: `must be one of ${allowed.join(", ")}` }]);
  }
  return items as T[];
}

const DISK_SORTS = {
  name: (d: DiskRow) => d.name,
  size: (d: DiskRow) => d.size,
  created: (d: DiskRow) => d.created,
  state: (d: DiskRow) => d.state,
};

function listDisks(ctx: RouteContext, rows: DiskRow[]) {
  return ok(paginate(filterDisks(ctx, rows), ctx.query, (d) => diskView(ctx.services, d), { id: (d) => d.id, sortable: DISK_SORTS }));
}

export const disksDomain: Domain = {
  name: "disks",
  inventory: {
    disks: { workspaceOf: (row: DiskRow) => row.workspaceId },
  },
  routes: [
    {
      method: "GET",
      path: "/v1/workspaces/:wid/disks",
      handler: (ctx) => {
        const wid = pathId(ctx.params.wid, "wid");
        ctx.access(wid, DISK_READ);
        return listDisks(ctx, ctx.store.t.disks.filter((d) => d.workspaceId === wid));
      },
    },
    {
      method: "GET",
      path: "/v1/disks",
      handler: (ctx) => {
        ctx.requireStaff();
        return listDisks(ctx, ctx.store.t.disks.all());
      },
    },
    {
      method: "POST",
      path: "/v1/workspaces/:wid/disks",
      handler: (ctx) => {
        const wid = pathId(ctx.params.wid, "wid");
        ctx.access(wid, DISK_WRITE);
        const body = parseWith(CreateDisk, ctx.body);
        if (nodesInRegion(ctx.services, wid, body.region).length === 0) throw fieldError("region", `unknown region ${body.region}, or no node there serves this workspace`);
        if (!regionSupportsBackend(ctx.services, wid, body.region, body.backend)) throw fieldError("backend", `CEPH disks need a CEPH node in ${body.region}`);
        checkStorageQuota(ctx.services, wid, body.size, "size");
        const disk = insertDisk(ctx.services, { workspaceId: wid, name: body.name, backend: body.backend, boot: false, size: body.size, instanceId: null, state: "PENDING", region: body.region });
        startDiskBilling(ctx.services, disk);
        const wf = diskWorkflow(ctx, disk, "create-disk", DISK_CREATED);
        return accepted(workflowWithResource(wf, diskView(ctx.services, disk)));
      },
    },
    {
      method: "GET",
      path: "/v1/disks/:did",
      handler: (ctx) => ok(diskView(ctx.services, loadDisk(ctx, DISK_READ))),
    },
    {
      method: "PATCH",
      path: "/v1/disks/:did",
      handler: (ctx) => {
        const disk = loadDisk(ctx, DISK_WRITE);
        const body = parseWith(PatchDisk, ctx.body);
        if (disk.state === "DELETING") throw conflict("Disk is being deleted");
        return ok(diskView(ctx.services, ctx.store.t.disks.update(disk.id, { name: body.name })));
      },
    },
    {
      method: "POST",
      path: "/v1/disks/:did/attach",
      handler: (ctx) => {
        const disk = loadDisk(ctx, DISK_WRITE);
        const body = parseWith(AttachDisk, ctx.body);
        requireAvailable(disk, "attach it");
        if (disk.instanceId) throw conflict("Disk is already attached; detach it first");
        const instance = attachTarget(ctx, disk, body.instance_id);
        ctx.store.t.disks.update(disk.id, { state: "PENDING" });
        return accepted(diskWorkflow(ctx, disk, "attach-disk", DISK_ATTACHED, { instanceId: instance.id }));
      },
    },
    {
      method: "POST",
      path: "/v1/disks/:did/detach",
      handler: (ctx) => {
        const disk = loadDisk(ctx, DISK_WRITE);
        if (!disk.instanceId) throw conflict("Disk is not attached");
        // A boot disk belongs to its instance for life (choice: it cannot be detached).
        if (disk.boot) throw conflict("A boot disk cannot be detached from its instance");
        requireAvailable(disk, "detach it");
        ctx.store.t.disks.update(disk.id, { state: "PENDING" });
        return accepted(diskWorkflow(ctx, disk, "detach-disk", DISK_DETACHED));
      },
    },
    {
      method: "POST",
      path: "/v1/disks/:did/resize",
      handler: (ctx) => {
        const disk = loadDisk(ctx, DISK_WRITE);
        const body = parseWith(ResizeDisk, ctx.body);
        if (body.size <= disk.size) throw fieldError("size", `must be larger than the current size (${disk.size} bytes); shrinking is unsupported`);
        requireAvailable(disk, "resize it");
        checkStorageQuota(ctx.services, disk.workspaceId, body.size - disk.size, "size");
        ctx.store.t.disks.update(disk.id, { state: "PENDING" });
        return accepted(diskWorkflow(ctx, disk, "resize-disk", DISK_RESIZED, { size: body.size }));
      },
    },
    {
      method: "DELETE",
      path: "/v1/disks/:did",
      handler: (ctx) => {
        const disk = loadDisk(ctx, DISK_WRITE);
        if (disk.instanceId) throw conflict("Disk is attached; detach it before deleting");
        // A delete may abandon a create that has not finished (a disk stuck in PENDING must not be
        // undeletable), but not race a command that is changing the disk.
        const running = ctx.workflows.activeFor("disks", disk.id);
        const busy = disk.state === "DELETING" || running.some((w) => w.name !== "create-disk");
        if (busy) throw conflict(`Disk is ${disk.state}: ${running.map((w) => w.name).join(", ") || "deleting"} in progress`);
        ctx.workflows.abort(running);
        ctx.store.t.disks.update(disk.id, { state: "DELETING" });
        return accepted(diskWorkflow(ctx, disk, "delete-disk", DISK_DELETED));
      },
    },
  ],
};
