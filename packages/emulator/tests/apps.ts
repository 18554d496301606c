/**
 * Fixtures for the part 2 app/template/image/recipe tests: rows inserted straight into the
 * in-process emulator's store (instances with floating IPs and disks, users with a role,
 * restricted tokens, foreign workspaces), so these tests do not depend on other areas' routes.
 */
import { insertInstanceRow } from "./rows";
import { hashSecret } from "../src/core/auth";
import type { DiskRow, FloatingIpRow, GrantKind, Grants, InstanceRow, Role } from "../src/model";
import { DEFAULT_QUOTA } from "../src/model";
import { TestApi, type TestEmulator } from "../src/testing";

const GiB = 1024 ** 3;

export interface InstanceFixture {
  instance: InstanceRow;
  ip4: string | null;
  ip6: string | null;
  bootDisk: DiskRow;
  dataDisk: DiskRow;
}

let counter = 0;

function store(t: TestEmulator) {
  return t.emu.services.store;
}

function nowIso(t: TestEmulator, offsetMs = 0): string {
  return t.emu.services.clock.iso(t.emu.services.clock.now() + offsetMs);
}

export function makeInstance(
  t: TestEmulator,
  opts: { workspaceId?: string; ipv4?: number; ipv6?: boolean; state?: InstanceRow["state"]; online?: boolean; locked?: boolean } = {},
): InstanceFixture {
  const s = store(t);
  const workspaceId = opts.workspaceId ?? t.workspaceId;
  const n = ++counter;
  const node = s.t.nodes.find((x) => x.region === "NA_01")!;
  const instance = insertInstanceRow(t, {
    workspaceId,
    name: `fixture-${n}`,
    type: "CUSTOM",
    planId: null,
    nodeId: node.id,
    hostname: `fixture-${n}`,
    bandwidth: { upload_bytes_sec: 100_000_000, download_bytes_sec: 100_000_000 },
    state: opts.state ?? "AVAILABLE",
    online: opts.online ?? true,
    locked: opts.locked ?? false,
    created: nowIso(t),
  });
  const ip = (family: "IPv4" | "IPv6", address: string, offsetMs: number): FloatingIpRow =>
    s.t.floatingIps.insert({
      id: s.newId(),
      workspaceId,
      family,
      address,
      ddos: false,
      protected: false,
      instanceId: instance.id,
      origin: "INSTANCE",
      created: nowIso(t, offsetMs),
    });
  const v4: string[] = [];
  for (let i = 0; i < (opts.ipv4 ?? 1); i++) v4.push(ip("IPv4", `203.0.113.${((n * 3 + i) % 250) + 2}`, i).address);
  const v6 = opts.ipv6 === false ? null : ip("IPv6", `2001:db8:5c::${n.toString(16)}`, 0).address;
  const disk = (boot: boolean, name: string): DiskRow =>
    s.t.disks.insert({
      id: s.newId(),
      workspaceId,
      name,
      backend: "LOCAL",
      boot,
      size: (boot ? 25 : 10) * GiB,
      instanceId: instance.id,
      state: "AVAILABLE",
      region: "NA_01",
      created: nowIso(t),
    });
  return { instance, ip4: v4[0] ?? null, ip6: v6, bootDisk: disk(true, `boot-${n}`), dataDisk: disk(false, `data-${n}`) };
}

/** A new user holding `role` in the workspace, with an API token of the given grants. */
export function makeMember(t: TestEmulator, role: Role, opts: { workspaceId?: string; grants?: Grants } = {}): TestApi {
  const s = store(t);
  const n = ++counter;
  const user = s.t.users.insert({
    id: s.newId(),
    name: `Member ${n}`,
    email: `member${n}@example.com`,
    passwordHash: hashSecret("member-password"),
    flags: ["EMAIL_VERIFIED"],
    staff: false,
    locked: false,
    deactivated: false,
    totp: null,
    pendingEmail: null,
    created: nowIso(t),
  });
  s.t.memberships.insert({ id: s.newId(), workspaceId: opts.workspaceId ?? t.workspaceId, userId: user.id, role, inviteId: null });
  return tokenFor(t, user.id, opts.grants ?? allGrants());
}

/** A token of the bootstrap user with restricted grants. */
export function restrictedToken(t: TestEmulator, grants: Grants): TestApi {
  return tokenFor(t, t.emu.userId, grants);
}

/** A RESOURCE-subject token bound to one app or instance of the bootstrap workspace. */
export function resourceToken(t: TestEmulator, kind: "APP" | "INSTANCE", id: string): TestApi {
  const s = store(t);
  const code = `svc_resource_${++counter}_${s.rng.alnum(20)}`;
  s.t.tokens.insert({
    id: s.newId(),
    name: `resource-${counter}`,
    codeHash: hashSecret(code),
    origin: "API",
    subject: "RESOURCE",
    subjectId: id,
    subjectKind: kind,
    workspaceId: t.workspaceId,
    grants: allGrants(),
    userId: null,
    createdById: t.emu.userId,
    created: nowIso(t),
    expires: null,
    lastIp: null,
    lastUsed: null,
  });
  return t.api.as(code);
}

function tokenFor(t: TestEmulator, userId: string, grants: Grants): TestApi {
  const s = store(t);
  const code = `svc_fixture_${++counter}_${s.rng.alnum(20)}`;
  s.t.tokens.insert({
    id: s.newId(),
    name: `fixture-${counter}`,
    codeHash: hashSecret(code),
    origin: "API",
    subject: "USER",
    subjectId: userId,
    subjectKind: null,
    workspaceId: null,
    grants,
    userId,
    createdById: userId,
    created: nowIso(t),
    expires: null,
    lastIp: null,
    lastUsed: null,
  });
  return t.api.as(code);
}

export function allGrants(): Grants {
  const kinds: GrantKind[] = ["WORKSPACE", "INSTANCE", "DEDIBOX", "APP", "IMAGE", "NET_BALANCER", "DISK", "FLOATING_IP"];
  return Object.fromEntries(kinds.map((k) => [k, "WRITE"])) as Grants;
}

/** A workspace the bootstrap user is not a member of, with its owner's API client. */
export function makeForeignWorkspace(t: TestEmulator): { workspaceId: string; owner: TestApi } {
  const s = store(t);
  const n = ++counter;
  const owner = s.t.users.insert({
    id: s.newId(),
    name: `Stranger ${n}`,
    email: `stranger${n}@example.com`,
    passwordHash: hashSecret("x"),
    flags: ["EMAIL_VERIFIED"],
    staff: false,
    locked: false,
    deactivated: false,
    totp: null,
    pendingEmail: null,
    created: nowIso(t),
  });
  const ws = s.t.workspaces.insert({
    id: s.newId(),
    name: `foreign-${n}`,
    ownerId: owner.id,
    flags: [],
    mfaRequired: false,
    disableSshPassword: false,
    privateCloud: false,
    quota: { ...DEFAULT_QUOTA },
    created: nowIso(t),
  });
  s.t.memberships.insert({ id: s.newId(), workspaceId: ws.id, userId: owner.id, role: "OWNER", inviteId: null });
  return { workspaceId: ws.id, owner: tokenFor(t, owner.id, allGrants()) };
}

/** Sleeps; for the few waits that are about wall-clock time. */

/** A big identifier nothing has (above 2^53), as a raw JSON integer literal. */
export const MISSING_BIG_ID = "9007199254740993";
