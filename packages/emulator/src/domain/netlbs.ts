/**
 * Network load balancers' domain (spec part 3): an address spread across member instances.
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
 * EDITOR and WRITE on NET_BALANCER. A deleted instance leaves every balancer (the hook below).
 */
import type { AccessNeed } from "../core/auth";
import { fieldError, notFound } from "../core/errors";
import { onHook } from "../core/hooks";
import type { RouteContext } from "../core/router";
import type { Services } from "../core/services";
import { defineWorkflowEffect } from "../core/workflowEffects";
import { formatIp, parseIp } from "../network";
import type { InstanceRow, NetLbMemberRow, NetLbRow } from "../model";
import { workspaceSummary } from "./catalog";
import { instanceSummary } from "./instances";

export const LB_READ: AccessNeed = { grant: ["NET_BALANCER", "READ"] };
export const LB_WRITE: AccessNeed = { role: "EDITOR", grant: ["NET_BALANCER", "WRITE"] };

/** Member rows also carry the balancer's workspace, so the inventory can place them without a lookup. */
export type NetLbMember = NetLbMemberRow & { workspaceId?: string; created?: string };

const canonicalIp = (text: string) => {
  const ip = parseIp(text)!;
  return formatIp(ip.family, ip.value);
};

/** A member counts (lists, detail, filters) once its addition applied and until its removal applies. */
const isApplied = (m: NetLbMemberRow) => m.state === "AVAILABLE" || m.state === "DELETING";

export function appliedMembers(services: Services, lbId: string): NetLbMemberRow[] {
  return services.store.t.netLbMembers.filter((m) => m.lbId === lbId && isApplied(m));
}

/** Balancer in lists: id, name, address, owner (workspace summary). */
export function lbView(services: Services, lb: NetLbRow) {
  return { id: lb.id, name: lb.name, address: lb.address, owner: workspaceSummary(services, lb.workspaceId) };
}

/** Balancer detail (not shown; chosen): the list fields plus `instances` (member summaries) and `created`. */
export function lbDetail(services: Services, lb: NetLbRow) {
  const instances = appliedMembers(services, lb.id).flatMap((m) => {
    const instance = services.store.t.instances.get(m.instanceId);
    return instance ? [instanceSummary(instance)] : [];
  });
  return { ...lbView(services, lb), instances, created: lb.created };
}

/** The workspace a body `owner` names; it must exist and the caller must be allowed there too. */
function ownerWorkspace(ctx: RouteContext, id: string, need: AccessNeed): string {
  if (!ctx.store.t.workspaces.get(id)) throw notFound("Owner workspace");
  ctx.access(id, need);
  return id;
}

// ---------------------------------------------------------------------------------------------
// Balancers

/** Administrator create (the route checks staff): the balancer in the owner workspace. */
export function createLb(ctx: RouteContext, body: { name: string; address: string; owner: string }): NetLbRow {
  const owner = ownerWorkspace(ctx, body.owner, {});
  return ctx.store.t.netLbs.insert({
    id: ctx.store.newId(),
    workspaceId: owner,
    name: body.name,
    address: canonicalIp(body.address),
    created: ctx.clock.iso(),
  });
}

/** Moving a balancer to another workspace drops members outside it (members share the owner's workspace). */
function followOwner(ctx: RouteContext, lb: NetLbRow): void {
  for (const m of ctx.store.t.netLbMembers.filter((m) => m.lbId === lb.id)) {
    if (ctx.store.t.instances.get(m.instanceId)?.workspaceId !== lb.workspaceId) ctx.store.t.netLbMembers.delete(m.id);
    else ctx.store.t.netLbMembers.update(m.id, { workspaceId: lb.workspaceId } as Partial<NetLbMember>);
  }
}

export function updateLb(ctx: RouteContext, lb: NetLbRow, body: { name?: string; address?: string; owner?: string }): void {
  const patch: Partial<NetLbRow> = {};
  if (body.name !== undefined) patch.name = body.name;
  if (body.address !== undefined) patch.address = canonicalIp(body.address);
  if (body.owner !== undefined) patch.workspaceId = ownerWorkspace(ctx, body.owner, LB_WRITE);
  ctx.store.t.netLbs.update(lb.id, patch);
  if (patch.workspaceId) followOwner(ctx, lb);
}

/** Administrator delete (the route checks staff): the balancer and its memberships go at once (choice). */
export function deleteLb(ctx: RouteContext, lb: NetLbRow): void {
  for (const m of ctx.store.t.netLbMembers.filter((m) => m.lbId === lb.id)) ctx.store.t.netLbMembers.delete(m.id);
  ctx.store.t.netLbs.delete(lb.id);
}

// ---------------------------------------------------------------------------------------------
// Members

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

/** PUT member: already a member (or joining) is a no-op; a member being removed joins again. */
export function addMember(ctx: RouteContext, lb: NetLbRow, instance: InstanceRow): void {
  if (instance.workspaceId !== lb.workspaceId) throw fieldError("iid", "the instance must be in the balancer's workspace");
  const existing = findMember(ctx, lb.id, instance.id);
  if (existing?.state === "PENDING" || existing?.state === "AVAILABLE") return;
  let member: NetLbMemberRow;
  if (existing) member = ctx.store.t.netLbMembers.update(existing.id, { state: "PENDING" });
  else {
    const row: NetLbMember = {
      id: ctx.store.newId(),
      lbId: lb.id,
      instanceId: instance.id,
      state: "PENDING",
      workspaceId: lb.workspaceId,
      created: ctx.clock.iso(),
    };
    member = ctx.store.t.netLbMembers.insert(row);
  }
  startMemberWorkflow(ctx, lb, member, true);
}

/** DELETE member: 404 when the instance is not a member; a removal in progress is a no-op. */
export function removeMember(ctx: RouteContext, lb: NetLbRow, instanceId: string): void {
  const member = findMember(ctx, lb.id, instanceId);
  if (!member) throw notFound("Load balancer member");
  if (member.state === "DELETING") return;
  ctx.store.t.netLbMembers.update(member.id, { state: "DELETING" });
  startMemberWorkflow(ctx, lb, member, false);
}

/** A deleted instance leaves every load balancer: the one place its memberships are removed. */
onHook("instance.deleted", (services, event) => {
  for (const m of services.store.t.netLbMembers.filter((m) => m.instanceId === event.instanceId))
    services.store.t.netLbMembers.delete(m.id);
});
