/**
 * Part 1 Registry credentials (workspace scoped): a username and password for a private
 * container registry host. The host is canonicalised on create; credentials are checked against
 * the simulated live registry (`settings.registryAccounts`, changeable through
 * POST /_emulator/settings) before they are stored; the password is stored encrypted and never
 * returned.
 */
import { createCipheriv, createDecipheriv, createHash } from "node:crypto";
import { canonicalRegistryHost } from "../registryHost";
import { z } from "zod";
import type { Domain } from "../core/domain";
import { badRequest, fieldError, notFound } from "../core/errors";
import { paginate } from "../core/paging";
import { created, noContent, ok, type RouteContext } from "../core/router";
import { audit, type Services } from "../core/services";
import type { Row } from "../core/store";
import { contains, parseWith, pathId, queryIds } from "../core/validation";
import { loadWorkspaceRow, userRef, workspaceRef } from "../domain/workspaces";

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

// Host canonicalisation (part 1, Registry credential): the emulator's own, independent of the provider's.
export { canonicalRegistryHost };

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
// Views and handlers.

/** Credential view (fields "not shown" beyond omitting the password): id, registry, username, owner, user, created, updated. */
function registryView(services: Services, row: RegistryRow) {
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

const nonEmpty = z.string({ error: "must be a non-empty string" }).min(1, "must be a non-empty string");

const CreateRegistry = z.object({ registry: nonEmpty, username: nonEmpty, password: nonEmpty });

const PatchRegistry = z
  .object({
    registry: z.undefined({ error: "cannot be changed; delete the credential and create a new one" }).optional(),
    username: nonEmpty.optional(),
    password: nonEmpty.optional(),
  })
  .refine((b) => b.username !== undefined || b.password !== undefined, { message: "send username, password or both", path: ["(body)"] });

function loadRegistry(ctx: RouteContext, need: "READ" | "WRITE"): RegistryRow {
  const ws = loadWorkspaceRow(ctx, ctx.params.wid, "wid");
  ctx.access(ws.id, need === "READ" ? { grant: ["WORKSPACE", "READ"] } : { role: "EDITOR", grant: ["WORKSPACE", "WRITE"] });
  const row = ctx.store.t.registries.get(pathId(ctx.params.id, "id"));
  if (!row || row.workspaceId !== ws.id) throw notFound("Registry credential");
  return row;
}

function listRegistries(ctx: RouteContext) {
  const ws = loadWorkspaceRow(ctx, ctx.params.wid, "wid");
  ctx.access(ws.id, { grant: ["WORKSPACE", "READ"] });
  const q = ctx.query;
  const ids = queryIds(q.id, "id");
  const rows = ctx.store.t.registries.filter(
    (r) =>
      r.workspaceId === ws.id &&
      (ids.length === 0 || ids.includes(r.id)) &&
      contains(r.host, q.registry) &&
      contains(r.username, q.username) &&
      (q.q === undefined || q.q === "" || contains(r.host, q.q) || contains(r.username, q.q) || r.id === String(q.q)),
  );
  return ok(
    paginate(rows, q, (r) => registryView(ctx.services, r), {
      id: (r) => r.id,
      sortable: { registry: (r) => r.host, username: (r) => r.username, created: (r) => r.created },
    }),
  );
}

function createRegistry(ctx: RouteContext) {
  const ws = loadWorkspaceRow(ctx, ctx.params.wid, "wid");
  ctx.access(ws.id, { role: "EDITOR", grant: ["WORKSPACE", "WRITE"] });
  const body = parseWith(CreateRegistry, ctx.body);
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
  audit(ctx.services, { workspaceId: ws.id, actorId: ctx.principal.user.id, action: "registry.create", target: { kind: "REGISTRY", id: row.id } });
  return created(registryView(ctx.services, row));
}

function patchRegistry(ctx: RouteContext) {
  const row = loadRegistry(ctx, "WRITE");
  const body = parseWith(PatchRegistry, ctx.body);
  const username = body.username ?? row.username;
  const password = body.password ?? decryptSecret(row.passwordEnc);
  requireAccepted(ctx.services, row.host, username, password);
  ctx.store.t.registries.update(row.id, { username, passwordEnc: encryptSecret(ctx.services, password), updated: ctx.clock.iso() });
  audit(ctx.services, { workspaceId: row.workspaceId, actorId: ctx.principal.user.id, action: "registry.update", target: { kind: "REGISTRY", id: row.id } });
  return ok(registryView(ctx.services, row));
}

function deleteRegistry(ctx: RouteContext) {
  const row = loadRegistry(ctx, "WRITE");
  ctx.store.t.registries.delete(row.id);
  audit(ctx.services, { workspaceId: row.workspaceId, actorId: ctx.principal.user.id, action: "registry.delete", target: { kind: "REGISTRY", id: row.id } });
  return noContent();
}

/** POST .../test: 204 while the live registry still accepts the stored credentials, else 400 with the reason. */
function testRegistry(ctx: RouteContext) {
  const row = loadRegistry(ctx, "READ");
  const reason = registryRejection(ctx.services, row.host, row.username, decryptSecret(row.passwordEnc));
  if (reason) throw badRequest(reason);
  return noContent();
}

/** The stored credentials of a workspace for a host (for areas that pull images), password decrypted. */
export function registryCredentialFor(services: Services, workspaceId: string, hostOrUrl: string): { username: string; password: string } | null {
  const host = canonicalRegistryHost(hostOrUrl);
  const row = host ? services.store.t.registries.find((r) => r.workspaceId === workspaceId && r.host === host) : undefined;
  return row ? { username: row.username, password: decryptSecret(row.passwordEnc) } : null;
}

export const registriesDomain: Domain = {
  name: "registries",
  routes: [
    { method: "GET", path: "/v1/workspaces/:wid/registries", handler: listRegistries },
    { method: "POST", path: "/v1/workspaces/:wid/registries", handler: createRegistry },
    { method: "GET", path: "/v1/workspaces/:wid/registries/:id", handler: (ctx) => ok(registryView(ctx.services, loadRegistry(ctx, "READ"))) },
    { method: "PATCH", path: "/v1/workspaces/:wid/registries/:id", handler: patchRegistry },
    { method: "DELETE", path: "/v1/workspaces/:wid/registries/:id", handler: deleteRegistry },
    { method: "POST", path: "/v1/workspaces/:wid/registries/:id/test", handler: testRegistry },
  ],
  inventory: {
    registries: { workspaceOf: (row: RegistryRow) => row.workspaceId, label: (row: RegistryRow) => row.host },
  },
};
