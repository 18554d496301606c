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
 * Views and placement rules are the area's domain (domain/catalog.ts).
 */
import type { Domain } from "../core/domain";
import { notFound } from "../core/errors";
import { paginate } from "../core/paging";
import { ok, type RouteContext } from "../core/router";
import { contains, pathId, queryBool, queryEnum, queryIds, queryInt } from "../core/validation";
import { effectiveRole } from "../core/auth";
import type { NodeRow, PlanRow } from "../model";
import { nodeView, planDetailView, planView, PLAN_GROUPS } from "../domain/catalog";

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
