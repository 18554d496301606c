/**
 * Vpc — a private layer-2 network isolated to a workspace (spec part 3, VPCs).
 *
 *   POST   /v1/workspaces/{wid}/vpcs    name (4-32), description (<= 240), range (RFC 1918) -> 201 VPC
 *   GET    /v1/vpcs/{vid}               VPC with the normalised range and VLAN tag
 *   PATCH  /v1/vpcs/{vid}               name, description
 *   DELETE /v1/vpcs/{vid}               audit entry; 400 while any instance is attached
 */
import type { OperationContext } from "../provider/context";
import { ApiError, ifFound } from "../provider/errors";
import {
  autonamed,
  computed,
  fieldSet,
  fromFields,
  input,
  type InputsOf,
  type OutputsOf,
  owningWorkspace,
  createdAt,
} from "../provider/fields/declare";
import { createBody, outputsFromAnswer, updateBody } from "../provider/fields/convert";
import { listAll } from "../provider/client/paging";
import { zPrivateRange, zText } from "../provider/fields/constraints";
import type { Integer } from "../provider/fields/integer";
import { type ResourceDefinition } from "../provider/definition";
import type { VpcArgs, VpcOutputs } from "./generated/vpc";
import { replace, updateRequest } from "../provider/fields/changeEffects";

const WHERE = "spec part 3, VPCs";

// 1. Inputs and outputs, each field declared once: type and limits, doc, what a change does, how it is read (provider/fields/declare.ts).
/** @internal */
export const vpcFields = fieldSet({
  workspaceId: owningWorkspace,
  name: autonamed(input(zText(4, 32, WHERE), { doc: "Display name, 4 to 32 characters.", onChange: updateRequest })),
  description: input(zText(0, 240, WHERE), { doc: "Up to 240 characters.", onChange: updateRequest }),
  range: input(zPrivateRange, {
    doc: "RFC 1918 private CIDR; normalised to the network address (10.1.2.3/16 -> 10.1.0.0/16).",
    onChange: replace,
    stable: true,
  }),
  vlan: computed<Integer>({ doc: "VLAN tag the API assigned.", stable: true, fromAnswer: (v: ApiVpc) => Number(v.vlan) }),
  createdAt,
});
type Inputs = InputsOf<typeof vpcFields>;
type Outputs = OutputsOf<typeof vpcFields>;

// 2. API mapping.
/** The API's VPC (spec part 3). */
interface ApiVpc {
  id: string;
  name: string;
  description: string;
  range: string;
  vlan: number;
  workspace?: { id: string };
  created?: string;
}
const toOutputs = (v: ApiVpc, workspaceId: string): Outputs => outputsFromAnswer(vpcFields, v, { workspaceId });

async function get(ctx: OperationContext, id: string, prior: Partial<Inputs>): Promise<Outputs | undefined> {
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

// 3. The definition: what a change does (its effects) and the API calls.
/** @internal */
export const vpcDefinition: ResourceDefinition<Inputs, Outputs> = {
  kind: "Vpc",
  doc: "A private layer-2 network; instances join it through their `vpcIds` or a `VpcAttachment`.",
  ...fromFields(vpcFields),
  pricing: {
    notMetered: "a private network: no rate card (CPU, MEMORY, STORAGE, BANDWIDTH, IP; spec part 3, Billing and usage) meters it",
  },
  api: {
    async create(ctx, i) {
      const vpc = await ctx.client.post<ApiVpc>(`/v1/workspaces/${i.workspaceId}/vpcs`, createBody(vpcFields, i));
      // The answer is the VPC itself (spec part 3: "201 VPC").
      return { id: String(vpc.id), current: toOutputs(vpc, i.workspaceId) };
    },
    async list(ctx, workspaceId) {
      return (await listAll<ApiVpc>(ctx.client, `/v1/workspaces/${workspaceId}/vpcs`)).map((v) => ({ id: String(v.id), name: v.name }));
    },
    async findExisting(ctx, i) {
      const found = await listAll<ApiVpc>(ctx.client, `/v1/workspaces/${i.workspaceId}/vpcs`, { name: i.name });
      return found.find((v) => v.name === i.name && v.range === i.range)?.id;
    },
    get,
    update: {
      async updateRequest(ctx, id, _olds, news, changed) {
        await ctx.client.patch(`/v1/vpcs/${id}`, updateBody(vpcFields, news, changed));
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

// 4. The public Args: generated from the fields, with the class (resources/generated/vpc.ts).
export type { VpcArgs, VpcOutputs };
