/**
 * SSH keys' domain (spec part 1, "SSH keys", workspace scoped): public key parsing and
 * fingerprints, the quota max_ssh_keys, upload and delete. Keys are injected into new instances
 * at provision time (the compute area reads `sshKeys` by workspace); deleting a key leaves
 * provisioned instances alone. Upload and delete need WRITE on INSTANCE, reads READ.
 */
import { createHash } from "node:crypto";
import type { AccessNeed } from "../core/auth";
import { badRequest, conflict, notFound } from "../core/errors";
import type { RouteContext } from "../core/router";
import { audit, type Services } from "../core/services";
import type { Row } from "../core/store";
import type { WorkspaceRow } from "../model";
import { userRef, workspaceRef } from "./workspaces";

export const SSH_READ: AccessNeed = { grant: ["INSTANCE", "READ"] };
export const SSH_WRITE: AccessNeed = { role: "EDITOR", grant: ["INSTANCE", "WRITE"] };

export interface SshKeyRow extends Row {
  workspaceId: string;
  name: string;
  /** Normalised public key line: "<type> <base64>[ <comment>]". */
  publicKey: string;
  /** OpenSSH-style SHA256 fingerprint of the key blob. */
  fingerprint: string;
  /** The uploader. */
  userId: string;
  created: string;
}

declare module "../core/store" {
  interface Tables {
    sshKeys: SshKeyRow;
  }
}

// ---------------------------------------------------------------------------------------------
// Public key parsing: "<type> <base64 blob> [comment]", where the blob is a sequence of
// length-prefixed fields whose first field repeats the type (RFC 4253 section 6.6).

/** Accepted key types and the number of length-prefixed fields their blob holds. */
const KEY_TYPES: Record<string, { fields: number; check?: (fields: Buffer[]) => boolean }> = {
  "ssh-ed25519": { fields: 2, check: (f) => f[1].length === 32 },
  "ssh-rsa": { fields: 3, check: (f) => f[2].length >= 128 },
  "ecdsa-sha2-nistp256": { fields: 3, check: (f) => f[1].toString() === "nistp256" },
  "ecdsa-sha2-nistp384": { fields: 3, check: (f) => f[1].toString() === "nistp384" },
  "ecdsa-sha2-nistp521": { fields: 3, check: (f) => f[1].toString() === "nistp521" },
  "sk-ssh-ed25519@openssh.com": { fields: 3, check: (f) => f[1].length === 32 },
  "sk-ecdsa-sha2-nistp256@openssh.com": { fields: 4, check: (f) => f[1].toString() === "nistp256" },
};

function blobFields(blob: Buffer): Buffer[] | null {
  const fields: Buffer[] = [];
  let at = 0;
  while (at < blob.length) {
    if (at + 4 > blob.length) return null;
    const len = blob.readUInt32BE(at);
    at += 4;
    if (at + len > blob.length) return null;
    fields.push(blob.subarray(at, at + len));
    at += len;
  }
  return fields;
}

/** Parses a public key line; returns the normalised line and its fingerprint, or null when malformed. */
export function parsePublicKey(text: string): { line: string; fingerprint: string } | null {
  const parts = text.trim().split(/\s+/);
  if (parts.length < 2 || /[\r\n]/.test(text.trim())) return null;
  const [type, b64, ...comment] = parts;
  const rule = KEY_TYPES[type];
  if (!rule || !/^[A-Za-z0-9+/]+={0,2}$/.test(b64) || b64.length % 4 !== 0) return null;
  const blob = Buffer.from(b64, "base64");
  const fields = blobFields(blob);
  if (!fields || fields.length !== rule.fields || fields[0].toString() !== type) return null;
  if (rule.check && !rule.check(fields)) return null;
  const fingerprint = `SHA256:${createHash("sha256").update(blob).digest("base64").replace(/=+$/, "")}`;
  return { line: [type, b64, ...comment].join(" "), fingerprint };
}

// ---------------------------------------------------------------------------------------------
// Views and changes

/** SSH key object (part 1): id, name, public_key, user, owner; plus fingerprint and created (choice). */
export function sshKeyView(services: Services, row: SshKeyRow) {
  return {
    id: row.id,
    name: row.name,
    public_key: row.publicKey,
    fingerprint: row.fingerprint,
    user: userRef(services.store.t.users.get(row.userId)),
    owner: workspaceRef(services.store.t.workspaces.get(row.workspaceId)),
    created: row.created,
  };
}

/** Upload: a well-formed OpenSSH public key, within max_ssh_keys, not stored twice in the workspace. */
export function createKey(ctx: RouteContext, ws: WorkspaceRow, body: { name: string; public_key: string }): SshKeyRow {
  const parsed = parsePublicKey(body.public_key);
  if (!parsed) {
    throw badRequest("Invalid body: public_key: must be a well-formed OpenSSH public key (ssh-ed25519, ssh-rsa or ecdsa-sha2-*)", [
      { field: "public_key", message: "must be a well-formed OpenSSH public key (ssh-ed25519, ssh-rsa or ecdsa-sha2-*)" },
    ]);
  }
  const keys = ctx.store.t.sshKeys.filter((k) => k.workspaceId === ws.id);
  if (keys.length >= ws.quota.max_ssh_keys) {
    throw badRequest(`SSH key quota reached: the workspace allows ${ws.quota.max_ssh_keys} keys (max_ssh_keys)`);
  }
  if (keys.some((k) => k.fingerprint === parsed.fingerprint)) throw conflict("This public key is already stored in the workspace");
  const row = ctx.store.t.sshKeys.insert({
    id: ctx.store.newId(),
    workspaceId: ws.id,
    name: body.name,
    publicKey: parsed.line,
    fingerprint: parsed.fingerprint,
    userId: ctx.principal.user.id,
    created: ctx.clock.iso(),
  });
  audit(ctx.services, {
    workspaceId: ws.id,
    actorId: ctx.principal.user.id,
    action: "ssh_key.create",
    target: { kind: "SSH_KEY", id: row.id },
  });
  return row;
}

export function loadKey(ctx: RouteContext, id: string, need: "READ" | "WRITE"): SshKeyRow {
  const key = ctx.store.t.sshKeys.get(id);
  if (!key) throw notFound("SSH key");
  ctx.access(key.workspaceId, need === "READ" ? SSH_READ : SSH_WRITE);
  return key;
}

export function deleteKey(ctx: RouteContext, key: SshKeyRow): void {
  ctx.store.t.sshKeys.delete(key.id);
  audit(ctx.services, {
    workspaceId: key.workspaceId,
    actorId: ctx.principal.user.id,
    action: "ssh_key.delete",
    target: { kind: "SSH_KEY", id: key.id },
  });
}
