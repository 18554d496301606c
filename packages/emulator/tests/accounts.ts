/**
 * Helpers for the part 1 emulator tests (accounts, sessions, invites, SSH keys): sign a new user
 * up through the API, read their mail, log in, and put a user into a workspace at a role.
 */
import { generateKeyPairSync } from "node:crypto";
import type { TestApi, TestEmulator } from "../src/testing";

/** Lifecycle endpoints are rate limited per address; the tests log in far more often than a browser. */
export const RELAXED_LIMITS = { rateLimits: { lifecycle: { burst: 100_000, perSecond: 100_000 } } };

export interface Mail {
  id: string;
  to: string;
  kind: string;
  code: string | null;
  sent: string;
}

/** The newest mail of a kind sent to an address. */
export async function lastMail(t: TestEmulator, to: string, kind: string): Promise<Mail> {
  const res = await t.control.get<{ mail: Mail[] }>("/_emulator/mail", { to });
  const mail = res.body.mail.filter((m) => m.kind === kind);
  if (!mail.length) throw new Error(`no ${kind} mail to ${to}`);
  return mail[mail.length - 1];
}

export async function mailCount(t: TestEmulator, to: string, kind: string): Promise<number> {
  const res = await t.control.get<{ mail: Mail[] }>("/_emulator/mail", { to });
  return res.body.mail.filter((m) => m.kind === kind).length;
}

export interface Session {
  /** A client authenticated by the login session. */
  api: TestApi;
  code: string;
  tokenId: string;
  userId: string;
}

export async function login(t: TestEmulator, email: string, password: string, mfa?: string): Promise<Session> {
  const res = await t.anon.post("/v1/login", { email, password, ...(mfa ? { mfa } : {}) });
  if (res.status !== 200) throw new Error(`login ${email}: ${res.status} ${res.message}`);
  return { api: t.api.as(res.body.code), code: res.body.code, tokenId: res.body.id, userId: res.body.subject_id };
}

export interface Account extends Session {
  email: string;
  password: string;
  /** The default workspace registration created. */
  workspaceId: string;
}

let serial = 0;

/** Registers, verifies the email and logs in a fresh user. */
export async function signUp(t: TestEmulator, label = "user"): Promise<Account> {
  serial += 1;
  const email = `${label}-${serial}-${Date.now()}@example.org`;
  const password = "correct-horse-1";
  const reg = await t.anon.post("/v1/register", { name: `${label} ${serial}`, email, password });
  if (reg.status !== 201) throw new Error(`register: ${reg.status} ${reg.message}`);
  const verify = await lastMail(t, email, "VERIFY_EMAIL");
  await t.anon.post("/v1/verify-email", { code: verify.code });
  const session = await login(t, email, password);
  const list = await session.api.get("/v1/workspaces");
  return { ...session, email, password, workspaceId: list.body.items[0].id };
}

/** Invites `account` to a workspace at `role` (by `inviter`) and accepts; returns the invite id. */
export async function joinWorkspace(
  t: TestEmulator,
  inviter: TestApi,
  workspaceId: string,
  account: Account,
  role: string,
): Promise<string> {
  const inv = await inviter.post(`/v1/workspaces/${workspaceId}/invites`, { email: account.email, access_level: role });
  if (inv.status !== 201) throw new Error(`invite: ${inv.status} ${inv.message}`);
  const acc = await account.api.post("/v1/invites", { code: inv.body.code });
  if (acc.status !== 200) throw new Error(`accept: ${acc.status} ${acc.message}`);
  return inv.body.id;
}

/** An ISO timestamp `days` from the emulator's now. */
export async function daysFromNow(t: TestEmulator, days: number): Promise<string> {
  const clock = await t.control.get<{ now: string }>("/_emulator/clock");
  return new Date(Date.parse(clock.body.now) + days * 86_400_000).toISOString();
}

// --- OpenSSH public keys -----------------------------------------------------------------------

function sshString(data: Buffer | string): Buffer {
  const b = typeof data === "string" ? Buffer.from(data) : data;
  const len = Buffer.alloc(4);
  len.writeUInt32BE(b.length);
  return Buffer.concat([len, b]);
}

function mpint(b: Buffer): Buffer {
  let v = b;
  while (v.length > 1 && v[0] === 0) v = v.subarray(1);
  if (v[0] & 0x80) v = Buffer.concat([Buffer.from([0]), v]);
  return sshString(v);
}

const b64u = (s: string) => Buffer.from(s, "base64url");

export function ed25519Key(comment = "test@example"): string {
  const jwk = generateKeyPairSync("ed25519").publicKey.export({ format: "jwk" });
  const blob = Buffer.concat([sshString("ssh-ed25519"), sshString(b64u(jwk.x!))]);
  return `ssh-ed25519 ${blob.toString("base64")} ${comment}`;
}

export function rsaKey(): string {
  const jwk = generateKeyPairSync("rsa", { modulusLength: 2048 }).publicKey.export({ format: "jwk" });
  const blob = Buffer.concat([sshString("ssh-rsa"), mpint(b64u(jwk.e!)), mpint(b64u(jwk.n!))]);
  return `ssh-rsa ${blob.toString("base64")}`;
}

export function ecdsaKey(): string {
  const jwk = generateKeyPairSync("ec", { namedCurve: "P-256" }).publicKey.export({ format: "jwk" });
  const point = Buffer.concat([Buffer.from([4]), b64u(jwk.x!), b64u(jwk.y!)]);
  const blob = Buffer.concat([sshString("ecdsa-sha2-nistp256"), sshString("nistp256"), sshString(point)]);
  return `ecdsa-sha2-nistp256 ${blob.toString("base64")} ec@host`;
}

/** A row inserted straight into a table (instances, apps, ... owned by other areas), for topology and token subjects. */
export function insertRow(t: TestEmulator, table: string, row: Record<string, unknown>): string {
  const store = t.emu.services.store;
  const id = store.newId();
  store.table(table).insert({ id, ...row } as never);
  return id;
}
