/**
 * Part 3 VPCs: private layer-2 networks of a workspace, and instance memberships. The rules are
 * the area's domain (domain/vpcs.ts); this file holds the request schemas and the route table.
 */
import { z } from "zod";
import type { Domain } from "../core/domain";
import type { AccessNeed } from "../core/auth";
import { created, ok, type RouteContext } from "../core/router";
import { paginate } from "../core/paging";
import { contains, parseWith, pathId, queryIds, zId } from "../core/validation";
import type { VpcRow } from "../model";
import { loadInstance } from "../domain/instances";
import {
  attachVpc,
  createVpc,
  deleteVpc,
  detachVpc,
  loadVpc,
  memberMatches,
  membersOfVpc,
  memberView,
  updateVpc,
  vpcView,
  VPC_READ,
  VPC_WRITE,
  type VpcMember,
} from "../domain/vpcs";

const Name = z.string().min(4, "must be 4 to 32 characters").max(32, "must be 4 to 32 characters");
const Description = z.string().max(240, "must be at most 240 characters");
const CreateVpc = z.object({ name: Name, description: Description, range: z.string() });
const UpdateVpc = z.object({ name: Name.optional(), description: Description.optional() });
const AttachVpc = z.object({ vpc: zId });

const vpc = (ctx: RouteContext, need: AccessNeed) => loadVpc(ctx, pathId(ctx.params.vid, "vid"), need);
const instance = (ctx: RouteContext, need: AccessNeed) => loadInstance(ctx, pathId(ctx.params.iid, "iid"), need);

function listVpcs(ctx: RouteContext) {
  const wid = pathId(ctx.params.wid, "wid");
  ctx.access(wid, VPC_READ);
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
  return ok(
    paginate(rows, ctx.query, (v) => vpcView(ctx.services, v), {
      id: (v) => v.id,
      sortable: { name: (v) => v.name, created: (v) => v.created, vlan: (v) => v.vlan },
    }),
  );
}

function listVpcMembers(ctx: RouteContext) {
  const target = vpc(ctx, VPC_READ);
  const rows = membersOfVpc(ctx.services, target.id).filter((m) => memberMatches(ctx.services, m, ctx.query.q));
  return ok(
    paginate(rows, ctx.query, (m) => memberView(ctx.services, m), {
      id: (m) => m.instanceId,
      sortable: { ip: (m) => m.ip, created: (m) => m.created },
    }),
  );
}

function listInstanceVpcs(ctx: RouteContext) {
  const member = instance(ctx, VPC_READ);
  const rows = ctx.store.t.vpcMembers.filter((m) => m.instanceId === member.id && memberMatches(ctx.services, m, ctx.query.q));
  return ok(
    paginate(rows, ctx.query, (m) => memberView(ctx.services, m), {
      id: (m) => m.vpcId,
      sortable: { ip: (m) => m.ip, created: (m) => m.created },
    }),
  );
}

export const vpcsDomain: Domain = {
  name: "vpcs",
  routes: [
    { method: "GET", path: "/v1/workspaces/:wid/vpcs", handler: listVpcs },
    {
      method: "POST",
      path: "/v1/workspaces/:wid/vpcs",
      handler: (ctx) => {
        const wid = pathId(ctx.params.wid, "wid");
        ctx.access(wid, VPC_WRITE);
        return created(vpcView(ctx.services, createVpc(ctx, wid, parseWith(CreateVpc, ctx.body))));
      },
    },
    { method: "GET", path: "/v1/vpcs/:vid", handler: (ctx) => ok(vpcView(ctx.services, vpc(ctx, VPC_READ))) },
    {
      method: "PATCH",
      path: "/v1/vpcs/:vid",
      handler: (ctx) => {
        const target = vpc(ctx, VPC_WRITE);
        return ok(vpcView(ctx.services, updateVpc(ctx, target, parseWith(UpdateVpc, ctx.body ?? {}))));
      },
    },
    { method: "DELETE", path: "/v1/vpcs/:vid", handler: (ctx) => ok(deleteVpc(ctx, vpc(ctx, VPC_WRITE))) },
    { method: "GET", path: "/v1/vpcs/:vid/instances", handler: listVpcMembers },
    { method: "GET", path: "/v1/instances/:iid/vpcs", handler: listInstanceVpcs },
    {
      method: "POST",
      path: "/v1/instances/:iid/vpcs",
      handler: (ctx) => {
        const member = instance(ctx, VPC_WRITE);
        const body = parseWith(AttachVpc, ctx.body);
        return created(attachVpc(ctx, member, loadVpc(ctx, body.vpc, VPC_WRITE)));
      },
    },
    {
      method: "DELETE",
      path: "/v1/instances/:iid/vpcs/:vid",
      handler: (ctx) => {
        const member = instance(ctx, VPC_WRITE);
        return ok(detachVpc(ctx, member, vpc(ctx, VPC_WRITE)));
      },
    },
  ],
  inventory: {
    vpcs: { workspaceOf: (v: VpcRow) => v.workspaceId },
    vpcMembers: {
      // A state file written before members made in an instance's create body carried it has none.
      workspaceOf: (m: VpcMember) => m.workspaceId ?? null,
      label: (m: VpcMember) => m.ip,
    },
  },
};
