/**
 * K3sNode — an instance enrolled as a worker node of the workspace's cluster (spec part 3,
 * Managed Kubernetes).
 *
 *   POST   /v1/workspaces/{wid}/k3s/nodes        instance_id (running, same workspace) -> workflow; JOINING, then READY
 *   GET    /v1/workspaces/{wid}/k3s/nodes/{id}   { node, live }
 *   GET    /v1/instances/{iid}/k3s               the instance's node (with live)
 *   DELETE /v1/workspaces/{wid}/k3s/nodes/{id}   workflow; DRAINING (pods rescheduled), then removed
 *
 * The join answer is a bare workflow, so the node id is read back through the instance. There
 * is no update endpoint: the instance replaces the node.
 */
import type { OperationContext } from "../provider/context";
import { workflowOf } from "../provider/client/envelope";
import { ApiError, ifFound } from "../provider/errors";
import { listAll } from "../provider/client/paging";
import { computed, fieldSet, fromFields, input, type InputsOf, type OutputsOf, owningWorkspace } from "../provider/fields/declare";
import { outputsFromAnswer } from "../provider/fields/convert";
import { zId } from "../provider/fields/constraints";
import { idOf, wireId } from "../provider/client/wire";
import { type ResourceDefinition } from "../provider/definition";
import type { K3sNodeArgs, K3sNodeOutputs } from "./generated/k3sNode";
import { clusterTearingDown } from "./k3sCluster";
import { replace } from "../provider/fields/changeEffects";

// 1. Inputs and outputs, each field declared once (provider/fields/declare.ts). A node reads as { node, live }
// (tolerant of a bare node object): `live` is null while the control plane is unreachable.
/** @internal */
export const k3sNodeFields = fieldSet({
  workspaceId: {
    ...owningWorkspace,
    fromAnswer: (v: ApiNodeView, prior) => idOf(nodeOfView(v).workspace) ?? (prior.workspaceId as string | undefined) ?? "",
  },
  instanceId: input(zId("instance id"), {
    doc: "The instance that joins the cluster: running (online and AVAILABLE) and in the same workspace. Declare the node with `dependsOn: [cluster]`. A replaced node drains first (its pods are rescheduled).",
    // No update endpoint: another instance is another node.
    onChange: replace,
    stable: true,
    fromAnswer: (v: ApiNodeView, prior) => idOf(nodeOfView(v).instance) ?? (prior.instanceId as string | undefined) ?? "",
  }),
  nodeName: computed<string>({ doc: "Name inside the cluster.", stable: true, fromAnswer: (v: ApiNodeView) => nodeOfView(v).node_name }),
  status: computed<string>({ doc: "JOINING, READY, DRAINING or FAILED.", fromAnswer: (v: ApiNodeView) => nodeOfView(v).status }),
  ready: computed<boolean>({
    doc: "Ready in the cluster; false while the control plane is unreachable (live is null).",
    fromAnswer: (v: ApiNodeView) => v.live?.ready ?? false,
  }),
  allocatable: computed<Record<string, string> | null>({
    doc: "Allocatable resources (cpu, memory, pods...); null while the control plane is unreachable.",
    fromAnswer: (v: ApiNodeView) => v.live?.allocatable ?? null,
  }),
  conditions: computed<Record<string, string> | null>({
    doc: "Condition name to status; null while the control plane is unreachable.",
    fromAnswer: (v: ApiNodeView) => v.live?.conditions ?? null,
  }),
});
type Inputs = InputsOf<typeof k3sNodeFields>;
type Outputs = OutputsOf<typeof k3sNodeFields>;

// 2. API mapping.
interface ApiNode {
  id: string;
  workspace?: { id: string } | null;
  instance?: { id: string } | null;
  node_name: string;
  status: string;
}

interface ApiNodeLive {
  ready?: boolean;
  conditions?: Record<string, string>;
  allocatable?: Record<string, string>;
}

/** "object with node and live"; tolerant of a bare node object. */
interface ApiNodeView {
  node?: ApiNode;
  live?: ApiNodeLive | null;
}

const nodeOfView = (v: ApiNodeView): ApiNode => v.node ?? (v as unknown as ApiNode);

const toOutputs = (v: ApiNodeView, prior: Partial<Inputs>): Outputs => outputsFromAnswer(k3sNodeFields, v, prior);

const nodePath = (workspaceId: string, id: string) => `/v1/workspaces/${workspaceId}/k3s/nodes/${id}`;

/** The node of an instance (GET /v1/instances/{iid}/k3s), or undefined when it is not a node. */
async function nodeOfInstance(ctx: OperationContext, instanceId: string): Promise<ApiNode | undefined> {
  const found = await ifFound(ctx.client.get<ApiNodeView>(`/v1/instances/${instanceId}/k3s`));
  return found && nodeOfView(found);
}

async function get(ctx: OperationContext, id: string, prior: Partial<Inputs>): Promise<Outputs | undefined> {
  const found = await ifFound(ctx.client.get<ApiNodeView>(nodePath(prior.workspaceId ?? "", id)));
  return found && toOutputs(found, prior);
}

// 3. The definition: what a change does (its effects) and the API calls.
/** @internal */
export const k3sNodeDefinition: ResourceDefinition<Inputs, Outputs> = {
  kind: "K3sNode",
  doc: "An instance enrolled as a worker node of the workspace's Kubernetes cluster.",
  ...fromFields(k3sNodeFields),
  label: (i, id) => `K3sNode${i.instanceId ? ` for instance ${i.instanceId}` : id ? ` ${id}` : ""}`,
  broken: (o) => o.status === "FAILED",
  // An instance is a node at most once: re-enrolling the same instance deletes the old node first.
  uniqueKey: ["instanceId"],
  pricing: { notMetered: "enrols an instance, which is priced as an Instance" },
  api: {
    // An instance is a node at most once (spec part 3).
    async conflict(ctx, i) {
      const existing = await nodeOfInstance(ctx, i.instanceId);
      return (
        existing && {
          id: String(existing.id),
          description: `instance ${i.instanceId} is already a node of the cluster (node ${existing.id}, ${existing.status})`,
        }
      );
    },
    async create(ctx, i) {
      // The answer is a bare workflow: the lifecycle finds the node through its instance.
      return {
        workflow: workflowOf(
          await ctx.client.post(`/v1/workspaces/${i.workspaceId}/k3s/nodes`, { instance_id: wireId(i.instanceId) }),
          "node join answer",
        ),
      };
    },
    async list(ctx, workspaceId) {
      const views = await listAll<ApiNodeView>(ctx.client, `/v1/workspaces/${workspaceId}/k3s/nodes`);
      return views.map(nodeOfView).map((n) => ({ id: String(n.id), name: n.node_name }));
    },
    // conflict showed the instance was no node before the POST, so a node found now is the one
    // this create made.
    async findExisting(ctx, i) {
      const node = await nodeOfInstance(ctx, i.instanceId);
      return node ? String(node.id) : undefined;
    },
    get,
    settled: (n) => (n.status === "FAILED" ? "the node is FAILED (the instance could not join the cluster)" : n.status === "READY"),
    stateOf: (n) => n.status,
    async delete(ctx, id, olds) {
      try {
        return workflowOf(await ctx.client.delete(nodePath(olds.workspaceId, id)), "node delete answer");
      } catch (err) {
        if (err instanceof ApiError && err.status === 409) {
          // Already draining, or the cluster is being torn down (which removes its nodes): wait.
          const current = await get(ctx, id, olds);
          if (!current || current.status === "DRAINING" || (await clusterTearingDown(ctx, olds.workspaceId))) return null;
        }
        throw err;
      }
    },
  },
};

// 4. The public Args: generated from the fields, with the class (resources/generated/k3sNode.ts).
export type { K3sNodeArgs, K3sNodeOutputs };
