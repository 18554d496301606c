/**
 * Instance commands (spec part 2, "Instance commands", all POST under /v1/commands/) and
 * snapshots. install-recipe lives with recipes.
 *
 * Each command returns a workflow unless the spec says otherwise (reset-instance-password is
 * synchronous; update-instance-hostname, cancel-termination and suspend-instance return an audit
 * entry). Rules per command are beside each handler. Locked instances (settable only through
 * PATCH /_emulator/tables/instances/<id>) are skipped by batch power and batch terminate and
 * refused by create-snapshot, upgrade-instance and terminate with immediate false.
 *
 * Snapshots: rows and a minimal view are chosen here (fields "not shown"), with GET
 * /v1/snapshots/{id}, GET /v1/instances/{iid}/snapshots and DELETE /v1/snapshots/{id} as the
 * (not shown) list, fetch and delete endpoints.
 */
import { z } from "zod";
import type { Domain } from "../core/domain";
import { ApiError, conflict, fieldError, notFound } from "../core/errors";
import { paginate } from "../core/paging";
import { accepted, ok, type Reply, type RouteContext } from "../core/router";
import { audit, type Services } from "../core/services";
import type { Row } from "../core/store";
import { defineWorkflowEffect } from "../core/workflows";
import { onHook } from "../core/hooks";
import { parseWith, pathId, zId, zInt } from "../core/validation";
import type { AccessNeed } from "../core/auth";
import { rebill, startBilling, stopBilling } from "../pricing";
import type { InstanceRow, NodeRow, ResourceState } from "../model";
import { leastLoaded, nodeUsableBy, workspaceSummary } from "./catalog";
import { checkStorageQuota, diskHourlyRate, isDiskBilled } from "./disks";
import {
  applyPower,
  applyStagedUpgrades,
  cancelTermination,
  instanceHourlyRate,
  INSTANCE_ADMIN,
  INSTANCE_OPERATE,
  INSTANCE_READ,
  loadInstance,
  NOTHING,
  POWER_ACTIONS,
  rebillInstance,
  removeInstance,
  requireInstanceState,
  requireNotLocked,
  restartInstance,
  scheduleTermination,
  setOnline,
  startInstanceRemoval,
  syncBootDiskBilling,
  type PowerAction,
} from "./instances";

// ---------------------------------------------------------------------------------------------
// Snapshots

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

function loadSnapshot(ctx: RouteContext, id: string, need: AccessNeed): SnapshotRow {
  const snap = ctx.store.t.snapshots.get(id);
  if (!snap) throw notFound("Snapshot");
  ctx.access(snap.workspaceId, { ...need, resource: { kind: "INSTANCE", id: snap.instanceId } });
  return snap;
}

// ---------------------------------------------------------------------------------------------
// Helpers

function instanceWorkflow(ctx: RouteContext, inst: InstanceRow, name: string, onComplete: string | null, args: Record<string, unknown> = {}, onFail: string | null = NOTHING) {
  return ctx.startWorkflow({ name, workspaceId: inst.workspaceId, resource: { kind: "instances", id: inst.id }, onComplete, onFail, args });
}

function auditInstance(ctx: RouteContext, inst: InstanceRow, action: string) {
  return audit(ctx.services, { workspaceId: inst.workspaceId, actorId: ctx.principal.user.id, action, target: { kind: "INSTANCE", id: inst.id } });
}

/** OS family of an instance, from the image it was built from (null when unknown, e.g. an ISO install). */
function osFamily(ctx: RouteContext, inst: InstanceRow): "LINUX" | "WINDOWS" | "BSD" | null {
  const image = inst.imageId ? ctx.store.t.images.get(inst.imageId) : undefined;
  return image?.os?.family ?? null;
}

function requireOs(ctx: RouteContext, inst: InstanceRow, allowed: Array<"LINUX" | "BSD" | "WINDOWS">, action: string): void {
  const family = osFamily(ctx, inst);
  if (!family || !allowed.includes(family)) {
    throw conflict(`${action} needs a ${allowed.join(" or ")} instance; this instance runs ${family ?? "an unknown operating system"}`);
  }
}

function requireOffline(inst: InstanceRow, action: string): void {
  if (inst.online) throw conflict(`Instance is online; power it off to ${action}, or send restart true`);
}

/** Whether the caller passes an access check on an instance (batch commands skip those that fail). */
function canAccess(ctx: RouteContext, inst: InstanceRow, need: AccessNeed): boolean {
  try {
    ctx.access(inst.workspaceId, { ...need, resource: { kind: "INSTANCE", id: inst.id } });
    return true;
  } catch (err) {
    if (err instanceof ApiError) return false;
    throw err;
  }
}

/** The instances of a batch that pass `eligible`, in request order, without repeats; 409 when none. */
function eligibleBatch(ctx: RouteContext, ids: string[], eligible: (inst: InstanceRow) => boolean): InstanceRow[] {
  const out: InstanceRow[] = [];
  for (const id of new Set(ids)) {
    const inst = ctx.store.t.instances.get(id);
    if (inst && eligible(inst)) out.push(inst);
  }
  if (!out.length) throw conflict("None of the instances is eligible for this command");
  return out;
}

function batchWorkflow(ctx: RouteContext, name: string, instances: InstanceRow[], onComplete: string, args: Record<string, unknown>) {
  const workspaces = new Set(instances.map((i) => i.workspaceId));
  return ctx.startWorkflow({
    name,
    // A batch may span workspaces; it belongs to one only when all its instances do.
    workspaceId: workspaces.size === 1 ? instances[0].workspaceId : null,
    resource: null,
    onComplete,
    onFail: NOTHING,
    args: { ...args, instances: instances.map((i) => i.id), userId: ctx.principal.user.id },
  });
}

// ---------------------------------------------------------------------------------------------
// Request bodies

const bool = z.boolean();
const InstanceIdBody = z.object({ instance_id: zId });
const InstanceBody = z.object({ instance: zId });
const BatchIds = z.array(zId).min(1, "needs at least one instance").max(500, "at most 500 instances");

const CreateSnapshot = z.object({ instance_id: zId, disk_id: zId.optional() });
const RestoreSnapshot = z.object({ snapshot_id: zId, restart: bool.default(false) });
const AttachIso = z.object({ instance: zId, iso: zId });
const UpdateHostname = z.object({
  instance_id: zId,
  hostname: z
    .string()
    .min(4, "must be 4 to 32 characters")
    .max(32, "must be 4 to 32 characters")
    .regex(/^[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?$/, "letters, digits, dots and hyphens; must start and end with a letter or digit"),
});
const ApplyUpgrades = z.object({ instance: zId, restart: bool.default(false) });
const positive = zInt.refine((v) => v > 0, "must be a positive integer");
const IoLimits = z.object({ read_bytes_sec: positive, write_bytes_sec: positive, read_iops: positive, write_iops: positive });
const UpgradeInstance = z.discriminatedUnion(
  "type",
  [
    z.object({ type: z.literal("PLAN"), instance: zId, plan: zId }),
    z
      .object({
        type: z.literal("CUSTOM"),
        instance: zId,
        cpu: zInt.refine((v) => v >= 1 && v <= 128, "must be from 1 to 128 cores").optional(),
        memory: zInt.refine((v) => v >= 512 * 1024 ** 2, "must be at least 512 MiB").optional(),
        download: positive.optional(),
        upload: positive.optional(),
        disk: positive.optional(),
        io_limits: IoLimits.optional(),
      })
      .refine((b) => [b.cpu, b.memory, b.download, b.upload, b.disk, b.io_limits].some((v) => v !== undefined), {
        message: "send at least one of cpu, memory, download, upload, disk, io_limits",
        path: ["type"],
      }),
  ],
  { error: "type must be PLAN or CUSTOM" },
);
const BatchPower = z.object({ instances: BatchIds, action: z.enum(POWER_ACTIONS) });
const BatchTerminate = z.object({ instances: BatchIds, immediate: bool });
const BatchSuspend = z.object({ instances: BatchIds, suspend: bool });
const Terminate = z.object({ instance: zId, immediate: bool });
const Migrate = z.object({ instance: zId, node: zId.optional(), region: z.string().min(1, "must not be empty").optional() });
const Suspend = z.object({ instance: zId, suspend: bool });

// ---------------------------------------------------------------------------------------------
// Workflow effects

const RESTORED = defineWorkflowEffect("instance.snapshot-restored", (services, wf) => {
  const inst = services.store.t.instances.get(wf.resource!.id);
  if (inst && wf.args.restart) setOnline(services, inst, true);
});

const UPGRADES_APPLIED = defineWorkflowEffect("instance.upgrades-applied", (services, wf) => {
  const inst = services.store.t.instances.get(wf.resource!.id);
  if (!inst) return;
  if (wf.args.restart) restartInstance(services, inst);
  else applyStagedUpgrades(services, inst);
});

const UPGRADED = defineWorkflowEffect("instance.upgraded", (services, wf) => {
  const inst = services.store.t.instances.get(wf.resource!.id);
  if (!inst) return;
  // Offline: the new hardware is in at once. Online: it waits for the next restart.
  if (!inst.online) applyStagedUpgrades(services, inst);
  else services.store.t.instances.update(inst.id, { pendingUpgrades: inst.staged !== null });
});

const UPGRADE_FAILED = defineWorkflowEffect("instance.upgrade-failed", (services, wf) => {
  const inst = services.store.t.instances.get(wf.resource!.id);
  if (!inst) return;
  services.store.t.instances.update(inst.id, { staged: (wf.args.previousStaged as InstanceRow["staged"]) ?? null });
  rebillInstance(services, inst);
  rebillBootDisk(services, inst, currentBootSize(services, inst));
  syncBootDiskBilling(services, inst);
});

const POWERED_OFF = defineWorkflowEffect("instance.powered-off", (services, wf) => {
  const inst = services.store.t.instances.get(wf.resource!.id);
  if (inst) setOnline(services, inst, false);
});

const BATCH_POWERED = defineWorkflowEffect("instances.batch-powered", (services, wf) => {
  for (const id of wf.args.instances as string[]) applyPower(services, id, wf.args.action as PowerAction);
});

const BATCH_REMOVED = defineWorkflowEffect("instances.batch-removed", (services, wf) => {
  for (const id of wf.args.instances as string[]) removeInstance(services, id);
});

const BATCH_POWERED_OFF = defineWorkflowEffect("instances.batch-powered-off", (services, wf) => {
  for (const id of wf.args.instances as string[]) {
    const inst = services.store.t.instances.get(id);
    if (inst) setOnline(services, inst, false);
  }
});

const BATCH_SUSPENDED = defineWorkflowEffect("instances.batch-suspended", (services, wf) => {
  for (const id of wf.args.instances as string[]) {
    const inst = services.store.t.instances.get(id);
    if (inst) setSuspended(services, inst, wf.args.suspend as boolean);
  }
});

const MIGRATED = defineWorkflowEffect("instance.migrated", (services, wf) => {
  const inst = services.store.t.instances.get(wf.resource!.id);
  const node = services.store.t.nodes.get(wf.args.nodeId as string);
  if (!inst || !node) return;
  services.store.t.instances.update(inst.id, { nodeId: node.id, region: node.region });
  // The instance's disks travel with it.
  for (const d of services.store.t.disks.filter((x) => x.instanceId === inst.id)) services.store.t.disks.update(d.id, { region: node.region });
});

/** Suspend: SUSPENDED and powered off. Resume: AVAILABLE, offline (the spec leaves the state unnamed). */
function setSuspended(services: Services, inst: InstanceRow, suspend: boolean): void {
  if (suspend && inst.state === "AVAILABLE") {
    services.store.t.instances.update(inst.id, { state: "SUSPENDED" });
    setOnline(services, inst, false);
  } else if (!suspend && inst.state === "SUSPENDED" && !inst.terminationScheduledAt) {
    services.store.t.instances.update(inst.id, { state: "AVAILABLE" });
  }
}

// ---------------------------------------------------------------------------------------------
// Upgrades

function currentBootSize(services: Services, inst: InstanceRow): number {
  return services.store.t.disks.find((d) => d.instanceId === inst.id && d.boot)?.size ?? 0;
}

/** Bills the boot disk at `size` when the instance is (or will be) CUSTOM. */
function rebillBootDisk(services: Services, inst: Pick<InstanceRow, "id" | "type">, size: number): void {
  const disk = services.store.t.disks.find((d) => d.instanceId === inst.id && d.boot);
  if (!disk) return;
  const billed = isDiskBilled(services, disk.id);
  if (inst.type === "PLAN") {
    if (billed) stopBilling(services, disk.id);
    return;
  }
  const rate = diskHourlyRate(services, { ...disk, size });
  if (billed) rebill(services, disk.id, rate);
  else startBilling(services, { workspaceId: disk.workspaceId, resourceId: disk.id, resourceKind: "DISK", resourceName: disk.name, hourlyRate: rate });
}

type Staged = NonNullable<InstanceRow["staged"]>;

/** The hardware an upgrade asks for, checked against the instance (what it will be once staged parts apply). */
function upgradeTarget(ctx: RouteContext, inst: InstanceRow, body: z.infer<typeof UpgradeInstance>): Staged {
  const node = ctx.store.t.nodes.get(inst.nodeId);
  const bootSize = Math.max(currentBootSize(ctx.services, inst), inst.staged?.bootDiskSize ?? 0);
  const fits = (cpu: number, memory: number) => !node || (node.cores >= cpu && node.maxMemory >= memory);
  if (body.type === "PLAN") {
    const plan = ctx.store.t.plans.get(body.plan);
    if (!plan) throw notFound("Plan");
    if (plan.disabled) throw fieldError("plan", `plan ${plan.name} is disabled`);
    if (plan.group !== inst.group) throw fieldError("plan", `plan ${plan.name} is ${plan.group}; the instance runs on ${inst.group} (migrate it first)`);
    if (plan.diskSize < bootSize) throw fieldError("plan", `plan ${plan.name} has a ${plan.diskSize}-byte disk; the boot disk (${bootSize} bytes) can only grow`);
    if (!fits(plan.cpu, plan.memory)) throw fieldError("plan", `the instance's node cannot host plan ${plan.name}`);
    return {
      planId: plan.id,
      cpu: plan.cpu,
      memoryBytes: plan.memory,
      bandwidth: { upload_bytes_sec: plan.upload, download_bytes_sec: plan.download },
      ioLimits: plan.ioLimits ? { ...plan.ioLimits } : null,
      ...(plan.diskSize > bootSize ? { bootDiskSize: plan.diskSize } : {}),
    };
  }
  const base = { ...inst, ...(inst.staged ?? {}) };
  if (body.disk !== undefined && body.disk < bootSize) throw fieldError("disk", `the boot disk can only grow (it is ${bootSize} bytes)`);
  const cpu = body.cpu ?? base.cpu;
  const memoryBytes = body.memory ?? base.memoryBytes;
  if (!fits(cpu, memoryBytes)) throw fieldError("cpu", `the instance's node cannot host ${cpu} cores and ${memoryBytes} bytes of memory`);
  return {
    planId: null,
    cpu,
    memoryBytes,
    bandwidth: { upload_bytes_sec: body.upload ?? base.bandwidth.upload_bytes_sec, download_bytes_sec: body.download ?? base.bandwidth.download_bytes_sec },
    ioLimits: body.io_limits ?? base.ioLimits,
    ...(body.disk !== undefined && body.disk > bootSize ? { bootDiskSize: body.disk } : {}),
  };
}

function upgradeInstance(ctx: RouteContext): Reply {
  const body = parseWith(UpgradeInstance, ctx.body);
  const inst = loadInstance(ctx, body.instance, INSTANCE_ADMIN);
  requireInstanceState(inst, "AVAILABLE", "upgrade it");
  requireNotLocked(inst, "upgrade it");
  const target = upgradeTarget(ctx, inst, body);
  const bootNow = currentBootSize(ctx.services, inst);
  const bootAfter = Math.max(bootNow, inst.staged?.bootDiskSize ?? 0, target.bootDiskSize ?? 0);
  checkStorageQuota(ctx.services, inst.workspaceId, bootAfter - Math.max(bootNow, inst.staged?.bootDiskSize ?? 0), "disk");

  const previousStaged = inst.staged;
  const staged: Staged = { ...(inst.staged ?? {}), ...target };
  ctx.store.t.instances.update(inst.id, { staged });
  // Billing adjusts at once (part 2, "States and transitions"), even while the hardware waits for a restart.
  const type = target.planId ? "PLAN" : "CUSTOM";
  const projected = { ...inst, ...target, type } as InstanceRow;
  rebill(ctx.services, inst.id, instanceHourlyRate(ctx.services, projected));
  rebillBootDisk(ctx.services, { id: inst.id, type }, bootAfter);
  const wf = instanceWorkflow(ctx, inst, "upgrade-instance", UPGRADED, { previousStaged }, UPGRADE_FAILED);
  return accepted(ctx.workflows.view(wf));
}

// ---------------------------------------------------------------------------------------------
// Migration

/** Where migrate-instance moves an instance: the node named, a node of the region named, or the platform's pick. */
function migrationTarget(ctx: RouteContext, inst: InstanceRow, nodeId?: string, region?: string): NodeRow {
  const suitable = (n: NodeRow) =>
    n.id !== inst.nodeId && n.group === inst.group && nodeUsableBy(n, inst.workspaceId) && n.cores >= inst.cpu && n.maxMemory >= inst.memoryBytes;
  if (nodeId) {
    const node = ctx.store.t.nodes.get(nodeId);
    if (!node) throw notFound("Node");
    if (node.id === inst.nodeId) throw fieldError("node", "the instance already runs on this node");
    if (!suitable(node)) throw fieldError("node", `node ${node.name} cannot host this instance (group ${inst.group}, ${inst.cpu} cores, ${inst.memoryBytes} bytes, owner)`);
    return node;
  }
  const all = ctx.store.t.nodes.filter(suitable);
  const candidates = region ? all.filter((n) => n.region === region) : all.filter((n) => n.region === inst.region).length ? all.filter((n) => n.region === inst.region) : all;
  const target = leastLoaded(ctx.services, candidates);
  if (!target) {
    if (region) throw fieldError("region", `no other node in ${region} can host this instance`);
    throw conflict("No other node can host this instance");
  }
  return target;
}

// ---------------------------------------------------------------------------------------------
// Command handlers

const COMMANDS: Record<string, (ctx: RouteContext) => Reply> = {
  /** instance AVAILABLE and not locked; disk_id defaults to the boot disk. */
  "create-snapshot": (ctx) => {
    const body = parseWith(CreateSnapshot, ctx.body);
    const inst = loadInstance(ctx, body.instance_id, INSTANCE_OPERATE);
    requireInstanceState(inst, "AVAILABLE", "snapshot it");
    requireNotLocked(inst, "snapshot it");
    const disk = body.disk_id
      ? ctx.store.t.disks.get(body.disk_id)
      : ctx.store.t.disks.find((d) => d.instanceId === inst.id && d.boot);
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
    const wf = ctx.startWorkflow({ name: "create-snapshot", workspaceId: inst.workspaceId, resource: { kind: "snapshots", id: snap.id }, onComplete: SNAPSHOT_READY });
    return accepted(ctx.workflows.view(wf));
  },

  /** snapshot AVAILABLE; wipes the disk; instance offline unless restart (then off before, on after). */
  "restore-snapshot": (ctx) => {
    const body = parseWith(RestoreSnapshot, ctx.body);
    const snap = loadSnapshot(ctx, body.snapshot_id, INSTANCE_OPERATE);
    if (snap.state !== "AVAILABLE") throw conflict(`Snapshot is ${snap.state}; it must be AVAILABLE to restore`);
    const inst = ctx.store.t.instances.get(snap.instanceId);
    if (!inst) throw notFound("Instance");
    requireInstanceState(inst, "AVAILABLE", "restore a snapshot");
    if (!ctx.store.t.disks.get(snap.diskId)) throw conflict("The snapshot's disk no longer exists");
    if (!body.restart) requireOffline(inst, "restore a snapshot");
    else setOnline(ctx.services, inst, false);
    return accepted(ctx.workflows.view(instanceWorkflow(ctx, inst, "restore-snapshot", RESTORED, { snapshotId: snap.id, restart: body.restart }, null)));
  },

  /** ISO official or the workspace's; CDROM updated immediately. */
  "attach-iso": (ctx) => {
    const body = parseWith(AttachIso, ctx.body);
    const inst = loadInstance(ctx, body.instance, INSTANCE_OPERATE);
    requireInstanceState(inst, "AVAILABLE", "attach an ISO");
    const iso = ctx.store.t.images.get(body.iso);
    if (!iso || (iso.workspaceId !== null && iso.workspaceId !== inst.workspaceId) || (iso.workspaceId === null && !iso.official)) throw notFound("ISO");
    if (iso.kind !== "ISO") throw fieldError("iso", `image ${iso.name} is a ${iso.kind}, not an ISO`);
    if (iso.state !== "AVAILABLE") throw conflict(`ISO is ${iso.state}; it must be AVAILABLE`);
    ctx.store.t.instances.update(inst.id, { isoId: iso.id });
    return accepted(ctx.workflows.view(instanceWorkflow(ctx, inst, "attach-iso", null, { isoId: iso.id })));
  },

  /** fails when no ISO is attached; an instance booting from ISO goes back to DISK. */
  "detach-iso": (ctx) => {
    const body = parseWith(InstanceBody, ctx.body);
    const inst = loadInstance(ctx, body.instance, INSTANCE_OPERATE);
    if (!inst.isoId) throw conflict("No ISO is attached to this instance");
    ctx.store.t.instances.update(inst.id, { isoId: null, boot: "DISK" });
    return accepted(ctx.workflows.view(instanceWorkflow(ctx, inst, "detach-iso", null)));
  },

  /** synchronous: a new 14-character root password (returned once) and the audit entry id. */
  "reset-instance-password": (ctx) => {
    const body = parseWith(InstanceIdBody, ctx.body);
    const inst = loadInstance(ctx, body.instance_id, INSTANCE_OPERATE);
    requireInstanceState(inst, "AVAILABLE", "reset its password");
    const password = ctx.store.rng.alnum(14);
    const entry = auditInstance(ctx, inst, "instance.reset-password");
    // task_id is documented as an integer: a bigint is written as a bare JSON integer.
    return ok({ password, task_id: BigInt(entry.id) });
  },

  /** instance online, Linux or BSD; replaces root's authorized_keys with the workspace keys. */
  "sync-instance-ssh-keys": (ctx) => {
    const body = parseWith(InstanceIdBody, ctx.body);
    const inst = loadInstance(ctx, body.instance_id, INSTANCE_OPERATE);
    requireInstanceState(inst, "AVAILABLE", "sync SSH keys");
    if (!inst.online) throw conflict("Instance is offline; SSH keys are synced to a running instance");
    requireOs(ctx, inst, ["LINUX", "BSD"], "sync-instance-ssh-keys");
    // The SSH key table belongs to the access area: read it generically.
    const keys = ctx.store.table("sshKeys").all() as Array<Row & { workspaceId?: string }>;
    const count = keys.filter((k) => k.workspaceId === inst.workspaceId).length;
    return accepted(ctx.workflows.view(instanceWorkflow(ctx, inst, "sync-instance-ssh-keys", null, { keys: count })));
  },

  /** Linux, offline, hostname 4 to 32; answers an audit entry. */
  "update-instance-hostname": (ctx) => {
    const body = parseWith(UpdateHostname, ctx.body);
    const inst = loadInstance(ctx, body.instance_id, INSTANCE_OPERATE);
    requireInstanceState(inst, "AVAILABLE", "change its hostname");
    requireOs(ctx, inst, ["LINUX"], "update-instance-hostname");
    requireOffline(inst, "change its hostname");
    ctx.store.t.instances.update(inst.id, { hostname: body.hostname });
    return ok(auditInstance(ctx, inst, "instance.update-hostname"));
  },

  /** applies staged upgrades; offline unless restart. */
  "apply-upgrades": (ctx) => {
    const body = parseWith(ApplyUpgrades, ctx.body);
    const inst = loadInstance(ctx, body.instance, INSTANCE_OPERATE);
    requireInstanceState(inst, "AVAILABLE", "apply upgrades");
    if (!inst.staged) throw conflict("The instance has no staged upgrades");
    if (!body.restart) requireOffline(inst, "apply upgrades");
    return accepted(ctx.workflows.view(instanceWorkflow(ctx, inst, "apply-upgrades", UPGRADES_APPLIED, { restart: body.restart })));
  },

  "upgrade-instance": upgradeInstance,

  /** in sequence; not AVAILABLE, locked or inaccessible instances skipped; 409 when none is eligible. */
  "batch-instance-power": (ctx) => {
    const body = parseWith(BatchPower, ctx.body);
    const eligible = eligibleBatch(ctx, body.instances, (i) => canAccess(ctx, i, INSTANCE_OPERATE) && i.state === "AVAILABLE" && !i.locked);
    return accepted(ctx.workflows.view(batchWorkflow(ctx, "batch-instance-power", eligible, BATCH_POWERED, { action: body.action })));
  },

  /** ADMINISTRATOR on each instance's workspace; locked skipped; immediate false schedules deletion in 3 days. */
  "batch-instance-terminate": (ctx) => {
    const body = parseWith(BatchTerminate, ctx.body);
    const eligible = eligibleBatch(
      ctx,
      body.instances,
      (i) => canAccess(ctx, i, INSTANCE_ADMIN) && !i.locked && i.state !== "DELETING" && (body.immediate || !i.terminationScheduledAt),
    );
    if (body.immediate) {
      for (const inst of eligible) ctx.store.t.instances.update(inst.id, { state: "DELETING" });
      return accepted(ctx.workflows.view(batchWorkflow(ctx, "batch-instance-terminate", eligible, BATCH_REMOVED, { immediate: true })));
    }
    for (const inst of eligible) scheduleTermination(ctx.services, inst);
    return accepted(ctx.workflows.view(batchWorkflow(ctx, "batch-instance-terminate", eligible, BATCH_POWERED_OFF, { immediate: false })));
  },

  /** Administrator only; suspend needs AVAILABLE, resume needs SUSPENDED. */
  "batch-instance-suspend": (ctx) => {
    ctx.requireStaff();
    const body = parseWith(BatchSuspend, ctx.body);
    const eligible = eligibleBatch(ctx, body.instances, (i) => (body.suspend ? i.state === "AVAILABLE" : i.state === "SUSPENDED" && !i.terminationScheduledAt));
    return accepted(ctx.workflows.view(batchWorkflow(ctx, "batch-instance-suspend", eligible, BATCH_SUSPENDED, { suspend: body.suspend })));
  },

  /** no effect when no termination is scheduled; answers an audit entry. */
  "cancel-termination": (ctx) => {
    const body = parseWith(InstanceBody, ctx.body);
    const inst = loadInstance(ctx, body.instance, INSTANCE_ADMIN);
    cancelTermination(ctx.services, inst);
    return ok(auditInstance(ctx, inst, "instance.cancel-termination"));
  },

  /** immediate false: suspended, powered off, removed in 3 days (refused when locked); immediate true: removed now. */
  "terminate-instance": (ctx) => {
    const body = parseWith(Terminate, ctx.body);
    const inst = loadInstance(ctx, body.instance, INSTANCE_ADMIN);
    if (inst.state === "DELETING") throw conflict("Instance is already being deleted");
    if (body.immediate) return accepted(ctx.workflows.view(startInstanceRemoval(ctx, inst, "terminate-instance")));
    requireNotLocked(inst, "schedule its termination");
    if (inst.terminationScheduledAt) throw conflict(`Termination is already scheduled for ${inst.terminationScheduledAt}`);
    scheduleTermination(ctx.services, inst);
    return accepted(ctx.workflows.view(instanceWorkflow(ctx, inst, "terminate-instance", POWERED_OFF)));
  },

  /** Administrator only; the platform picks a target when node is omitted. */
  "migrate-instance": (ctx) => {
    ctx.requireStaff();
    const body = parseWith(Migrate, ctx.body);
    const inst = loadInstance(ctx, body.instance, INSTANCE_ADMIN);
    requireInstanceState(inst, "AVAILABLE", "migrate it");
    const node = migrationTarget(ctx, inst, body.node, body.node ? undefined : body.region);
    return accepted(ctx.workflows.view(instanceWorkflow(ctx, inst, "migrate-instance", MIGRATED, { nodeId: node.id })));
  },

  /** Administrator only; synchronous; answers an audit entry. */
  "suspend-instance": (ctx) => {
    ctx.requireStaff();
    const body = parseWith(Suspend, ctx.body);
    const inst = loadInstance(ctx, body.instance, INSTANCE_ADMIN);
    if (body.suspend) requireInstanceState(inst, "AVAILABLE", "suspend it");
    else {
      requireInstanceState(inst, "SUSPENDED", "resume it");
      if (inst.terminationScheduledAt) throw conflict("A termination is scheduled; cancel it with cancel-termination");
    }
    setSuspended(ctx.services, inst, body.suspend);
    return ok(auditInstance(ctx, inst, body.suspend ? "instance.suspend" : "instance.resume"));
  },
};

// ---------------------------------------------------------------------------------------------

export const commandsDomain: Domain = {
  name: "commands",
  inventory: {
    snapshots: { workspaceOf: (row: SnapshotRow) => row.workspaceId },
  },
  routes: [
    ...Object.entries(COMMANDS).map(([name, handler]) => ({ method: "POST" as const, path: `/v1/commands/${name}`, handler })),
    {
      method: "GET",
      path: "/v1/snapshots/:id",
      handler: (ctx) => ok(snapshotView(ctx.services, loadSnapshot(ctx, pathId(ctx.params.id, "id"), INSTANCE_READ))),
    },
    {
      method: "GET",
      path: "/v1/instances/:iid/snapshots",
      handler: (ctx) => {
        const inst = loadInstance(ctx, pathId(ctx.params.iid, "iid"), INSTANCE_READ);
        const rows = ctx.store.t.snapshots.filter((s) => s.instanceId === inst.id);
        return ok(
          paginate(rows, ctx.query, (s) => snapshotView(ctx.services, s), {
            id: (s) => s.id,
            sortable: { created: (s) => s.created, name: (s) => s.name },
            defaultSort: { field: "created", dir: "desc" },
          }),
        );
      },
    },
    {
      method: "DELETE",
      path: "/v1/snapshots/:id",
      handler: (ctx) => {
        const snap = loadSnapshot(ctx, pathId(ctx.params.id, "id"), INSTANCE_OPERATE);
        if (snap.state === "PENDING" || snap.state === "DELETING") throw conflict(`Snapshot is ${snap.state}`);
        ctx.store.t.snapshots.update(snap.id, { state: "DELETING" });
        const wf = ctx.startWorkflow({ name: "delete-snapshot", workspaceId: snap.workspaceId, resource: { kind: "snapshots", id: snap.id }, onComplete: SNAPSHOT_DELETED });
        return accepted(ctx.workflows.view(wf));
      },
    },
  ],
};
