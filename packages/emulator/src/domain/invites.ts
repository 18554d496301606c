/**
 * Invites' domain (spec part 1, "Invites"): an ADMINISTRATOR invites an email address to a
 * workspace at a role lower than their own; the addressee accepts with the single-use code from
 * the invite mail within seven days and becomes a member. Registration and the account area
 * accept invites through `acceptInvite`.
 */
import { hashSecret, roleRank } from "../core/auth";
import { conflict, forbidden, notFound } from "../core/errors";
import type { RouteContext } from "../core/router";
import { audit, sendMail, type Services } from "../core/services";
import type { Row } from "../core/store";
import type { Role, UserRow, WorkspaceRow } from "../model";
import { userRef, workspaceRef } from "./workspaces";

/** OWNER is never assignable by invite (part 1, Invite). */
export const INVITE_ROLES = ["VIEWER", "EDITOR", "ADMINISTRATOR"] as const;
export type InviteRole = (typeof INVITE_ROLES)[number];

/** Invite lifetime: seven days (part 1, Limits). */
export const INVITE_LIFETIME_MS = 7 * 24 * 3_600_000;

export interface InviteRow extends Row {
  workspaceId: string;
  /** The administrator who created it. */
  creatorId: string;
  /** Lower-cased address the invite is for. */
  email: string;
  role: InviteRole;
  /** sha256 of the single-use code (the plaintext is only in the creation response and the mail). */
  codeHash: string;
  expires: string;
  /** PENDING until accepted; expiry is derived from `expires` and the emulator clock. */
  state: "PENDING" | "ACCEPTED";
  acceptedById: string | null;
  acceptedAt: string | null;
  created: string;
}

declare module "../core/store" {
  interface Tables {
    invites: InviteRow;
  }
}

export type InviteState = "PENDING" | "ACCEPTED" | "EXPIRED";

export function inviteState(services: Services, row: InviteRow): InviteState {
  if (row.state === "ACCEPTED") return "ACCEPTED";
  return Date.parse(row.expires) <= services.clock.now() ? "EXPIRED" : "PENDING";
}

/** Invite object (part 1, Invite) plus `state` and `created` (a "not shown" choice); `code` only where given. */
export function inviteView(services: Services, row: InviteRow, code?: string) {
  const t = services.store.t;
  return {
    id: row.id,
    user: userRef(t.users.get(row.creatorId)),
    target: row.acceptedById,
    email: row.email,
    workspace: workspaceRef(t.workspaces.get(row.workspaceId)),
    expires: row.expires,
    access_level: row.role,
    state: inviteState(services, row),
    created: row.created,
    ...(code !== undefined ? { code } : {}),
  };
}

/** The lookup detail (part 1, GET /v1/invites/lookup): id, user, email, workspace, expires, access_level; never the code. */
export function lookupView(services: Services, row: InviteRow) {
  const { id, user, email, workspace, expires, access_level } = inviteView(services, row);
  return { id, user, email, workspace, expires, access_level };
}

export function findInviteByCode(services: Services, code: string): InviteRow | undefined {
  const hash = hashSecret(code);
  return services.store.t.invites.find((i) => i.codeHash === hash);
}

/**
 * Accepts an invite for `user`: the invite must be pending, unexpired and addressed to the user's
 * email, and the user not yet a member. The user becomes a member with the invite's role, and
 * the email counts as verified (they received the code there).
 */
export function acceptInvite(services: Services, invite: InviteRow, user: UserRow): void {
  const state = inviteState(services, invite);
  if (state === "ACCEPTED") throw conflict("This invite has already been accepted");
  if (state === "EXPIRED") throw conflict("This invite has expired");
  if (invite.email !== user.email.toLowerCase()) throw forbidden("This invite is addressed to another email address");
  const t = services.store.t;
  if (t.memberships.find((m) => m.workspaceId === invite.workspaceId && m.userId === user.id)) {
    throw conflict("You are already a member of this workspace");
  }
  const ws = t.workspaces.get(invite.workspaceId);
  if (ws?.mfaRequired && !user.totp?.active) {
    throw forbidden("This workspace requires two-factor authentication; activate it before accepting the invite");
  }
  t.memberships.insert({
    id: services.store.newId(),
    workspaceId: invite.workspaceId,
    userId: user.id,
    role: invite.role,
    inviteId: invite.id,
  });
  t.invites.update(invite.id, { state: "ACCEPTED", acceptedById: user.id, acceptedAt: services.clock.iso() });
  if (!user.flags.includes("EMAIL_VERIFIED")) t.users.update(user.id, { flags: [...user.flags, "EMAIL_VERIFIED"] });
  audit(services, {
    workspaceId: invite.workspaceId,
    actorId: user.id,
    action: "invite.accept",
    target: { kind: "INVITE", id: invite.id },
  });
}

/** Pending, unexpired invites addressed to an email (GET /v1/users/{uid}/invites). */
export function pendingInvitesFor(services: Services, email: string): InviteRow[] {
  const lower = email.toLowerCase();
  return services.store.t.invites.filter((i) => i.email === lower && inviteState(services, i) === "PENDING");
}

export const inviteListOptions = {
  id: (i: InviteRow) => i.id,
  sortable: { created: (i: InviteRow) => i.created, expires: (i: InviteRow) => i.expires, email: (i: InviteRow) => i.email },
  defaultSort: { field: "created", dir: "desc" as const },
};

// ---------------------------------------------------------------------------------------------
// Changes

/** "A role cannot be assigned by invite at or above the assigner's own level" (part 1, Authentication 5). */
function requireLowerThan(callerRole: Role, role: Role, what: string): void {
  if (roleRank(role) >= roleRank(callerRole)) {
    throw forbidden(`${what} must be lower than your own role (${callerRole})`);
  }
}

export function loadInvite(services: Services, id: string): InviteRow {
  const invite = services.store.t.invites.get(id);
  if (!invite) throw notFound("Invite");
  return invite;
}

/** The invite is addressed to the caller (their own invite). */
export function isOwnInvite(ctx: RouteContext, invite: InviteRow): boolean {
  const me = ctx.principal.user;
  return invite.acceptedById === me.id || invite.email === me.email.toLowerCase();
}

/** Readable by members of its workspace and by the person it is addressed to. */
export function requireReadable(ctx: RouteContext, invite: InviteRow): void {
  if (!(ctx.principal.token.subject === "USER" && isOwnInvite(ctx, invite))) {
    ctx.access(invite.workspaceId, { grant: ["WORKSPACE", "READ"] });
  }
}

/** A new invite (the route checked the caller's role, `callerRole`): the code goes out by mail and in this answer only. */
export function createInvite(
  ctx: RouteContext,
  ws: WorkspaceRow,
  callerRole: Role,
  body: { email: string; access_level: InviteRole },
): { invite: InviteRow; code: string } {
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
  audit(ctx.services, {
    workspaceId: ws.id,
    actorId: ctx.principal.user.id,
    action: "invite.create",
    target: { kind: "INVITE", id: invite.id },
  });
  return { invite, code };
}

/** PATCH access_level (the route checked the caller's role): an accepted invite's membership changes with it. */
export function changeInviteRole(ctx: RouteContext, invite: InviteRow, callerRole: Role, body: { access_level: InviteRole }): InviteRow {
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
  audit(ctx.services, {
    workspaceId: invite.workspaceId,
    actorId: ctx.principal.user.id,
    action: "invite.update",
    target: { kind: "INVITE", id: invite.id },
  });
  return invite;
}

/** DELETE: the accepted member loses access at once; never the last membership record of the workspace. */
export function deleteInvite(ctx: RouteContext, invite: InviteRow, callerRole: Role): void {
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
  audit(ctx.services, {
    workspaceId: invite.workspaceId,
    actorId: ctx.principal.user.id,
    action: "invite.delete",
    target: { kind: "INVITE", id: invite.id },
  });
}
