/**
 * Plans and nodes (spec part 2, "Plans and nodes"): the seeded compute catalogue.
 *
 * - Plans are readable by any valid token; the list hides disabled plans unless `disabled=true`.
 * - GET /v1/nodes is administrator-only (a user-scoped token gets 400, per part 1 "Errors");
 *   GET /v1/workspaces/{wid}/nodes lists the nodes a private-cloud workspace owns, and an empty
 *   list for a standard workspace.
 * - A single node is visible to staff, and otherwise when it is a platform node (owner null) or
 *   owned by a workspace the caller can see (instance views link to their node).
 *
 * The node and plan helpers here are shared with the instance and disk areas (placement rules).
 */
import type { Domain } from "../core/domain";
import { notFound } from "../core/errors";
import { paginate } from "../core/paging";
import { ok, type RouteContext } from "../core/router";
import type { Services } from "../core/services";
import { contains, pathId, queryBool, queryEnum, queryIds, queryInt } from "../core/validation";
import { effectiveRole } from "../core/auth";
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

// ---------------------------------------------------------------------------------------------
// Lists

function filterPlans(ctx: RouteContext, plans: PlanRow[]): PlanRow[] {
  const q = ctx.query;
  const ids = queryIds(q.id, "id");
  const group = queryEnum(q.group, "group", PLAN_GROUPS);
  const maxRate = queryInt(q.rate, "rate");
  // disabled=true includes disabled plans, false (the default) excludes them.
  const includeDisabled = queryBool(q.disabled, "disabled") ?? false;
  return plans.filter(
    (p) =>
      (includeDisabled || !p.disabled) &&
      (!ids.length || ids.includes(p.id)) &&
      (!group || p.group === group) &&
      (maxRate === undefined || p.rate <= maxRate) &&
      contains(p.name, q.name) &&
      (!q.q || p.id === String(q.q) || contains(p.name, q.q)),
  );
}

function filterNodes(ctx: RouteContext, nodes: NodeRow[]): NodeRow[] {
  const q = ctx.query;
  const ids = queryIds(q.id, "id");
  const owners = queryIds(q.owner, "owner");
  return nodes.filter(
    (n) =>
      (!ids.length || ids.includes(n.id)) &&
      (!owners.length || (n.ownerWorkspaceId !== null && owners.includes(n.ownerWorkspaceId))) &&
      (!q.group || n.group === String(q.group)) &&
      (!q.region || n.region === String(q.region)) &&
      contains(n.name, q.name) &&
      (!q.q || n.id === String(q.q) || contains(n.name, q.q)),
  );
}

const PLAN_SORTS = {
  name: (p: PlanRow) => p.name,
  rate: (p: PlanRow) => p.rate,
  cpu: (p: PlanRow) => p.cpu,
  memory: (p: PlanRow) => p.memory,
  group: (p: PlanRow) => p.group,
};

const NODE_SORTS = {
  name: (n: NodeRow) => n.name,
  region: (n: NodeRow) => n.region,
  group: (n: NodeRow) => n.group,
};

function listNodes(ctx: RouteContext, rows: NodeRow[]) {
  return ok(paginate(filterNodes(ctx, rows), ctx.query, (n) => nodeView(ctx.services, n), { id: (n) => n.id, sortable: NODE_SORTS }));
}

/** Whether the caller may see a node: staff, platform nodes, or nodes of a workspace they can see. */
function nodeVisible(ctx: RouteContext, node: NodeRow): boolean {
  if (ctx.principal.staff || node.ownerWorkspaceId === null) return true;
  return effectiveRole(ctx.services, ctx.principal, node.ownerWorkspaceId) !== null;
}

export const catalogDomain: Domain = {
  name: "catalog",
  routes: [
    {
      method: "GET",
      path: "/v1/plans",
      handler: (ctx) =>
        ok(paginate(filterPlans(ctx, ctx.store.t.plans.all()), ctx.query, planView, { id: (p) => p.id, sortable: PLAN_SORTS })),
    },
    {
      method: "GET",
      path: "/v1/plans/:id",
      handler: (ctx) => {
        const plan = ctx.store.t.plans.get(pathId(ctx.params.id, "id"));
        if (!plan) throw notFound("Plan");
        return ok(planDetailView(plan));
      },
    },
    {
      method: "GET",
      path: "/v1/nodes",
      handler: (ctx) => {
        ctx.requireStaff();
        return listNodes(ctx, ctx.store.t.nodes.all());
      },
    },
    {
      method: "GET",
      path: "/v1/nodes/:id",
      handler: (ctx) => {
        const node = ctx.store.t.nodes.get(pathId(ctx.params.id, "id"));
        if (!node || !nodeVisible(ctx, node)) throw notFound("Node");
        return ok(nodeView(ctx.services, node));
      },
    },
    {
      method: "GET",
      path: "/v1/workspaces/:wid/nodes",
      handler: (ctx) => {
        const wid = pathId(ctx.params.wid, "wid");
        ctx.access(wid);
        const ws = ctx.store.t.workspaces.get(wid);
        // Standard workspaces own no nodes: an empty list (part 2, "Plans and nodes").
        const owned = ws?.privateCloud ? ctx.store.t.nodes.filter((n) => n.ownerWorkspaceId === wid) : [];
        return listNodes(ctx, owned);
      },
    },
  ],
};
