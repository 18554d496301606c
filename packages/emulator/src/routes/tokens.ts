/**
 * Part 1 Tokens, the HTTP side: request schemas, lists and the route table (user-scope and
 * workspace-scope API tokens, session refresh and revocation). The token object, minting,
 * expiry bounds, subjects and sessions are the area's domain (domain/tokens.ts).
 */
import { z } from "zod";
import type { Domain } from "../core/domain";
import { requireSession } from "../core/auth";
import { accepted, created, ok, type RouteContext } from "../core/router";
import { paginate } from "../core/paging";
import { contains, parseWith, pathId, queryEnum, queryIds, zId } from "../core/validation";
import { GRANT_KINDS, type GrantKind, type Grants, type TokenRow } from "../model";
import { loadWorkspaceRow, requireUserSubject } from "../domain/workspaces";
import {
  createUserToken,
  createWorkspaceToken,
  deleteToken,
  isExpired,
  loadVisibleToken,
  refreshSession,
  resolveUserParam,
  revokeSessions,
  tokenCreationView,
  tokenView,
  ORIGINS,
  SUBJECTS,
} from "../domain/tokens";

// ---------------------------------------------------------------------------------------------
// Request bodies.

const LEVELS = ["NONE", "READ", "WRITE"] as const;

/** Grants map (part 1): keys are resource kinds, values NONE/READ/WRITE; NONE is dropped; may not be empty. */
const GrantsInput = z
  .record(z.string(), z.enum(LEVELS, { error: "must be NONE, READ or WRITE" }), {
    error: "must be an object of resource kind to NONE, READ or WRITE",
  })
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

// ---------------------------------------------------------------------------------------------
// Handlers.

function createUserTokenRoute(ctx: RouteContext, uidParam: string) {
  requireSession(ctx.principal);
  const user = resolveUserParam(ctx, uidParam);
  const { row, code } = createUserToken(ctx, user, parseWith(CreateUserToken, ctx.body));
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
  const rows = ctx.store.t.tokens.filter(
    (t) => t.subject === "USER" && t.userId === user.id && (t.origin === "SESSION" || t.origin === "API"),
  );
  return listTokens(ctx, rows);
}

function listWorkspaceTokens(ctx: RouteContext) {
  const ws = loadWorkspaceRow(ctx, ctx.params.wid, "wid");
  ctx.access(ws.id, { role: "EDITOR", grant: ["WORKSPACE", "READ"] });
  return listTokens(
    ctx,
    ctx.store.t.tokens.filter((t) => t.subject !== "USER" && t.workspaceId === ws.id),
  );
}

function revokeUserSessions(ctx: RouteContext) {
  requireUserSubject(ctx);
  const user = resolveUserParam(ctx, ctx.params.uid);
  revokeSessions(ctx.services, user.id);
  return accepted();
}

export const tokensDomain: Domain = {
  name: "tokens",
  routes: [
    { method: "POST", path: "/v1/tokens", handler: (ctx) => createUserTokenRoute(ctx, "@me") },
    {
      method: "POST",
      path: "/v1/tokens/refresh",
      handler: (ctx) =>
        ok(refreshSession(ctx, parseWith(z.object({ code: z.string({ error: "is required" }).min(1, "is required") }), ctx.body).code)),
    },
    {
      method: "GET",
      path: "/v1/tokens/:id",
      handler: (ctx) => ok(tokenView(ctx.services, loadVisibleToken(ctx, pathId(ctx.params.id, "id"), "read"))),
    },
    {
      method: "DELETE",
      path: "/v1/tokens/:id",
      handler: (ctx) => {
        deleteToken(ctx, loadVisibleToken(ctx, pathId(ctx.params.id, "id"), "delete"));
        return accepted();
      },
    },
    { method: "POST", path: "/v1/users/:uid/tokens", handler: (ctx) => createUserTokenRoute(ctx, ctx.params.uid) },
    { method: "GET", path: "/v1/users/:uid/tokens", handler: listUserTokens },
    { method: "DELETE", path: "/v1/users/:uid/tokens", handler: revokeUserSessions },
    { method: "GET", path: "/v1/workspaces/:wid/tokens", handler: listWorkspaceTokens },
    {
      method: "POST",
      path: "/v1/workspaces/:wid/tokens",
      handler: (ctx) => {
        const ws = loadWorkspaceRow(ctx, ctx.params.wid, "wid");
        ctx.access(ws.id, { role: "ADMINISTRATOR", grant: ["WORKSPACE", "WRITE"] });
        const { row, code } = createWorkspaceToken(ctx, ws, parseWith(CreateWorkspaceToken, ctx.body));
        return created(tokenCreationView(row, code));
      },
    },
  ],
  inventory: {
    tokens: { workspaceOf: (row: TokenRow) => row.workspaceId },
  },
};
