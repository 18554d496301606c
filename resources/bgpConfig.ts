/**
 * BgpConfig — the workspace's BGP session for bring-your-own-IP announcements (spec part 3, BGP
 * configuration: at most one per workspace).
 *
 *   GET    /v1/workspaces/{wid}/bgp   { data: {id, asn, instance, max_prefixes}, live: {password} }; 404 when none
 *   PATCH  /v1/workspaces/{wid}/bgp   all optional: asn, password, instance_id (null clears), max_prefixes;
 *                                     creates the configuration if none exists -> the fetch shape
 *   DELETE /v1/workspaces/{wid}/bgp   200, no body; removes all prefixes
 *
 * Every mutation needs the ADMINISTRATOR role (or OWNER) in the workspace.
 *
 * There is no create endpoint: PATCH creates the configuration when the workspace has none, and
 * would silently take over one that exists. This resource refuses to: when the workspace already
 * has a configuration, `pulumi up` fails and names its id for `adoptId`.
 *
 * The session password is a secret input, and the API returns it decrypted in live.password: it
 * is read back (drift is detected) and kept as a secret output.
 *
 * Destroying the configuration removes every prefix of the workspace with it (BgpPrefix
 * resources read as gone afterwards).
 */
import { z } from "../provider/fields/zod";
import type { OperationContext } from "../provider/context";
import { ApiError, ifFound } from "../provider/errors";
import { fieldSet, fromFields, input, type InputsOf, type OutputsOf, owningWorkspace } from "../provider/fields/declare";
import { createBody, outputsFromAnswer, updateBody } from "../provider/fields/convert";
import { zId, zInteger, zWideInteger } from "../provider/fields/constraints";
import { compact, idOf, numberOf, wireId } from "../provider/client/wire";
import { type ResourceDefinition } from "../provider/definition";
import type { BgpConfigArgs, BgpConfigOutputs } from "./generated/bgpConfig";
import { updateRequest } from "../provider/fields/changeEffects";

const WHERE = "spec part 3, BGP";

// 1. Inputs and outputs, each field declared once (provider/fields/declare.ts). PATCH takes every field.
/** @internal */
export const bgpConfigFields = fieldSet({
  workspaceId: owningWorkspace,
  asn: input(
    zWideInteger(`must be a whole number (${WHERE}: asn)`, `must be an integer AS number (${WHERE}: asn)`)
      .min(1, `must be a 32-bit AS number from 1 to 4294967295 (${WHERE}: asn)`)
      .max(4294967295, `must be a 32-bit AS number from 1 to 4294967295 (${WHERE}: asn)`),
    { doc: "The workspace's autonomous system number (32-bit).", onChange: updateRequest, fromAnswer: (b: ApiBgp) => numberOf(b.data.asn) },
  ),
  password: input(z.string({ error: `must be a string (${WHERE}: password)` }).optional(), {
    doc: "BGP session password; always stored as a Pulumi secret. The API returns it decrypted (live.password), so a change made outside Pulumi is detected.",
    onChange: updateRequest,
    secret: true,
    fromAnswer: (b: ApiBgp) => b.live?.password ?? null,
  }),
  instanceId: input(zId("instance id").nullable().default(null), {
    doc: "Instance acting as the BGP endpoint (same workspace); null or omitted for none.",
    onChange: updateRequest,
    wire: "instance_id",
    fromAnswer: (b: ApiBgp) => idOf(b.data.instance),
  }),
  maxPrefixes: input(
    zInteger(`must be a whole number (${WHERE}: max_prefixes)`).min(1, `must be at least 1 (${WHERE}: max_prefixes)`).optional(),
    {
      doc: "Maximum prefixes on the session (the API's default when omitted).",
      onChange: updateRequest,
      wire: "max_prefixes",
      fromAnswer: (b: ApiBgp) => numberOf(b.data.max_prefixes)!,
    },
  ),
});
type Inputs = InputsOf<typeof bgpConfigFields>;
type Outputs = OutputsOf<typeof bgpConfigFields>;

// 2. API mapping.
interface ApiBgp {
  data: { id: string; asn: number | null; instance: { id: string; name?: string } | null; max_prefixes: number };
  live?: { password?: string | null } | null;
}

/** @internal */
const bgpPath = (workspaceId: string) => `/v1/workspaces/${workspaceId}/bgp`;

/** The workspace's configuration, or undefined when it has none. @internal */
export async function fetchBgp(ctx: OperationContext, workspaceId: string): Promise<ApiBgp | undefined> {
  return ifFound(ctx.client.get<ApiBgp>(bgpPath(workspaceId)));
}

const toOutputs = (b: ApiBgp, workspaceId: string): Outputs => outputsFromAnswer(bgpConfigFields, b, { workspaceId });

/** Mutations need ADMINISTRATOR: say so when the role is what is missing. */
function withRoleHint(ctx: OperationContext, err: unknown): never {
  if (err instanceof ApiError && err.status === 403) {
    throw new Error(`${ctx.label}: ${err.message} Every BGP mutation needs the ADMINISTRATOR role (or OWNER) in the workspace (${WHERE}).`);
  }
  throw err;
}

/** A request body in the API's names: fields left unset are not sent; the instance goes as a bare integer id (null clears it). */
function wire(body: Record<string, unknown>): Record<string, unknown> {
  const sent = compact(body);
  return typeof sent.instance_id === "string" ? { ...sent, instance_id: wireId(sent.instance_id) } : sent;
}

// 3. The definition: what a change does (its effects) and the API calls.
/** @internal */
export const bgpConfigDefinition: ResourceDefinition<Inputs, Outputs> = {
  kind: "BgpConfig",
  doc: "The workspace's BGP configuration (at most one per workspace; every change needs the ADMINISTRATOR role). An existing configuration is never taken over silently: adopt it with `adoptId`. Destroying it removes all of the workspace's prefixes.",
  ...fromFields(bgpConfigFields),
  label: (i, id) => `BgpConfig of workspace ${i.workspaceId ?? "?"}${id ? ` (${id})` : ""}`,
  // One per workspace (conflict): a replacement in the same workspace deletes the old one first.
  uniqueKey: ["workspaceId"],
  pricing: { notMetered: "no rate card (CPU, MEMORY, STORAGE, BANDWIDTH, IP) meters BGP sessions" },
  api: {
    // One configuration per workspace, and the first PATCH creates it: one that exists is never
    // taken over without adoptId.
    async conflict(ctx, i) {
      const existing = await fetchBgp(ctx, i.workspaceId);
      return (
        existing && {
          id: String(existing.data.id),
          description: `workspace ${i.workspaceId} already has a BGP configuration (id ${existing.data.id}, AS${existing.data.asn ?? "?"}); a workspace has at most one`,
        }
      );
    },
    async create(ctx, i) {
      try {
        const created = await ctx.client.patch<ApiBgp>(bgpPath(i.workspaceId), wire(createBody(bgpConfigFields, i)));
        return { id: String(created.data.id) };
      } catch (err) {
        return withRoleHint(ctx, err);
      }
    },
    async list(ctx, workspaceId) {
      const found = await fetchBgp(ctx, workspaceId);
      return found ? [{ id: String(found.data.id) }] : [];
    },
    // conflict showed the workspace had none before the PATCH: the configuration found now is ours.
    async findExisting(ctx, i) {
      return (await fetchBgp(ctx, i.workspaceId))?.data.id;
    },
    async get(ctx, id, prior) {
      const b = await fetchBgp(ctx, prior.workspaceId ?? "");
      // Another configuration (deleted and made again outside Pulumi) is not this one.
      return b && idOf(b.data.id) === id ? toOutputs(b, prior.workspaceId ?? "") : undefined;
    },
    update: {
      async updateRequest(ctx, _id, _olds, news, changed) {
        try {
          await ctx.client.patch(bgpPath(news.workspaceId), wire(updateBody(bgpConfigFields, news, changed)));
        } catch (err) {
          withRoleHint(ctx, err);
        }
      },
    },
    async delete(ctx, id, olds) {
      const current = await fetchBgp(ctx, olds.workspaceId);
      if (!current || idOf(current.data.id) !== id) return;
      try {
        await ctx.client.delete(bgpPath(olds.workspaceId));
      } catch (err) {
        if (err instanceof ApiError && err.notFound) throw err;
        withRoleHint(ctx, err);
      }
    },
  },
};

// 4. The public Args: generated from the fields, with the class (resources/generated/bgpConfig.ts).
export type { BgpConfigArgs, BgpConfigOutputs };
