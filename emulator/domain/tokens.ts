/**
 * Tokens' domain (spec part 1, "Tokens", "Account"): the token object, minting (only the sha256
 * of a token's code is stored; the plaintext appears once), login sessions and their
 * revocation, and whose tokens a path names. The account area mints sessions with these.
 */
import { ALL_WRITE_GRANTS, hashSecret, newTokenCode } from "../core/auth";
import { forbidden, notFound } from "../core/errors";
import type { RouteContext } from "../core/router";
import type { Services } from "../core/services";
import { pathId } from "../core/validation";
import type { Grants, TokenOrigin, TokenRow, TokenSubject, UserRow } from "../model";
import { userRef } from "./workspaces";

const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;
/** SESSION tokens live one day and may be refreshed only in their last 6 hours (part 1, Limits). */
export const SESSION_LIFETIME_MS = DAY_MS;
export const SESSION_REFRESH_WINDOW_MS = 6 * HOUR_MS;
/** API token expiry: 7 to 365 days from now (part 1, Tokens create body). */
export const MIN_EXPIRY_MS = 7 * DAY_MS;
export const MAX_EXPIRY_MS = 365 * DAY_MS;
/** Slack on both expiry bounds, so a client that computes "now + 7 days" is not refused for the request's transit time. */
export const EXPIRY_GRACE_MS = 5 * 60_000;

export const ORIGINS = ["SESSION", "API", "SYSTEM", "OAUTH"] as const;
export const SUBJECTS = ["USER", "WORKSPACE", "RESOURCE"] as const;

// ---------------------------------------------------------------------------------------------
// Views.

/** The fields the token object and the creation response share (part 1, Token object). */
function tokenFields(row: TokenRow) {
  return {
    id: row.id,
    name: row.name,
    created: row.created,
    expires: row.expires,
    origin: row.origin,
    subject: row.subject,
    subject_id: row.subjectId,
    workspace_id: row.workspaceId,
    grants: { ...row.grants },
  };
}

/** The token object (part 1, Token object); `user`/`created_by` inner fields are {id, name} (not shown). */
export function tokenView(services: Services, row: TokenRow) {
  const users = services.store.t.users;
  return {
    ...tokenFields(row),
    user: row.subject === "USER" ? userRef(users.get(row.userId)) : null,
    created_by: userRef(users.get(row.createdById)),
    last_ip: row.lastIp,
    last_used: row.lastUsed,
  };
}

/** Token creation response: the token object without user, created_by, last_ip, last_used, plus `code`. */
export function tokenCreationView(row: TokenRow, code: string) {
  return { ...tokenFields(row), code };
}

// ---------------------------------------------------------------------------------------------
// Token bookkeeping shared with the account area.

export interface NewToken {
  name: string;
  origin: TokenOrigin;
  subject: TokenSubject;
  subjectId: string;
  subjectKind: TokenRow["subjectKind"];
  workspaceId: string | null;
  grants: Grants;
  userId: string | null;
  createdById: string;
  expires: string | null;
}

/**
 * Mints a token: stores only the hash of its code and returns the plaintext once.
 * `at` is the creation instant, so a caller that derives `expires` from the same instant gets an exact lifetime.
 */
export function issueToken(services: Services, spec: NewToken, at: number = services.clock.now()): { row: TokenRow; code: string } {
  const code = newTokenCode(services);
  const row = services.store.t.tokens.insert({
    id: services.store.newId(),
    ...spec,
    codeHash: hashSecret(code),
    created: services.clock.iso(at),
    lastIp: null,
    lastUsed: null,
  });
  return { row, code };
}

/** A login session: SESSION origin, one-day lifetime, full USER-scope grants (part 1, Account). */
export function issueSession(services: Services, user: UserRow): { row: TokenRow; code: string } {
  const now = services.clock.now();
  return issueToken(
    services,
    {
      name: "Login session",
      origin: "SESSION",
      subject: "USER",
      subjectId: user.id,
      subjectKind: null,
      workspaceId: null,
      grants: { ...ALL_WRITE_GRANTS },
      userId: user.id,
      createdById: user.id,
      expires: services.clock.iso(now + SESSION_LIFETIME_MS),
    },
    now,
  );
}

/** Revokes every SESSION token of a user (password change, 2FA activation, account deletion, lock); API tokens stay. */
export function revokeSessions(services: Services, userId: string): number {
  const sessions = services.store.t.tokens.filter((t) => t.origin === "SESSION" && t.userId === userId);
  for (const s of sessions) services.store.t.tokens.delete(s.id);
  return sessions.length;
}

export const isExpired = (services: Services, row: TokenRow) => row.expires !== null && Date.parse(row.expires) <= services.clock.now();

/**
 * A path user id: `@me` or the caller's own id (part 1, Tokens: "must be the authenticated
 * user"). Staff may name another user where `allowStaff` is set (reading a profile).
 */
export function resolveUserParam(ctx: RouteContext, param: string | undefined, name = "uid", allowStaff = false): UserRow {
  const me = ctx.principal.user;
  if (param === "@me") return me;
  const id = pathId(param, name);
  if (id === me.id) return me;
  if (allowStaff && ctx.principal.staff) {
    const other = ctx.store.t.users.get(id);
    if (!other) throw notFound("User");
    return other;
  }
  throw forbidden(`${name} must be the authenticated user (or @me)`);
}
