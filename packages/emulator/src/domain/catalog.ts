/**
 * The compute catalogue's domain (spec part 2, "Plans and nodes"): plan groups, plan and node
 * views, the workspace summary every view links to, and the placement rules instance creation,
 * migration and disk creation share.
 */
import type { Services } from "../core/services";
import type { NodeRow, PlanRow } from "../model";

export const PLAN_GROUPS = ["LIGHTNING", "RYZEN", "DEDICATED"] as const;
export type PlanGroup = (typeof PLAN_GROUPS)[number];

// ---------------------------------------------------------------------------------------------
// Views

export function planView(plan: PlanRow) {
  return {
    id: plan.id,
    name: plan.name,
    group: plan.group,
    cpu: plan.cpu,
    memory: plan.memory,
    disk_size: plan.diskSize,
    upload: plan.upload,
    download: plan.download,
    rate: plan.rate,
    disabled: plan.disabled,
    // "may be absent": absent values are null (part 1, "Value conventions").
    backup_plan: plan.backupPlan ? { id: plan.backupPlan.id, name: plan.backupPlan.name } : null,
  };
}

/** The single-plan fetch adds io_limits (part 2, Plan table: "detail only"). */
export function planDetailView(plan: PlanRow) {
  return { ...planView(plan), io_limits: plan.ioLimits ? { ...plan.ioLimits } : null };
}

export function workspaceSummary(services: Services, workspaceId: string | null): { id: string; name: string } | null {
  if (!workspaceId) return null;
  const ws = services.store.t.workspaces.get(workspaceId);
  return ws ? { id: ws.id, name: ws.name } : { id: workspaceId, name: "" };
}

export function nodeView(services: Services, node: NodeRow) {
  return {
    id: node.id,
    name: node.name,
    owner: workspaceSummary(services, node.ownerWorkspaceId),
    group: node.group,
    region: node.region,
    max_memory: node.maxMemory,
    cores: node.cores,
    flags: [...node.flags],
  };
}

// ---------------------------------------------------------------------------------------------
// Placement helpers (used by instance creation, migration and disk creation)

/** A node a workspace may place resources on: a platform node or one the workspace owns. */
export function nodeUsableBy(node: NodeRow, workspaceId: string): boolean {
  return node.ownerWorkspaceId === null || node.ownerWorkspaceId === workspaceId;
}

/** Nodes of a region usable by a workspace, optionally of one group. */
export function nodesInRegion(services: Services, workspaceId: string, region: string, group?: string): NodeRow[] {
  return services.store.t.nodes.filter((n) => n.region === region && nodeUsableBy(n, workspaceId) && (!group || n.group === group));
}

/** The least-loaded node among candidates (fewest instances), ties by id: deterministic placement. */
export function leastLoaded(services: Services, candidates: NodeRow[]): NodeRow | undefined {
  const load = new Map<string, number>();
  for (const inst of services.store.t.instances.all()) load.set(inst.nodeId, (load.get(inst.nodeId) ?? 0) + 1);
  return [...candidates].sort((a, b) => (load.get(a.id) ?? 0) - (load.get(b.id) ?? 0) || (BigInt(a.id) < BigInt(b.id) ? -1 : 1))[0];
}
