/**
 * Fixture rows for the part 3 networking tests, inserted straight into the in-process store so
 * these tests do not depend on the instance and floating IP endpoints (written elsewhere).
 */
import { insertInstanceRow } from "./rows";
import { ALL_WRITE_GRANTS, hashSecret } from "../src/core/auth";
import type { FloatingIpRow, Grants, InstanceRow, Role } from "../src/model";
import { DEFAULT_QUOTA } from "../src/model";
import type { TestApi, TestEmulator } from "../src/testing";

const GiB = 1024 ** 3;

function store(t: TestEmulator) {
  return t.emu.services.store;
}

export function makeInstance(t: TestEmulator, over: Partial<InstanceRow> = {}): InstanceRow {
  return insertInstanceRow(t, { cpu: 1, memoryBytes: GiB, syncHostname: false, firewallEnabled: true, osName: null, ...over });
}

let addressSeq = 10;

export function makeFloatingIp(t: TestEmulator, over: Partial<FloatingIpRow> = {}): FloatingIpRow {
  const s = store(t);
  const family = over.family ?? "IPv4";
  const n = addressSeq++;
  return s.t.floatingIps.insert({
    id: s.newId(),
    workspaceId: t.workspaceId,
    family,
    address: family === "IPv4" ? `198.18.${Math.floor(n / 250)}.${(n % 250) + 1}` : `2001:db8:ff::${n.toString(16)}`,
    ddos: false,
    protected: false,
    instanceId: null,
    origin: "ALLOCATED",
    created: new Date().toISOString(),
    ...over,
  });
}

export function makeWorkspace(t: TestEmulator, ownerId: string, name = "other-workspace"): string {
  const s = store(t);
  const id = s.newId();
  s.t.workspaces.insert({
    id,
    name,
    ownerId,
    flags: [],
    mfaRequired: false,
    disableSshPassword: false,
    privateCloud: false,
    quota: { ...DEFAULT_QUOTA },
    created: new Date().toISOString(),
  });
  s.t.memberships.insert({ id: s.newId(), workspaceId: id, userId: ownerId, role: "OWNER", inviteId: null });
  return id;
}

/**
 * A new user with an API token; member of `workspaceId` with `role` when given. Returns a
 * client for that token.
 */
export function makeUser(
  t: TestEmulator,
  opts: { workspaceId?: string; role?: Role; grants?: Grants } = {},
): { userId: string; api: TestApi } {
  const s = store(t);
  const userId = s.newId();
  const now = new Date().toISOString();
  s.t.users.insert({
    id: userId,
    name: `user-${userId.slice(-5)}`,
    email: `u${userId}@example.com`,
    passwordHash: hashSecret("x-password-1"),
    flags: ["EMAIL_VERIFIED"],
    staff: false,
    locked: false,
    deactivated: false,
    totp: null,
    pendingEmail: null,
    created: now,
  });
  if (opts.workspaceId && opts.role)
    s.t.memberships.insert({ id: s.newId(), workspaceId: opts.workspaceId, userId, role: opts.role, inviteId: null });
  const code = `svc_test_${userId}`;
  s.t.tokens.insert({
    id: s.newId(),
    name: "test",
    codeHash: hashSecret(code),
    origin: "API",
    subject: "USER",
    subjectId: userId,
    subjectKind: null,
    workspaceId: null,
    grants: opts.grants ?? { ...ALL_WRITE_GRANTS },
    userId,
    createdById: userId,
    created: now,
    expires: null,
    lastIp: null,
    lastUsed: null,
  });
  return { userId, api: t.api.as(code) };
}

/** A resource token bound to one instance (RESOURCE subject), created by the bootstrap user. */
export function makeInstanceToken(t: TestEmulator, instanceId: string): TestApi {
  const s = store(t);
  const code = `svc_res_${instanceId}`;
  s.t.tokens.insert({
    id: s.newId(),
    name: "instance",
    codeHash: hashSecret(code),
    origin: "API",
    subject: "RESOURCE",
    subjectId: instanceId,
    subjectKind: "INSTANCE",
    workspaceId: t.workspaceId,
    grants: { ...ALL_WRITE_GRANTS },
    userId: null,
    createdById: t.emu.userId,
    created: new Date().toISOString(),
    expires: null,
    lastIp: null,
    lastUsed: null,
  });
  return t.api.as(code);
}

/** Collects every item of a list by following the keyset `after` cursor. */
export async function collectAfter<T>(
  api: TestApi,
  path: string,
  query: Record<string, string | number | boolean | Array<string | number>> = {},
): Promise<T[]> {
  const out: T[] = [];
  let after: string | undefined;
  for (;;) {
    const res = await api.get<{ items: T[]; after: string | null; hasNext: boolean }>(path, { ...query, ...(after ? { after } : {}) });
    if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${res.message}`);
    out.push(...res.body.items);
    if (!res.body.hasNext) return out;
    after = res.body.after!;
  }
}
