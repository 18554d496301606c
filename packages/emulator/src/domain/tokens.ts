/**
 * Tokens' domain (spec part 1, "Tokens", "Account"): the token object, minting (only the sha256
 * of a token's code is stored; the plaintext appears once), login sessions and their
 * revocation, and whose tokens a path names. The account area mints sessions with these.
 */
import { ALL_WRITE_GRANTS, hashSecret, newTokenCode } from "../core/auth";
import { badRequest, conflict, fieldError, forbidden, notFound } from "../core/errors";
import type { RouteContext } from "../core/router";
import { audit, type Services } from "../core/services";
import { pathId } from "../core/validation";
import type { Grants, TokenOrigin, TokenRow, TokenSubject, UserRow, WorkspaceRow } from "../model";
import { userRef } from "./workspaces";

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
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

// ---------------------------------------------------------------------------------------------
// Creating, reading, deleting and refreshing tokens

/** expires: at least 7 and at most 365 days from now, else 400 (part 1, Tokens). */
function checkExpiry(services: Services, expires: string): string {
  const at = Date.parse(expires);
  const now = services.clock.now();
  if (at < now + MIN_EXPIRY_MS - EXPIRY_GRACE_MS || at > now + MAX_EXPIRY_MS + EXPIRY_GRACE_MS) {
    const message = "expires must be between a minimum of 7 days and a maximum of 365 days from now";
    throw badRequest(message, [{ field: "expires", message }]);
  }
  return new Date(at).toISOString();
}

/** A row of another area's table, read without creating the table as a side effect. */
function peekWorkspaceOf(services: Services, table: string, id: string): string | undefined {
  if (!services.store.tableNames().includes(table)) return undefined;
  const row = services.store.table(table).get(id) as { workspaceId?: string } | undefined;
  return row?.workspaceId;
}

/** RESOURCE subject: an INSTANCE, DEDIBOX or APP that belongs to the path workspace (part 1, Tokens). */
function resourceSubject(services: Services, workspaceId: string, id: string): "INSTANCE" | "DEDIBOX" | "APP" {
  const kinds = [
    ["INSTANCE", "instances"],
    ["DEDIBOX", "dediboxes"],
    ["APP", "apps"],
  ] as const;
  for (const [kind, table] of kinds) if (peekWorkspaceOf(services, table, id) === workspaceId) return kind;
  throw fieldError("subject_id", "must be the ID of an INSTANCE, DEDIBOX or APP in this workspace");
}

/** An API token of a user (the route checked the session and whose tokens the path names). */
export function createUserToken(
  ctx: RouteContext,
  user: UserRow,
  body: { name: string; expires: string; grants: Grants },
): { row: TokenRow; code: string } {
  const expires = checkExpiry(ctx.services, body.expires);
  const { row, code } = issueToken(ctx.services, {
    name: body.name,
    origin: "API",
    subject: "USER",
    subjectId: user.id,
    subjectKind: null,
    workspaceId: null,
    grants: body.grants,
    userId: user.id,
    createdById: user.id,
    expires,
  });
  audit(ctx.services, { workspaceId: null, actorId: user.id, action: "token.create", target: { kind: "TOKEN", id: row.id } });
  return { row, code };
}

/** A WORKSPACE token of the path workspace, or a RESOURCE token of one of its instances, dediboxes or apps. */
export function createWorkspaceToken(
  ctx: RouteContext,
  ws: WorkspaceRow,
  body: { name: string; expires: string; grants: Grants; subject?: "WORKSPACE" | "RESOURCE"; subject_id?: string },
): { row: TokenRow; code: string } {
  const expires = checkExpiry(ctx.services, body.expires);
  let subject: { subject: TokenSubject; subjectId: string; subjectKind: TokenRow["subjectKind"] };
  if (body.subject === "RESOURCE") {
    if (body.subject_id === undefined) throw fieldError("subject_id", "is required when subject is RESOURCE");
    subject = { subject: "RESOURCE", subjectId: body.subject_id, subjectKind: resourceSubject(ctx.services, ws.id, body.subject_id) };
  } else {
    // Rule 2: omit subject and subject_id, or send subject WORKSPACE (a subject_id, if any, must be the workspace).
    if (body.subject_id !== undefined && (body.subject === undefined || body.subject_id !== ws.id)) {
      throw fieldError("subject_id", "is only used with subject RESOURCE (a workspace token is bound to the path workspace)");
    }
    subject = { subject: "WORKSPACE", subjectId: ws.id, subjectKind: null };
  }
  const { row, code } = issueToken(ctx.services, {
    name: body.name,
    origin: "API",
    ...subject,
    workspaceId: ws.id,
    grants: body.grants,
    userId: null,
    createdById: ctx.principal.user.id,
    expires,
  });
  audit(ctx.services, {
    workspaceId: ws.id,
    actorId: ctx.principal.user.id,
    action: "token.create",
    target: { kind: "TOKEN", id: row.id },
  });
  return { row, code };
}

/**
 * Loads a token the caller may see (rule 3): USER-subject tokens by their owner; workspace and
 * resource tokens by EDITOR or above on the owning workspace (ADMINISTRATOR to delete, rule 4).
 */
export function loadVisibleToken(ctx: RouteContext, id: string, mode: "read" | "delete"): TokenRow {
  const token = ctx.store.t.tokens.get(id);
  if (!token || isExpired(ctx.services, token)) throw notFound("Token");
  if (token.subject === "USER") {
    if (ctx.principal.token.subject !== "USER" || token.userId !== ctx.principal.user.id) throw notFound("Token");
    return token;
  }
  ctx.access(
    token.workspaceId!,
    mode === "read" ? { role: "EDITOR", grant: ["WORKSPACE", "READ"] } : { role: "ADMINISTRATOR", grant: ["WORKSPACE", "WRITE"] },
  );
  return token;
}

export function deleteToken(ctx: RouteContext, token: TokenRow): void {
  ctx.store.t.tokens.delete(token.id);
  audit(ctx.services, {
    workspaceId: token.workspaceId,
    actorId: ctx.principal.user.id,
    action: "token.delete",
    target: { kind: "TOKEN", id: token.id },
  });
}

/** POST /v1/tokens/refresh: SESSION tokens only, and only in the last 6 hours of their lifetime. */
export function refreshSession(ctx: RouteContext, code: string): { expires: string } {
  const token = ctx.store.t.tokens.find((t) => t.codeHash === hashSecret(code));
  if (!token || isExpired(ctx.services, token) || token.userId !== ctx.principal.user.id) {
    throw fieldError("code", "is not an active session token of the authenticated user");
  }
  if (token.origin !== "SESSION") throw fieldError("code", "only SESSION tokens can be refreshed; API tokens cannot");
  const now = ctx.clock.now();
  const expiresAt = Date.parse(token.expires!);
  if (expiresAt - now > SESSION_REFRESH_WINDOW_MS) {
    throw conflict("A session can only be refreshed within the last 6 hours of its one-day lifetime");
  }
  const expires = ctx.clock.iso(now + SESSION_LIFETIME_MS);
  ctx.store.t.tokens.update(token.id, { expires });
  return { expires };
}
