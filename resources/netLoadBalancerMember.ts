/**
 * NetLoadBalancerMember — an instance behind a network load balancer (spec part 3, Network load
 * balancers).
 *
 *   PUT    /v1/workspaces/{wid}/net-lbs/{bid}/instances/{iid}   202, no body; asynchronous;
 *                                                               the instance must be in the same workspace
 *   GET    /v1/workspaces/{wid}/net-lbs/{bid}/instances         paged instance summaries (id, name)
 *   DELETE /v1/workspaces/{wid}/net-lbs/{bid}/instances/{iid}   202, no body; asynchronous
 *
 * A membership has no identifier of its own: the resource id is `${loadBalancerId}:${instanceId}`.
 * Both changes are asynchronous and return no workflow, so the resource waits on the member
 * list: after PUT until the instance is listed (JOINING until then), after DELETE until it is no
 * longer listed. The API reports no failure of either: a join that never completes ends at
 * `timeouts.create`, is kept in the stack as JOINING, and the next `pulumi up` sends it again.
 */
import type { OperationContext } from "../provider/context";
import { ApiError } from "../provider/errors";
import { computed, fieldSet, fromFields, input, type InputsOf, type OutputsOf, owningWorkspace } from "../provider/fields/declare";
import { outputsFromAnswer } from "../provider/fields/convert";
import { listAll } from "../provider/client/paging";
import { zId } from "../provider/fields/constraints";
import { idOf } from "../provider/client/wire";
import { type ResourceDefinition } from "../provider/definition";
import type { NetLoadBalancerMemberArgs, NetLoadBalancerMemberOutputs } from "./generated/netLoadBalancerMember";
import { replace } from "../provider/fields/changeEffects";

const WHERE = "spec part 3, Network load balancers";

/** Both ends of a membership, from its synthetic id, and its workspace: what a read passes as `prior`. */
type Key = { workspaceId: string; loadBalancerId: string; instanceId: string };
/** A member as the balancer's list shows it (an instance summary), and whether it is listed yet. */
type Listed = { name?: string | null; state: "ACTIVE" | "JOINING" };

// 1. Inputs and outputs, each field declared once: type and limits, doc, what a change does, how it is read (provider/fields/declare.ts).
// A membership is its two ends: either one changing is another membership.
/** @internal */
export const netLoadBalancerMemberFields = fieldSet({
  workspaceId: owningWorkspace,
  loadBalancerId: input(zId("load balancer id"), {
    doc: "The balancer (a NetLoadBalancer's id), owned by this resource's workspace.",
    onChange: replace,
    fromAnswer: (_m: Listed, key) => (key as Key).loadBalancerId,
  }),
  instanceId: input(zId("instance id"), {
    doc: "The instance; it must be in the balancer's workspace.",
    onChange: replace,
    fromAnswer: (_m: Listed, key) => (key as Key).instanceId,
  }),
  state: computed<"ACTIVE" | "JOINING">({ doc: "ACTIVE once listed as a member; JOINING while the addition has not applied yet." }),
});
type Inputs = InputsOf<typeof netLoadBalancerMemberFields>;
type Outputs = OutputsOf<typeof netLoadBalancerMemberFields>;

// 2. API mapping.
/** @internal */
const memberId = (loadBalancerId: string, instanceId: string) => `${loadBalancerId}:${instanceId}`;

/** A membership has no id of its own: it is "<loadBalancerId>:<instanceId>" (also what adoptId takes). */
function keyOf(id: string): { loadBalancerId: string; instanceId: string } {
  const [loadBalancerId, instanceId] = id.split(":");
  return { loadBalancerId, instanceId };
}

const membersPath = (workspaceId: string, loadBalancerId: string) => `/v1/workspaces/${workspaceId}/net-lbs/${loadBalancerId}/instances`;

/** The member's summary; null when not listed; undefined when the balancer itself is gone. */
async function findMember(
  ctx: OperationContext,
  workspaceId: string,
  loadBalancerId: string,
  instanceId: string,
): Promise<{ id: string; name?: string | null } | null | undefined> {
  try {
    const members = await listAll<{ id: string; name?: string | null }>(ctx.client, membersPath(workspaceId, loadBalancerId), {
      id: instanceId,
    });
    return members.find((m) => idOf(m.id) === instanceId) ?? null;
  } catch (err) {
    if (err instanceof ApiError && err.notFound) return undefined;
    throw err;
  }
}

async function get(ctx: OperationContext, id: string, prior: Partial<Inputs> & { adoptId?: string }): Promise<Outputs | undefined> {
  const key: Key = { workspaceId: prior.workspaceId ?? "", ...keyOf(id) };
  const member = await findMember(ctx, key.workspaceId, key.loadBalancerId, key.instanceId);
  if (member === undefined) return undefined;
  if (member) return outputsFromAnswer(netLoadBalancerMemberFields, { name: member.name, state: "ACTIVE" } satisfies Listed, key);
  // Not listed: while this operation is adding it, it is joining; otherwise it is not a member.
  if (ctx.operation === "create" && !prior.adoptId)
    return outputsFromAnswer(netLoadBalancerMemberFields, { state: "JOINING" } satisfies Listed, key);
  return undefined;
}

// 3. The definition: what a change does (its effects) and the API calls.
/** @internal */
export const netLoadBalancerMemberDefinition: ResourceDefinition<Inputs, Outputs> = {
  kind: "NetLoadBalancerMember",
  doc: "An instance behind a network load balancer. The id is `${loadBalancerId}:${instanceId}`; `pulumi up` waits until the instance is listed as a member, destroy until it no longer is.",
  ...fromFields(netLoadBalancerMemberFields),
  // A join that never applied (kept as JOINING) is sent again by replacing the member; keeping
  // both ends, the old one is removed first.
  broken: (o) => o.state === "JOINING",
  uniqueKey: ["loadBalancerId", "instanceId"],
  adoptIdPattern: /^\d+:\d+$/,
  adoptIdDoc: 'Adopt an existing membership: `"<loadBalancerId>:<instanceId>"` (a membership has no id of its own).',
  label: (i, id) =>
    `NetLoadBalancerMember instance ${i.instanceId ?? id?.split(":")[1] ?? "?"} in balancer ${i.loadBalancerId ?? id?.split(":")[0] ?? "?"}`,
  pricing: { notMetered: "a load balancer membership: no rate card meters it" },
  api: {
    async create(ctx, i) {
      const existing = await findMember(ctx, i.workspaceId, i.loadBalancerId, i.instanceId);
      if (existing === undefined)
        throw new Error(`${ctx.label}: load balancer ${i.loadBalancerId} does not exist in workspace ${i.workspaceId}`);
      try {
        // PUT is idempotent: the client resends it after a lost answer, so no lookup is needed.
        await ctx.client.put(`${membersPath(i.workspaceId, i.loadBalancerId)}/${i.instanceId}`);
      } catch (err) {
        if (err instanceof ApiError && err.status === 400) {
          throw new Error(
            `${ctx.label}: the API refused the member (${err.message}) — the instance must be in the balancer's workspace (${WHERE}).`,
          );
        }
        throw err;
      }
      return { id: memberId(i.loadBalancerId, i.instanceId) };
    },
    async list(ctx, workspaceId) {
      const balancers = await listAll<{ id: string }>(ctx.client, `/v1/workspaces/${workspaceId}/net-lbs`);
      const members = await Promise.all(
        balancers.map(async (b) =>
          (await listAll<{ id: string }>(ctx.client, membersPath(workspaceId, String(b.id)))).map((m) =>
            memberId(String(b.id), idOf(m.id)!),
          ),
        ),
      );
      return members.flat().map((id) => ({ id }));
    },
    // An instance is a member of a balancer once.
    async conflict(ctx, i) {
      const existing = await findMember(ctx, i.workspaceId, i.loadBalancerId, i.instanceId);
      return existing
        ? {
            id: memberId(i.loadBalancerId, i.instanceId),
            description: `instance ${i.instanceId} is already a member of load balancer ${i.loadBalancerId}`,
          }
        : undefined;
    },
    get,
    settled: (o) => o.state === "ACTIVE",
    stateOf: (o) => o.state,
    async delete(ctx, id, olds) {
      const { loadBalancerId, instanceId } = keyOf(id);
      await ctx.client.delete(`${membersPath(olds.workspaceId, loadBalancerId)}/${instanceId}`);
    },
  },
};

// 4. The public Args: generated from the fields, with the class (resources/generated/netLoadBalancerMember.ts).
export type { NetLoadBalancerMemberArgs, NetLoadBalancerMemberOutputs };
