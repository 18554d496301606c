/**
 * Part 1 Account and sign-in: login, registration, password reset, email verification, account
 * lock (the lifecycle endpoints, no bearer token, tighter rate limit), the user profile,
 * password change, TOTP two-factor authentication and the invites addressed to a user.
 *
 * Mail carries single-use codes (GET /_emulator/mail shows them); only their sha256 is kept, in
 * `accountCodes`, with the purpose they serve.
 */
import { z } from "zod";
import type { Domain } from "../core/domain";
import { redeemCoupon } from "../domain/coupons";
import { hashSecret } from "../core/auth";
import { ApiError, badRequest, conflict, fieldError, unauthorized, forbidden } from "../core/errors";
import { paginate } from "../core/paging";
import { accepted, ok, type Reply, type RouteContext } from "../core/router";
import { audit, sendMail, type Services } from "../core/services";
import type { Row } from "../core/store";
import { newTotpSecret, otpauthUri, verifyTotp } from "../core/totp";
import { parseWith } from "../core/validation";
import type { MailKind, UserRow } from "../model";
import { issueSession, resolveUserParam, revokeSessions, tokenView } from "../domain/tokens";
import { acceptInvite, findInviteByCode, inviteListOptions, inviteView, pendingInvitesFor } from "../domain/invites";
import { createWorkspace, requireUserSubject } from "../domain/workspaces";

const HOUR_MS = 3_600_000;
/** Name of the workspace registration creates (a "not shown" choice; 4 to 32 characters). */
const DEFAULT_WORKSPACE_NAME = "Default Workspace";
const DAY_MS = 24 * HOUR_MS;

/** What an emailed code is for, how long it stays valid, and the mail that carries it (lifetimes are choices). */
const CODE_PURPOSES = {
  VERIFY_EMAIL: { lifetimeMs: 7 * DAY_MS, mail: "VERIFY_EMAIL", singleUse: true },
  RESET_PASSWORD: { lifetimeMs: DAY_MS, mail: "RESET_PASSWORD", singleUse: true },
  /** Sent to an existing address on registration (part 1, Account rule 1): a password-reset code. */
  ACCOUNT_EXISTS: { lifetimeMs: DAY_MS, mail: "ACCOUNT_EXISTS", singleUse: true },
  /** Login notification: the code locks the account; lock-account is idempotent, so it is reusable. */
  LOCK_ACCOUNT: { lifetimeMs: 7 * DAY_MS, mail: "LOGIN_NOTIFICATION", singleUse: false },
  CONFIRM_EMAIL_CHANGE: { lifetimeMs: DAY_MS, mail: "CONFIRM_EMAIL_CHANGE", singleUse: true },
} as const satisfies Record<string, { lifetimeMs: number; mail: MailKind; singleUse: boolean }>;
type CodePurpose = keyof typeof CODE_PURPOSES;

interface AccountCodeRow extends Row {
  purpose: CodePurpose;
  codeHash: string;
  userId: string;
  /** The address the mail went to (for an email change: the new address). */
  email: string;
  expiresAt: number;
  used: boolean;
}

declare module "../core/store" {
  interface Tables {
    accountCodes: AccountCodeRow;
  }
}

/** Mails a fresh code for `purpose` to `email`; only its hash is kept. */
function mailCode(services: Services, purpose: CodePurpose, user: UserRow, email: string): void {
  const code = services.store.rng.alnum(32);
  const { lifetimeMs, mail } = CODE_PURPOSES[purpose];
  services.store.t.accountCodes.insert({
    id: services.store.newId(),
    purpose,
    codeHash: hashSecret(code),
    userId: user.id,
    email: email.toLowerCase(),
    expiresAt: services.clock.now() + lifetimeMs,
    used: false,
  });
  sendMail(services, email, mail, code);
}

/** A valid (unexpired, unused) code for one of `purposes`, with its user; else undefined. */
function findCode(services: Services, purposes: CodePurpose[], code: string): { row: AccountCodeRow; user: UserRow } | undefined {
  const hash = hashSecret(code);
  const now = services.clock.now();
  const row = services.store.t.accountCodes.find((c) => c.codeHash === hash && purposes.includes(c.purpose) && !c.used && c.expiresAt > now);
  const user = row && services.store.t.users.get(row.userId);
  return row && user && !user.deactivated ? { row, user } : undefined;
}

/** Marks a single-use code used, once the action it authorises has succeeded. */
function consumeCode(services: Services, row: AccountCodeRow): void {
  if (CODE_PURPOSES[row.purpose].singleUse) services.store.t.accountCodes.update(row.id, { used: true });
}

function findUserByEmail(services: Services, email: string): UserRow | undefined {
  const lower = email.toLowerCase();
  return services.store.t.users.find((u) => u.email.toLowerCase() === lower);
}

const addFlag = (flags: string[], flag: string) => (flags.includes(flag) ? flags : [...flags, flag]);

/** User object (part 1, User): id, name, email, flags, plus pending_email, mfa_enabled and created (a "not shown" choice). */
export function userView(user: UserRow) {
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    flags: user.flags,
    pending_email: user.pendingEmail,
    mfa_enabled: !!user.totp?.active,
    created: user.created,
  };
}

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
  const present = body && typeof body === "object" ? Object.keys(body as object).filter((k) => (body as Record<string, unknown>)[k] !== undefined) : [];
  const known = new Set(Object.values<string[]>(sets).flat());
  const sent = present.filter((k) => known.has(k)).sort();
  for (const [name, fields] of Object.entries<string[]>(sets)) {
    if (sent.length === fields.length && [...fields].sort().every((f, i) => f === sent[i])) return name as K;
  }
  throw badRequest(`Send exactly one of: ${describe}`, [{ field: "(body)", message: `send exactly one of: ${describe}` }]);
}

// ---------------------------------------------------------------------------------------------
// Lifecycle endpoints (no bearer token).

function checkMfa(services: Services, user: UserRow, mfa: string | undefined): void {
  if (!user.totp?.active) return;
  if (!mfa) throw fieldError("mfa", "is required: two-factor authentication is on for this account");
  // The emergency reset token signs in once and turns 2FA off (part 1, POST /v1/login).
  if (hashSecret(mfa) === user.totp.reset) {
    services.store.t.users.update(user.id, { totp: null });
    return;
  }
  if (!verifyTotp(user.totp.secret, mfa, services.clock.now())) throw unauthorized("Invalid two-factor code");
}

function login(ctx: RouteContext): Reply {
  const body = parseWith(LoginBody, ctx.body);
  const user = findUserByEmail(ctx.services, body.email);
  if (!user || user.deactivated || user.passwordHash !== hashSecret(body.password)) throw unauthorized("Invalid email or password");
  if (user.locked) throw forbidden("This account is locked");
  checkMfa(ctx.services, user, body.mfa);
  const { row, code } = issueSession(ctx.services, user);
  mailCode(ctx.services, "LOCK_ACCOUNT", user, user.email);
  return ok({ ...tokenView(ctx.services, row), code });
}

/** Registration onboarding (part 1, Account rule 4): verification mail, a default workspace, optional coupon and invite. */
function register(ctx: RouteContext): Reply {
  const body = parseWith(RegisterBody, ctx.body);
  const existing = findUserByEmail(ctx.services, body.email);
  if (existing) {
    // Rule 1: existence is not revealed; the address gets a password-reset mail instead.
    mailCode(ctx.services, "ACCOUNT_EXISTS", existing, existing.email);
    return { status: 201 };
  }
  const { store, clock } = ctx.services;
  const user = store.t.users.insert({
    id: store.newId(),
    name: body.name,
    email: body.email.toLowerCase(),
    passwordHash: hashSecret(body.password),
    flags: [],
    staff: false,
    locked: false,
    deactivated: false,
    totp: null,
    pendingEmail: null,
    created: clock.iso(),
  });
  const ws = createWorkspace(ctx.services, user, DEFAULT_WORKSPACE_NAME);
  audit(ctx.services, { workspaceId: ws.id, actorId: user.id, action: "account.register", target: { kind: "USER", id: user.id } });
  // An invite addressed to this email is accepted and proves the address; anything else about it is ignored.
  const invite = body.invite_code ? findInviteByCode(ctx.services, body.invite_code) : undefined;
  let acceptedInvite = false;
  if (invite && invite.email === user.email) {
    try {
      acceptInvite(ctx.services, invite, user);
      acceptedInvite = true;
    } catch {
      // An expired or used invite does not block registration.
    }
  }
  if (!acceptedInvite) mailCode(ctx.services, "VERIFY_EMAIL", user, user.email);
  redeemRegistrationCoupon(ctx.services, user, ws.id, body.coupon);
  return { status: 201 };
}

/**
 * Coupon at registration (part 1, Account rule 4: "optional coupon redemption"): redeemed as
 * POST /v1/coupons/redeem would (credit and workspace flags). A code that cannot be redeemed
 * never fails the registration; it is recorded in the audit log instead.
 */
function redeemRegistrationCoupon(services: Services, user: UserRow, workspaceId: string, code: string | undefined): void {
  if (!code) return;
  try {
    redeemCoupon(services, user.id, code);
    audit(services, { workspaceId, actorId: user.id, action: "account.register.coupon", target: null });
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    audit(services, { workspaceId, actorId: user.id, action: `account.register.coupon-refused: ${err.message}`, target: null });
  }
}

function resetPassword(ctx: RouteContext): Reply {
  const step = pickFieldSet(ctx.body, { request: ["email"], complete: ["code", "password"] }, "email (step 1), or code and password (step 2)");
  if (step === "request") {
    const body = parseWith(z.object({ email }), ctx.body);
    const user = findUserByEmail(ctx.services, body.email);
    if (user && !user.deactivated) mailCode(ctx.services, "RESET_PASSWORD", user, user.email);
    return accepted();
  }
  const body = parseWith(z.object({ code: requiredString, password: newPassword }), ctx.body);
  const found = findCode(ctx.services, ["RESET_PASSWORD", "ACCOUNT_EXISTS"], body.code);
  if (!found) throw fieldError("code", "is not a valid password reset code");
  const { user } = found;
  consumeCode(ctx.services, found.row);
  // A completed reset proves control of the mailbox: it also unlocks a locked account (choice).
  ctx.store.t.users.update(user.id, { passwordHash: hashSecret(body.password), locked: false });
  revokeSessions(ctx.services, user.id);
  return accepted();
}

function verifyEmail(ctx: RouteContext): Reply {
  const step = pickFieldSet(ctx.body, { resend: ["email"], confirm: ["code"] }, "email (resend), or code (confirm)");
  if (step === "resend") {
    const body = parseWith(z.object({ email }), ctx.body);
    const user = findUserByEmail(ctx.services, body.email);
    if (user && !user.deactivated && !user.flags.includes("EMAIL_VERIFIED")) mailCode(ctx.services, "VERIFY_EMAIL", user, user.email);
    return accepted();
  }
  const body = parseWith(z.object({ code: requiredString }), ctx.body);
  const found = findCode(ctx.services, ["VERIFY_EMAIL", "CONFIRM_EMAIL_CHANGE"], body.code);
  if (!found) throw fieldError("code", "is not a valid verification code");
  const { row, user } = found;
  if (row.purpose === "CONFIRM_EMAIL_CHANGE") confirmEmailChange(ctx.services, user, row.email);
  else ctx.store.t.users.update(user.id, { flags: addFlag(user.flags, "EMAIL_VERIFIED") });
  consumeCode(ctx.services, row);
  return accepted();
}

/** The confirmation link of PATCH /v1/users/{id} email is used through verify-email (choice). */
function confirmEmailChange(services: Services, user: UserRow, newEmail: string): void {
  const taken = findUserByEmail(services, newEmail);
  if (taken && taken.id !== user.id) throw conflict("That email address is already in use");
  if (user.pendingEmail?.toLowerCase() !== newEmail) throw fieldError("code", "is not a valid verification code");
  services.store.t.users.update(user.id, { email: newEmail, pendingEmail: null, flags: addFlag(user.flags, "EMAIL_VERIFIED") });
}

function lockAccount(ctx: RouteContext): Reply {
  const body = parseWith(z.object({ code: requiredString }), ctx.body);
  const found = findCode(ctx.services, ["LOCK_ACCOUNT"], body.code);
  if (!found) throw fieldError("code", "is not a valid code from a login-notification email");
  const { user } = found;
  // Idempotent: locking a locked account answers 202 again. A lock also ends every session.
  ctx.store.t.users.update(user.id, { locked: true });
  revokeSessions(ctx.services, user.id);
  return accepted();
}

// ---------------------------------------------------------------------------------------------
// The user profile.

function getUser(ctx: RouteContext): Reply {
  return ok(userView(resolveUserParam(ctx, ctx.params.uid, "uid", true)));
}

function patchUser(ctx: RouteContext): Reply {
  requireUserSubject(ctx);
  const user = resolveUserParam(ctx, ctx.params.uid, "uid");
  const body = parseWith(z.object({ name: userName.optional(), email: email.optional() }), ctx.body);
  if (body.name !== undefined) ctx.store.t.users.update(user.id, { name: body.name });
  if (body.email !== undefined) {
    const next = body.email.toLowerCase();
    if (next === user.email.toLowerCase()) ctx.store.t.users.update(user.id, { pendingEmail: null });
    else {
      const taken = findUserByEmail(ctx.services, next);
      if (taken) throw conflict("That email address is already in use");
      // Part 1: a changed email takes effect only once the link mailed to the new address is used.
      ctx.store.t.users.update(user.id, { pendingEmail: next });
      mailCode(ctx.services, "CONFIRM_EMAIL_CHANGE", user, next);
    }
  }
  return ok(userView(user));
}

function deleteUser(ctx: RouteContext): Reply {
  requireUserSubject(ctx);
  const user = resolveUserParam(ctx, ctx.params.uid, "uid");
  const t = ctx.store.t;
  const owned = new Set([
    ...t.workspaces.filter((w) => w.ownerId === user.id).map((w) => w.id),
    ...t.memberships.filter((m) => m.userId === user.id && m.role === "OWNER").map((m) => m.workspaceId),
  ]).size;
  if (owned > 0) throw conflict(`The account still owns ${owned} workspace(s); transfer or delete them first`);
  t.users.update(user.id, { deactivated: true });
  revokeSessions(ctx.services, user.id);
  audit(ctx.services, { workspaceId: null, actorId: user.id, action: "account.delete", target: { kind: "USER", id: user.id } });
  return accepted();
}

function changePassword(ctx: RouteContext): Reply {
  requireUserSubject(ctx);
  const user = resolveUserParam(ctx, ctx.params.uid, "uid");
  const body = parseWith(z.object({ old_password: requiredString, password: newPassword }), ctx.body);
  if (hashSecret(body.old_password) !== user.passwordHash) throw fieldError("old_password", "does not match the current password");
  ctx.store.t.users.update(user.id, { passwordHash: hashSecret(body.password) });
  // Every session ends, the caller's included (part 1, Session token).
  revokeSessions(ctx.services, user.id);
  return accepted();
}

// ---------------------------------------------------------------------------------------------
// TOTP: POST starts enrolment (secret + emergency reset token), PUT confirms it, DELETE turns it off.

function startTotp(ctx: RouteContext): Reply {
  requireUserSubject(ctx);
  const user = resolveUserParam(ctx, ctx.params.uid);
  if (user.totp?.active) throw conflict("Two-factor authentication is already active; turn it off first");
  const secret = newTotpSecret(ctx.store.rng);
  const reset = ctx.store.rng.alnum(24);
  ctx.store.t.users.update(user.id, { totp: { secret, reset: hashSecret(reset), active: false } });
  return ok({ uri: otpauthUri(secret, user.email), code: secret, reset });
}

function activateTotp(ctx: RouteContext): Reply {
  requireUserSubject(ctx);
  const user = resolveUserParam(ctx, ctx.params.uid);
  const body = parseWith(z.object({ code: requiredString }), ctx.body);
  if (!user.totp) throw conflict("No two-factor enrolment in progress; start with POST /v1/users/{uid}/totp");
  if (user.totp.active) throw conflict("Two-factor authentication is already active");
  if (!verifyTotp(user.totp.secret, body.code, ctx.clock.now())) throw fieldError("code", "is not the current TOTP code");
  ctx.store.t.users.update(user.id, { totp: { ...user.totp, active: true } });
  revokeSessions(ctx.services, user.id);
  return accepted();
}

function disableTotp(ctx: RouteContext): Reply {
  requireUserSubject(ctx);
  const user = resolveUserParam(ctx, ctx.params.uid);
  const header = ctx.headers["x-mfa"];
  const code = Array.isArray(header) ? header[0] : header;
  if (!code) throw badRequest("The X-MFA header with the current TOTP code is required", [{ field: "X-MFA", message: "is required" }]);
  if (!user.totp?.active) throw conflict("Two-factor authentication is not active");
  if (!verifyTotp(user.totp.secret, code, ctx.clock.now())) throw badRequest("X-MFA is not the current TOTP code", [{ field: "X-MFA", message: "is not the current TOTP code" }]);
  ctx.store.t.users.update(user.id, { totp: null });
  return accepted();
}

function listUserInvites(ctx: RouteContext): Reply {
  requireUserSubject(ctx);
  const user = resolveUserParam(ctx, ctx.params.uid);
  return ok(paginate(pendingInvitesFor(ctx.services, user.email), ctx.query, (i) => inviteView(ctx.services, i), inviteListOptions));
}

export const accountDomain: Domain = {
  name: "account",
  routes: [
    { method: "POST", path: "/v1/login", auth: "none", lifecycle: true, handler: login },
    { method: "POST", path: "/v1/register", auth: "none", lifecycle: true, handler: register },
    { method: "POST", path: "/v1/reset-password", auth: "none", lifecycle: true, handler: resetPassword },
    { method: "POST", path: "/v1/verify-email", auth: "none", lifecycle: true, handler: verifyEmail },
    { method: "POST", path: "/v1/lock-account", auth: "none", lifecycle: true, handler: lockAccount },
    { method: "GET", path: "/v1/users/:uid", handler: getUser },
    { method: "PATCH", path: "/v1/users/:uid", handler: patchUser },
    { method: "DELETE", path: "/v1/users/:uid", handler: deleteUser },
    { method: "POST", path: "/v1/users/:uid/password", handler: changePassword },
    { method: "POST", path: "/v1/users/:uid/totp", handler: startTotp },
    { method: "PUT", path: "/v1/users/:uid/totp", handler: activateTotp },
    { method: "DELETE", path: "/v1/users/:uid/totp", handler: disableTotp },
    { method: "GET", path: "/v1/users/:uid/invites", handler: listUserInvites },
  ],
};
