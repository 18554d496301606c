/**
 * Invites' domain (spec part 1, "Invites"): an ADMINISTRATOR invites an email address to a
 * workspace at a role lower than their own; the addressee accepts with the single-use code from
 * the invite mail within seven days and becomes a member. Registration and the account area
 * accept invites through `acceptInvite`.
 */
import { hashSecret } from "../core/auth";
import { conflict, forbidden } from "../core/errors";
import { audit, type Services } from "../core/services";
import type { Row } from "../core/store";
import type { UserRow } from "../model";
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
  t.memberships.insert({ id: services.store.newId(), workspaceId: invite.workspaceId, userId: user.id, role: invite.role, inviteId: invite.id });
  t.invites.update(invite.id, { state: "ACCEPTED", acceptedById: user.id, acceptedAt: services.clock.iso() });
  if (!user.flags.includes("EMAIL_VERIFIED")) t.users.update(user.id, { flags: [...user.flags, "EMAIL_VERIFIED"] });
  audit(services, { workspaceId: invite.workspaceId, actorId: user.id, action: "invite.accept", target: { kind: "INVITE", id: invite.id } });
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
