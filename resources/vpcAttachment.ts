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
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import type { OperationContext } from "../provider/context";
import { ApiError } from "../provider/errors";
import { listAll } from "../provider/paging";
import { type CommonArgs } from "../provider/resource";
import { type InputsMatch, zId } from "../provider/schema";
import { idOf, wireId } from "../provider/wire";
import { replace, type ResourceSpec } from "../provider/spec";

const WHERE = "spec part 3, VPCs";

// 1. Inputs.
const inputs = z.object({
  instanceId: zId("instance id"),
  vpcId: zId("VPC id"),
});
type Inputs = z.infer<typeof inputs>;
// The public VpcAttachmentArgs and the schema above declare the same fields (checked by the compiler).
const _fieldsMatch: InputsMatch<VpcAttachmentArgs, z.infer<typeof inputs>> = true;

export interface VpcAttachmentOutputs extends Record<string, unknown> {
  instanceId: string;
  vpcId: string;
  /** Address allocated to the instance from the VPC's range. */
  privateIp: string;
  instanceName: string | null;
}

// 2. API mapping.
interface ApiMembership {
  id: string;
  name?: string | null;
  ip: string;
}

/** A membership has no id of its own: it is "<instanceId>:<vpcId>" (also what adoptId takes). @internal */
export const attachmentId = (instanceId: string, vpcId: string) => `${instanceId}:${vpcId}`;

function keyOf(id: string): { instanceId: string; vpcId: string } {
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

async function read(ctx: OperationContext, id: string): Promise<VpcAttachmentOutputs | undefined> {
  const { instanceId, vpcId } = keyOf(id);
  const m = await findMembership(ctx, instanceId, vpcId);
  return m && { instanceId, vpcId, privateIp: m.ip, instanceName: m.name ?? null };
}

// 3. The spec: what a change does (policies) and the API calls.
/** @internal */
export const vpcAttachmentSpec: ResourceSpec<Inputs, VpcAttachmentOutputs> = {
  kind: "VpcAttachment",
  doc: "Attaches an instance to a VPC: a NIC on the instance and a private address from the VPC's range. The id is `${instanceId}:${vpcId}`. Do not also list the VPC in the Instance's `vpcIds`: leave `vpcIds` unset on instances whose memberships are managed by attachments.",
  inputs,
  // What a change does: a membership is its two ends; either one changing is another membership.
  policies: { instanceId: replace, vpcId: replace },
  // The same membership cannot exist twice: a replacement that keeps both ends detaches first.
  uniqueKey: ["instanceId", "vpcId"],
  adoptIdPattern: /^\d+:\d+$/,
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
    read,
    async delete(ctx, id) {
      const { instanceId, vpcId } = keyOf(id);
      await ctx.client.delete(`/v1/instances/${instanceId}/vpcs/${vpcId}`);
    },
  },
};

// 4. The public Args: the class is generated from them and the spec (resources/generated/).
export interface VpcAttachmentArgs extends CommonArgs {
  /** The instance that joins the VPC (same workspace as the VPC). Changing it replaces the attachment. */
  instanceId: pulumi.Input<string>;
  /** The VPC. Changing it replaces the attachment (detach, then attach to the new one). */
  vpcId: pulumi.Input<string>;
  /** Adopt an existing membership: `"<instanceId>:<vpcId>"` (a membership has no id of its own). */
  adoptId?: pulumi.Input<string>;
}
