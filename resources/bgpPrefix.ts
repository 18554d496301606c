/**
 * BgpPrefix — a prefix the workspace's BGP session announces (spec part 3, BGP).
 *
 *   GET    /v1/workspaces/{wid}/bgp/prefixes        query id, prefix, source, enabled; Administrator -> paged entries
 *   POST   /v1/workspaces/{wid}/bgp/prefixes        prefix (CIDR), source (MANUAL), enabled, community
 *                                                   (DEFAULT|PROTECTED), all four required -> prefix entry
 *   PUT    /v1/workspaces/{wid}/bgp/prefixes/{id}   the same four fields: replaces the entry (same id)
 *   DELETE /v1/workspaces/{wid}/bgp/prefixes/{id}   200, no body; the withdrawal is asynchronous
 *
 * The entry's `id` is a bare JSON integer that exceeds 2^53: the client parses it exactly (as a
 * bigint) and the resource id is its exact decimal digits. PUT replaces the whole entry in
 * place, so prefix, enabled and community all change without a new id; source is always MANUAL
 * (the only one defined). The workspace's BGP configuration must exist (a BgpConfig; pass its id
 * as `configId` to order them and to follow its replacement) and caps the number of prefixes
 * (max_prefixes: the API's refusal is reported). Destroy waits until the withdrawal completes.
 * Deleting the configuration removes its prefixes: they then read as gone.
 */
import { z } from "../provider/fields/zod";
import type { OperationContext } from "../provider/context";
import { ApiError } from "../provider/errors";
import { formatCidr, parseCidr } from "../provider/fields/cidr";
import { computed, fieldSet, fromFields, input, type InputsOf, type OutputsOf, owningWorkspace } from "../provider/fields/declare";
import { createBody, outputsFromAnswer } from "../provider/fields/convert";
import { listAll } from "../provider/client/paging";
import { zId } from "../provider/fields/constraints";
import { idOf } from "../provider/client/wire";
import { type ResourceDefinition } from "../provider/definition";
import { fetchBgp } from "./bgpConfig";
import type { BgpPrefixArgs, BgpPrefixOutputs } from "./generated/bgpPrefix";
import { replace, updateRequest } from "../provider/fields/changeEffects";

const WHERE = "spec part 3, BGP";

// 1. Inputs and outputs, each field declared once (provider/fields/declare.ts). PUT replaces the entry in
// place (same id), so prefix, enabled and community change in place; a new configuration is a new session.
/** A CIDR with an explicit length, normalised to its network address. */
const zPrefix = z.string().transform((v, ctx) => {
  const c = v.includes("/") ? parseCidr(v) : null;
  if (!c) {
    ctx.addIssue({ code: "custom", message: `must be a CIDR with its length, such as 203.0.113.0/24 or 2001:db8::/48 (${WHERE}: prefix)` });
    return z.NEVER;
  }
  return formatCidr(c);
});

/** @internal */
export const bgpPrefixFields = fieldSet({
  workspaceId: owningWorkspace,
  prefix: input(zPrefix, { doc: "The announced CIDR, with its length (normalised to the network address).", onChange: updateRequest }),
  source: computed<string>({ doc: "Always MANUAL (the only source defined)." }),
  enabled: input(z.boolean({ error: `must be true or false (${WHERE}: enabled)` }).default(true), {
    doc: "Announce it (default true).",
    onChange: updateRequest,
  }),
  community: input(z.enum(["DEFAULT", "PROTECTED"], { error: `must be DEFAULT or PROTECTED (${WHERE}: community)` }).default("DEFAULT"), {
    doc: "DEFAULT or PROTECTED (default DEFAULT).",
    onChange: updateRequest,
  }),
  configId: input(zId("BGP configuration id").optional(), {
    doc: "The workspace's BgpConfig id. Optional, but passing it creates the prefix after the configuration, and replaces the prefix when the configuration is replaced (its prefixes go with it).",
    onChange: replace,
    // Not a field of the entry (which has none of that name): checked against the workspace's
    // configuration on create, and read from it by `read` (so an import declares it too).
    create: false,
  }),
});
type Inputs = InputsOf<typeof bgpPrefixFields>;
type Outputs = OutputsOf<typeof bgpPrefixFields>;

// 2. API mapping.
interface ApiPrefix {
  /** A bare integer: bigint above 2^53. */
  id: bigint | number | string;
  prefix: string;
  source: string;
  enabled: boolean;
  community: "DEFAULT" | "PROTECTED";
  /** DELETING while a withdrawal runs (the emulator's; not in the spec). */
  state?: string;
}

const prefixesPath = (workspaceId: string) => `/v1/workspaces/${workspaceId}/bgp/prefixes`;

/** Exact decimal digits of the entry's id (never through a JS number). */
const prefixId = (p: ApiPrefix): string => idOf(p.id)!;

/** The entry POST and PUT take: the four fields, source always MANUAL. */
const entry = (i: Inputs) => ({ ...createBody(bgpPrefixFields, i), source: "MANUAL" });

async function byPrefix(ctx: OperationContext, workspaceId: string, prefix: string): Promise<ApiPrefix | undefined> {
  const found = await listAll<ApiPrefix>(ctx.client, prefixesPath(workspaceId), { prefix });
  return found.find((p) => p.prefix === prefix);
}

/** Explains the API's refusals that have a known cause. */
function explain(ctx: OperationContext, err: unknown): never {
  if (err instanceof ApiError && err.status === 400 && /max_prefixes/i.test(err.reason ?? "")) {
    throw new Error(
      `${ctx.label}: ${err.message} The BGP session announces at most max_prefixes prefixes: raise the BgpConfig's maxPrefixes, or remove a prefix.`,
    );
  }
  if (err instanceof ApiError && err.status === 404 && err.method === "POST") {
    throw new Error(
      `${ctx.label}: ${err.message} The workspace has no BGP configuration: create a BgpConfig first (pass its id as configId).`,
    );
  }
  if (err instanceof ApiError && err.status === 403) {
    throw new Error(`${ctx.label}: ${err.message} BGP prefixes need the ADMINISTRATOR role (or OWNER) in the workspace (${WHERE}).`);
  }
  throw err;
}

async function get(ctx: OperationContext, id: string, prior: Partial<Inputs>): Promise<Outputs | undefined> {
  const workspaceId = prior.workspaceId ?? "";
  let found: ApiPrefix | undefined;
  try {
    found = (await listAll<ApiPrefix>(ctx.client, prefixesPath(workspaceId), { id })).find((p) => prefixId(p) === id);
  } catch (err) {
    if (err instanceof ApiError && err.notFound) return undefined;
    throw err;
  }
  if (!found) return undefined;
  const out = outputsFromAnswer(bgpPrefixFields, found, { workspaceId });
  // Read whether declared or not: an import declares the prefix with its configuration.
  const config = await fetchBgp(ctx, workspaceId);
  return config ? { ...out, configId: idOf(config.data.id)! } : out;
}

// 3. The definition: what a change does (its effects) and the API calls.
/** @internal */
export const bgpPrefixDefinition: ResourceDefinition<Inputs, Outputs> = {
  kind: "BgpPrefix",
  doc: "A prefix announced over the workspace's BGP session. The id is the entry's integer id, as its exact decimal digits. Destroy waits until the withdrawal has completed.",
  ...fromFields(bgpPrefixFields),
  // One entry per prefix (create refuses a duplicate): a replacement keeping it withdraws the old one first.
  uniqueKey: ["prefix"],
  label: (i, id) => `BgpPrefix ${i.prefix ?? id ?? ""}`.trim(),
  pricing: { notMetered: "no rate card (CPU, MEMORY, STORAGE, BANDWIDTH, IP) meters announced prefixes" },
  api: {
    async create(ctx, i) {
      if (i.configId !== undefined) {
        const config = await fetchBgp(ctx, i.workspaceId);
        if (!config || idOf(config.data.id) !== i.configId) {
          throw new Error(
            `${ctx.label}: configId ${i.configId} is not workspace ${i.workspaceId}'s BGP configuration (${config ? `that is ${config.data.id}` : "it has none"})`,
          );
        }
      }
      try {
        const created = await ctx.client.post<ApiPrefix>(prefixesPath(i.workspaceId), entry(i));
        return { id: prefixId(created) };
      } catch (err) {
        return explain(ctx, err);
      }
    },
    // A prefix is announced once per workspace.
    async conflict(ctx, i) {
      const existing = await byPrefix(ctx, i.workspaceId, i.prefix);
      return (
        existing && { id: prefixId(existing), description: `the workspace already announces ${i.prefix} (prefix id ${prefixId(existing)})` }
      );
    },
    async list(ctx, workspaceId) {
      const entries = await listAll<ApiPrefix>(ctx.client, prefixesPath(workspaceId));
      return entries.map((p) => ({
        id: prefixId(p),
        name: p.prefix,
        ...(p.state === "DELETING" ? { leftOut: "being withdrawn" } : {}),
      }));
    },
    // conflict showed the prefix was not announced before the POST: an entry found now is ours.
    async findExisting(ctx, i) {
      const found = await byPrefix(ctx, i.workspaceId, i.prefix);
      return found && prefixId(found);
    },
    get,
    update: {
      async updateRequest(ctx, id, _olds, news) {
        try {
          await ctx.client.put(`${prefixesPath(news.workspaceId)}/${id}`, entry(news));
        } catch (err) {
          if (err instanceof ApiError && err.status === 409) {
            throw new Error(
              `${ctx.label}: ${err.message} The prefix is being withdrawn; run pulumi up again once the withdrawal has completed (it is then created anew).`,
            );
          }
          explain(ctx, err);
        }
      },
    },
    async delete(ctx, id, olds) {
      await ctx.client.delete(`${prefixesPath(olds.workspaceId)}/${id}`);
    },
  },
};

// 4. The public Args: generated from the fields, with the class (resources/generated/bgpPrefix.ts).
export type { BgpPrefixArgs, BgpPrefixOutputs };
