/**
 * Part 1 Tokens: user-scope and workspace-scope API tokens, the token object, session refresh
 * and revocation. Only the sha256 of a token's code is stored; the plaintext appears once, in
 * the creation (or login) response. The token object, minting and sessions are the area's
 * domain (domain/tokens.ts).
 */
import { z } from "zod";
import type { Domain } from "../core/domain";
import { hashSecret, requireSession } from "../core/auth";
import { badRequest, conflict, fieldError, notFound } from "../core/errors";
import { paginate } from "../core/paging";
import { accepted, created, ok, type RouteContext } from "../core/router";
import { audit, type Services } from "../core/services";
import { contains, parseWith, pathId, queryEnum, queryIds, zId } from "../core/validation";
import { GRANT_KINDS, type GrantKind, type Grants, type TokenRow, type TokenSubject } from "../model";
import { loadWorkspaceRow, requireUserSubject } from "../domain/workspaces";
import {
  isExpired,
  issueToken,
  resolveUserParam,
  revokeSessions,
  tokenCreationView,
  tokenView,
  EXPIRY_GRACE_MS,
  MAX_EXPIRY_MS,
  MIN_EXPIRY_MS,
  ORIGINS,
  SESSION_LIFETIME_MS,
  SESSION_REFRESH_WINDOW_MS,
  SUBJECTS,
} from "../domain/tokens";

// ---------------------------------------------------------------------------------------------
// Request bodies.

const LEVELS = ["NONE", "READ", "WRITE"] as const;

/** Grants map (part 1): keys are resource kinds, values NONE/READ/WRITE; NONE is dropped; may not be empty. */
const GrantsInput = z
  .record(z.string(), z.enum(LEVELS, { error: "must be NONE, READ or WRITE" }), { error: "must be an object of resource kind to NONE, READ or WRITE" })
  .superRefine((map, issue) => {
    for (const key of Object.keys(map)) {
      if (!(GRANT_KINDS as readonly string[]).includes(key)) {
        issue.addIssue({ code: "custom", path: [key], message: `unknown resource kind; allowed: ${GRANT_KINDS.join(", ")}` });
      }
    }
  })
  .transform((map): Grants => {
    const out: Grants = {};
    for (const [k, v] of Object.entries(map)) if (v !== "NONE") out[k as GrantKind] = v;
    return out;
  })
  .refine((grants) => Object.keys(grants).length > 0, { message: "may not be empty (kinds set to NONE are dropped)" });

const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

const CreateBase = {
  name: z.string({ error: "must be a string" }).min(4, "must be 4 to 48 characters").max(48, "must be 4 to 48 characters"),
  expires: z
    .string({ error: "must be an ISO 8601 timestamp" })
    .refine((s) => ISO_TIMESTAMP.test(s) && !Number.isNaN(Date.parse(s)), { message: "must be an ISO 8601 timestamp" }),
  grants: GrantsInput,
};

const CreateUserToken = z.object({
  ...CreateBase,
  subject: z.undefined({ error: "subject is only accepted by the workspace token endpoint" }).optional(),
  subject_id: z.undefined({ error: "subject_id is only accepted by the workspace token endpoint" }).optional(),
});

const CreateWorkspaceToken = z.object({
  ...CreateBase,
  subject: z.enum(["WORKSPACE", "RESOURCE"], { error: "must be WORKSPACE or RESOURCE" }).optional(),
  subject_id: zId.optional(),
});

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

// ---------------------------------------------------------------------------------------------
// Handlers.

function createUserToken(ctx: RouteContext, uidParam: string) {
  requireSession(ctx.principal);
  const user = resolveUserParam(ctx, uidParam);
  const body = parseWith(CreateUserToken, ctx.body);
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
  return created(tokenCreationView(row, code));
}

function createWorkspaceToken(ctx: RouteContext) {
  const ws = loadWorkspaceRow(ctx, ctx.params.wid, "wid");
  ctx.access(ws.id, { role: "ADMINISTRATOR", grant: ["WORKSPACE", "WRITE"] });
  const body = parseWith(CreateWorkspaceToken, ctx.body);
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
  audit(ctx.services, { workspaceId: ws.id, actorId: ctx.principal.user.id, action: "token.create", target: { kind: "TOKEN", id: row.id } });
  return created(tokenCreationView(row, code));
}

/** Shared list filters: q (name or ID), id, name, origin, subject (part 1, Tokens). */
function listTokens(ctx: RouteContext, rows: TokenRow[]) {
  const q = ctx.query;
  const ids = queryIds(q.id, "id");
  const origin = queryEnum(q.origin, "origin", ORIGINS);
  const subject = queryEnum(q.subject, "subject", SUBJECTS);
  const filtered = rows.filter(
    (t) =>
      !isExpired(ctx.services, t) &&
      (ids.length === 0 || ids.includes(t.id)) &&
      contains(t.name, q.name) &&
      (!origin || t.origin === origin) &&
      (!subject || t.subject === subject) &&
      (q.q === undefined || q.q === "" || contains(t.name, q.q) || t.id === String(q.q)),
  );
  return ok(
    paginate(filtered, q, (t) => tokenView(ctx.services, t), {
      id: (t) => t.id,
      sortable: { name: (t) => t.name, created: (t) => t.created, expires: (t) => t.expires, last_used: (t) => t.lastUsed },
      defaultSort: { field: "created", dir: "desc" },
    }),
  );
}

function listUserTokens(ctx: RouteContext) {
  requireUserSubject(ctx);
  const user = resolveUserParam(ctx, ctx.params.uid);
  // The user's list: their SESSION and API origin tokens (part 1, Tokens).
  const rows = ctx.store.t.tokens.filter((t) => t.subject === "USER" && t.userId === user.id && (t.origin === "SESSION" || t.origin === "API"));
  return listTokens(ctx, rows);
}

function listWorkspaceTokens(ctx: RouteContext) {
  const ws = loadWorkspaceRow(ctx, ctx.params.wid, "wid");
  ctx.access(ws.id, { role: "EDITOR", grant: ["WORKSPACE", "READ"] });
  return listTokens(ctx, ctx.store.t.tokens.filter((t) => t.subject !== "USER" && t.workspaceId === ws.id));
}

/**
 * Loads a token the caller may see (rule 3): USER-subject tokens by their owner; workspace and
 * resource tokens by EDITOR or above on the owning workspace (ADMINISTRATOR to delete, rule 4).
 */
function loadVisibleToken(ctx: RouteContext, mode: "read" | "delete"): TokenRow {
  const token = ctx.store.t.tokens.get(pathId(ctx.params.id, "id"));
  if (!token || isExpired(ctx.services, token)) throw notFound("Token");
  if (token.subject === "USER") {
    if (ctx.principal.token.subject !== "USER" || token.userId !== ctx.principal.user.id) throw notFound("Token");
    return token;
  }
  ctx.access(token.workspaceId!, mode === "read" ? { role: "EDITOR", grant: ["WORKSPACE", "READ"] } : { role: "ADMINISTRATOR", grant: ["WORKSPACE", "WRITE"] });
  return token;
}

function getToken(ctx: RouteContext) {
  return ok(tokenView(ctx.services, loadVisibleToken(ctx, "read")));
}

function deleteToken(ctx: RouteContext) {
  const token = loadVisibleToken(ctx, "delete");
  ctx.store.t.tokens.delete(token.id);
  audit(ctx.services, { workspaceId: token.workspaceId, actorId: ctx.principal.user.id, action: "token.delete", target: { kind: "TOKEN", id: token.id } });
  return accepted();
}

function revokeUserSessions(ctx: RouteContext) {
  requireUserSubject(ctx);
  const user = resolveUserParam(ctx, ctx.params.uid);
  revokeSessions(ctx.services, user.id);
  return accepted();
}

/** POST /v1/tokens/refresh: SESSION tokens only, and only in the last 6 hours of their lifetime. */
function refreshSession(ctx: RouteContext) {
  const body = parseWith(z.object({ code: z.string({ error: "is required" }).min(1, "is required") }), ctx.body);
  const token = ctx.store.t.tokens.find((t) => t.codeHash === hashSecret(body.code));
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
  return ok({ expires });
}

export const tokensDomain: Domain = {
  name: "tokens",
  routes: [
    { method: "POST", path: "/v1/tokens", handler: (ctx) => createUserToken(ctx, "@me") },
    { method: "POST", path: "/v1/tokens/refresh", handler: refreshSession },
    { method: "GET", path: "/v1/tokens/:id", handler: getToken },
    { method: "DELETE", path: "/v1/tokens/:id", handler: deleteToken },
    { method: "POST", path: "/v1/users/:uid/tokens", handler: (ctx) => createUserToken(ctx, ctx.params.uid) },
    { method: "GET", path: "/v1/users/:uid/tokens", handler: listUserTokens },
    { method: "DELETE", path: "/v1/users/:uid/tokens", handler: revokeUserSessions },
    { method: "GET", path: "/v1/workspaces/:wid/tokens", handler: listWorkspaceTokens },
    { method: "POST", path: "/v1/workspaces/:wid/tokens", handler: createWorkspaceToken },
  ],
  inventory: {
    tokens: { workspaceOf: (row: TokenRow) => row.workspaceId },
  },
};
