/**
 * NetLoadBalancer — a network load balancer spreading an address across member instances
 * (spec part 3, Network load balancers).
 *
 *   POST   /v1/net-lbs                         name, address, owner (workspace id), all required;
 *                                              Administrator only -> balancer detail
 *   GET    /v1/net-lbs/{bid}                   Administrator mirror of the workspace fetch
 *   GET    /v1/workspaces/{wid}/net-lbs/{bid}  balancer detail
 *   PATCH  /v1/workspaces/{wid}/net-lbs/{bid}  optional name, address, owner (workspace id) -> 200, no body
 *   DELETE /v1/net-lbs/{bid}                   Administrator only -> 202, no body
 *
 * Creating and deleting a balancer is Administrator-only: the stack's svc:token must be an
 * operator (staff) token; a user-scoped token is refused with 400 (spec part 1, Errors). Such a
 * token also reaches every workspace, so the same stack can hold the workspace's other resources.
 *
 * Reading: through the Administrator mirror GET /v1/net-lbs/{bid}, which finds the balancer
 * wherever it is owned (a change of owner made outside Pulumi shows as drift, not as a deleted
 * balancer). When the token is not an operator's (the mirror answers 400 or 403: adopted
 * balancers can be managed, though not created or deleted, with a workspace token), the
 * workspace route of the recorded owner is used instead.
 *
 * Members are NetLoadBalancerMember resources. Changing the owner moves the balancer (PATCH
 * owner); members whose instance is not in the new workspace are dropped by the API.
 */
import { z } from "../provider/fields/zod";
import type { SvcClient } from "../provider/client/client";
import type { OperationContext } from "../provider/context";
import { ApiError } from "../provider/errors";
import { formatIp, parseIp } from "../provider/fields/cidr";
import { autonamed, fieldSet, fromFields, input, type InputsOf, type OutputsOf, createdAt } from "../provider/fields/declare";
import { outputsFromAnswer } from "../provider/fields/convert";
import { listAll } from "../provider/client/paging";
import { zId } from "../provider/fields/constraints";
import { idOf, wireId } from "../provider/client/wire";
import { type ResourceDefinition } from "../provider/definition";
import type { NetLoadBalancerArgs, NetLoadBalancerOutputs } from "./generated/netLoadBalancer";
import { updateRequest } from "../provider/fields/changeEffects";

const WHERE = "spec part 3, Network load balancers";

// 1. Inputs and outputs, each field declared once: type and limits, doc, what a change does, how it is read (provider/fields/declare.ts).
/** An IPv4 or IPv6 address, in the canonical text the API reports (2001:DB8:0::1 -> 2001:db8::1). */
const zAddress = z.string().transform((v, ctx) => {
  const ip = parseIp(v.trim());
  if (!ip) {
    ctx.addIssue({ code: "custom", message: `must be an IP address such as 203.0.113.10 or 2001:db8::10 (${WHERE}: address)` });
    return z.NEVER;
  }
  return formatIp(ip.family, ip.value);
});

// PATCH takes name, address and owner: everything changes in place.
/** @internal */
export const netLoadBalancerFields = fieldSet({
  name: autonamed(
    input(z.string().min(1, `must not be empty (${WHERE}: name is required)`), {
      doc: "Display name (required).",
      onChange: updateRequest,
    }),
  ),
  address: input(zAddress, { doc: "The balanced IP address (IPv4 or IPv6; normalised).", onChange: updateRequest }),
  ownerWorkspaceId: input(zId("workspace id").optional(), {
    doc:
      "Owning workspace. Default: the provider's workspace (svc:workspaceId) at creation, and then not managed. A change moves " +
      "the balancer (PATCH owner); the API drops members whose instance is not in the new workspace.",
    onChange: updateRequest,
    // As the API reports it, else the recorded (or default) owner.
    fromAnswer: (lb: ApiNetLb, prior) => idOf(lb.owner) ?? (prior.ownerWorkspaceId as string | undefined) ?? "",
  }),
  createdAt,
});
type Inputs = InputsOf<typeof netLoadBalancerFields>;
type Outputs = OutputsOf<typeof netLoadBalancerFields>;

// 2. API mapping.
/** The API's balancer detail (spec part 3, Network load balancers). */
interface ApiNetLb {
  id: string;
  name: string;
  address: string;
  owner: { id: string; name?: string } | null;
  instances?: Array<{ id: string; name?: string }>;
  created?: string;
}

/** Clients whose token the Administrator mirror refused (not an operator's): use the workspace route. */
const notStaff = new WeakSet<SvcClient>();

const ownerOf = (ctx: OperationContext, declared: string | undefined | null): string => {
  const owner = declared ?? ctx.config.workspaceId;
  if (!owner) throw new Error(`${ctx.label}: no owner workspace: set ownerWorkspaceId, or svc:workspaceId / SVC_WORKSPACE_ID`);
  return owner;
};

async function fetchLb(ctx: OperationContext, id: string, owner: string | undefined): Promise<ApiNetLb | undefined> {
  try {
    if (!notStaff.has(ctx.client)) {
      try {
        return await ctx.client.get<ApiNetLb>(`/v1/net-lbs/${id}`);
      } catch (err) {
        if (!(err instanceof ApiError && (err.status === 400 || err.status === 403))) throw err;
        notStaff.add(ctx.client);
      }
    }
    return await ctx.client.get<ApiNetLb>(`/v1/workspaces/${ownerOf(ctx, owner)}/net-lbs/${id}`);
  } catch (err) {
    if (err instanceof ApiError && err.notFound) return undefined;
    throw err;
  }
}

/** Wraps the refusal of an Administrator-only call into what to do about it. */
function adminOnly(ctx: OperationContext, what: string, err: unknown): never {
  if (err instanceof ApiError && (err.status === 400 || err.status === 403) && !err.fieldErrors.length) {
    throw new Error(
      `${ctx.label}: ${what} a network load balancer is Administrator-only (${WHERE}) and the API refused it (${err.message}). ` +
        `Run this stack with an operator (staff) token in svc:token.`,
    );
  }
  throw err;
}

const byNameAndAddress = async (ctx: OperationContext, owner: string, i: Inputs) =>
  (await listAll<ApiNetLb>(ctx.client, `/v1/workspaces/${owner}/net-lbs`, { name: i.name, address: i.address })).find(
    (lb) => lb.name === i.name && lb.address === i.address,
  );

// 3. The definition: what a change does (its effects) and the API calls.
/** @internal */
export const netLoadBalancerDefinition: ResourceDefinition<Inputs, Outputs> = {
  kind: "NetLoadBalancer",
  doc: "A network load balancer. Creating and deleting one is Administrator-only: run the stack with an operator (staff) token in svc:token. Add instances with NetLoadBalancerMember.",
  ...fromFields(netLoadBalancerFields),
  label: (i, id) => `NetLoadBalancer${i.name ? ` "${i.name}"` : id ? ` ${id}` : ""}`,
  // One balancer per name and address (conflict): a replacement keeping both deletes the old one first.
  uniqueKey: ["name", "address"],
  pricing: { notMetered: "no rate card (CPU, MEMORY, STORAGE, BANDWIDTH, IP) meters load balancers" },
  // The provider's own workspace is the owner a declaration leaves out (the default at creation).
  declaredFrom: (echoed, defaultWorkspace) =>
    echoed.ownerWorkspaceId === defaultWorkspace ? { ...echoed, ownerWorkspaceId: undefined } : echoed,
  api: {
    async create(ctx, i) {
      const owner = ownerOf(ctx, i.ownerWorkspaceId);
      try {
        const lb = await ctx.client.post<ApiNetLb>(`/v1/net-lbs`, { name: i.name, address: i.address, owner: wireId(owner) });
        return { id: String(lb.id) };
      } catch (err) {
        return adminOnly(ctx, "creating", err);
      }
    },
    async conflict(ctx, i) {
      const owner = ownerOf(ctx, i.ownerWorkspaceId);
      const existing = await byNameAndAddress(ctx, owner, i);
      return (
        existing && {
          id: String(existing.id),
          description: `workspace ${owner} already has a balancer named "${i.name}" on ${i.address} (id ${existing.id})`,
          alternative: "change the name",
        }
      );
    },
    async list(ctx, workspaceId) {
      return (await listAll<ApiNetLb>(ctx.client, `/v1/workspaces/${workspaceId}/net-lbs`)).map((lb) => ({
        id: String(lb.id),
        name: lb.name,
      }));
    },
    // conflict showed no balancer had this name and address before the POST: one found now is ours.
    async findExisting(ctx, i) {
      return (await byNameAndAddress(ctx, ownerOf(ctx, i.ownerWorkspaceId), i))?.id;
    },
    async get(ctx, id, prior) {
      const lb = await fetchLb(ctx, id, prior.ownerWorkspaceId);
      return lb && outputsFromAnswer(netLoadBalancerFields, lb, { ownerWorkspaceId: prior.ownerWorkspaceId ?? ctx.config.workspaceId });
    },
    update: {
      async updateRequest(ctx, id, olds, news, changed) {
        const body: Record<string, unknown> = {};
        if (changed.includes("name")) body.name = news.name;
        if (changed.includes("address")) body.address = news.address;
        if (changed.includes("ownerWorkspaceId") && news.ownerWorkspaceId) body.owner = wireId(news.ownerWorkspaceId);
        // The workspace route of the balancer's current owner (recorded, or read at the last refresh).
        await ctx.client.patch(`/v1/workspaces/${ownerOf(ctx, olds.ownerWorkspaceId)}/net-lbs/${id}`, body);
      },
    },
    async delete(ctx, id) {
      try {
        await ctx.client.delete(`/v1/net-lbs/${id}`);
      } catch (err) {
        if (err instanceof ApiError && err.notFound) throw err;
        adminOnly(ctx, "deleting", err);
      }
    },
  },
};

// 4. The public Args: generated from the fields, with the class (resources/generated/netLoadBalancer.ts).
export type { NetLoadBalancerArgs, NetLoadBalancerOutputs };
