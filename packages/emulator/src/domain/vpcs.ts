/**
 * The VPCs area's domain (spec part 3, "VPC"): private layer-2 networks of a workspace and
 * instance memberships (one NIC and one private address from the range per membership).
 *
 * - range: an RFC 1918 CIDR, normalised to its network address; VLAN tags (range not shown;
 *   chosen) are the lowest free tag from 100 to 4094 in the workspace; quota max_vpcs.
 * - Access (not shown; chosen): VPCs are instance networking, so reads need READ on INSTANCE and
 *   every change needs EDITOR and WRITE on INSTANCE.
 * - An instance joins VPCs when it is created (instanceProvisioning.ts plans the addresses here)
 *   or by attach; its memberships go on detach, and when it is deleted (the hook below is the one
 *   place that removes a deleted instance's memberships).
 */
import { badRequest, conflict, fieldError, notFound } from "../core/errors";
import type { AccessNeed } from "../core/auth";
import type { RouteContext } from "../core/router";
import { audit, type Services } from "../core/services";
import type { AuditEntryView } from "../core/choices";
import { contains } from "../core/validation";
import { onHook } from "../core/hooks";
import { allocateInRange, formatCidr, isRfc1918, parseCidr } from "../network";
import type { InstanceRow, VpcMemberRow, VpcRow } from "../model";
import { workspaceSummary } from "./catalog";

export type VpcMember = VpcMemberRow;

export const VPC_READ: AccessNeed = { grant: ["INSTANCE", "READ"] };
export const VPC_WRITE: AccessNeed = { role: "EDITOR", grant: ["INSTANCE", "WRITE"] };

/** VLAN tags (range not shown; chosen): the lowest tag from 100 to 4094 free in the workspace. */
const VLAN_MIN = 100;
const VLAN_MAX = 4094;

// ---------------------------------------------------------------------------------------------
// Views

/** VPC object: id, name, description, range, vlan, plus (not shown; chosen) workspace {id, name} and created. */
export function vpcView(services: Services, vpc: VpcRow) {
  return {
    id: vpc.id,
    name: vpc.name,
    description: vpc.description,
    range: vpc.range,
    vlan: vpc.vlan,
    workspace: workspaceSummary(services, vpc.workspaceId),
    created: vpc.created,
  };
}

/**
 * Membership object (part 3: "the instance summary plus the private IP"). Chosen: the instance's
 * id and name, its private `ip`, and `vpc` ({id, name}) so the per-instance list says which VPC.
 */
export function memberView(services: Services, m: VpcMemberRow) {
  const instance = services.store.t.instances.get(m.instanceId);
  const vpc = services.store.t.vpcs.get(m.vpcId);
  return {
    id: m.instanceId,
    name: instance?.name ?? null,
    ip: m.ip,
    vpc: vpc ? { id: vpc.id, name: vpc.name } : null,
  };
}

/** q matches the instance name, the private IP or the instance ID. */
export function memberMatches(services: Services, m: VpcMemberRow, q: unknown): boolean {
  if (!q) return true;
  const instance = services.store.t.instances.get(m.instanceId);
  return contains(instance?.name, q) || contains(m.ip, q) || m.instanceId === String(q);
}

// ---------------------------------------------------------------------------------------------
// Rows

/** Loads a VPC and checks the caller may act on it; missing and invisible both answer 404. */
export function loadVpc(ctx: RouteContext, id: string, need: AccessNeed): VpcRow {
  const vpc = ctx.store.t.vpcs.get(id);
  if (!vpc) throw notFound("VPC");
  ctx.access(vpc.workspaceId, need);
  return vpc;
}

export const membersOfVpc = (services: Services, vpcId: string) => services.store.t.vpcMembers.filter((m) => m.vpcId === vpcId);
const findMember = (services: Services, vpcId: string, instanceId: string) =>
  services.store.t.vpcMembers.find((m) => m.vpcId === vpcId && m.instanceId === instanceId);

/** RFC 1918 range, normalised to its network address (10.1.2.3/16 -> 10.1.0.0/16). */
function normaliseRange(text: string): string {
  const cidr = text.includes("/") ? parseCidr(text) : null;
  if (!cidr || !isRfc1918(cidr)) {
    throw fieldError("range", "must be an RFC 1918 private CIDR inside 10.0.0.0/8, 172.16.0.0/12 or 192.168.0.0/16");
  }
  return formatCidr(cidr);
}

function freeVlan(services: Services, workspaceId: string): number {
  const used = new Set(services.store.t.vpcs.filter((v) => v.workspaceId === workspaceId).map((v) => v.vlan));
  for (let tag = VLAN_MIN; tag <= VLAN_MAX; tag++) if (!used.has(tag)) return tag;
  throw conflict("No free VLAN tag left in this workspace");
}

function checkVpcQuota(services: Services, workspaceId: string): void {
  const limit = services.store.t.workspaces.get(workspaceId)!.quota.max_vpcs;
  if (services.store.t.vpcs.count((v) => v.workspaceId === workspaceId) >= limit) {
    throw badRequest(`Quota exceeded: the workspace already has ${limit} VPCs (max_vpcs)`);
  }
}

// ---------------------------------------------------------------------------------------------
// VPCs

export function createVpc(ctx: RouteContext, workspaceId: string, input: { name: string; description: string; range: string }): VpcRow {
  const range = normaliseRange(input.range);
  checkVpcQuota(ctx.services, workspaceId);
  return ctx.store.t.vpcs.insert({
    id: ctx.store.newId(),
    workspaceId,
    name: input.name,
    description: input.description,
    range,
    vlan: freeVlan(ctx.services, workspaceId),
    created: ctx.clock.iso(),
  });
}

export function updateVpc(ctx: RouteContext, vpc: VpcRow, changes: { name?: string; description?: string }): VpcRow {
  return ctx.store.t.vpcs.update(vpc.id, {
    ...(changes.name !== undefined && { name: changes.name }),
    ...(changes.description !== undefined && { description: changes.description }),
  });
}

export function deleteVpc(ctx: RouteContext, vpc: VpcRow): AuditEntryView {
  const attached = membersOfVpc(ctx.services, vpc.id).length;
  // Part 1 "Errors": an attached VPC blocks deletion with 400.
  if (attached) throw badRequest(`VPC ${vpc.name} still has ${attached} attached instance(s); detach them first`);
  ctx.store.t.vpcs.delete(vpc.id);
  return audit(ctx.services, {
    workspaceId: vpc.workspaceId,
    actorId: ctx.principal.user.id,
    action: "vpc.delete",
    target: { kind: "VPC", id: vpc.id },
  });
}

// ---------------------------------------------------------------------------------------------
// Memberships

function attachAudit(ctx: RouteContext, action: string, instance: InstanceRow, vpc: VpcRow): AuditEntryView {
  return audit(ctx.services, {
    workspaceId: vpc.workspaceId,
    actorId: ctx.principal.user.id,
    action,
    target: { kind: "INSTANCE", id: instance.id },
  });
}

export function attachVpc(ctx: RouteContext, instance: InstanceRow, vpc: VpcRow): AuditEntryView {
  if (vpc.workspaceId !== instance.workspaceId) throw fieldError("vpc", "must be in the instance's workspace");
  if (findMember(ctx.services, vpc.id, instance.id)) throw conflict(`Instance ${instance.name} is already attached to VPC ${vpc.name}`);
  const ip = allocateInRange(
    vpc.range,
    membersOfVpc(ctx.services, vpc.id).map((m) => m.ip),
  );
  if (!ip) throw conflict(`VPC ${vpc.name} has no free address left in ${vpc.range}`);
  const member: VpcMember = {
    id: ctx.store.newId(),
    vpcId: vpc.id,
    instanceId: instance.id,
    ip,
    created: ctx.clock.iso(),
    workspaceId: vpc.workspaceId,
  };
  ctx.store.t.vpcMembers.insert(member);
  return attachAudit(ctx, "vpc.attach", instance, vpc);
}

export function detachVpc(ctx: RouteContext, instance: InstanceRow, vpc: VpcRow): AuditEntryView {
  const member = findMember(ctx.services, vpc.id, instance.id);
  if (!member) throw notFound("VPC membership");
  ctx.store.t.vpcMembers.delete(member.id);
  return attachAudit(ctx, "vpc.detach", instance, vpc);
}

/** The VPCs a new instance joins, each with the private address it will get (checked before anything is written). */
export function planMemberships(
  ctx: RouteContext,
  workspaceId: string,
  vpcIds: string[],
  visible: (vpc: VpcRow | undefined) => VpcRow,
): Array<{ vpc: VpcRow; ip: string }> {
  return vpcIds.map((id) => {
    const vpc = visible(ctx.store.t.vpcs.get(id));
    const taken = membersOfVpc(ctx.services, vpc.id).map((m) => m.ip);
    const ip = allocateInRange(vpc.range, taken);
    if (!ip) throw conflict(`VPC ${vpc.name} has no free address in ${vpc.range}`);
    return { vpc, ip };
  });
}

/** Joins a new instance to the planned VPCs. */
export function joinPlanned(services: Services, instanceId: string, planned: Array<{ vpc: VpcRow; ip: string }>): void {
  const { store, clock } = services;
  for (const { vpc, ip } of planned)
    store.t.vpcMembers.insert({ id: store.newId(), vpcId: vpc.id, instanceId, ip, created: clock.iso(), workspaceId: vpc.workspaceId });
}

/** A deleted instance leaves every VPC: its NICs and addresses are freed. */
onHook("instance.deleted", (services, event) => {
  for (const m of services.store.t.vpcMembers.filter((m) => m.instanceId === event.instanceId)) services.store.t.vpcMembers.delete(m.id);
});
