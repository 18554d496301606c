/**
 * Vpc — a private layer-2 network isolated to a workspace (spec part 3, VPCs).
 *
 *   POST   /v1/workspaces/{wid}/vpcs    name (4-32), description (<= 240), range (RFC 1918) -> 201 VPC
 *   GET    /v1/vpcs/{vid}               VPC with the normalised range and VLAN tag
 *   PATCH  /v1/vpcs/{vid}               name, description
 *   DELETE /v1/vpcs/{vid}               audit entry; 400 while any instance is attached
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import type { OperationContext } from "../provider/context";
import { ApiError, ifFound } from "../provider/errors";
import { listAll } from "../provider/paging";
import { type WorkspaceScopedArgs } from "../provider/resource";
import { type InputsMatch, zPrivateRange, zText } from "../provider/schema";
import { idOf } from "../provider/wire";
import { replace, type ResourceSpec, updateRequest } from "../provider/spec";

// 1. Inputs.
const inputs = z.object({
  name: zText(4, 32, "spec part 3, VPCs"),
  description: zText(0, 240, "spec part 3, VPCs"),
  range: zPrivateRange,
});
type Inputs = z.infer<typeof inputs> & { workspaceId: string };
// The public VpcArgs and the schema above declare the same fields (checked by the compiler).
const _fieldsMatch: InputsMatch<VpcArgs, z.infer<typeof inputs>> = true;

export interface VpcOutputs extends Record<string, unknown> {
  workspaceId: string;
  name: string;
  description: string;
  /** The normalised range. */
  range: string;
  /** VLAN tag the API assigned. */
  vlan: number;
  createdAt: string;
}

// 2. API mapping.
interface ApiVpc {
  id: string;
  name: string;
  description: string;
  range: string;
  vlan: number;
  workspace?: { id: string };
  created?: string;
}

function toOutputs(v: ApiVpc, workspaceId: string): VpcOutputs {
  return {
    workspaceId: idOf(v.workspace) ?? workspaceId,
    name: v.name,
    description: v.description,
    range: v.range,
    vlan: Number(v.vlan),
    createdAt: v.created ?? "",
  };
}

async function read(ctx: OperationContext, id: string, prior: Partial<Inputs>): Promise<VpcOutputs | undefined> {
  const found = await ifFound(ctx.client.get<ApiVpc>(`/v1/vpcs/${id}`));
  return found && toOutputs(found, prior.workspaceId ?? "");
}

/**
 * Why a delete was refused (400 while any instance is attached, spec part 3): names the attached
 * instances, since they may be outside this stack and only a person can detach them.
 */
async function attachedMessage(ctx: OperationContext, id: string, err: ApiError): Promise<string> {
  let attached: string[] = [];
  try {
    const members = await listAll<{ id?: unknown; name?: string; instance?: { id?: unknown; name?: string } }>(
      ctx.client,
      `/v1/vpcs/${id}/instances`,
    );
    attached = members.map((m) => m.instance ?? m).map((i) => `${i.name ?? "instance"} (id ${String(i.id)})`);
  } catch {
    // The listing only makes the message better; the refusal stands on its own.
  }
  const one = attached.length === 1;
  const which = attached.length
    ? `${one ? "instance" : "instances"} ${attached.join(", ")} ${one ? "is" : "are"} attached`
    : "instances are attached";
  const them = one ? "it" : "them";
  return (
    `${ctx.label}: the API refuses to delete VPC ${id} while ${which} (${err.reason ?? err.message}). ` +
    `Detach ${them} first: remove the VPC from the Instance's vpcIds or delete the VpcAttachment if this stack manages ${them}, otherwise detach ${them} outside Pulumi (DELETE /v1/instances/{iid}/vpcs/${id}).`
  );
}

// 3. The spec: what a change does (policies) and the API calls.
/** @internal */
export const vpcSpec: ResourceSpec<Inputs, VpcOutputs> = {
  kind: "Vpc",
  doc: "A private layer-2 network; instances join it through their `vpcIds` or a `VpcAttachment`.",
  workspaceScoped: true,
  inputs,
  // What a change does.
  policies: { name: updateRequest, description: updateRequest, range: replace },
  stableOutputs: ["vlan", "range", "createdAt"],
  pricing: {
    notMetered: "a private network: no rate card (CPU, MEMORY, STORAGE, BANDWIDTH, IP; spec part 3, Billing and usage) meters it",
  },
  api: {
    async create(ctx, i) {
      const vpc = await ctx.client.post<ApiVpc>(`/v1/workspaces/${i.workspaceId}/vpcs`, {
        name: i.name,
        description: i.description,
        range: i.range,
      });
      // The answer is the VPC itself (spec part 3: "201 VPC").
      return { id: String(vpc.id), current: toOutputs(vpc, i.workspaceId) };
    },
    async findExisting(ctx, i) {
      const found = await listAll<ApiVpc>(ctx.client, `/v1/workspaces/${i.workspaceId}/vpcs`, { name: i.name });
      return found.find((v) => v.name === i.name && v.range === i.range)?.id;
    },
    read,
    update: {
      async updateRequest(ctx, id, _olds, news, changed) {
        const body: Record<string, unknown> = {};
        for (const f of changed) body[f] = news[f];
        await ctx.client.patch(`/v1/vpcs/${id}`, body);
      },
    },
    // Answered with an audit log entry once deleted (spec part 3, DELETE /v1/vpcs/{vid}).
    goneOnAnswer: true,
    async delete(ctx, id) {
      try {
        await ctx.client.delete(`/v1/vpcs/${id}`);
      } catch (err) {
        if (err instanceof ApiError && err.status === 400) throw new Error(await attachedMessage(ctx, id, err));
        throw err;
      }
    },
  },
};

// 4. The public Args: the class is generated from them and the spec (resources/generated/).
export interface VpcArgs extends WorkspaceScopedArgs {
  /** Display name, 4 to 32 characters. Patched in place. */
  name: pulumi.Input<string>;
  /** Up to 240 characters. Patched in place. */
  description: pulumi.Input<string>;
  /** RFC 1918 private CIDR; normalised to the network address (10.1.2.3/16 -> 10.1.0.0/16). Changing it replaces the VPC. */
  range: pulumi.Input<string>;
}
