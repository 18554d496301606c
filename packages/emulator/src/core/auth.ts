/**
 * Authentication and authorisation (spec part 1, "Authentication").
 *
 * - No Authorization header: 403. Unknown, malformed or expired token: 401. Reason in X-Message.
 * - Roles VIEWER < EDITOR < ADMINISTRATOR < OWNER, checked against the caller's role in the
 *   workspace that owns the resource; a workspace the caller cannot see answers 404.
 * - Grants (NONE/READ/WRITE per resource kind) limit what the token may read or write.
 * - Workspace and resource tokens act with the role their creator holds in the workspace now
 *   (a "not shown" choice, see emulator/README.md); resource tokens reach only their subject.
 * - Staff (operator) tokens pass "Administrator only" checks; a normal user-scoped token on an
 *   administrator-only endpoint answers 400, as the spec's error table says.
 */
import { createHash } from "node:crypto";
import { ApiError, badRequest, forbidden, notFound, unauthorized } from "./errors";
import type { Services } from "./services";
import { GRANT_KINDS, ROLES, type GrantKind, type Grants, type Role, type TokenRow, type UserRow } from "../model";

export function hashSecret(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** A new plaintext token code; only its hash is ever stored. */
export function newTokenCode(services: Services): string {
  return `svc_${services.store.rng.alnum(40)}`;
}

export interface Principal {
  token: TokenRow;
  /** The user the token acts for: its owner (USER subject) or its creator. */
  user: UserRow;
  staff: boolean;
}

export const roleRank = (role: Role): number => ROLES.indexOf(role);

export const ALL_WRITE_GRANTS: Grants = Object.fromEntries(GRANT_KINDS.map((k) => [k, "WRITE"])) as Grants;

export function authenticate(services: Services, authorization: string | undefined, ip: string): Principal {
  if (!authorization) throw forbidden("Missing Authorization header: send Authorization: Bearer <token>");
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  if (!match) throw unauthorized("Malformed Authorization header: expected Bearer <token>");
  const hash = hashSecret(match[1]);
  const token = services.store.t.tokens.find((t) => t.codeHash === hash);
  if (!token) throw unauthorized("Unrecognised token");
  const now = services.clock.now();
  if (token.expires && Date.parse(token.expires) <= now) throw unauthorized("Token expired");
  const userId = token.userId ?? token.createdById;
  const user = services.store.t.users.get(userId);
  if (!user || user.deactivated) throw unauthorized("Token owner account is deactivated");
  if (user.locked && token.origin === "SESSION") throw unauthorized("Account is locked");
  // Usage bookkeeping; deliberately not a "write" for persistence purposes.
  token.lastUsed = services.clock.iso(now);
  token.lastIp = ip;
  // Staff powers follow the staff user's own (USER-subject) tokens, never tokens they minted for a workspace.
  return { token, user, staff: user.staff && token.subject === "USER" };
}

export interface AccessNeed {
  /** Minimum role in the workspace. */
  role?: Role;
  /** Kind and level the token's grants must allow. */
  grant?: [GrantKind, "READ" | "WRITE"];
  /** The specific resource being reached, for RESOURCE-subject tokens. */
  resource?: { kind: "INSTANCE" | "DEDIBOX" | "APP"; id: string };
}

/** The caller's effective role in a workspace, or null when the workspace is invisible to them. */
export function effectiveRole(services: Services, principal: Principal, workspaceId: string): Role | null {
  const { token } = principal;
  if (principal.staff) return "OWNER";
  if (token.subject !== "USER" && token.workspaceId !== workspaceId) return null;
  const membership = services.store.t.memberships.find((m) => m.workspaceId === workspaceId && m.userId === principal.user.id);
  return membership ? membership.role : null;
}

/** Checks the caller may act on a workspace; throws 404/403 otherwise. Returns the caller's role. */
export function access(services: Services, principal: Principal, workspaceId: string, need: AccessNeed = {}): Role {
  const role = effectiveRole(services, principal, workspaceId);
  if (!role) throw notFound("Workspace or resource");
  const { token } = principal;
  if (token.subject === "RESOURCE") {
    if (!need.resource) throw forbidden("A resource token can only reach its own resource");
    if (need.resource.kind !== token.subjectKind || need.resource.id !== token.subjectId) throw notFound("Resource");
  }
  if (need.grant) {
    const [kind, level] = need.grant;
    const granted = token.origin === "SESSION" ? "WRITE" : token.grants[kind];
    if (!granted || (level === "WRITE" && granted !== "WRITE")) {
      throw forbidden(`Token lacks ${level} permission on ${kind}`);
    }
  }
  if (need.role && roleRank(role) < roleRank(need.role)) {
    throw forbidden(`This action needs the ${need.role} role; you are ${role}`);
  }
  return role;
}

/** "Administrator only" / "Operator only" endpoints (spec part 1, "Errors": user-scoped token gets 400). */
export function requireStaff(principal: Principal): void {
  if (principal.staff) return;
  if (principal.token.subject === "USER") {
    throw badRequest("This endpoint needs an administrator (staff) session; a user-scoped token cannot call it");
  }
  throw forbidden("This endpoint needs an administrator (staff) session");
}

/** Only login sessions may create user-scope tokens (spec part 1, Tokens rule 1). */
export function requireSession(principal: Principal): void {
  if (principal.token.origin !== "SESSION") throw new ApiError(403, "Only login sessions can create tokens");
}
