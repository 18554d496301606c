/**
 * Part 1 Workspaces: list, create, read, update, quota and topology.
 * The shared part 1 helpers (summaries, loading, creating a workspace, the user-token check)
 * are the area's domain (domain/workspaces.ts).
 */
import { z } from "zod";
import type { Domain } from "../core/domain";
import { conflict, forbidden } from "../core/errors";
import { paginate } from "../core/paging";
import { created, ok, type RouteContext } from "../core/router";
import { audit, type Services } from "../core/services";
import { contains, parseWith } from "../core/validation";
import type { Role, UserRow, WorkspaceRow } from "../model";
import { createWorkspace, loadWorkspaceRow, requireUserSubject, userRef } from "../domain/workspaces";

// ---------------------------------------------------------------------------------------------
// Views.

const workspaceName = z.string({ error: "must be a string" }).min(4, "must be 4 to 32 characters").max(32, "must be 4 to 32 characters");

/** Full workspace object: id, name, owner, flags (spec), plus the PATCH settings and created. */
function workspaceView(services: Services, ws: WorkspaceRow) {
  return {
    id: ws.id,
    name: ws.name,
    owner: userRef(services.store.t.users.get(ws.ownerId)),
    flags: ws.flags,
    mfa_required: ws.mfaRequired,
    disable_ssh_password: ws.disableSshPassword,
    created: ws.created,
  };
}

function planRef(services: Services, planId: string | null) {
  const plan = planId ? services.store.t.plans.get(planId) : undefined;
  return plan ? { id: plan.id, name: plan.name } : null;
}

/** Topology (part 1, Workspace topology); element shapes of vpcs/net_balancers are "not shown" choices. */
function topologyView(services: Services, workspaceId: string) {
  const t = services.store.t;
  const vpcMembers = t.vpcMembers.all();
  const lbMembers = t.netLbMembers.all();
  return {
    instances: t.instances
      .filter((i) => i.workspaceId === workspaceId)
      .map((i) => ({ id: i.id, name: i.name, online: i.online, plan: planRef(services, i.planId), state: i.state })),
    ips: t.floatingIps
      .filter((ip) => ip.workspaceId === workspaceId)
      .map((ip) => ({ id: ip.id, instance_id: ip.instanceId, address: ip.address, protected: ip.protected })),
    vpcs: t.vpcs
      .filter((v) => v.workspaceId === workspaceId)
      .map((v) => ({
        id: v.id,
        name: v.name,
        range: v.range,
        vlan: v.vlan,
        members: vpcMembers.filter((m) => m.vpcId === v.id).map((m) => ({ instance_id: m.instanceId, ip: m.ip })),
      })),
    // No dedibox can be created through the API (part 2: dedibox endpoints "not shown").
    dediboxes: [] as unknown[],
    net_balancers: t.netLbs
      .filter((lb) => lb.workspaceId === workspaceId)
      .map((lb) => ({
        id: lb.id,
        name: lb.name,
        address: lb.address,
        members: lbMembers.filter((m) => m.lbId === lb.id).map((m) => ({ instance_id: m.instanceId, state: m.state })),
      })),
  };
}

// ---------------------------------------------------------------------------------------------
// Handlers.

/** The workspaces a caller can see, with their role: memberships for user tokens, the one workspace otherwise. */
function visibleWorkspaces(ctx: RouteContext): Array<{ ws: WorkspaceRow; role: Role }> {
  const { token, user } = ctx.principal;
  const t = ctx.store.t;
  const memberships = t.memberships.filter((m) => m.userId === user.id);
  const out: Array<{ ws: WorkspaceRow; role: Role }> = [];
  for (const m of memberships) {
    if (token.subject !== "USER" && m.workspaceId !== token.workspaceId) continue;
    const ws = t.workspaces.get(m.workspaceId);
    if (ws) out.push({ ws, role: m.role });
  }
  return out;
}

function listWorkspaces(ctx: RouteContext) {
  const rows = visibleWorkspaces(ctx).filter((x) => contains(x.ws.name, ctx.query.name));
  return ok(
    paginate(rows, ctx.query, (x) => ({ id: x.ws.id, name: x.ws.name, access_level: x.role }), {
      id: (x) => x.ws.id,
      sortable: { name: (x) => x.ws.name, created: (x) => x.ws.created },
      defaultSort: { field: "created", dir: "desc" },
    }),
  );
}

function createWorkspaceRoute(ctx: RouteContext) {
  const user = requireUserSubject(ctx);
  const grant = ctx.principal.token.origin === "SESSION" ? "WRITE" : ctx.principal.token.grants.WORKSPACE;
  if (grant !== "WRITE") throw forbidden("Token lacks WRITE permission on WORKSPACE");
  const body = parseWith(z.object({ name: workspaceName }), ctx.body);
  const ws = createWorkspace(ctx.services, user, body.name);
  audit(ctx.services, { workspaceId: ws.id, actorId: user.id, action: "workspace.create", target: { kind: "WORKSPACE", id: ws.id } });
  return created(workspaceView(ctx.services, ws));
}

function getWorkspace(ctx: RouteContext) {
  const ws = loadWorkspaceRow(ctx, ctx.params.wid, "wid");
  ctx.access(ws.id, { grant: ["WORKSPACE", "READ"] });
  return ok(workspaceView(ctx.services, ws));
}

const PatchWorkspace = z.object({
  name: workspaceName.optional(),
  mfa_required: z.boolean({ error: "must be a boolean" }).optional(),
  disable_ssh_password: z.boolean({ error: "must be a boolean" }).optional(),
});

/** Members who have not activated 2FA; mfa_required is refused while any exist (part 1, Workspaces). */
function membersWithoutMfa(services: Services, workspaceId: string): UserRow[] {
  return services.store.t.memberships
    .filter((m) => m.workspaceId === workspaceId)
    .map((m) => services.store.t.users.get(m.userId))
    .filter((u): u is UserRow => !!u && !u.deactivated && !u.totp?.active);
}

function patchWorkspace(ctx: RouteContext) {
  const ws = loadWorkspaceRow(ctx, ctx.params.wid, "wid");
  const body = parseWith(PatchWorkspace, ctx.body);
  // name and mfa_required need OWNER (spec); disable_ssh_password is an ADMINISTRATOR setting (choice).
  const ownerOnly = body.name !== undefined || body.mfa_required !== undefined;
  ctx.access(ws.id, { grant: ["WORKSPACE", "WRITE"], role: ownerOnly ? "OWNER" : "ADMINISTRATOR" });
  if (body.mfa_required === true && !ws.mfaRequired) {
    const missing = membersWithoutMfa(ctx.services, ws.id);
    if (missing.length) {
      throw conflict(`mfa_required can only be enabled when every member has two-factor authentication active; ${missing.length} member(s) do not`);
    }
  }
  ctx.store.t.workspaces.update(ws.id, {
    ...(body.name !== undefined ? { name: body.name } : {}),
    ...(body.mfa_required !== undefined ? { mfaRequired: body.mfa_required } : {}),
    ...(body.disable_ssh_password !== undefined ? { disableSshPassword: body.disable_ssh_password } : {}),
  });
  audit(ctx.services, { workspaceId: ws.id, actorId: ctx.principal.user.id, action: "workspace.update", target: { kind: "WORKSPACE", id: ws.id } });
  return ok(workspaceView(ctx.services, ws));
}

function getQuota(ctx: RouteContext) {
  const ws = loadWorkspaceRow(ctx, ctx.params.wid, "wid");
  ctx.access(ws.id, { grant: ["WORKSPACE", "READ"] });
  return ok({ ...ws.quota });
}

function getTopology(ctx: RouteContext) {
  const ws = loadWorkspaceRow(ctx, ctx.params.wid, "wid");
  ctx.access(ws.id, { grant: ["WORKSPACE", "READ"] });
  return ok(topologyView(ctx.services, ws.id));
}

export const workspacesDomain: Domain = {
  name: "workspaces",
  routes: [
    { method: "GET", path: "/v1/workspaces", handler: listWorkspaces },
    { method: "POST", path: "/v1/workspaces", handler: createWorkspaceRoute },
    { method: "GET", path: "/v1/workspaces/:wid", handler: getWorkspace },
    { method: "PATCH", path: "/v1/workspaces/:wid", handler: patchWorkspace },
    { method: "GET", path: "/v1/workspaces/:wid/quota", handler: getQuota },
    { method: "GET", path: "/v1/workspaces/:wid/topology", handler: getTopology },
  ],
  inventory: {
    workspaces: { workspaceOf: (row: WorkspaceRow) => row.id },
  },
};
