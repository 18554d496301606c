/**
 * Workspaces' domain (spec part 1, "Workspaces": list, create, read, update, quota, topology),
 * and the base layer of the part 1 areas
 * (tokens, account, invites, SSH keys, registries): the user and workspace summary shapes,
 * loading a workspace, creating one with its OWNER membership, and the "user token only" check
 * for account-level actions.
 */
import { conflict, forbidden, notFound } from "../core/errors";
import type { RouteContext } from "../core/router";
import { audit, type Services } from "../core/services";
import { pathId } from "../core/validation";
import { DEFAULT_QUOTA, type Role, type UserRow, type WorkspaceRow } from "../model";

/** Embedded user summary (token user/created_by, invite user, SSH key user): a "not shown" choice. */
export function userRef(user: UserRow | undefined): { id: string; name: string } | null {
  return user ? { id: user.id, name: user.name } : null;
}

/** Embedded workspace summary (part 1, Workspace: "summary objects embedded in other resources carry id and name"). */
export function workspaceRef(ws: WorkspaceRow | undefined): { id: string; name: string } | null {
  return ws ? { id: ws.id, name: ws.name } : null;
}

/**
 * Account-level actions (workspaces, invites accepted, tokens of a user, profile changes) act for
 * a person, so they need a USER-subject token; a workspace or resource token is refused.
 */
export function requireUserSubject(ctx: RouteContext): UserRow {
  if (ctx.principal.token.subject !== "USER") {
    throw forbidden("This action needs a user token; workspace and resource tokens cannot act on accounts");
  }
  return ctx.principal.user;
}

/** Loads a workspace by path id; a missing row answers 404 like an invisible one. */
export function loadWorkspaceRow(ctx: RouteContext, param: string | undefined, name = "id"): WorkspaceRow {
  const ws = ctx.store.t.workspaces.get(pathId(param, name));
  if (!ws) throw notFound("Workspace");
  return ws;
}

/** A new workspace owned by `owner`, with the default quota and an OWNER membership. */
export function createWorkspace(services: Services, owner: UserRow, name: string): WorkspaceRow {
  const { store, clock } = services;
  const ws = store.t.workspaces.insert({
    id: store.newId(),
    name,
    ownerId: owner.id,
    flags: [],
    mfaRequired: false,
    disableSshPassword: false,
    privateCloud: false,
    quota: { ...DEFAULT_QUOTA },
    created: clock.iso(),
  });
  store.t.memberships.insert({ id: store.newId(), workspaceId: ws.id, userId: owner.id, role: "OWNER", inviteId: null });
  return ws;
}

// ---------------------------------------------------------------------------------------------
// Views

/** Full workspace object: id, name, owner, flags (spec), plus the PATCH settings and created. */
export function workspaceView(services: Services, ws: WorkspaceRow) {
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
export function topologyView(services: Services, workspaceId: string) {
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
// Reads and changes

/** The workspaces a caller can see, with their role: memberships for user tokens, the one workspace otherwise. */
export function visibleWorkspaces(ctx: RouteContext): Array<{ ws: WorkspaceRow; role: Role }> {
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

/** Who may create a workspace: a USER-subject token with WORKSPACE WRITE (sessions always have it). */
export function workspaceCreator(ctx: RouteContext): UserRow {
  const user = requireUserSubject(ctx);
  const grant = ctx.principal.token.origin === "SESSION" ? "WRITE" : ctx.principal.token.grants.WORKSPACE;
  if (grant !== "WRITE") throw forbidden("Token lacks WRITE permission on WORKSPACE");
  return user;
}

/** POST /v1/workspaces: the creator owns the new workspace. */
export function createOwnWorkspace(ctx: RouteContext, user: UserRow, name: string): WorkspaceRow {
  const ws = createWorkspace(ctx.services, user, name);
  audit(ctx.services, { workspaceId: ws.id, actorId: user.id, action: "workspace.create", target: { kind: "WORKSPACE", id: ws.id } });
  return ws;
}

/** Members who have not activated 2FA; mfa_required is refused while any exist (part 1, Workspaces). */
function membersWithoutMfa(services: Services, workspaceId: string): UserRow[] {
  return services.store.t.memberships
    .filter((m) => m.workspaceId === workspaceId)
    .map((m) => services.store.t.users.get(m.userId))
    .filter((u): u is UserRow => !!u && !u.deactivated && !u.totp?.active);
}

/** PATCH: the role it needs depends on what it changes; mfa_required waits for every member's 2FA. */
export function updateWorkspace(
  ctx: RouteContext,
  ws: WorkspaceRow,
  body: { name?: string; mfa_required?: boolean; disable_ssh_password?: boolean },
): WorkspaceRow {
  // name and mfa_required need OWNER (spec); disable_ssh_password is an ADMINISTRATOR setting (choice).
  const ownerOnly = body.name !== undefined || body.mfa_required !== undefined;
  ctx.access(ws.id, { grant: ["WORKSPACE", "WRITE"], role: ownerOnly ? "OWNER" : "ADMINISTRATOR" });
  if (body.mfa_required === true && !ws.mfaRequired) {
    const missing = membersWithoutMfa(ctx.services, ws.id);
    if (missing.length) {
      throw conflict(
        `mfa_required can only be enabled when every member has two-factor authentication active; ${missing.length} member(s) do not`,
      );
    }
  }
  ctx.store.t.workspaces.update(ws.id, {
    ...(body.name !== undefined ? { name: body.name } : {}),
    ...(body.mfa_required !== undefined ? { mfaRequired: body.mfa_required } : {}),
    ...(body.disable_ssh_password !== undefined ? { disableSshPassword: body.disable_ssh_password } : {}),
  });
  audit(ctx.services, {
    workspaceId: ws.id,
    actorId: ctx.principal.user.id,
    action: "workspace.update",
    target: { kind: "WORKSPACE", id: ws.id },
  });
  return ws;
}
