/**
 * Part 1 Account and sign-in, the HTTP side: request schemas, which field set a body sends,
 * whose account a path names, and the route table (login, registration, password reset, email
 * verification and account lock are the lifecycle endpoints: no bearer token, tighter rate
 * limit). The rules and the mailed codes are the area's domain (domain/account.ts).
 */
import { z } from "zod";
import type { Domain } from "../core/domain";
import { badRequest } from "../core/errors";
import { paginate } from "../core/paging";
import { accepted, ok, type Reply, type RouteContext } from "../core/router";
import { parseWith } from "../core/validation";
import type { UserRow } from "../model";
import { resolveUserParam, tokenView } from "../domain/tokens";
import { inviteListOptions, inviteView, pendingInvitesFor } from "../domain/invites";
import { requireUserSubject } from "../domain/workspaces";
import {
  activateTotp,
  changePassword,
  completePasswordReset,
  confirmVerification,
  deleteAccount,
  disableTotp,
  lockAccount,
  login,
  register,
  requestPasswordReset,
  resendVerification,
  startTotp,
  updateProfile,
  userView,
} from "../domain/account";

// ---------------------------------------------------------------------------------------------
// Request bodies.

const userName = z.string({ error: "must be a string" }).min(3, "must be 3 to 32 characters").max(32, "must be 3 to 32 characters");
const email = z.email({ error: "must be an email address" });
const newPassword = z.string({ error: "is required" }).min(8, "must be at least 8 characters");
const requiredString = z.string({ error: "is required" }).min(1, "is required");

const LoginBody = z.object({ email: requiredString, password: requiredString, mfa: z.string({ error: "must be a string" }).optional() });

const RegisterBody = z.object({
  name: userName,
  email,
  password: newPassword,
  coupon: z.string({ error: "must be a string" }).optional(),
  invite_code: z.string({ error: "must be a string" }).optional(),
});

/**
 * Bodies that take "exactly one of" several field sets (reset-password, verify-email): the keys
 * present must be exactly one of the documented sets, else 400 naming the sets.
 */
function pickFieldSet<K extends string>(body: unknown, sets: Record<K, string[]>, describe: string): K {
  const present =
    body && typeof body === "object" ? Object.keys(body as object).filter((k) => (body as Record<string, unknown>)[k] !== undefined) : [];
  const known = new Set(Object.values<string[]>(sets).flat());
  const sent = present.filter((k) => known.has(k)).sort();
  for (const [name, fields] of Object.entries<string[]>(sets)) {
    if (sent.length === fields.length && [...fields].sort().every((f, i) => f === sent[i])) return name as K;
  }
  throw badRequest(`Send exactly one of: ${describe}`, [{ field: "(body)", message: `send exactly one of: ${describe}` }]);
}

/** The account an account-level request acts on: a USER-subject token, and the path user must be the caller. */
function ownAccount(ctx: RouteContext): UserRow {
  requireUserSubject(ctx);
  return resolveUserParam(ctx, ctx.params.uid, "uid");
}

// ---------------------------------------------------------------------------------------------
// Lifecycle endpoints (no bearer token).

function resetPassword(ctx: RouteContext): Reply {
  const step = pickFieldSet(
    ctx.body,
    { request: ["email"], complete: ["code", "password"] },
    "email (step 1), or code and password (step 2)",
  );
  if (step === "request") requestPasswordReset(ctx.services, parseWith(z.object({ email }), ctx.body).email);
  else {
    const body = parseWith(z.object({ code: requiredString, password: newPassword }), ctx.body);
    completePasswordReset(ctx.services, body.code, body.password);
  }
  return accepted();
}

function verifyEmail(ctx: RouteContext): Reply {
  const step = pickFieldSet(ctx.body, { resend: ["email"], confirm: ["code"] }, "email (resend), or code (confirm)");
  if (step === "resend") resendVerification(ctx.services, parseWith(z.object({ email }), ctx.body).email);
  else confirmVerification(ctx.services, parseWith(z.object({ code: requiredString }), ctx.body).code);
  return accepted();
}

function listUserInvites(ctx: RouteContext): Reply {
  requireUserSubject(ctx);
  const user = resolveUserParam(ctx, ctx.params.uid);
  return ok(paginate(pendingInvitesFor(ctx.services, user.email), ctx.query, (i) => inviteView(ctx.services, i), inviteListOptions));
}

/** X-MFA: the current TOTP code, when sent. */
function mfaHeader(ctx: RouteContext): string | undefined {
  const header = ctx.headers["x-mfa"];
  return Array.isArray(header) ? header[0] : header;
}

export const accountDomain: Domain = {
  name: "account",
  routes: [
    {
      method: "POST",
      path: "/v1/login",
      auth: "none",
      lifecycle: true,
      handler: (ctx) => {
        const { row, code } = login(ctx.services, parseWith(LoginBody, ctx.body));
        return ok({ ...tokenView(ctx.services, row), code });
      },
    },
    {
      method: "POST",
      path: "/v1/register",
      auth: "none",
      lifecycle: true,
      handler: (ctx) => {
        register(ctx.services, parseWith(RegisterBody, ctx.body));
        return { status: 201 };
      },
    },
    { method: "POST", path: "/v1/reset-password", auth: "none", lifecycle: true, handler: resetPassword },
    { method: "POST", path: "/v1/verify-email", auth: "none", lifecycle: true, handler: verifyEmail },
    {
      method: "POST",
      path: "/v1/lock-account",
      auth: "none",
      lifecycle: true,
      handler: (ctx) => {
        lockAccount(ctx.services, parseWith(z.object({ code: requiredString }), ctx.body).code);
        return accepted();
      },
    },
    { method: "GET", path: "/v1/users/:uid", handler: (ctx) => ok(userView(resolveUserParam(ctx, ctx.params.uid, "uid", true))) },
    {
      method: "PATCH",
      path: "/v1/users/:uid",
      handler: (ctx) => {
        const user = ownAccount(ctx);
        const body = parseWith(z.object({ name: userName.optional(), email: email.optional() }), ctx.body);
        return ok(userView(updateProfile(ctx.services, user, body)));
      },
    },
    {
      method: "DELETE",
      path: "/v1/users/:uid",
      handler: (ctx) => {
        deleteAccount(ctx.services, ownAccount(ctx));
        return accepted();
      },
    },
    {
      method: "POST",
      path: "/v1/users/:uid/password",
      handler: (ctx) => {
        const user = ownAccount(ctx);
        changePassword(ctx.services, user, parseWith(z.object({ old_password: requiredString, password: newPassword }), ctx.body));
        return accepted();
      },
    },
    { method: "POST", path: "/v1/users/:uid/totp", handler: (ctx) => ok(startTotp(ctx.services, ownAccount(ctx))) },
    {
      method: "PUT",
      path: "/v1/users/:uid/totp",
      handler: (ctx) => {
        const user = ownAccount(ctx);
        activateTotp(ctx.services, user, parseWith(z.object({ code: requiredString }), ctx.body).code);
        return accepted();
      },
    },
    {
      method: "DELETE",
      path: "/v1/users/:uid/totp",
      handler: (ctx) => {
        disableTotp(ctx.services, ownAccount(ctx), mfaHeader(ctx));
        return accepted();
      },
    },
    { method: "GET", path: "/v1/users/:uid/invites", handler: listUserInvites },
  ],
};
