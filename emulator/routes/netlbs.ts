/**
 * Part 3 network load balancers: an address spread across member instances.
 *
 * - Workspace-scoped: list, fetch, PATCH (200, no body), members list, PUT/DELETE member
 *   (202, no body, asynchronous).
 * - Administrator only (staff): POST /v1/net-lbs, DELETE /v1/net-lbs/{bid}, and mirrors of the
 *   fetch, update and member endpoints under /v1/net-lbs/{bid}.
 *
 * Members change through an internal workflow that is not returned: PUT makes the member
 * PENDING and AVAILABLE when it completes; DELETE makes it DELETING and removes it when it
 * completes. Chosen visibility: a member shows (lists, detail, `instances` filter) from the
 * moment its addition applies until its removal applies, i.e. while AVAILABLE or DELETING.
 *
 * Access (not shown; chosen): reads need READ on NET_BALANCER; PATCH and member changes need
 * EDITOR and WRITE on NET_BALANCER.
 */
import { z } from "zod";
import type { Domain } from "../core/domain";
import type { AccessNeed } from "../core/auth";
import { fieldError, notFound } from "../core/errors";
import { accepted, created, ok, okEmpty, type RouteContext, type RouteDef } from "../core/router";
import type { Services } from "../core/services";
import { paginate } from "../core/paging";
import { contains, parseWith, pathId, queryIds, zId } from "../core/validation";
import { defineWorkflowEffect } from "../core/workflows";
import { onHook } from "../core/hooks";
import { formatIp, parseIp } from "../network";
import type { NetLbMemberRow, NetLbRow } from "../model";
import { filterInstances, instanceSummary, loadInstance } from "../domain/instances";
import { workspaceSummary } from "../domain/catalog";

const READ: AccessNeed = { grant: ["NET_BALANCER", "READ"] };
const WRITE: AccessNeed = { role: "EDITOR", grant: ["NET_BALANCER", "WRITE"] };

/** Member rows also carry the balancer's workspace, so the inventory can place them without a lookup. */
type NetLbMember = NetLbMemberRow & { workspaceId?: string; created?: string };

/** Name limits are not shown; chosen: 1 to 64 characters. */
const Name = z.string().min(1, "must not be empty").max(64, "must be at most 64 characters");
const Address = z.string().refine((v) => parseIp(v) !== null, "must be an IPv4 or IPv6 address");
const CreateLb = z.object({ name: Name, address: Address, owner: zId });
const UpdateLb = z.object({ name: Name.optional(), address: Address.optional(), owner: zId.optional() });

const canonicalIp = (text: string) => {
  const ip = parseIp(text)!;
  return formatIp(ip.family, ip.value);
};

/** A member counts (lists, detail, filters) once its addition applied and until its removal applies. */
const isApplied = (m: NetLbMemberRow) => m.state === "AVAILABLE" || m.state === "DELETING";

function appliedMembers(services: Services, lbId: string): NetLbMemberRow[] {
  return services.store.t.netLbMembers.filter((m) => m.lbId === lbId && isApplied(m));
}

/** Balancer in lists: id, name, address, owner (workspace summary). */
function lbView(services: Services, lb: NetLbRow) {
  return { id: lb.id, name: lb.name, address: lb.address, owner: workspaceSummary(services, lb.workspaceId) };
}

/** Balancer detail (not shown; chosen): the list fields plus `instances` (member summaries) and `created`. */
function lbDetail(services: Services, lb: NetLbRow) {
  const instances = appliedMembers(services, lb.id).flatMap((m) => {
    const instance = services.store.t.instances.get(m.instanceId);
    return instance ? [instanceSummary(instance)] : [];
  });
  return { ...lbView(services, lb), instances, created: lb.created };
}

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

/** The workspace a body `owner` names; it must exist and the caller must be allowed there too. */
function ownerWorkspace(ctx: RouteContext, id: string, need: AccessNeed): string {
  if (!ctx.store.t.workspaces.get(id)) throw notFound("Owner workspace");
  ctx.access(id, need);
  return id;
}

// ---------------------------------------------------------------------------------------------
// Balancers

function listLbs(ctx: RouteContext) {
  const wid = pathId(ctx.params.wid, "wid");
  ctx.access(wid, READ);
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
  return ok(paginate(rows, ctx.query, (lb) => lbView(ctx.services, lb), { id: (lb) => lb.id, sortable: { name: (lb) => lb.name, address: (lb) => lb.address, created: (lb) => lb.created } }));
}

function createLb(ctx: RouteContext) {
  ctx.requireStaff();
  const body = parseWith(CreateLb, ctx.body);
  const owner = ownerWorkspace(ctx, body.owner, {});
  const lb = ctx.store.t.netLbs.insert({ id: ctx.store.newId(), workspaceId: owner, name: body.name, address: canonicalIp(body.address), created: ctx.clock.iso() });
  return created(lbDetail(ctx.services, lb));
}

/** Moving a balancer to another workspace drops members outside it (members share the owner's workspace). */
function followOwner(ctx: RouteContext, lb: NetLbRow): void {
  for (const m of ctx.store.t.netLbMembers.filter((m) => m.lbId === lb.id)) {
    if (ctx.store.t.instances.get(m.instanceId)?.workspaceId !== lb.workspaceId) ctx.store.t.netLbMembers.delete(m.id);
    else ctx.store.t.netLbMembers.update(m.id, { workspaceId: lb.workspaceId } as Partial<NetLbMember>);
  }
}

function updateLb(locate: Locate) {
  return (ctx: RouteContext) => {
    const lb = locate(ctx, WRITE);
    const body = parseWith(UpdateLb, ctx.body ?? {});
    const patch: Partial<NetLbRow> = {};
    if (body.name !== undefined) patch.name = body.name;
    if (body.address !== undefined) patch.address = canonicalIp(body.address);
    if (body.owner !== undefined) patch.workspaceId = ownerWorkspace(ctx, body.owner, WRITE);
    ctx.store.t.netLbs.update(lb.id, patch);
    if (patch.workspaceId) followOwner(ctx, lb);
    return okEmpty();
  };
}

/** Administrator delete: 202, no body; the balancer and its memberships go at once (choice). */
function deleteLb(ctx: RouteContext) {
  const lb = asStaff(ctx, {});
  for (const m of ctx.store.t.netLbMembers.filter((m) => m.lbId === lb.id)) ctx.store.t.netLbMembers.delete(m.id);
  ctx.store.t.netLbs.delete(lb.id);
  return accepted();
}

// ---------------------------------------------------------------------------------------------
// Members

function listMembers(locate: Locate) {
  return (ctx: RouteContext) => {
    const lb = locate(ctx, READ);
    const members = appliedMembers(ctx.services, lb.id).flatMap((m) => {
      const instance = ctx.store.t.instances.get(m.instanceId);
      return instance ? [instance] : [];
    });
    // The standard instance search parameters (part 2 instance list): q, ip, id, name, node, plan, iso, online, state.
    const instances = filterInstances(ctx.services, members, ctx.query);
    return ok(paginate(instances, ctx.query, instanceSummary, { id: (i) => i.id, sortable: { name: (i) => i.name } }));
  };
}

const findMember = (ctx: RouteContext, lbId: string, instanceId: string) =>
  ctx.store.t.netLbMembers.find((m) => m.lbId === lbId && m.instanceId === instanceId);

const MEMBER_ADDED = defineWorkflowEffect("netlbs.member.added", (services, wf) => {
  const m = services.store.t.netLbMembers.get(wf.resource?.id);
  if (m?.state === "PENDING") services.store.t.netLbMembers.update(m.id, { state: "AVAILABLE" });
});
const MEMBER_ADD_FAILED = defineWorkflowEffect("netlbs.member.addFailed", (services, wf) => {
  const m = services.store.t.netLbMembers.get(wf.resource?.id);
  if (m?.state === "PENDING") services.store.t.netLbMembers.delete(m.id);
});
const MEMBER_REMOVED = defineWorkflowEffect("netlbs.member.removed", (services, wf) => {
  const m = services.store.t.netLbMembers.get(wf.resource?.id);
  if (m?.state === "DELETING") services.store.t.netLbMembers.delete(m.id);
});
const MEMBER_REMOVE_FAILED = defineWorkflowEffect("netlbs.member.removeFailed", (services, wf) => {
  const m = services.store.t.netLbMembers.get(wf.resource?.id);
  if (m?.state === "DELETING") services.store.t.netLbMembers.update(m.id, { state: "AVAILABLE" });
});

function startMemberWorkflow(ctx: RouteContext, lb: NetLbRow, member: NetLbMemberRow, adding: boolean): void {
  ctx.startWorkflow({
    name: adding ? "net-lb.member.add" : "net-lb.member.remove",
    workspaceId: lb.workspaceId,
    resource: { kind: "netLbMembers", id: member.id },
    onComplete: adding ? MEMBER_ADDED : MEMBER_REMOVED,
    onFail: adding ? MEMBER_ADD_FAILED : MEMBER_REMOVE_FAILED,
  });
}

/** PUT member: 202; already a member (or joining) is a no-op; a member being removed joins again. */
function putMember(locate: Locate) {
  return (ctx: RouteContext) => {
    const lb = locate(ctx, WRITE);
    const instance = loadInstance(ctx, pathId(ctx.params.iid, "iid"), {});
    if (instance.workspaceId !== lb.workspaceId) throw fieldError("iid", "the instance must be in the balancer's workspace");
    const existing = findMember(ctx, lb.id, instance.id);
    if (existing?.state === "PENDING" || existing?.state === "AVAILABLE") return accepted();
    let member: NetLbMemberRow;
    if (existing) member = ctx.store.t.netLbMembers.update(existing.id, { state: "PENDING" });
    else {
      const row: NetLbMember = { id: ctx.store.newId(), lbId: lb.id, instanceId: instance.id, state: "PENDING", workspaceId: lb.workspaceId, created: ctx.clock.iso() };
      member = ctx.store.t.netLbMembers.insert(row);
    }
    startMemberWorkflow(ctx, lb, member, true);
    return accepted();
  };
}

/** DELETE member: 202; 404 when the instance is not a member; a removal in progress is a no-op. */
function deleteMember(locate: Locate) {
  return (ctx: RouteContext) => {
    const lb = locate(ctx, WRITE);
    const member = findMember(ctx, lb.id, pathId(ctx.params.iid, "iid"));
    if (!member) throw notFound("Load balancer member");
    if (member.state === "DELETING") return accepted();
    ctx.store.t.netLbMembers.update(member.id, { state: "DELETING" });
    startMemberWorkflow(ctx, lb, member, false);
    return accepted();
  };
}

/** A deleted instance leaves every load balancer: the one place its memberships are removed. */
onHook("instance.deleted", (services, event) => {
  for (const m of services.store.t.netLbMembers.filter((m) => m.instanceId === event.instanceId)) services.store.t.netLbMembers.delete(m.id);
});

/** The fetch, update and member routes, under a path prefix, located by `locate`. */
function sharedRoutes(prefix: string, locate: Locate): RouteDef[] {
  return [
    { method: "GET", path: prefix, handler: (ctx) => ok(lbDetail(ctx.services, locate(ctx, READ))) },
    { method: "PATCH", path: prefix, handler: updateLb(locate) },
    { method: "GET", path: `${prefix}/instances`, handler: listMembers(locate) },
    { method: "PUT", path: `${prefix}/instances/:iid`, handler: putMember(locate) },
    { method: "DELETE", path: `${prefix}/instances/:iid`, handler: deleteMember(locate) },
  ];
}

export const netLbsDomain: Domain = {
  name: "netlbs",
  routes: [
    { method: "GET", path: "/v1/workspaces/:wid/net-lbs", handler: listLbs },
    ...sharedRoutes("/v1/workspaces/:wid/net-lbs/:bid", inWorkspace),
    { method: "POST", path: "/v1/net-lbs", handler: createLb },
    { method: "DELETE", path: "/v1/net-lbs/:bid", handler: deleteLb },
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
