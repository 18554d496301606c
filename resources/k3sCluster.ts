/**
 * K3sCluster — the workspace's managed Kubernetes cluster (spec part 3, Managed Kubernetes).
 * At most one per workspace; every endpoint is addressed by the workspace, not by the cluster id.
 *
 *   GET    /v1/workspaces/{wid}/k3s   cluster object: id, owner, name (namespace identifier), status
 *   POST   /v1/workspaces/{wid}/k3s   workflow; PROVISIONING, then ACTIVE (poll the cluster)
 *   DELETE /v1/workspaces/{wid}/k3s   workflow; destructive: removes nodes, services, secrets, then the cluster
 *
 * The create answer is a bare workflow (no resource attached), so the new cluster's id is read
 * back with GET. The cluster has no updatable field: its only input is the workspace.
 */
import type { OperationContext } from "../provider/context";
import { workflowOf } from "../provider/client/envelope";
import { ifFound } from "../provider/errors";
import { computed, fieldSet, fromFields, type InputsOf, type OutputsOf, owningWorkspace } from "../provider/fields/declare";
import { outputsFromAnswer } from "../provider/fields/convert";
import { idOf } from "../provider/client/wire";
import type { ResourceDefinition } from "../provider/definition";
import type { K3sClusterArgs, K3sClusterOutputs } from "./generated/k3sCluster";

// 1. Inputs and outputs, each field declared once (provider/fields/declare.ts): no input besides the workspace.
/** @internal */
export const k3sClusterFields = fieldSet({
  // The cluster object names its workspace as its owner.
  workspaceId: {
    ...owningWorkspace,
    fromAnswer: (c: ApiCluster, prior) => idOf(c.owner) ?? (prior.workspaceId as string | undefined) ?? "",
  },
  name: computed<string>({ doc: "The cluster namespace identifier.", stable: true }),
  status: computed<string>({ doc: "PROVISIONING, ACTIVE, DEPROVISIONING or FAILED." }),
});
type Inputs = InputsOf<typeof k3sClusterFields>;
type Outputs = OutputsOf<typeof k3sClusterFields>;

// 2. API mapping.
/** @internal */
export interface ApiCluster {
  id: string;
  owner?: { id: string; name?: string | null } | null;
  name: string;
  status: string;
}

const clusterPath = (workspaceId: string) => `/v1/workspaces/${workspaceId}/k3s`;

/** The workspace's cluster, or undefined when it has none (404). @internal */
export async function clusterOf(ctx: OperationContext, workspaceId: string): Promise<ApiCluster | undefined> {
  return ifFound(ctx.client.get<ApiCluster>(clusterPath(workspaceId)));
}

/**
 * After a 409 from a delete inside the cluster (node, service, secret): whether the cluster is
 * gone or being torn down, in which case the teardown removes the object anyway and the caller
 * only has to wait for it to disappear (spec part 3: DELETE k3s removes nodes, services, secrets).
 * @internal
 */
export async function clusterTearingDown(ctx: OperationContext, workspaceId: string): Promise<boolean> {
  const cluster = await clusterOf(ctx, workspaceId);
  return !cluster || cluster.status === "DEPROVISIONING";
}

const toOutputs = (c: ApiCluster, workspaceId: string): Outputs => outputsFromAnswer(k3sClusterFields, c, { workspaceId });

/** Reads the cluster recorded under `id`: a different cluster in the workspace means ours is gone. */
async function get(ctx: OperationContext, id: string, prior: Partial<Inputs>): Promise<Outputs | undefined> {
  const workspaceId = prior.workspaceId ?? "";
  const cluster = await clusterOf(ctx, workspaceId);
  if (!cluster || String(cluster.id) !== id) return undefined;
  return toOutputs(cluster, workspaceId);
}

// 3. The definition: what a change does (its effects) and the API calls.
/** @internal */
export const k3sClusterDefinition: ResourceDefinition<Inputs, Outputs> = {
  kind: "K3sCluster",
  doc: "The workspace's managed Kubernetes cluster (one per workspace). Nodes, services and secrets need it ACTIVE: declare them with `dependsOn: [cluster]`. Deleting the cluster removes every node, service and secret in it.",
  ...fromFields(k3sClusterFields),
  label: (i, id) => `K3sCluster${i.workspaceId ? ` of workspace ${i.workspaceId}` : id ? ` ${id}` : ""}`,
  broken: (o) => o.status === "FAILED",
  // One cluster per workspace: a replacement in the same workspace must delete the old one first.
  uniqueKey: ["workspaceId"],
  pricing: { notMetered: "the cluster itself is not metered: its nodes are instances, priced as Instances" },
  api: {
    // One cluster per workspace (spec part 3): a cluster the stack did not record is never taken over.
    async conflict(ctx, i) {
      const existing = await clusterOf(ctx, i.workspaceId);
      return (
        existing && {
          id: String(existing.id),
          description: `the workspace already has a Kubernetes cluster (id ${existing.id}, ${existing.status}); a workspace holds at most one`,
          alternative: existing.status === "FAILED" ? "delete the FAILED cluster first" : undefined,
        }
      );
    },
    async create(ctx, i) {
      // The answer is a bare workflow: the lifecycle finds the new cluster with findExisting.
      return { workflow: workflowOf(await ctx.client.post(clusterPath(i.workspaceId)), "cluster create answer") };
    },
    async list(ctx, workspaceId) {
      const cluster = await clusterOf(ctx, workspaceId);
      return cluster ? [{ id: String(cluster.id), name: cluster.name }] : [];
    },
    // conflict showed the workspace had no cluster before the POST, so a cluster found now is
    // the one this create made.
    async findExisting(ctx, i) {
      const cluster = await clusterOf(ctx, i.workspaceId);
      return cluster ? String(cluster.id) : undefined;
    },
    get,
    settled: (c) => (c.status === "FAILED" ? "the Kubernetes cluster is FAILED" : c.status === "ACTIVE"),
    stateOf: (c) => c.status,
    async delete(ctx, id, olds) {
      const current = await clusterOf(ctx, olds.workspaceId);
      if (!current || String(current.id) !== id) return null;
      // Already being torn down: wait for it to go.
      if (current.status === "DEPROVISIONING") return null;
      // DELETE answers 409 while PROVISIONING: let it settle first.
      if (current.status === "PROVISIONING") {
        ctx.notice("waiting for provisioning to finish before deleting");
        await ctx.waitForState(
          () => clusterOf(ctx, olds.workspaceId),
          (c) => !c || c.status !== "PROVISIONING",
          (c) => c?.status ?? "gone",
          "delete",
        );
      }
      ctx.notice("deleting the cluster removes its nodes, services and secrets first");
      return workflowOf(await ctx.client.delete(clusterPath(olds.workspaceId)), "cluster delete answer");
    },
  },
};

// 4. The public Args: generated from the fields, with the class (resources/generated/k3sCluster.ts).
export type { K3sClusterArgs, K3sClusterOutputs };
