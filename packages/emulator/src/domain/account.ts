/**
 * Account's domain (spec part 1, "Account"): login, registration, password reset, email verification, account
 * lock, the user profile,
 * password change, TOTP two-factor authentication and the invites addressed to a user.
 *
 * Mail carries single-use codes (GET /_emulator/mail shows them); only their sha256 is kept, in
 * `accountCodes`, with the purpose they serve.
 */
import { ApiError, badRequest, conflict, fieldError, forbidden, unauthorized } from "../core/errors";
import { hashSecret } from "../core/auth";
import { audit, sendMail, type Services } from "../core/services";
import type { Row } from "../core/store";
import { newTotpSecret, otpauthUri, verifyTotp } from "../core/totp";
import type { MailKind, TokenRow, UserRow } from "../model";
import { redeemCoupon } from "./coupons";
import { acceptInvite, findInviteByCode } from "./invites";
import { issueSession, revokeSessions } from "./tokens";
import { createWorkspace } from "./workspaces";

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
  const row = services.store.t.accountCodes.find(
    (c) => c.codeHash === hash && purposes.includes(c.purpose) && !c.used && c.expiresAt > now,
  );
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
// Sign-in and the lifecycle endpoints (no bearer token)

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

/** POST /v1/login: a session token (and a login-notification mail whose code locks the account). */
export function login(services: Services, body: { email: string; password: string; mfa?: string }): { row: TokenRow; code: string } {
  const user = findUserByEmail(services, body.email);
  if (!user || user.deactivated || user.passwordHash !== hashSecret(body.password)) throw unauthorized("Invalid email or password");
  if (user.locked) throw forbidden("This account is locked");
  checkMfa(services, user, body.mfa);
  const session = issueSession(services, user);
  mailCode(services, "LOCK_ACCOUNT", user, user.email);
  return session;
}

/** Registration onboarding (part 1, Account rule 4): verification mail, a default workspace, optional coupon and invite. */
export function register(
  services: Services,
  body: { name: string; email: string; password: string; coupon?: string; invite_code?: string },
): void {
  const existing = findUserByEmail(services, body.email);
  if (existing) {
    // Rule 1: existence is not revealed; the address gets a password-reset mail instead.
    mailCode(services, "ACCOUNT_EXISTS", existing, existing.email);
    return;
  }
  const { store, clock } = services;
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
  const ws = createWorkspace(services, user, DEFAULT_WORKSPACE_NAME);
  audit(services, { workspaceId: ws.id, actorId: user.id, action: "account.register", target: { kind: "USER", id: user.id } });
  // An invite addressed to this email is accepted and proves the address; anything else about it is ignored.
  const invite = body.invite_code ? findInviteByCode(services, body.invite_code) : undefined;
  let acceptedInvite = false;
  if (invite && invite.email === user.email) {
    try {
      acceptInvite(services, invite, user);
      acceptedInvite = true;
    } catch {
      // An expired or used invite does not block registration.
    }
  }
  if (!acceptedInvite) mailCode(services, "VERIFY_EMAIL", user, user.email);
  redeemRegistrationCoupon(services, user, ws.id, body.coupon);
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

/** reset-password step 1: a reset mail for an active account; unknown addresses are not revealed. */
export function requestPasswordReset(services: Services, address: string): void {
  const user = findUserByEmail(services, address);
  if (user && !user.deactivated) mailCode(services, "RESET_PASSWORD", user, user.email);
}

/** reset-password step 2: a valid code sets the password, unlocks the account and ends every session. */
export function completePasswordReset(services: Services, code: string, password: string): void {
  const found = findCode(services, ["RESET_PASSWORD", "ACCOUNT_EXISTS"], code);
  if (!found) throw fieldError("code", "is not a valid password reset code");
  const { user } = found;
  consumeCode(services, found.row);
  // A completed reset proves control of the mailbox: it also unlocks a locked account (choice).
  services.store.t.users.update(user.id, { passwordHash: hashSecret(password), locked: false });
  revokeSessions(services, user.id);
}

/** verify-email resend: another verification mail for an unverified active account. */
export function resendVerification(services: Services, address: string): void {
  const user = findUserByEmail(services, address);
  if (user && !user.deactivated && !user.flags.includes("EMAIL_VERIFIED")) mailCode(services, "VERIFY_EMAIL", user, user.email);
}

/** verify-email confirm: a verification code, or the confirmation of an email change. */
export function confirmVerification(services: Services, code: string): void {
  const found = findCode(services, ["VERIFY_EMAIL", "CONFIRM_EMAIL_CHANGE"], code);
  if (!found) throw fieldError("code", "is not a valid verification code");
  const { row, user } = found;
  if (row.purpose === "CONFIRM_EMAIL_CHANGE") confirmEmailChange(services, user, row.email);
  else services.store.t.users.update(user.id, { flags: addFlag(user.flags, "EMAIL_VERIFIED") });
  consumeCode(services, row);
}

/** The confirmation link of PATCH /v1/users/{id} email is used through verify-email (choice). */
function confirmEmailChange(services: Services, user: UserRow, newEmail: string): void {
  const taken = findUserByEmail(services, newEmail);
  if (taken && taken.id !== user.id) throw conflict("That email address is already in use");
  if (user.pendingEmail?.toLowerCase() !== newEmail) throw fieldError("code", "is not a valid verification code");
  services.store.t.users.update(user.id, { email: newEmail, pendingEmail: null, flags: addFlag(user.flags, "EMAIL_VERIFIED") });
}

export function lockAccount(services: Services, code: string): void {
  const found = findCode(services, ["LOCK_ACCOUNT"], code);
  if (!found) throw fieldError("code", "is not a valid code from a login-notification email");
  const { user } = found;
  // Idempotent: locking a locked account answers 202 again. A lock also ends every session.
  services.store.t.users.update(user.id, { locked: true });
  revokeSessions(services, user.id);
}

// ---------------------------------------------------------------------------------------------
// The user profile, password and TOTP

/** PATCH /v1/users/{id}: a new email waits for the confirmation mailed to it. */
export function updateProfile(services: Services, user: UserRow, body: { name?: string; email?: string }): UserRow {
  if (body.name !== undefined) services.store.t.users.update(user.id, { name: body.name });
  if (body.email !== undefined) {
    const next = body.email.toLowerCase();
    if (next === user.email.toLowerCase()) services.store.t.users.update(user.id, { pendingEmail: null });
    else {
      const taken = findUserByEmail(services, next);
      if (taken) throw conflict("That email address is already in use");
      // Part 1: a changed email takes effect only once the link mailed to the new address is used.
      services.store.t.users.update(user.id, { pendingEmail: next });
      mailCode(services, "CONFIRM_EMAIL_CHANGE", user, next);
    }
  }
  return user;
}

/** DELETE /v1/users/{id}: deactivated (memberships kept) unless the account still owns a workspace. */
export function deleteAccount(services: Services, user: UserRow): void {
  const t = services.store.t;
  const owned = new Set([
    ...t.workspaces.filter((w) => w.ownerId === user.id).map((w) => w.id),
    ...t.memberships.filter((m) => m.userId === user.id && m.role === "OWNER").map((m) => m.workspaceId),
  ]).size;
  if (owned > 0) throw conflict(`The account still owns ${owned} workspace(s); transfer or delete them first`);
  t.users.update(user.id, { deactivated: true });
  revokeSessions(services, user.id);
  audit(services, { workspaceId: null, actorId: user.id, action: "account.delete", target: { kind: "USER", id: user.id } });
}

export function changePassword(services: Services, user: UserRow, body: { old_password: string; password: string }): void {
  if (hashSecret(body.old_password) !== user.passwordHash) throw fieldError("old_password", "does not match the current password");
  services.store.t.users.update(user.id, { passwordHash: hashSecret(body.password) });
  // Every session ends, the caller's included (part 1, Session token).
  revokeSessions(services, user.id);
}

/** POST totp: a new enrolment (secret and emergency reset token), replacing an unconfirmed one. */
export function startTotp(services: Services, user: UserRow): { uri: string; code: string; reset: string } {
  if (user.totp?.active) throw conflict("Two-factor authentication is already active; turn it off first");
  const secret = newTotpSecret(services.store.rng);
  const reset = services.store.rng.alnum(24);
  services.store.t.users.update(user.id, { totp: { secret, reset: hashSecret(reset), active: false } });
  return { uri: otpauthUri(secret, user.email), code: secret, reset };
}

/** PUT totp: the current code confirms the enrolment; every session ends. */
export function activateTotp(services: Services, user: UserRow, code: string): void {
  if (!user.totp) throw conflict("No two-factor enrolment in progress; start with POST /v1/users/{uid}/totp");
  if (user.totp.active) throw conflict("Two-factor authentication is already active");
  if (!verifyTotp(user.totp.secret, code, services.clock.now())) throw fieldError("code", "is not the current TOTP code");
  services.store.t.users.update(user.id, { totp: { ...user.totp, active: true } });
  revokeSessions(services, user.id);
}

/** DELETE totp: the current code, sent in X-MFA, turns 2FA off. */
export function disableTotp(services: Services, user: UserRow, code: string | undefined): void {
  if (!code) throw badRequest("The X-MFA header with the current TOTP code is required", [{ field: "X-MFA", message: "is required" }]);
  if (!user.totp?.active) throw conflict("Two-factor authentication is not active");
  if (!verifyTotp(user.totp.secret, code, services.clock.now()))
    throw badRequest("X-MFA is not the current TOTP code", [{ field: "X-MFA", message: "is not the current TOTP code" }]);
  services.store.t.users.update(user.id, { totp: null });
}
