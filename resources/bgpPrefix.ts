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
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import type { OperationContext } from "../provider/context";
import { ApiError } from "../provider/errors";
import { formatCidr, parseCidr } from "../provider/cidr";
import { listAll } from "../provider/paging";
import { type WorkspaceScopedArgs } from "../provider/resource";
import { type InputsMatch, zId } from "../provider/schema";
import { idOf } from "../provider/wire";
import { replace, type ResourceSpec, updateRequest } from "../provider/spec";
import { fetchBgp } from "./bgpConfig";

const WHERE = "spec part 3, BGP";

// 1. Inputs.
/** A CIDR with an explicit length, normalised to its network address. */
const zPrefix = z.string().transform((v, ctx) => {
  const c = v.includes("/") ? parseCidr(v) : null;
  if (!c) {
    ctx.addIssue({ code: "custom", message: `must be a CIDR with its length, such as 203.0.113.0/24 or 2001:db8::/48 (${WHERE}: prefix)` });
    return z.NEVER;
  }
  return formatCidr(c);
});

const inputs = z.object({
  prefix: zPrefix,
  enabled: z.boolean({ error: `must be true or false (${WHERE}: enabled)` }).default(true),
  community: z.enum(["DEFAULT", "PROTECTED"], { error: `must be DEFAULT or PROTECTED (${WHERE}: community)` }).default("DEFAULT"),
  /** The workspace's BgpConfig id (optional): orders creation after it; its replacement replaces the prefix. */
  configId: zId("BGP configuration id").optional(),
});
type Inputs = z.infer<typeof inputs> & { workspaceId: string };
// The public BgpPrefixArgs and the schema above declare the same fields (checked by the compiler).
const _fieldsMatch: InputsMatch<BgpPrefixArgs, z.infer<typeof inputs>> = true;

export interface BgpPrefixOutputs extends Record<string, unknown> {
  workspaceId: string;
  prefix: string;
  /** Always MANUAL (the only source defined). */
  source: string;
  enabled: boolean;
  community: "DEFAULT" | "PROTECTED";
  /** The workspace's BGP configuration (read when configId is declared). */
  configId?: string;
}

// 2. API mapping.
interface ApiPrefix {
  /** A bare integer: bigint above 2^53. */
  id: bigint | number | string;
  prefix: string;
  source: string;
  enabled: boolean;
  community: "DEFAULT" | "PROTECTED";
}

const prefixesPath = (workspaceId: string) => `/v1/workspaces/${workspaceId}/bgp/prefixes`;

/** Exact decimal digits of the entry's id (never through a JS number). */
const prefixId = (p: ApiPrefix): string => idOf(p.id)!;

const entry = (i: Inputs) => ({ prefix: i.prefix, source: "MANUAL", enabled: i.enabled, community: i.community });

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

async function read(ctx: OperationContext, id: string, prior: Partial<Inputs>): Promise<BgpPrefixOutputs | undefined> {
  const workspaceId = prior.workspaceId ?? "";
  let found: ApiPrefix | undefined;
  try {
    found = (await listAll<ApiPrefix>(ctx.client, prefixesPath(workspaceId), { id })).find((p) => prefixId(p) === id);
  } catch (err) {
    if (err instanceof ApiError && err.notFound) return undefined;
    throw err;
  }
  if (!found) return undefined;
  const out: BgpPrefixOutputs = {
    workspaceId,
    prefix: found.prefix,
    source: found.source,
    enabled: found.enabled,
    community: found.community,
  };
  if (prior.configId !== undefined) {
    const config = await fetchBgp(ctx, workspaceId);
    if (config) out.configId = idOf(config.data.id)!;
  }
  return out;
}

// 3. The spec: what a change does (policies) and the API calls.
/** @internal */
export const bgpPrefixSpec: ResourceSpec<Inputs, BgpPrefixOutputs> = {
  kind: "BgpPrefix",
  doc: "A prefix announced over the workspace's BGP session. The id is the entry's integer id, as its exact decimal digits. Destroy waits until the withdrawal has completed.",
  workspaceScoped: true,
  inputs,
  // What a change does: PUT replaces the entry in place (same id); a new configuration is a new session.
  policies: { prefix: updateRequest, enabled: updateRequest, community: updateRequest, configId: replace },
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
    // conflict showed the prefix was not announced before the POST: an entry found now is ours.
    async findExisting(ctx, i) {
      const found = await byPrefix(ctx, i.workspaceId, i.prefix);
      return found && prefixId(found);
    },
    read,
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

// 4. The public Args: the class is generated from them and the spec (resources/generated/).
export interface BgpPrefixArgs extends WorkspaceScopedArgs {
  /** The announced CIDR, with its length (normalised to the network address). Changed in place (PUT). */
  prefix: pulumi.Input<string>;
  /** Announce it (default true). Changed in place. */
  enabled?: pulumi.Input<boolean>;
  /** DEFAULT or PROTECTED (default DEFAULT). Changed in place. */
  community?: pulumi.Input<"DEFAULT" | "PROTECTED">;
  /**
   * The workspace's BgpConfig id. Optional, but passing it creates the prefix after the
   * configuration, and replaces the prefix when the configuration is replaced (its prefixes go
   * with it).
   */
  configId?: pulumi.Input<string>;
}
