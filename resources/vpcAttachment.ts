/**
 * VpcAttachment — one instance's membership of one VPC (spec part 3, VPCs).
 *
 *   POST   /v1/instances/{iid}/vpcs          vpc (integer) -> 201 audit log entry; synchronous;
 *                                            instance and VPC must be in the same workspace
 *   GET    /v1/vpcs/{vid}/instances          paged membership objects (instance summary + private ip)
 *   DELETE /v1/instances/{iid}/vpcs/{vid}    audit log entry
 *
 * Attaching adds a NIC to the instance and allocates a private address from the VPC's range
 * (the NIC appears at the next boot, or at once with hot-plug); detaching frees it.
 *
 * A membership has no identifier of its own: the resource id is `${instanceId}:${vpcId}`. It is
 * read from the VPC's member list (the spec's membership object names the instance, so that
 * list identifies the membership without relying on unshown fields).
 *
 * An Instance's own `vpcIds` input manages the same memberships: use one or the other for an
 * instance, never both (leave `vpcIds` unset on instances whose VPCs are attached here).
 */
import type { OperationContext } from "../provider/context";
import { ApiError } from "../provider/errors";
import { computed, fieldSet, fromFields, input, type InputsOf, type OutputsOf } from "../provider/fields/declare";
import { outputsFromAnswer } from "../provider/fields/convert";
import { listAll } from "../provider/client/paging";
import { zId } from "../provider/fields/constraints";
import { idOf, wireId } from "../provider/client/wire";
import { type ResourceDefinition } from "../provider/definition";
import type { VpcAttachmentArgs, VpcAttachmentOutputs } from "./generated/vpcAttachment";
import { replace } from "../provider/fields/changeEffects";

const WHERE = "spec part 3, VPCs";

/** Both ends of a membership, from its synthetic id: what a read passes as `prior`. */
type Key = { instanceId: string; vpcId: string };

// 1. Inputs and outputs, each field declared once: type and limits, doc, what a change does, how it is read (provider/fields/declare.ts).
/** @internal */
export const vpcAttachmentFields = fieldSet({
  instanceId: input(zId("instance id"), {
    doc: "The instance that joins the VPC (same workspace as the VPC).",
    onChange: replace,
    fromAnswer: (_m: ApiMembership, key) => (key as Key).instanceId,
  }),
  vpcId: input(zId("VPC id"), { doc: "The VPC.", onChange: replace, fromAnswer: (_m: ApiMembership, key) => (key as Key).vpcId }),
  privateIp: computed<string>({ doc: "Address allocated to the instance from the VPC's range.", wire: "ip" }),
});
type Inputs = InputsOf<typeof vpcAttachmentFields>;
type Outputs = OutputsOf<typeof vpcAttachmentFields>;

// 2. API mapping.
/** A member of the VPC's list (spec part 3: the membership object, an instance summary and its private address). */
interface ApiMembership {
  id: string;
  name?: string | null;
  ip: string;
}

/** A membership has no id of its own: it is "<instanceId>:<vpcId>" (also what adoptId takes). @internal */
const attachmentId = (instanceId: string, vpcId: string) => `${instanceId}:${vpcId}`;

function keyOf(id: string): Key {
  const [instanceId, vpcId] = id.split(":");
  return { instanceId, vpcId };
}

async function findMembership(ctx: OperationContext, instanceId: string, vpcId: string): Promise<ApiMembership | undefined> {
  try {
    // q matches the exact instance id (and, as substrings, names and addresses): keep the exact one.
    const members = await listAll<ApiMembership>(ctx.client, `/v1/vpcs/${vpcId}/instances`, { q: instanceId });
    return members.find((m) => idOf(m.id) === instanceId);
  } catch (err) {
    if (err instanceof ApiError && err.notFound) return undefined;
    throw err;
  }
}

async function get(ctx: OperationContext, id: string): Promise<Outputs | undefined> {
  const key = keyOf(id);
  const m = await findMembership(ctx, key.instanceId, key.vpcId);
  return m && outputsFromAnswer(vpcAttachmentFields, m, key);
}

// 3. The definition: what a change does (its effects) and the API calls.
/** @internal */
export const vpcAttachmentDefinition: ResourceDefinition<Inputs, Outputs> = {
  kind: "VpcAttachment",
  doc: "Attaches an instance to a VPC: a NIC on the instance and a private address from the VPC's range. The id is `${instanceId}:${vpcId}`. Do not also list the VPC in the Instance's `vpcIds`: leave `vpcIds` unset on instances whose memberships are managed by attachments.",
  // A membership is its two ends: either one changing is another membership.
  ...fromFields(vpcAttachmentFields),
  // The same membership cannot exist twice: a replacement that keeps both ends detaches first.
  uniqueKey: ["instanceId", "vpcId"],
  adoptIdPattern: /^\d+:\d+$/,
  adoptIdDoc: 'Adopt an existing membership: `"<instanceId>:<vpcId>"` (a membership has no id of its own).',
  label: (i, id) => `VpcAttachment of instance ${i.instanceId ?? id?.split(":")[0] ?? "?"} to VPC ${i.vpcId ?? "?"}`,
  pricing: { notMetered: "a VPC membership: no rate card meters it" },
  api: {
    async create(ctx, i) {
      try {
        await ctx.client.post(`/v1/instances/${i.instanceId}/vpcs`, { vpc: wireId(i.vpcId) });
      } catch (err) {
        if (err instanceof ApiError && err.status === 400) {
          throw new Error(
            `${ctx.label}: the API refused the attachment (${err.message}) — the instance and the VPC must be in the same workspace (${WHERE}).`,
          );
        }
        throw err;
      }
      return { id: attachmentId(i.instanceId, i.vpcId) };
    },
    // Every VPC's members, whether they joined in the instance's create body or later.
    async list(ctx, workspaceId) {
      const vpcs = await listAll<{ id: string }>(ctx.client, `/v1/workspaces/${workspaceId}/vpcs`);
      const members = await Promise.all(
        vpcs.map(async (v) =>
          (await listAll<ApiMembership>(ctx.client, `/v1/vpcs/${v.id}/instances`)).map((m) => attachmentId(idOf(m.id)!, String(v.id))),
        ),
      );
      return members.flat().map((id) => ({ id }));
    },
    // An instance joins a VPC once.
    async conflict(ctx, i) {
      const existing = await findMembership(ctx, i.instanceId, i.vpcId);
      return (
        existing && {
          id: attachmentId(i.instanceId, i.vpcId),
          description: `the instance is already attached to this VPC (private address ${existing.ip}), perhaps through an Instance's vpcIds`,
          alternative: "remove the VPC from the instance's vpcIds: one membership must have one owner",
        }
      );
    },
    // conflict showed the membership did not exist before the POST, so one found now is ours.
    async findExisting(ctx, i) {
      return (await findMembership(ctx, i.instanceId, i.vpcId)) ? attachmentId(i.instanceId, i.vpcId) : undefined;
    },
    get,
    async delete(ctx, id) {
      const { instanceId, vpcId } = keyOf(id);
      await ctx.client.delete(`/v1/instances/${instanceId}/vpcs/${vpcId}`);
    },
  },
};

// 4. The public Args: generated from the fields, with the class (resources/generated/vpcAttachment.ts).
export type { VpcAttachmentArgs, VpcAttachmentOutputs };
