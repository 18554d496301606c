/**
 * Instance upgrades (spec part 2, instance commands upgrade-instance and apply-upgrades): the
 * hardware an upgrade asks for is checked against the instance and its node, staged on the row
 * and billed at once; it applies when the workflow completes on an offline instance, otherwise
 * at the next restart (instanceLifecycle.ts applyStagedUpgrades) or apply-upgrades. A failed
 * upgrade puts the previous staging and billing back. The boot disk only grows.
 */
import { conflict, fieldError, notFound } from "../core/errors";
import type { RouteContext } from "../core/router";
import type { Services } from "../core/services";
import type { WorkflowView } from "../core/choices";
import { defineWorkflowEffect } from "../core/workflowEffects";
import { rebill, startBilling, stopBilling } from "../pricing";
import type { InstanceRow } from "../model";
import { checkStorageQuota, diskHourlyRate, isDiskBilled } from "./disks";
import {
  instanceHourlyRate,
  rebillInstance,
  requireInstanceState,
  requireNotLocked,
  requireOffline,
  syncBootDiskBilling,
} from "./instances";
import { applyStagedUpgrades, instanceWorkflow, restartInstance } from "./instanceLifecycle";

/** An upgrade-instance request as the route has validated it. */
export type UpgradeRequest =
  | { type: "PLAN"; instance: string; plan: string }
  | {
      type: "CUSTOM";
      instance: string;
      cpu?: number;
      memory?: number;
      download?: number;
      upload?: number;
      disk?: number;
      io_limits?: { read_bytes_sec: number; write_bytes_sec: number; read_iops: number; write_iops: number };
    };

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
  else
    startBilling(services, {
      workspaceId: disk.workspaceId,
      resourceId: disk.id,
      resourceKind: "DISK",
      resourceName: disk.name,
      hourlyRate: rate,
    });
}

type Staged = NonNullable<InstanceRow["staged"]>;

/** The hardware an upgrade asks for, checked against the instance (what it will be once staged parts apply). */
function upgradeTarget(ctx: RouteContext, inst: InstanceRow, body: UpgradeRequest): Staged {
  const node = ctx.store.t.nodes.get(inst.nodeId);
  const bootSize = Math.max(currentBootSize(ctx.services, inst), inst.staged?.bootDiskSize ?? 0);
  const fits = (cpu: number, memory: number) => !node || (node.cores >= cpu && node.maxMemory >= memory);
  if (body.type === "PLAN") {
    const plan = ctx.store.t.plans.get(body.plan);
    if (!plan) throw notFound("Plan");
    if (plan.disabled) throw fieldError("plan", `plan ${plan.name} is disabled`);
    if (plan.group !== inst.group)
      throw fieldError("plan", `plan ${plan.name} is ${plan.group}; the instance runs on ${inst.group} (migrate it first)`);
    if (plan.diskSize < bootSize)
      throw fieldError("plan", `plan ${plan.name} has a ${plan.diskSize}-byte disk; the boot disk (${bootSize} bytes) can only grow`);
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
    bandwidth: {
      upload_bytes_sec: body.upload ?? base.bandwidth.upload_bytes_sec,
      download_bytes_sec: body.download ?? base.bandwidth.download_bytes_sec,
    },
    ioLimits: body.io_limits ?? base.ioLimits,
    ...(body.disk !== undefined && body.disk > bootSize ? { bootDiskSize: body.disk } : {}),
  };
}

/**
 * upgrade-instance: the new hardware is staged at once and billed at once (part 2, "States and
 * transitions"); offline it applies when the workflow completes, online at the next restart.
 */
export function upgradeInstance(ctx: RouteContext, inst: InstanceRow, body: UpgradeRequest): WorkflowView {
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
  return ctx.workflows.view(wf);
}

/** apply-upgrades: the staged hardware goes in; the instance must be offline unless restart. */
export function applyUpgrades(ctx: RouteContext, inst: InstanceRow, restart: boolean): WorkflowView {
  requireInstanceState(inst, "AVAILABLE", "apply upgrades");
  if (!inst.staged) throw conflict("The instance has no staged upgrades");
  if (!restart) requireOffline(inst, "apply upgrades");
  return ctx.workflows.view(instanceWorkflow(ctx, inst, "apply-upgrades", UPGRADES_APPLIED, { restart }));
}
