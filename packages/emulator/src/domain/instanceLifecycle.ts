/**
 * The instances area's state transitions (spec part 2, "States and transitions"):
 * - create (instanceProvisioning.ts): PENDING, then AVAILABLE with online true when the workflow
 *   completes (offline when the body says start false);
 * - power: the workflow flips `online` when it completes; a start or POWER_CYCLE is the
 *   "next restart" at which staged upgrades apply;
 * - delete: DELETING, then removed with its resources freed, then the `instance.deleted` hook
 *   tells other areas;
 * - terminate with immediate false (commands area) schedules the removal 3 days out as a
 *   long-running workflow, so it happens lazily on the first request after the emulator clock
 *   passes it.
 * The commands and images areas drive these too (restart, upgrades, rescue, termination).
 */
import { conflict } from "../core/errors";
import type { RouteContext } from "../core/router";
import type { Services } from "../core/services";
import { defineWorkflowEffect } from "../core/workflowEffects";
import { fireHook } from "../core/hooks";
import type { WorkflowView } from "../core/choices";
import { stopBilling } from "../pricing";
import type { InstanceRow } from "../model";
import { destroyDisk } from "./disks";
import { freeAddressesOf } from "./floatingIps";
import { requireInstanceState, syncBootDiskBilling } from "./instances";

export const TERMINATION_DELAY_MS = 3 * 24 * 3600 * 1000;

// ---------------------------------------------------------------------------------------------
// Power, upgrades, removal and termination

export const POWER_ACTIONS = ["POWER_ON", "POWER_OFF", "SHUTDOWN", "POWER_CYCLE"] as const;
export type PowerAction = (typeof POWER_ACTIONS)[number];

/** Whether the instance runs after the action. */
const ONLINE_AFTER: Record<PowerAction, boolean> = { POWER_ON: true, POWER_OFF: false, SHUTDOWN: false, POWER_CYCLE: true };

export function setOnline(services: Services, inst: InstanceRow, online: boolean): void {
  if (inst.online === online) return;
  services.store.t.instances.update(inst.id, { online });
  fireHook(services, "instance.power", { instanceId: inst.id, online });
}

/** Applies staged hardware (upgrade-instance on an online instance): the "next restart". */
export function applyStagedUpgrades(services: Services, inst: InstanceRow): void {
  const staged = inst.staged;
  if (!staged) return;
  const { bootDiskSize, ...hardware } = staged;
  const patch: Partial<InstanceRow> = { ...hardware, staged: null, pendingUpgrades: false };
  if ("planId" in hardware) patch.type = hardware.planId ? "PLAN" : "CUSTOM";
  services.store.t.instances.update(inst.id, patch);
  if (bootDiskSize !== undefined) {
    for (const d of services.store.t.disks.filter((x) => x.instanceId === inst.id && x.boot && x.size < bootDiskSize)) {
      services.store.t.disks.update(d.id, { size: bootDiskSize });
    }
  }
  syncBootDiskBilling(services, inst);
}

/** Restart semantics shared by power, apply-upgrades and restore: off, staged hardware in, on. */
export function restartInstance(services: Services, inst: InstanceRow): void {
  setOnline(services, inst, false);
  applyStagedUpgrades(services, inst);
  setOnline(services, inst, true);
}

/** What a completed power workflow does to one instance. */
export function applyPower(services: Services, instanceId: string, action: PowerAction): void {
  const inst = services.store.t.instances.get(instanceId);
  if (!inst || inst.state !== "AVAILABLE") return;
  const booting = action === "POWER_CYCLE" || (action === "POWER_ON" && !inst.online);
  if (booting) restartInstance(services, inst);
  else setOnline(services, inst, ONLINE_AFTER[action]);
}

/**
 * Removes an instance for good and frees what it held (part 2: "removed, resources freed"): boot
 * disks deleted, data disks detached, its addresses released or detached, billing stopped. Rows
 * other areas keep about it (VPC and load-balancer memberships, firewall rules, apps, k3s nodes,
 * snapshots, ...) are removed by those areas on the `instance.deleted` hook, each in one place.
 */
export function removeInstance(services: Services, instanceId: string): void {
  const { t } = services.store;
  const inst = t.instances.get(instanceId);
  if (!inst) return;
  for (const disk of t.disks.filter((d) => d.instanceId === instanceId)) {
    if (disk.boot) destroyDisk(services, disk.id);
    else t.disks.update(disk.id, { instanceId: null });
  }
  freeAddressesOf(services, instanceId);
  abortScheduledDeletion(services, instanceId);
  stopBilling(services, instanceId);
  t.instances.delete(instanceId);
  fireHook(services, "instance.deleted", { instanceId, workspaceId: inst.workspaceId });
}

const SCHEDULED_DELETION = "instance.scheduled-deletion";

defineWorkflowEffect(SCHEDULED_DELETION, (services, wf) => {
  const inst = services.store.t.instances.get(wf.resource!.id);
  // A cancelled (or re-scheduled) termination leaves the instance alone.
  if (inst && inst.terminationScheduledAt === wf.args.at) removeInstance(services, inst.id);
});

/**
 * terminate with immediate false: suspended now, powered off by the returned workflow, removed
 * 3 days later. The removal is a background workflow ending at the scheduled instant, so it
 * happens lazily on the first request after the emulator clock passes it.
 */
export function scheduleTermination(services: Services, inst: InstanceRow): void {
  const at = services.clock.iso(services.clock.now() + TERMINATION_DELAY_MS);
  services.store.t.instances.update(inst.id, { terminationScheduledAt: at, state: "SUSPENDED" });
  services.workflows.start({
    name: "scheduled-instance-deletion",
    workspaceId: inst.workspaceId,
    resource: { kind: "instances", id: inst.id },
    onComplete: SCHEDULED_DELETION,
    args: { at },
    durationMs: TERMINATION_DELAY_MS,
  });
}

function abortScheduledDeletion(services: Services, instanceId: string): void {
  const { workflows } = services.store.t;
  for (const wf of workflows.filter(
    (w) => w.onComplete === SCHEDULED_DELETION && w.resource?.id === instanceId && (w.state === "QUEUED" || w.state === "RUNNING"),
  )) {
    workflows.update(wf.id, { state: "ABORTED" });
  }
}

/** cancel-termination: resumed to an offline state (AVAILABLE, online false). No-op when none is scheduled. */
export function cancelTermination(services: Services, inst: InstanceRow): boolean {
  if (!inst.terminationScheduledAt) return false;
  abortScheduledDeletion(services, inst.id);
  services.store.t.instances.update(inst.id, { terminationScheduledAt: null, state: "AVAILABLE" });
  setOnline(services, inst, false);
  return true;
}

// ---------------------------------------------------------------------------------------------
// Workflow effects

export const INSTANCE_CREATED = defineWorkflowEffect("instance.created", (services, wf) => {
  const inst = services.store.t.instances.get(wf.resource!.id);
  if (!inst) return;
  for (const d of services.store.t.disks.filter((x) => x.instanceId === inst.id && x.state === "PENDING"))
    services.store.t.disks.update(d.id, { state: "AVAILABLE" });
  services.store.t.instances.update(inst.id, { state: "AVAILABLE" });
  setOnline(services, inst, wf.args.start !== false);
});

export const INSTANCE_CREATE_FAILED = defineWorkflowEffect("instance.create-failed", (services, wf) => {
  const inst = services.store.t.instances.get(wf.resource!.id);
  if (!inst) return;
  for (const d of services.store.t.disks.filter((x) => x.instanceId === inst.id && x.state === "PENDING"))
    services.store.t.disks.update(d.id, { state: "FAILED" });
  services.store.t.instances.update(inst.id, { state: "FAILED" });
});

const INSTANCE_POWERED = defineWorkflowEffect("instance.powered", (services, wf) => {
  applyPower(services, wf.resource!.id, wf.args.action as PowerAction);
});

export const INSTANCE_REMOVED = defineWorkflowEffect("instance.removed", (services, wf) => {
  removeInstance(services, wf.resource!.id);
});

/** A failure effect that changes nothing: for operations whose failure leaves the resource as it was. */
export const NOTHING = defineWorkflowEffect("compute.unchanged", () => undefined);

// ---------------------------------------------------------------------------------------------
// Requests: settings, power, delete

/** Settings the owner may change (PATCH); the route maps body fields to these row fields. */
export type InstanceSettings = Partial<
  Pick<InstanceRow, "name" | "boot" | "uefi" | "secureBoot" | "attachVirtioCdb" | "syncHostname" | "firewallEnabled" | "osName">
>;

export function changeSettings(ctx: RouteContext, inst: InstanceRow, settings: InstanceSettings): InstanceRow {
  if (inst.state === "DELETING") throw conflict("Instance is being deleted");
  if (settings.boot === "ISO" && !inst.isoId) throw conflict("No ISO is attached; attach one before booting from ISO");
  return ctx.store.t.instances.update(inst.id, settings);
}

/** Starts a workflow on one instance; by default a failure leaves the instance as it was. */
export function instanceWorkflow(
  ctx: RouteContext,
  inst: InstanceRow,
  name: string,
  onComplete: string | null,
  args: Record<string, unknown> = {},
  onFail: string | null = NOTHING,
) {
  return ctx.startWorkflow({ name, workspaceId: inst.workspaceId, resource: { kind: "instances", id: inst.id }, onComplete, onFail, args });
}

export function requestPower(ctx: RouteContext, inst: InstanceRow, action: PowerAction): WorkflowView {
  requireInstanceState(inst, "AVAILABLE", "change its power state");
  const wf = ctx.startWorkflow({
    name: "power-instance",
    workspaceId: inst.workspaceId,
    resource: { kind: "instances", id: inst.id },
    onComplete: INSTANCE_POWERED,
    // A failed power action leaves the instance as it was (not FAILED).
    onFail: NOTHING,
    args: { action },
  });
  return ctx.workflows.view(wf);
}

/** Starts the removal of an instance: DELETING now, removed when the workflow completes. */
export function startInstanceRemoval(ctx: RouteContext, inst: InstanceRow, name: string) {
  ctx.store.t.instances.update(inst.id, { state: "DELETING" });
  return ctx.startWorkflow({
    name,
    workspaceId: inst.workspaceId,
    resource: { kind: "instances", id: inst.id },
    onComplete: INSTANCE_REMOVED,
  });
}

export function requestDeletion(ctx: RouteContext, inst: InstanceRow): WorkflowView {
  if (inst.state === "DELETING") throw conflict("Instance is already being deleted");
  return ctx.workflows.view(startInstanceRemoval(ctx, inst, "delete-instance"));
}
