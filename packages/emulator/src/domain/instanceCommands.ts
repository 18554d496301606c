/**
 * Instance commands (spec part 2, "Instance commands", all POST under /v1/commands/), the rules
 * of each beside it. Each returns a workflow unless the spec says otherwise
 * (reset-instance-password is synchronous; update-instance-hostname, cancel-termination and
 * suspend-instance return an audit entry). Locked instances (settable only through
 * PATCH /_emulator/tables/instances/<id>) are skipped by batch power and batch terminate and
 * refused by create-snapshot, upgrade-instance and terminate with immediate false.
 * Upgrades are in instanceUpgrades.ts, snapshots in snapshots.ts, install-recipe with recipes.
 */
import { ApiError, conflict, fieldError, notFound } from "../core/errors";
import type { AccessNeed } from "../core/auth";
import type { RouteContext } from "../core/router";
import { audit, type Services } from "../core/services";
import type { Row } from "../core/store";
import type { AuditEntryView, WorkflowView } from "../core/choices";
import { defineWorkflowEffect } from "../core/workflowEffects";
import type { InstanceRow, NodeRow } from "../model";
import { leastLoaded, nodeUsableBy } from "./catalog";
import { INSTANCE_ADMIN, INSTANCE_OPERATE, requireInstanceState, requireNotLocked, requireOffline } from "./instances";
import {
  applyPower,
  cancelTermination,
  instanceWorkflow,
  NOTHING,
  removeInstance,
  scheduleTermination,
  setOnline,
  startInstanceRemoval,
  type PowerAction,
} from "./instanceLifecycle";

// ---------------------------------------------------------------------------------------------
// Helpers

function auditInstance(ctx: RouteContext, inst: InstanceRow, action: string) {
  return audit(ctx.services, {
    workspaceId: inst.workspaceId,
    actorId: ctx.principal.user.id,
    action,
    target: { kind: "INSTANCE", id: inst.id },
  });
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
// Workflow effects

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
  for (const d of services.store.t.disks.filter((x) => x.instanceId === inst.id))
    services.store.t.disks.update(d.id, { region: node.region });
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
// Migration

/** Where migrate-instance moves an instance: the node named, a node of the region named, or the platform's pick. */
function migrationTarget(ctx: RouteContext, inst: InstanceRow, nodeId?: string, region?: string): NodeRow {
  const suitable = (n: NodeRow) =>
    n.id !== inst.nodeId &&
    n.group === inst.group &&
    nodeUsableBy(n, inst.workspaceId) &&
    n.cores >= inst.cpu &&
    n.maxMemory >= inst.memoryBytes;
  if (nodeId) {
    const node = ctx.store.t.nodes.get(nodeId);
    if (!node) throw notFound("Node");
    if (node.id === inst.nodeId) throw fieldError("node", "the instance already runs on this node");
    if (!suitable(node))
      throw fieldError(
        "node",
        `node ${node.name} cannot host this instance (group ${inst.group}, ${inst.cpu} cores, ${inst.memoryBytes} bytes, owner)`,
      );
    return node;
  }
  const all = ctx.store.t.nodes.filter(suitable);
  const candidates = region
    ? all.filter((n) => n.region === region)
    : all.filter((n) => n.region === inst.region).length
      ? all.filter((n) => n.region === inst.region)
      : all;
  const target = leastLoaded(ctx.services, candidates);
  if (!target) {
    if (region) throw fieldError("region", `no other node in ${region} can host this instance`);
    throw conflict("No other node can host this instance");
  }
  return target;
}

// ---------------------------------------------------------------------------------------------
// Commands on one instance

/** ISO official or the workspace's; CDROM updated immediately. */
export function attachIso(ctx: RouteContext, inst: InstanceRow, isoId: string): WorkflowView {
  requireInstanceState(inst, "AVAILABLE", "attach an ISO");
  const iso = ctx.store.t.images.get(isoId);
  if (!iso || (iso.workspaceId !== null && iso.workspaceId !== inst.workspaceId) || (iso.workspaceId === null && !iso.official))
    throw notFound("ISO");
  if (iso.kind !== "ISO") throw fieldError("iso", `image ${iso.name} is a ${iso.kind}, not an ISO`);
  if (iso.state !== "AVAILABLE") throw conflict(`ISO is ${iso.state}; it must be AVAILABLE`);
  ctx.store.t.instances.update(inst.id, { isoId: iso.id });
  return ctx.workflows.view(instanceWorkflow(ctx, inst, "attach-iso", null, { isoId: iso.id }));
}

/** fails when no ISO is attached; an instance booting from ISO goes back to DISK. */
export function detachIso(ctx: RouteContext, inst: InstanceRow): WorkflowView {
  if (!inst.isoId) throw conflict("No ISO is attached to this instance");
  ctx.store.t.instances.update(inst.id, { isoId: null, boot: "DISK" });
  return ctx.workflows.view(instanceWorkflow(ctx, inst, "detach-iso", null));
}

/** synchronous: a new 14-character root password (returned once) and the audit entry id. */
export function resetPassword(ctx: RouteContext, inst: InstanceRow): { password: string; task_id: bigint } {
  requireInstanceState(inst, "AVAILABLE", "reset its password");
  const password = ctx.store.rng.alnum(14);
  const entry = auditInstance(ctx, inst, "instance.reset-password");
  // task_id is documented as an integer: a bigint is written as a bare JSON integer.
  return { password, task_id: BigInt(entry.id) };
}

/** instance online, Linux or BSD; replaces root's authorized_keys with the workspace keys. */
export function syncSshKeys(ctx: RouteContext, inst: InstanceRow): WorkflowView {
  requireInstanceState(inst, "AVAILABLE", "sync SSH keys");
  if (!inst.online) throw conflict("Instance is offline; SSH keys are synced to a running instance");
  requireOs(ctx, inst, ["LINUX", "BSD"], "sync-instance-ssh-keys");
  // The SSH key table belongs to the access area: read it generically.
  const keys = ctx.store.table("sshKeys").all() as Array<Row & { workspaceId?: string }>;
  const count = keys.filter((k) => k.workspaceId === inst.workspaceId).length;
  return ctx.workflows.view(instanceWorkflow(ctx, inst, "sync-instance-ssh-keys", null, { keys: count }));
}

/** Linux, offline, hostname 4 to 32; answers an audit entry. */
export function updateHostname(ctx: RouteContext, inst: InstanceRow, hostname: string): AuditEntryView {
  requireInstanceState(inst, "AVAILABLE", "change its hostname");
  requireOs(ctx, inst, ["LINUX"], "update-instance-hostname");
  requireOffline(inst, "change its hostname");
  ctx.store.t.instances.update(inst.id, { hostname });
  return auditInstance(ctx, inst, "instance.update-hostname");
}

/** no effect when no termination is scheduled; answers an audit entry. */
export function cancelTerminationCommand(ctx: RouteContext, inst: InstanceRow): AuditEntryView {
  cancelTermination(ctx.services, inst);
  return auditInstance(ctx, inst, "instance.cancel-termination");
}

/** immediate false: suspended, powered off, removed in 3 days (refused when locked); immediate true: removed now. */
export function terminate(ctx: RouteContext, inst: InstanceRow, immediate: boolean): WorkflowView {
  if (inst.state === "DELETING") throw conflict("Instance is already being deleted");
  if (immediate) return ctx.workflows.view(startInstanceRemoval(ctx, inst, "terminate-instance"));
  requireNotLocked(inst, "schedule its termination");
  if (inst.terminationScheduledAt) throw conflict(`Termination is already scheduled for ${inst.terminationScheduledAt}`);
  scheduleTermination(ctx.services, inst);
  return ctx.workflows.view(instanceWorkflow(ctx, inst, "terminate-instance", POWERED_OFF));
}

/** Administrator only (the route checks); the platform picks a target when node is omitted. */
export function migrate(ctx: RouteContext, inst: InstanceRow, nodeId?: string, region?: string): WorkflowView {
  requireInstanceState(inst, "AVAILABLE", "migrate it");
  const node = migrationTarget(ctx, inst, nodeId, nodeId ? undefined : region);
  return ctx.workflows.view(instanceWorkflow(ctx, inst, "migrate-instance", MIGRATED, { nodeId: node.id }));
}

/** Administrator only (the route checks); synchronous; answers an audit entry. */
export function suspend(ctx: RouteContext, inst: InstanceRow, suspendIt: boolean): AuditEntryView {
  if (suspendIt) requireInstanceState(inst, "AVAILABLE", "suspend it");
  else {
    requireInstanceState(inst, "SUSPENDED", "resume it");
    if (inst.terminationScheduledAt) throw conflict("A termination is scheduled; cancel it with cancel-termination");
  }
  setSuspended(ctx.services, inst, suspendIt);
  return auditInstance(ctx, inst, suspendIt ? "instance.suspend" : "instance.resume");
}

// ---------------------------------------------------------------------------------------------
// Batch commands

/** in sequence; not AVAILABLE, locked or inaccessible instances skipped; 409 when none is eligible. */
export function batchPower(ctx: RouteContext, ids: string[], action: PowerAction): WorkflowView {
  const eligible = eligibleBatch(ctx, ids, (i) => canAccess(ctx, i, INSTANCE_OPERATE) && i.state === "AVAILABLE" && !i.locked);
  return ctx.workflows.view(batchWorkflow(ctx, "batch-instance-power", eligible, BATCH_POWERED, { action }));
}

/** ADMINISTRATOR on each instance's workspace; locked skipped; immediate false schedules deletion in 3 days. */
export function batchTerminate(ctx: RouteContext, ids: string[], immediate: boolean): WorkflowView {
  const eligible = eligibleBatch(
    ctx,
    ids,
    (i) => canAccess(ctx, i, INSTANCE_ADMIN) && !i.locked && i.state !== "DELETING" && (immediate || !i.terminationScheduledAt),
  );
  if (immediate) {
    for (const inst of eligible) ctx.store.t.instances.update(inst.id, { state: "DELETING" });
    return ctx.workflows.view(batchWorkflow(ctx, "batch-instance-terminate", eligible, BATCH_REMOVED, { immediate: true }));
  }
  for (const inst of eligible) scheduleTermination(ctx.services, inst);
  return ctx.workflows.view(batchWorkflow(ctx, "batch-instance-terminate", eligible, BATCH_POWERED_OFF, { immediate: false }));
}

/** Administrator only (the route checks); suspend needs AVAILABLE, resume needs SUSPENDED. */
export function batchSuspend(ctx: RouteContext, ids: string[], suspendThem: boolean): WorkflowView {
  const eligible = eligibleBatch(ctx, ids, (i) =>
    suspendThem ? i.state === "AVAILABLE" : i.state === "SUSPENDED" && !i.terminationScheduledAt,
  );
  return ctx.workflows.view(batchWorkflow(ctx, "batch-instance-suspend", eligible, BATCH_SUSPENDED, { suspend: suspendThem }));
}
