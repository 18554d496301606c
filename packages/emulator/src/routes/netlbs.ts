/**
 * Part 3 network load balancers, the HTTP side: request schemas, locating a balancer (through
 * its workspace, or directly for the Administrator mirrors), lists and the route table. The
 * rules are the area's domain (domain/netlbs.ts).
 *
 * - Workspace-scoped: list, fetch, PATCH (200, no body), members list, PUT/DELETE member
 *   (202, no body, asynchronous).
 * - Administrator only (staff): POST /v1/net-lbs, DELETE /v1/net-lbs/{bid}, and mirrors of the
 *   fetch, update and member endpoints under /v1/net-lbs/{bid}.
 */
import { z } from "zod";
import type { Domain } from "../core/domain";
import type { AccessNeed } from "../core/auth";
import { notFound } from "../core/errors";
import { accepted, created, ok, okEmpty, type RouteContext, type RouteDef } from "../core/router";
import { paginate } from "../core/paging";
import { contains, parseWith, pathId, queryIds, zId } from "../core/validation";
import { parseIp } from "../network";
import type { NetLbRow } from "../model";
import { filterInstances, instanceSummary, loadInstance } from "../domain/instances";
import {
  addMember,
  appliedMembers,
  createLb,
  deleteLb,
  lbDetail,
  lbView,
  removeMember,
  updateLb,
  LB_READ,
  LB_WRITE,
  type NetLbMember,
} from "../domain/netlbs";

/** Name limits are not shown; chosen: 1 to 64 characters. */
const Name = z.string().min(1, "must not be empty").max(64, "must be at most 64 characters");
const Address = z.string().refine((v) => parseIp(v) !== null, "must be an IPv4 or IPv6 address");
const CreateLb = z.object({ name: Name, address: Address, owner: zId });
const UpdateLb = z.object({ name: Name.optional(), address: Address.optional(), owner: zId.optional() });

// ---------------------------------------------------------------------------------------------
// Locating a balancer: through the owning workspace (user) or directly (Administrator mirrors).

type Locate = (ctx: RouteContext, need: AccessNeed) => NetLbRow;

const inWorkspace: Locate = (ctx, need) => {
  const wid = pathId(ctx.params.wid, "wid");
  ctx.access(wid, need);
  const lb = ctx.store.t.netLbs.get(pathId(ctx.params.bid, "bid"));
  if (!lb || lb.workspaceId !== wid) throw notFound("Network load balancer");
  return lb;
};

const asStaff: Locate = (ctx) => {
  ctx.requireStaff();
  const lb = ctx.store.t.netLbs.get(pathId(ctx.params.bid, "bid"));
  if (!lb) throw notFound("Network load balancer");
  return lb;
};

// ---------------------------------------------------------------------------------------------
// Lists

function listLbs(ctx: RouteContext) {
  const wid = pathId(ctx.params.wid, "wid");
  ctx.access(wid, LB_READ);
  const ids = new Set(queryIds(ctx.query.id, "id"));
  const owners = new Set(queryIds(ctx.query.owner, "owner"));
  const members = new Set(queryIds(ctx.query.instances, "instances"));
  const { q, name, address } = ctx.query;
  const hasMember = (lb: NetLbRow) => appliedMembers(ctx.services, lb.id).some((m) => members.has(m.instanceId));
  const rows = ctx.store.t.netLbs.filter(
    (lb) =>
      lb.workspaceId === wid &&
      (!ids.size || ids.has(lb.id)) &&
      (!owners.size || owners.has(lb.workspaceId)) &&
      contains(lb.name, name) &&
      contains(lb.address, address) &&
      (!q || contains(lb.name, q) || contains(lb.address, q) || lb.id === String(q)) &&
      (!members.size || hasMember(lb)),
  );
  return ok(
    paginate(rows, ctx.query, (lb) => lbView(ctx.services, lb), {
      id: (lb) => lb.id,
      sortable: { name: (lb) => lb.name, address: (lb) => lb.address, created: (lb) => lb.created },
    }),
  );
}

function listMembers(locate: Locate) {
  return (ctx: RouteContext) => {
    const lb = locate(ctx, LB_READ);
    const members = appliedMembers(ctx.services, lb.id).flatMap((m) => {
      const instance = ctx.store.t.instances.get(m.instanceId);
      return instance ? [instance] : [];
    });
    // The standard instance search parameters (part 2 instance list): q, ip, id, name, node, plan, iso, online, state.
    const instances = filterInstances(ctx.services, members, ctx.query);
    return ok(paginate(instances, ctx.query, instanceSummary, { id: (i) => i.id, sortable: { name: (i) => i.name } }));
  };
}

/** The fetch, update and member routes, under a path prefix, located by `locate`. */
function sharedRoutes(prefix: string, locate: Locate): RouteDef[] {
  return [
    { method: "GET", path: prefix, handler: (ctx) => ok(lbDetail(ctx.services, locate(ctx, LB_READ))) },
    {
      method: "PATCH",
      path: prefix,
      handler: (ctx) => {
        const lb = locate(ctx, LB_WRITE);
        updateLb(ctx, lb, parseWith(UpdateLb, ctx.body ?? {}));
        return okEmpty();
      },
    },
    { method: "GET", path: `${prefix}/instances`, handler: listMembers(locate) },
    {
      method: "PUT",
      path: `${prefix}/instances/:iid`,
      handler: (ctx) => {
        const lb = locate(ctx, LB_WRITE);
        addMember(ctx, lb, loadInstance(ctx, pathId(ctx.params.iid, "iid"), {}));
        return accepted();
      },
    },
    {
      method: "DELETE",
      path: `${prefix}/instances/:iid`,
      handler: (ctx) => {
        const lb = locate(ctx, LB_WRITE);
        removeMember(ctx, lb, pathId(ctx.params.iid, "iid"));
        return accepted();
      },
    },
  ];
}

export const netLbsDomain: Domain = {
  name: "netlbs",
  routes: [
    { method: "GET", path: "/v1/workspaces/:wid/net-lbs", handler: listLbs },
    ...sharedRoutes("/v1/workspaces/:wid/net-lbs/:bid", inWorkspace),
    {
      method: "POST",
      path: "/v1/net-lbs",
      handler: (ctx) => {
        ctx.requireStaff();
        return created(lbDetail(ctx.services, createLb(ctx, parseWith(CreateLb, ctx.body))));
      },
    },
    {
      method: "DELETE",
      path: "/v1/net-lbs/:bid",
      handler: (ctx) => {
        // The balancer and its memberships go at once: 202, no body (choice).
        deleteLb(ctx, asStaff(ctx, {}));
        return accepted();
      },
    },
    ...sharedRoutes("/v1/net-lbs/:bid", asStaff),
  ],
  inventory: {
    netLbs: { workspaceOf: (lb: NetLbRow) => lb.workspaceId },
    netLbMembers: {
      workspaceOf: (m: NetLbMember) => m.workspaceId ?? null,
      label: (m: NetLbMember) => `instance ${m.instanceId} in balancer ${m.lbId}`,
    },
  },
};
