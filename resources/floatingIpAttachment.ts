/**
 * FloatingIpAttachment — a floating IP attached to an instance (spec part 3, Network commands).
 *
 *   POST /v1/commands/attach-ip   ip, instance: the IP must be allocated and not attached to another
 *                                 instance; applied immediately -> floating IP with instance populated
 *   POST /v1/commands/detach-ip   ip: detaches from whichever instance holds it -> instance cleared
 *   GET  /v1/ips/{id}             the floating IP (endpoint not shown in the spec; see FloatingIp)
 *
 * The attachment is identified by its floating IP: the resource id is the IP's id (an address
 * is attached to at most one instance). Moving it to another instance is an in-place update
 * (detach, then attach). Reading it checks which instance holds the IP now: an IP detached (or
 * moved) outside Pulumi shows as drift and the next `pulumi up` attaches it back; an IP that no
 * longer exists makes the attachment gone.
 */
import type { OperationContext } from "../provider/context";
import { ApiError } from "../provider/errors";
import { computed, fieldSet, fromFields, input, type InputsOf, type OutputsOf } from "../provider/fields/declare";
import { outputsFromAnswer } from "../provider/fields/convert";
import { zId } from "../provider/fields/constraints";
import { wireId } from "../provider/client/wire";
import { type ResourceDefinition } from "../provider/definition";
import type { FloatingIpAttachmentArgs, FloatingIpAttachmentOutputs } from "./generated/floatingIpAttachment";
import { type ApiFloatingIp, fetchFloatingIp, holderOf, listFloatingIps } from "./floatingIp";
import { replace, type StepOf, updateSteps } from "../provider/fields/changeEffects";

const WHERE = "spec part 3, Network commands: attach-ip";

// The update steps beside the update request, in the order they run; each named below as an effect.
const steps = updateSteps("move");

// 1. Inputs and outputs, each field declared once (provider/fields/declare.ts), read from the floating IP.
/** @internal */
export const floatingIpAttachmentFields = fieldSet({
  ipId: input(zId("floating IP id"), {
    doc: "The floating IP (a FloatingIp's id).",
    // Another IP is another attachment.
    onChange: replace,
    fromAnswer: (ip: ApiFloatingIp) => String(ip.id),
  }),
  instanceId: input(zId("instance id"), {
    doc: "The instance to attach to (same workspace): a move detaches, then attaches. Recorded as null when the IP was detached outside Pulumi (the next up attaches it again).",
    onChange: steps.move,
    fromAnswer: (ip: ApiFloatingIp) => holderOf(ip),
  }),
  address: computed<string>({ doc: "The floating IP's address." }),
  family: computed<string>({ doc: "The floating IP's family: IPv4 or IPv6." }),
});
type Inputs = InputsOf<typeof floatingIpAttachmentFields>;
type Outputs = OutputsOf<typeof floatingIpAttachmentFields>;

// 2. API mapping.
async function get(ctx: OperationContext, id: string): Promise<Outputs | undefined> {
  const ip = await fetchFloatingIp(ctx, id);
  return ip && outputsFromAnswer(floatingIpAttachmentFields, ip);
}

async function attach(ctx: OperationContext, ipId: string, instanceId: string): Promise<void> {
  try {
    await ctx.client.post(`/v1/commands/attach-ip`, { ip: wireId(ipId), instance: wireId(instanceId) });
  } catch (err) {
    if (err instanceof ApiError && err.status === 409) {
      throw new Error(
        `${ctx.label}: the API refused to attach floating IP ${ipId} (${err.reason ?? "conflict"}): it is attached to another instance (${WHERE}). Detach it there first, or adopt that attachment with adoptId: "${ipId}".`,
      );
    }
    if (err instanceof ApiError && err.status === 400) {
      throw new Error(
        `${ctx.label}: the API refused the attachment (${err.message}) — the instance must be in the floating IP's workspace.`,
      );
    }
    throw err;
  }
}

const detach = (ctx: OperationContext, ipId: string) => ctx.client.post(`/v1/commands/detach-ip`, { ip: wireId(ipId) });

/** IPs whose delete found nothing of this attachment's to detach (free, or moved elsewhere). */
const leftAlone = new Set<string>();

// 3. The definition: what a change does (its effects) and the API calls.
/** @internal */
export const floatingIpAttachmentDefinition: ResourceDefinition<Inputs, Outputs, StepOf<typeof steps>> = {
  steps: steps.order,
  kind: "FloatingIpAttachment",
  doc: "Attaches a floating IP to an instance. The id is the floating IP's id. Detached outside Pulumi, it is attached again by the next `pulumi up`; destroy detaches it (only from the instance it manages).",
  ...fromFields(floatingIpAttachmentFields),
  // The attachment's id is its floating IP's.
  adoptIdDoc: "Adopt the existing attachment of a floating IP: its id (the same as `ipId`).",
  label: (i, id) => `FloatingIpAttachment of IP ${i.ipId ?? id ?? "?"} to instance ${i.instanceId ?? "?"}`,
  pricing: { notMetered: "the address is priced as its FloatingIp; attaching it costs nothing more" },
  api: {
    async create(ctx, i) {
      const ip = await fetchFloatingIp(ctx, i.ipId);
      if (!ip) throw new Error(`${ctx.label}: floating IP ${i.ipId} does not exist or is not visible to this token`);
      const holder = holderOf(ip);
      if (holder && holder !== i.instanceId) {
        throw new Error(
          `${ctx.label}: floating IP ${i.ipId} (${ip.address}) is attached to instance ${holder}; adopt that attachment with adoptId: "${i.ipId}" (the next up moves it), or detach it first.`,
        );
      }
      // Attaching to the current holder is a no-op (the IP is "not attached to another instance").
      await attach(ctx, i.ipId, i.instanceId);
      return { id: i.ipId };
    },
    // The workspace's own addresses that an instance holds (one an instance's create allocated is
    // its own, and no attachment: FloatingIp's list says so once).
    async list(ctx, workspaceId) {
      return (await listFloatingIps(ctx, workspaceId))
        .filter(({ ip, leftOut }) => holderOf(ip) !== null && !leftOut)
        .map(({ ip }) => ({ id: String(ip.id), name: ip.address }));
    },
    // attach-ip is applied immediately: after a lost answer, the IP held by the instance is the proof.
    async findExisting(ctx, i) {
      const ip = await fetchFloatingIp(ctx, i.ipId);
      return ip && holderOf(ip) === i.instanceId ? i.ipId : undefined;
    },
    get: (ctx, id) => get(ctx, id),
    update: {
      async move(ctx, id, _olds, news) {
        const ip = await fetchFloatingIp(ctx, id);
        if (!ip) throw new Error(`${ctx.label}: floating IP ${id} no longer exists`);
        const holder = holderOf(ip);
        if (holder === news.instanceId) return;
        if (holder) {
          ctx.notice(`detaching from instance ${holder}`);
          await detach(ctx, id);
        }
        await attach(ctx, id, news.instanceId);
      },
    },
    // Detach only from the instance this attachment holds: an IP moved elsewhere outside Pulumi is
    // no longer this attachment's, and is left where it is.
    async delete(ctx, id, olds) {
      const ip = await fetchFloatingIp(ctx, id);
      const holder = ip ? holderOf(ip) : null;
      leftAlone.delete(id);
      if (holder && holder === olds.instanceId) {
        await detach(ctx, id);
        return;
      }
      if (holder) ctx.notice(`floating IP ${id} is held by instance ${holder}, not ${olds.instanceId}: left attached there`);
      leftAlone.add(id);
    },
    isGone: (o) => o.instanceId === null || leftAlone.has(o.ipId),
  },
};

// 4. The public Args: generated from the fields, with the class (resources/generated/floatingIpAttachment.ts).
export type { FloatingIpAttachmentArgs, FloatingIpAttachmentOutputs };
