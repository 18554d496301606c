/**
 * Fixture rows for the part 3 Kubernetes and billing tests, inserted straight into the
 * in-process store so these tests do not depend on the instance, workspace and account
 * endpoints (written by other areas).
 */
import { insertInstanceRow } from "./rows";
import { ALL_WRITE_GRANTS, hashSecret } from "../src/core/auth";
import type { BillingSubjectRow, Grants, InstanceRow, Role } from "../src/model";
import { DEFAULT_QUOTA } from "../src/model";
import type { TestApi, TestEmulator } from "../src/testing";

const store = (t: TestEmulator) => t.emu.services.store;

/** A running (online, AVAILABLE) instance in the bootstrap workspace unless overridden. */
export function makeInstance(t: TestEmulator, over: Partial<InstanceRow> = {}): InstanceRow {
  return insertInstanceRow(t, over);
}

export function makeWorkspace(t: TestEmulator, ownerId: string, name = "other-workspace", flags: string[] = []): string {
  const s = store(t);
  const id = s.newId();
  s.t.workspaces.insert({
    id,
    name,
    ownerId,
    flags,
    mfaRequired: false,
    disableSshPassword: false,
    privateCloud: false,
    quota: { ...DEFAULT_QUOTA },
    created: new Date().toISOString(),
  });
  s.t.memberships.insert({ id: s.newId(), workspaceId: id, userId: ownerId, role: "OWNER", inviteId: null });
  return id;
}

export interface FixtureUser {
  id: string;
  api: TestApi;
}

/**
 * A user with a USER-subject API token; with `role`, a member of the bootstrap workspace.
 * `grants` narrows the token; `workspaceToken` makes it a WORKSPACE-subject token instead.
 */
export function makeUser(
  t: TestEmulator,
  opts: { role?: Role; grants?: Grants; workspaceToken?: boolean; staff?: boolean } = {},
): FixtureUser {
  const s = store(t);
  const id = s.newId();
  const now = new Date().toISOString();
  s.t.users.insert({
    id,
    name: `user-${id.slice(-4)}`,
    email: `u${id}@example.com`,
    passwordHash: hashSecret("password-123"),
    flags: ["EMAIL_VERIFIED"],
    staff: opts.staff ?? false,
    locked: false,
    deactivated: false,
    totp: null,
    pendingEmail: null,
    created: now,
  });
  if (opts.role) s.t.memberships.insert({ id: s.newId(), workspaceId: t.workspaceId, userId: id, role: opts.role, inviteId: null });
  const code = `svc_fixture_${id}`;
  const workspaceToken = opts.workspaceToken ?? false;
  s.t.tokens.insert({
    id: s.newId(),
    name: "fixture",
    codeHash: hashSecret(code),
    origin: "API",
    subject: workspaceToken ? "WORKSPACE" : "USER",
    subjectId: workspaceToken ? t.workspaceId : id,
    subjectKind: null,
    workspaceId: workspaceToken ? t.workspaceId : null,
    grants: opts.grants ?? { ...ALL_WRITE_GRANTS },
    userId: workspaceToken ? null : id,
    createdById: id,
    created: now,
    expires: null,
    lastIp: null,
    lastUsed: null,
  });
  return { id, api: t.api.as(code) };
}

/** A metered resource: `hourlyRate` micro-USD per hour from `startedAt` to `endedAt` (ms). */
export function makeSubject(t: TestEmulator, over: Partial<BillingSubjectRow> & Pick<BillingSubjectRow, "startedAt">): BillingSubjectRow {
  const s = store(t);
  const resourceId = over.resourceId ?? s.newId();
  return s.t.billingSubjects.insert({
    id: s.newId(),
    workspaceId: t.workspaceId,
    resourceId,
    resourceKind: "INSTANCE",
    resourceName: `vm-${resourceId.slice(-4)}`,
    hourlyRate: 60_000,
    endedAt: null,
    ...over,
  });
}

/** Moves the emulator clock (forward only) to `iso`. */
export async function setClock(t: TestEmulator, iso: string): Promise<void> {
  const now = Date.parse((await t.control.get("/_emulator/clock")).body.now);
  const advanceMs = Date.parse(iso) - now;
  if (advanceMs < 0) throw new Error(`setClock: ${iso} is in the emulator's past`);
  await t.control.post("/_emulator/clock", { advanceMs });
}
