/**
 * Part 3 VPCs: private layer-2 networks of a workspace, and instance memberships (one NIC and
 * one private address from the range per membership).
 *
 * Access (not shown; chosen): VPCs are instance networking, so reads need READ on INSTANCE and
 * every change needs EDITOR and WRITE on INSTANCE.
 */
import { z } from "zod";
import type { Domain } from "../core/domain";
import type { AccessNeed } from "../core/auth";
import { badRequest, conflict, fieldError, notFound } from "../core/errors";
import { created, ok, type RouteContext } from "../core/router";
import { audit, type Services } from "../core/services";
import { paginate } from "../core/paging";
import { contains, parseWith, pathId, queryIds, zId } from "../core/validation";
import { onHook } from "../core/hooks";
import { allocateInRange, formatCidr, isRfc1918, parseCidr } from "../network";
import type { InstanceRow, VpcMemberRow, VpcRow } from "../model";
import { loadInstance } from "./instances";
import { workspaceSummary } from "./catalog";

/** Member rows also carry their VPC's workspace, so the inventory can place them without a lookup. */
type VpcMember = VpcMemberRow & { workspaceId?: string };

const READ: AccessNeed = { grant: ["INSTANCE", "READ"] };
const WRITE: AccessNeed = { role: "EDITOR", grant: ["INSTANCE", "WRITE"] };

/** VLAN tags (range not shown; chosen): the lowest tag from 100 to 4094 free in the workspace. */
const VLAN_MIN = 100;
const VLAN_MAX = 4094;

const Name = z.string().min(4, "must be 4 to 32 characters").max(32, "must be 4 to 32 characters");
const Description = z.string().max(240, "must be at most 240 characters");
const CreateVpc = z.object({ name: Name, description: Description, range: z.string() });
const UpdateVpc = z.object({ name: Name.optional(), description: Description.optional() });
const AttachVpc = z.object({ vpc: zId });

/** VPC object: id, name, description, range, vlan, plus (not shown; chosen) workspace {id, name} and created. */
function vpcView(services: Services, vpc: VpcRow) {
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
function memberView(services: Services, m: VpcMemberRow) {
  const instance = services.store.t.instances.get(m.instanceId);
  const vpc = services.store.t.vpcs.get(m.vpcId);
  return {
    id: m.instanceId,
    name: instance?.name ?? null,
    ip: m.ip,
    vpc: vpc ? { id: vpc.id, name: vpc.name } : null,
  };
}

/** RFC 1918 range, normalised to its network address (10.1.2.3/16 -> 10.1.0.0/16). */
function normaliseRange(text: string): string {
  const cidr = text.includes("/") ? parseCidr(text) : null;
  if (!cidr || !isRfc1918(cidr)) {
    throw fieldError("range", "must be an RFC 1918 private CIDR inside 10.0.0.0/8, 172.16.0.0/12 or 192.168.0.0/16");
  }
  return formatCidr(cidr);
}

function freeVlan(ctx: RouteContext, workspaceId: string): number {
  const used = new Set(ctx.store.t.vpcs.filter((v) => v.workspaceId === workspaceId).map((v) => v.vlan));
  for (let tag = VLAN_MIN; tag <= VLAN_MAX; tag++) if (!used.has(tag)) return tag;
  throw conflict("No free VLAN tag left in this workspace");
}

function checkVpcQuota(ctx: RouteContext, workspaceId: string): void {
  const limit = ctx.store.t.workspaces.get(workspaceId)!.quota.max_vpcs;
  if (ctx.store.t.vpcs.count((v) => v.workspaceId === workspaceId) >= limit) {
    throw badRequest(`Quota exceeded: the workspace already has ${limit} VPCs (max_vpcs)`);
  }
}

function loadVpc(ctx: RouteContext, need: AccessNeed, id = pathId(ctx.params.vid, "vid")): VpcRow {
  const vpc = ctx.store.t.vpcs.get(id);
  if (!vpc) throw notFound("VPC");
  ctx.access(vpc.workspaceId, need);
  return vpc;
}

const membersOfVpc = (ctx: RouteContext, vpcId: string) => ctx.store.t.vpcMembers.filter((m) => m.vpcId === vpcId);
const findMember = (ctx: RouteContext, vpcId: string, instanceId: string) =>
  ctx.store.t.vpcMembers.find((m) => m.vpcId === vpcId && m.instanceId === instanceId);

function listVpcs(ctx: RouteContext) {
  const wid = pathId(ctx.params.wid, "wid");
  ctx.access(wid, READ);
  const ids = new Set(queryIds(ctx.query.id, "id"));
  const { q, name, description } = ctx.query;
  const rows = ctx.store.t.vpcs.filter(
    (v) =>
      v.workspaceId === wid &&
      (!ids.size || ids.has(v.id)) &&
      contains(v.name, name) &&
      contains(v.description, description) &&
      (!q || contains(v.name, q) || contains(v.description, q) || v.id === String(q)),
  );
  return ok(paginate(rows, ctx.query, (v) => vpcView(ctx.services, v), { id: (v) => v.id, sortable: { name: (v) => v.name, created: (v) => v.created, vlan: (v) => v.vlan } }));
}

function createVpc(ctx: RouteContext) {
  const wid = pathId(ctx.params.wid, "wid");
  ctx.access(wid, WRITE);
  const body = parseWith(CreateVpc, ctx.body);
  const range = normaliseRange(body.range);
  checkVpcQuota(ctx, wid);
  const vpc = ctx.store.t.vpcs.insert({
    id: ctx.store.newId(),
    workspaceId: wid,
    name: body.name,
    description: body.description,
    range,
    vlan: freeVlan(ctx, wid),
    created: ctx.clock.iso(),
  });
  return created(vpcView(ctx.services, vpc));
}

function updateVpc(ctx: RouteContext) {
  const vpc = loadVpc(ctx, WRITE);
  const body = parseWith(UpdateVpc, ctx.body ?? {});
  ctx.store.t.vpcs.update(vpc.id, { ...(body.name !== undefined && { name: body.name }), ...(body.description !== undefined && { description: body.description }) });
  return ok(vpcView(ctx.services, vpc));
}

function deleteVpc(ctx: RouteContext) {
  const vpc = loadVpc(ctx, WRITE);
  const attached = membersOfVpc(ctx, vpc.id).length;
  // Part 1 "Errors": an attached VPC blocks deletion with 400.
  if (attached) throw badRequest(`VPC ${vpc.name} still has ${attached} attached instance(s); detach them first`);
  ctx.store.t.vpcs.delete(vpc.id);
  return ok(audit(ctx.services, { workspaceId: vpc.workspaceId, actorId: ctx.principal.user.id, action: "vpc.delete", target: { kind: "VPC", id: vpc.id } }));
}

/** q matches the instance name, the private IP or the instance ID. */
function memberMatches(services: Services, m: VpcMemberRow, q: unknown): boolean {
  if (!q) return true;
  const instance = services.store.t.instances.get(m.instanceId);
  return contains(instance?.name, q) || contains(m.ip, q) || m.instanceId === String(q);
}

function listVpcMembers(ctx: RouteContext) {
  const vpc = loadVpc(ctx, READ);
  const rows = membersOfVpc(ctx, vpc.id).filter((m) => memberMatches(ctx.services, m, ctx.query.q));
  return ok(paginate(rows, ctx.query, (m) => memberView(ctx.services, m), { id: (m) => m.instanceId, sortable: { ip: (m) => m.ip, created: (m) => m.created } }));
}

function listInstanceVpcs(ctx: RouteContext) {
  const instance = loadInstance(ctx, pathId(ctx.params.iid, "iid"), READ);
  const rows = ctx.store.t.vpcMembers.filter((m) => m.instanceId === instance.id && memberMatches(ctx.services, m, ctx.query.q));
  return ok(paginate(rows, ctx.query, (m) => memberView(ctx.services, m), { id: (m) => m.vpcId, sortable: { ip: (m) => m.ip, created: (m) => m.created } }));
}

function attachAudit(ctx: RouteContext, action: string, instance: InstanceRow, vpc: VpcRow) {
  return audit(ctx.services, { workspaceId: vpc.workspaceId, actorId: ctx.principal.user.id, action, target: { kind: "INSTANCE", id: instance.id } });
}

function attachVpc(ctx: RouteContext) {
  const instance = loadInstance(ctx, pathId(ctx.params.iid, "iid"), WRITE);
  const body = parseWith(AttachVpc, ctx.body);
  const vpc = loadVpc(ctx, WRITE, body.vpc);
  if (vpc.workspaceId !== instance.workspaceId) throw fieldError("vpc", "must be in the instance's workspace");
  if (findMember(ctx, vpc.id, instance.id)) throw conflict(`Instance ${instance.name} is already attached to VPC ${vpc.name}`);
  const ip = allocateInRange(vpc.range, membersOfVpc(ctx, vpc.id).map((m) => m.ip));
  if (!ip) throw conflict(`VPC ${vpc.name} has no free address left in ${vpc.range}`);
  const member: VpcMember = { id: ctx.store.newId(), vpcId: vpc.id, instanceId: instance.id, ip, created: ctx.clock.iso(), workspaceId: vpc.workspaceId };
  ctx.store.t.vpcMembers.insert(member);
  return created(attachAudit(ctx, "vpc.attach", instance, vpc));
}

function detachVpc(ctx: RouteContext) {
  const instance = loadInstance(ctx, pathId(ctx.params.iid, "iid"), WRITE);
  const vpc = loadVpc(ctx, WRITE);
  const member = findMember(ctx, vpc.id, instance.id);
  if (!member) throw notFound("VPC membership");
  ctx.store.t.vpcMembers.delete(member.id);
  return ok(attachAudit(ctx, "vpc.detach", instance, vpc));
}

/** The instance area removes memberships of a deleted instance; repeated here, idempotently, so no NIC is left behind. */
onHook("instance.deleted", (services, event) => {
  for (const m of services.store.t.vpcMembers.filter((m) => m.instanceId === event.instanceId)) services.store.t.vpcMembers.delete(m.id);
});

export const vpcsDomain: Domain = {
  name: "vpcs",
  routes: [
    { method: "GET", path: "/v1/workspaces/:wid/vpcs", handler: listVpcs },
    { method: "POST", path: "/v1/workspaces/:wid/vpcs", handler: createVpc },
    { method: "GET", path: "/v1/vpcs/:vid", handler: (ctx) => ok(vpcView(ctx.services, loadVpc(ctx, READ))) },
    { method: "PATCH", path: "/v1/vpcs/:vid", handler: updateVpc },
    { method: "DELETE", path: "/v1/vpcs/:vid", handler: deleteVpc },
    { method: "GET", path: "/v1/vpcs/:vid/instances", handler: listVpcMembers },
    { method: "GET", path: "/v1/instances/:iid/vpcs", handler: listInstanceVpcs },
    { method: "POST", path: "/v1/instances/:iid/vpcs", handler: attachVpc },
    { method: "DELETE", path: "/v1/instances/:iid/vpcs/:vid", handler: detachVpc },
  ],
  inventory: {
    vpcs: { workspaceOf: (v: VpcRow) => v.workspaceId },
    vpcMembers: {
      workspaceOf: (m: VpcMember) => m.workspaceId ?? null,
      label: (m: VpcMember) => m.ip,
    },
  },
};
