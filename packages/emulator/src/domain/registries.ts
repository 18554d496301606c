/**
 * Registry credentials' domain (spec part 1, "Registry credentials", workspace scoped): the host
 * canonicalised (registryHost.ts, the emulator's own), credentials validated against the
 * simulated live registry (`settings.registryAccounts`, see POST /_emulator/settings) before
 * they are stored, the password stored encrypted and never returned.
 */
import { createCipheriv, createDecipheriv, createHash } from "node:crypto";
import { badRequest, fieldError, notFound } from "../core/errors";
import type { RouteContext } from "../core/router";
import { audit, type Services } from "../core/services";
import type { Row } from "../core/store";
import type { WorkspaceRow } from "../model";
import { canonicalRegistryHost } from "../registryHost";
import { userRef, workspaceRef } from "./workspaces";

export interface RegistryRow extends Row {
  workspaceId: string;
  /** Canonical registry host (lower case, no scheme, path or default port; Docker Hub aliases folded). */
  host: string;
  username: string;
  /** "enc:v1:<iv>:<tag>:<ciphertext>" (AES-256-GCM); never the plaintext. */
  passwordEnc: string;
  userId: string;
  created: string;
  updated: string;
}

declare module "../core/store" {
  interface Tables {
    registries: RegistryRow;
  }
}

// ---------------------------------------------------------------------------------------------
// Password storage: AES-256-GCM under a fixed emulator key, so persisted state can decrypt it
// after a restart (the key protects nothing real; the point is that no plaintext is stored).

const KEY = createHash("sha256").update("pulumi-svc emulator registry credential key").digest();

/** The IV comes from the seeded generator, so --seed runs stay reproducible. */
function encryptSecret(services: Services, plain: string): string {
  const iv = Buffer.from(services.store.rng.hex(24), "hex");
  const cipher = createCipheriv("aes-256-gcm", KEY, iv);
  const data = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return `enc:v1:${iv.toString("base64")}:${cipher.getAuthTag().toString("base64")}:${data.toString("base64")}`;
}

function decryptSecret(stored: string): string {
  const [, , iv, tag, data] = stored.split(":");
  const decipher = createDecipheriv("aes-256-gcm", KEY, Buffer.from(iv, "base64"));
  decipher.setAuthTag(Buffer.from(tag, "base64"));
  return Buffer.concat([decipher.update(Buffer.from(data, "base64")), decipher.final()]).toString("utf8");
}

// ---------------------------------------------------------------------------------------------
// The simulated live registry.

/** Why the live registry refuses these credentials, or null when it accepts them. */
export function registryRejection(services: Services, host: string, username: string, password: string): string | null {
  const accounts = Object.entries(services.settings.registryAccounts).find(([h]) => canonicalRegistryHost(h) === host)?.[1];
  if (!accounts) return `Registry ${host} could not be reached to validate the credentials`;
  if (accounts[username] !== password) return `Registry ${host} rejected the credentials (401 Unauthorized)`;
  return null;
}

function requireAccepted(services: Services, host: string, username: string, password: string): void {
  const reason = registryRejection(services, host, username, password);
  if (reason) throw badRequest(reason, [{ field: "password", message: reason }]);
}

// ---------------------------------------------------------------------------------------------
// Views and changes

/** Credential view (fields "not shown" beyond omitting the password): id, registry, username, owner, user, created, updated. */
export function registryView(services: Services, row: RegistryRow) {
  return {
    id: row.id,
    registry: row.host,
    username: row.username,
    owner: workspaceRef(services.store.t.workspaces.get(row.workspaceId)),
    user: userRef(services.store.t.users.get(row.userId)),
    created: row.created,
    updated: row.updated,
  };
}

/** A credential of the workspace (404 when missing or of another workspace); the route checked access. */
export function loadRegistry(services: Services, ws: WorkspaceRow, id: string): RegistryRow {
  const row = services.store.t.registries.get(id);
  if (!row || row.workspaceId !== ws.id) throw notFound("Registry credential");
  return row;
}

/** Validated against the live registry first; a credential for a host the workspace already has replaces it. */
export function createRegistry(
  ctx: RouteContext,
  ws: WorkspaceRow,
  body: { registry: string; username: string; password: string },
): RegistryRow {
  const host = canonicalRegistryHost(body.registry);
  if (!host) throw fieldError("registry", "must be a registry host, URL or known alias");
  requireAccepted(ctx.services, host, body.username, body.password);
  // A credential for a host the workspace already has replaces the old one (part 1, rules).
  const previous = ctx.store.t.registries.find((r) => r.workspaceId === ws.id && r.host === host);
  if (previous) ctx.store.t.registries.delete(previous.id);
  const now = ctx.clock.iso();
  const row = ctx.store.t.registries.insert({
    id: ctx.store.newId(),
    workspaceId: ws.id,
    host,
    username: body.username,
    passwordEnc: encryptSecret(ctx.services, body.password),
    userId: ctx.principal.user.id,
    created: now,
    updated: now,
  });
  audit(ctx.services, {
    workspaceId: ws.id,
    actorId: ctx.principal.user.id,
    action: "registry.create",
    target: { kind: "REGISTRY", id: row.id },
  });
  return row;
}

/** A changed username or password is re-validated; the host never changes. */
export function updateRegistry(ctx: RouteContext, row: RegistryRow, body: { username?: string; password?: string }): RegistryRow {
  const username = body.username ?? row.username;
  const password = body.password ?? decryptSecret(row.passwordEnc);
  requireAccepted(ctx.services, row.host, username, password);
  ctx.store.t.registries.update(row.id, { username, passwordEnc: encryptSecret(ctx.services, password), updated: ctx.clock.iso() });
  audit(ctx.services, {
    workspaceId: row.workspaceId,
    actorId: ctx.principal.user.id,
    action: "registry.update",
    target: { kind: "REGISTRY", id: row.id },
  });
  return row;
}

export function deleteRegistry(ctx: RouteContext, row: RegistryRow): void {
  ctx.store.t.registries.delete(row.id);
  audit(ctx.services, {
    workspaceId: row.workspaceId,
    actorId: ctx.principal.user.id,
    action: "registry.delete",
    target: { kind: "REGISTRY", id: row.id },
  });
}

/** POST .../test: passes while the live registry still accepts the stored credentials, else 400 with the reason. */
export function testRegistry(services: Services, row: RegistryRow): void {
  const reason = registryRejection(services, row.host, row.username, decryptSecret(row.passwordEnc));
  if (reason) throw badRequest(reason);
}

/** The stored credentials of a workspace for a host (for areas that pull images), password decrypted. */
export function registryCredentialFor(
  services: Services,
  workspaceId: string,
  hostOrUrl: string,
): { username: string; password: string } | null {
  const host = canonicalRegistryHost(hostOrUrl);
  const row = host ? services.store.t.registries.find((r) => r.workspaceId === workspaceId && r.host === host) : undefined;
  return row ? { username: row.username, password: decryptSecret(row.passwordEnc) } : null;
}
