/**
 * BGP's domain (spec part 3): at most one configuration per workspace, and the prefixes it
 * announces.
 *
 * - GET /v1/workspaces/{wid}/bgp: `{ data: {id, asn, instance, max_prefixes}, live: {password} }`,
 *   404 until a configuration exists; PATCH creates it when missing; DELETE removes it and every
 *   prefix (200, no body).
 * - Prefixes: list (ADMINISTRATOR), POST (all four fields), PUT (replaces), DELETE (200, no
 *   body; the withdrawal is asynchronous: the entry stays listed until its workflow completes).
 *   Prefix `id` is an integer in responses (a bigint, written exactly above 2^53).
 *
 * Access: reads need the WORKSPACE READ grant; every mutation needs the ADMINISTRATOR role and
 * WORKSPACE WRITE. The prefix list is marked "Administrator" in its row of the spec (while the
 * section's preamble says lists need read): it needs the ADMINISTRATOR role.
 *
 * The session password is stored encrypted (AES-256-GCM) and only decrypted into live.password.
 */
import { createCipheriv, createDecipheriv, createHash } from "node:crypto";
import type { AccessNeed } from "../core/auth";
import { badRequest, conflict, fieldError, notFound } from "../core/errors";
import { onHook } from "../core/hooks";
import type { RouteContext } from "../core/router";
import type { Services } from "../core/services";
import type { Row } from "../core/store";
import { defineWorkflowEffect } from "../core/workflowEffects";
import { formatCidr, parseCidr } from "../network";
import { instanceSummary } from "./instances";

export interface BgpConfigRow extends Row {
  workspaceId: string;
  asn: number | null;
  /** `enc:v1:<iv>:<tag>:<ciphertext>` (base64); never the plaintext. */
  passwordEncrypted: string | null;
  instanceId: string | null;
  maxPrefixes: number;
  created: string;
}

export const SOURCES = ["MANUAL"] as const;
export const COMMUNITIES = ["DEFAULT", "PROTECTED"] as const;

export interface BgpPrefixRow extends Row {
  workspaceId: string;
  configId: string;
  /** Canonical CIDR. */
  prefix: string;
  source: (typeof SOURCES)[number];
  enabled: boolean;
  community: (typeof COMMUNITIES)[number];
  /** AVAILABLE while announced; DELETING while the withdrawal workflow runs. */
  state: "AVAILABLE" | "DELETING";
  created: string;
}

declare module "../core/store" {
  interface Tables {
    bgpConfigs: BgpConfigRow;
    bgpPrefixes: BgpPrefixRow;
  }
}

export const BGP_READ: AccessNeed = { grant: ["WORKSPACE", "READ"] };
export const BGP_ADMIN_READ: AccessNeed = { role: "ADMINISTRATOR", grant: ["WORKSPACE", "READ"] };
export const BGP_ADMIN_WRITE: AccessNeed = { role: "ADMINISTRATOR", grant: ["WORKSPACE", "WRITE"] };

/** max_prefixes of a configuration created without one (not shown; chosen). */
const DEFAULT_MAX_PREFIXES = 100;

// ---------------------------------------------------------------------------------------------
// Password encryption at rest. The key is fixed for the emulator so persisted state stays readable.

const KEY = createHash("sha256").update("pulumi-svc emulator: BGP session passwords").digest();

function encrypt(services: Services, plaintext: string): string {
  const iv = Buffer.from(services.store.rng.hex(24), "hex");
  const cipher = createCipheriv("aes-256-gcm", KEY, iv);
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return ["enc", "v1", iv.toString("base64"), cipher.getAuthTag().toString("base64"), body.toString("base64")].join(":");
}

function decrypt(sealed: string): string {
  const [, , iv, tag, body] = sealed.split(":");
  const decipher = createDecipheriv("aes-256-gcm", KEY, Buffer.from(iv, "base64"));
  decipher.setAuthTag(Buffer.from(tag, "base64"));
  return Buffer.concat([decipher.update(Buffer.from(body, "base64")), decipher.final()]).toString("utf8");
}

// ---------------------------------------------------------------------------------------------
// Configuration

/** Fetch shape (part 3): `data` (id, asn, instance, max_prefixes) and `live` (password; null when none set). */
export function configView(services: Services, config: BgpConfigRow) {
  const instance = config.instanceId ? services.store.t.instances.get(config.instanceId) : undefined;
  return {
    data: { id: config.id, asn: config.asn, instance: instance ? instanceSummary(instance) : null, max_prefixes: config.maxPrefixes },
    live: { password: config.passwordEncrypted ? decrypt(config.passwordEncrypted) : null },
  };
}

const configOf = (services: Services, workspaceId: string) => services.store.t.bgpConfigs.find((c) => c.workspaceId === workspaceId);

export function requireConfig(services: Services, workspaceId: string): BgpConfigRow {
  const config = configOf(services, workspaceId);
  if (!config) throw notFound("BGP configuration");
  return config;
}

/** The BGP endpoint must be an instance of the workspace: 404 when unknown or invisible, 400 when elsewhere. */
function endpointInstance(ctx: RouteContext, workspaceId: string, id: string): string {
  const instance = ctx.store.t.instances.get(id);
  if (!instance) throw notFound("Instance");
  ctx.access(instance.workspaceId);
  if (instance.workspaceId !== workspaceId) throw fieldError("instance_id", "must be an instance of this workspace");
  return instance.id;
}

/** PATCH creates the configuration when missing; the password is stored encrypted. */
export function updateConfig(
  ctx: RouteContext,
  wid: string,
  body: { asn?: number; password?: string; instance_id?: string | null; max_prefixes?: number },
): BgpConfigRow {
  const patch: Partial<BgpConfigRow> = {};
  if (body.asn !== undefined) patch.asn = body.asn;
  if (body.password !== undefined) patch.passwordEncrypted = encrypt(ctx.services, body.password);
  if (body.instance_id !== undefined) patch.instanceId = body.instance_id === null ? null : endpointInstance(ctx, wid, body.instance_id);
  if (body.max_prefixes !== undefined) patch.maxPrefixes = body.max_prefixes;
  const existing = configOf(ctx.services, wid);
  return existing
    ? ctx.store.t.bgpConfigs.update(existing.id, patch)
    : ctx.store.t.bgpConfigs.insert({
        id: ctx.store.newId(),
        workspaceId: wid,
        asn: null,
        passwordEncrypted: null,
        instanceId: null,
        maxPrefixes: DEFAULT_MAX_PREFIXES,
        created: ctx.clock.iso(),
        ...patch,
      });
}

/** DELETE removes the configuration and every prefix. */
export function deleteConfig(ctx: RouteContext, wid: string): void {
  const config = requireConfig(ctx.services, wid);
  for (const p of ctx.store.t.bgpPrefixes.filter((p) => p.configId === config.id)) ctx.store.t.bgpPrefixes.delete(p.id);
  ctx.store.t.bgpConfigs.delete(config.id);
}

// ---------------------------------------------------------------------------------------------
// Prefixes

/** A prefix entry as the route has validated it (part 3: all four fields). */
export interface PrefixRequest {
  prefix: string;
  source: (typeof SOURCES)[number];
  enabled: boolean;
  community: (typeof COMMUNITIES)[number];
}

/** Prefix entry (part 3): id is an integer, so a bigint here (exact above 2^53 in the JSON). */
export function prefixView(p: BgpPrefixRow) {
  return { id: BigInt(p.id), prefix: p.prefix, source: p.source, enabled: p.enabled, community: p.community };
}

const prefixFields = (b: PrefixRequest) => ({
  prefix: formatCidr(parseCidr(b.prefix)!),
  source: b.source,
  enabled: b.enabled,
  community: b.community,
});

export function createPrefix(ctx: RouteContext, wid: string, body: PrefixRequest): BgpPrefixRow {
  const config = requireConfig(ctx.services, wid);
  // Entries being withdrawn still hold their slot until the withdrawal completes.
  const count = ctx.store.t.bgpPrefixes.count((p) => p.configId === config.id);
  if (count >= config.maxPrefixes) throw badRequest(`The BGP session already has ${config.maxPrefixes} prefixes (max_prefixes)`);
  return ctx.store.t.bgpPrefixes.insert({
    id: ctx.store.newId(),
    workspaceId: wid,
    configId: config.id,
    ...prefixFields(body),
    state: "AVAILABLE",
    created: ctx.clock.iso(),
  });
}

export function loadPrefix(services: Services, wid: string, id: string): BgpPrefixRow {
  const prefix = services.store.t.bgpPrefixes.get(id);
  if (!prefix || prefix.workspaceId !== wid) throw notFound("BGP prefix");
  return prefix;
}

export function replacePrefix(ctx: RouteContext, prefix: BgpPrefixRow, body: PrefixRequest): BgpPrefixRow {
  if (prefix.state === "DELETING") throw conflict("The prefix is being withdrawn");
  return ctx.store.t.bgpPrefixes.update(prefix.id, prefixFields(body));
}

const PREFIX_WITHDRAWN = defineWorkflowEffect("bgp.prefix.withdrawn", (services, wf) => {
  const prefix = services.store.t.bgpPrefixes.get(wf.resource?.id);
  if (prefix?.state === "DELETING") services.store.t.bgpPrefixes.delete(prefix.id);
});
/** A failed withdrawal leaves the prefix announced. */
const PREFIX_WITHDRAW_FAILED = defineWorkflowEffect("bgp.prefix.withdrawFailed", (services, wf) => {
  const prefix = services.store.t.bgpPrefixes.get(wf.resource?.id);
  if (prefix?.state === "DELETING") services.store.t.bgpPrefixes.update(prefix.id, { state: "AVAILABLE" });
});

/** DELETE: the entry stays listed until the (unreturned) withdrawal workflow completes. */
export function withdrawPrefix(ctx: RouteContext, prefix: BgpPrefixRow): void {
  if (prefix.state === "DELETING") return;
  ctx.store.t.bgpPrefixes.update(prefix.id, { state: "DELETING" });
  ctx.startWorkflow({
    name: "bgp-prefix.withdraw",
    workspaceId: prefix.workspaceId,
    resource: { kind: "bgpPrefixes", id: prefix.id },
    onComplete: PREFIX_WITHDRAWN,
    onFail: PREFIX_WITHDRAW_FAILED,
  });
}

/** A deleted instance stops being the BGP endpoint. */
onHook("instance.deleted", (services, event) => {
  const config = configOf(services, event.workspaceId);
  if (config?.instanceId === event.instanceId) services.store.t.bgpConfigs.update(config.id, { instanceId: null });
});
