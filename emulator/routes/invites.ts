/**
 * Part 1 Invites: an ADMINISTRATOR invites an email address to a workspace at a role lower than
 * their own; the addressee accepts with the single-use code from the invite mail within seven
 * days and becomes a member; deleting the invite revokes that membership at once. Rows, views
 * and acceptance are the area's domain (domain/invites.ts).
 */
import { z } from "zod";
import type { Domain } from "../core/domain";
import { roleRank } from "../core/auth";
import { conflict, fieldError, forbidden, notFound } from "../core/errors";
import { paginate } from "../core/paging";
import { accepted, created, ok, type RouteContext } from "../core/router";
import { audit, sendMail } from "../core/services";
import { contains, parseWith, pathId, queryEnum, queryIds } from "../core/validation";
import { hashSecret } from "../core/auth";
import type { Role } from "../model";
import { loadWorkspaceRow, requireUserSubject } from "../domain/workspaces";
import { INVITE_ROLES, INVITE_LIFETIME_MS, type InviteRow, inviteView, inviteListOptions, inviteState, findInviteByCode, acceptInvite, lookupView } from "../domain/invites";

// ---------------------------------------------------------------------------------------------
// Request bodies and rules.

const accessLevel = z.enum(INVITE_ROLES, { error: "must be VIEWER, EDITOR or ADMINISTRATOR (OWNER is never assignable by invite)" });

const CreateInvite = z.object({
  email: z.email({ error: "must be an email address" }),
  access_level: accessLevel,
});

/** "A role cannot be assigned by invite at or above the assigner's own level" (part 1, Authentication 5). */
function requireLowerThan(callerRole: Role, role: Role, what: string): void {
  if (roleRank(role) >= roleRank(callerRole)) {
    throw forbidden(`${what} must be lower than your own role (${callerRole})`);
  }
}

function loadInvite(ctx: RouteContext): InviteRow {
  const invite = ctx.store.t.invites.get(pathId(ctx.params.id, "id"));
  if (!invite) throw notFound("Invite");
  return invite;
}

/** The invite is addressed to the caller (their own invite). */
function isOwnInvite(ctx: RouteContext, invite: InviteRow): boolean {
  const me = ctx.principal.user;
  return invite.acceptedById === me.id || invite.email === me.email.toLowerCase();
}

// ---------------------------------------------------------------------------------------------
// Handlers.

function listWorkspaceInvites(ctx: RouteContext) {
  const ws = loadWorkspaceRow(ctx, ctx.params.wid, "wid");
  ctx.access(ws.id, { grant: ["WORKSPACE", "READ"] });
  const q = ctx.query;
  const ids = queryIds(q.id, "id");
  const creators = queryIds(q.user, "user");
  const targets = queryIds(q.target, "target");
  const level = queryEnum(q.access_level, "access_level", INVITE_ROLES);
  const rows = ctx.store.t.invites.filter(
    (i) =>
      i.workspaceId === ws.id &&
      (ids.length === 0 || ids.includes(i.id)) &&
      (creators.length === 0 || creators.includes(i.creatorId)) &&
      (targets.length === 0 || (i.acceptedById !== null && targets.includes(i.acceptedById))) &&
      contains(i.email, q.email) &&
      (!level || i.role === level),
  );
  return ok(paginate(rows, q, (i) => inviteView(ctx.services, i), inviteListOptions));
}

function createInvite(ctx: RouteContext) {
  const ws = loadWorkspaceRow(ctx, ctx.params.wid, "wid");
  const callerRole = ctx.access(ws.id, { role: "ADMINISTRATOR", grant: ["WORKSPACE", "WRITE"] });
  const body = parseWith(CreateInvite, ctx.body);
  requireLowerThan(callerRole, body.access_level, "access_level");
  const email = body.email.toLowerCase();
  const t = ctx.store.t;
  const member = t.memberships.find((m) => m.workspaceId === ws.id && t.users.get(m.userId)?.email.toLowerCase() === email);
  if (member) throw conflict(`${email} is already a member of this workspace`);
  if (t.invites.find((i) => i.workspaceId === ws.id && i.email === email && inviteState(ctx.services, i) === "PENDING")) {
    throw conflict(`A pending invite for ${email} already exists in this workspace`);
  }
  const code = ctx.store.rng.alnum(32);
  const now = ctx.clock.now(); // one instant for created and expires, so the lifetime is exact
  const invite = t.invites.insert({
    id: ctx.store.newId(),
    workspaceId: ws.id,
    creatorId: ctx.principal.user.id,
    email,
    role: body.access_level,
    codeHash: hashSecret(code),
    expires: ctx.clock.iso(now + INVITE_LIFETIME_MS),
    state: "PENDING",
    acceptedById: null,
    acceptedAt: null,
    created: ctx.clock.iso(now),
  });
  sendMail(ctx.services, email, "INVITE", code);
  audit(ctx.services, { workspaceId: ws.id, actorId: ctx.principal.user.id, action: "invite.create", target: { kind: "INVITE", id: invite.id } });
  return created(inviteView(ctx.services, invite, code));
}

/** GET /v1/invites/lookup?code=: no authentication; 404 once accepted or expired; never the code. */
function lookupInvite(ctx: RouteContext) {
  const code = ctx.query.code;
  if (typeof code !== "string" || code === "") throw fieldError("code", "is required");
  const invite = findInviteByCode(ctx.services, code);
  if (!invite || inviteState(ctx.services, invite) !== "PENDING") throw notFound("Invite");
  return ok(lookupView(ctx.services, invite));
}

function acceptInviteRoute(ctx: RouteContext) {
  const user = requireUserSubject(ctx);
  const body = parseWith(z.object({ code: z.string({ error: "is required" }).min(1, "is required") }), ctx.body);
  const invite = findInviteByCode(ctx.services, body.code);
  if (!invite) throw notFound("Invite");
  acceptInvite(ctx.services, invite, user);
  return ok(inviteView(ctx.services, invite));
}

/** Readable by members of its workspace and by the person it is addressed to. */
function getInvite(ctx: RouteContext) {
  const invite = loadInvite(ctx);
  if (!(ctx.principal.token.subject === "USER" && isOwnInvite(ctx, invite))) {
    ctx.access(invite.workspaceId, { grant: ["WORKSPACE", "READ"] });
  }
  return ok(inviteView(ctx.services, invite));
}

function patchInvite(ctx: RouteContext) {
  const invite = loadInvite(ctx);
  const callerRole = ctx.access(invite.workspaceId, { role: "ADMINISTRATOR", grant: ["WORKSPACE", "WRITE"] });
  const body = parseWith(z.object({ access_level: accessLevel }), ctx.body);
  if (isOwnInvite(ctx, invite)) throw forbidden("You cannot edit your own invite");
  requireLowerThan(callerRole, body.access_level, "access_level");
  // Choice: an invite already at or above the caller's level is not theirs to change either.
  requireLowerThan(callerRole, invite.role, "The invite's current access_level");
  if (inviteState(ctx.services, invite) === "EXPIRED") throw conflict("This invite has expired");
  const t = ctx.store.t;
  t.invites.update(invite.id, { role: body.access_level });
  // An accepted invite carries the member's role: the change applies to the membership at once.
  const membership = t.memberships.find((m) => m.inviteId === invite.id);
  if (membership) t.memberships.update(membership.id, { role: body.access_level });
  audit(ctx.services, { workspaceId: invite.workspaceId, actorId: ctx.principal.user.id, action: "invite.update", target: { kind: "INVITE", id: invite.id } });
  return ok(inviteView(ctx.services, invite));
}

/** DELETE: the accepted member loses access at once; never the last membership record of the workspace. */
function deleteInvite(ctx: RouteContext) {
  const invite = loadInvite(ctx);
  const callerRole = ctx.access(invite.workspaceId, { role: "ADMINISTRATOR", grant: ["WORKSPACE", "WRITE"] });
  // Choice: removing a member at or above your own level is refused, except leaving through your own invite.
  if (!isOwnInvite(ctx, invite)) requireLowerThan(callerRole, invite.role, "The invite's access_level");
  const t = ctx.store.t;
  const membership = t.memberships.find((m) => m.inviteId === invite.id);
  if (membership) {
    const members = t.memberships.count((m) => m.workspaceId === invite.workspaceId);
    if (members <= 1) throw conflict("This invite holds the last membership record of the workspace and cannot be deleted");
    t.memberships.delete(membership.id);
  }
  t.invites.delete(invite.id);
  audit(ctx.services, { workspaceId: invite.workspaceId, actorId: ctx.principal.user.id, action: "invite.delete", target: { kind: "INVITE", id: invite.id } });
  return accepted();
}

export const invitesDomain: Domain = {
  name: "invites",
  routes: [
    { method: "GET", path: "/v1/workspaces/:wid/invites", handler: listWorkspaceInvites },
    { method: "POST", path: "/v1/workspaces/:wid/invites", handler: createInvite },
    { method: "GET", path: "/v1/invites/lookup", auth: "none", handler: lookupInvite },
    { method: "POST", path: "/v1/invites", handler: acceptInviteRoute },
    { method: "GET", path: "/v1/invites/:id", handler: getInvite },
    { method: "PATCH", path: "/v1/invites/:id", handler: patchInvite },
    { method: "DELETE", path: "/v1/invites/:id", handler: deleteInvite },
  ],
  inventory: {
    invites: { workspaceOf: (row: InviteRow) => row.workspaceId, label: (row: InviteRow) => row.email },
  },
};
