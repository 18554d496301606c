/**
 * The managed Kubernetes area's domain (spec part 3, "Managed Kubernetes"): rows, access,
 * lookups, the workflows that provision and tear down, the cluster and its nodes, and what a
 * deleted instance takes with it. Services and secrets are in k3sServices.ts; what clients see
 * (views, pods, logs), computed at read time from the workflow clock, is in k3sLive.ts.
 *
 * Everything that provisions or tears down runs as a workflow (spec part 3, "States and
 * transitions"): cluster PROVISIONING -> ACTIVE, DEPROVISIONING -> removed; node JOINING ->
 * READY, DRAINING -> removed; service DEPLOYING/UPDATING -> RUNNING, DELETING -> removed.
 *
 * Access ("not shown", chosen): the grants map has no Kubernetes kind, so every endpoint uses
 * the WORKSPACE grant: reads need READ (any role), writes need WRITE and the EDITOR role.
 */
import type { AccessNeed } from "../core/auth";
import { conflict, fieldError, notFound } from "../core/errors";
import { onHook } from "../core/hooks";
import type { RouteContext } from "../core/router";
import type { Services } from "../core/services";
import type { Row } from "../core/store";
import type { WorkflowView } from "../core/choices";
import { defineWorkflowEffect } from "../core/workflowEffects";
import type { InstanceRow, WorkflowRow, WorkspaceRow } from "../model";

// ---------------------------------------------------------------------------------------------
// Rows
// ---------------------------------------------------------------------------------------------

export const CLUSTER_STATUSES = ["PROVISIONING", "ACTIVE", "DEPROVISIONING", "FAILED"] as const;
export const NODE_STATUSES = ["JOINING", "READY", "DRAINING", "FAILED"] as const;
export const SERVICE_STATUSES = ["DEPLOYING", "RUNNING", "UPDATING", "DELETING", "FAILED", "STOPPED"] as const;
export const SERVICE_MODES = ["PINNED", "SPREAD"] as const;
export const UPDATE_STRATEGIES = ["ROLLING", "START_FIRST"] as const;

export interface K3sClusterRow extends Row {
  workspaceId: string;
  /** The cluster namespace identifier (derived from the workspace id). */
  name: string;
  status: (typeof CLUSTER_STATUSES)[number];
  created: string;
}

export interface K3sNodeRow extends Row {
  workspaceId: string;
  instanceId: string;
  nodeName: string;
  status: (typeof NODE_STATUSES)[number];
  created: string;
}

export interface K3sPort {
  host_port: number;
  container_port: number;
  protocol: "TCP" | "UDP";
  http: boolean;
}

export interface K3sVolume {
  host_path: string;
  container_path: string;
}

/** The desired state a revision captures (everything PUT replaces). */
export interface K3sServiceSpec {
  image: string;
  targetInstances: string[];
  replicas: number;
  ports: K3sPort[];
  volumes: K3sVolume[];
  /** Accepted on write, never returned (spec part 3, Kubernetes service). */
  environment: Record<string, string>;
  secretRefs: string[];
  updateStrategy: (typeof UPDATE_STRATEGIES)[number];
}

/** What was running before a rollout, so the live view can show old pods giving way to new ones. */
export interface K3sPodSet {
  spec: K3sServiceSpec;
  revision: number;
  generation: number;
}

export interface K3sRollout {
  workflowId: string;
  startedAt: number;
  endsAt: number;
  previous: K3sPodSet | null;
}

export interface K3sServiceRow extends Row {
  workspaceId: string;
  name: string;
  mode: (typeof SERVICE_MODES)[number];
  spec: K3sServiceSpec;
  /** Configuration revision: 1 at create, +1 per PUT; rollback restores the previous one. */
  revision: number;
  /** Earlier revisions, oldest first (rollback pops the last). */
  history: Array<{ revision: number; spec: K3sServiceSpec }>;
  /** Pod template generation: bumps on every rollout (a redeploy restarts pods with the same config). */
  generation: number;
  status: (typeof SERVICE_STATUSES)[number];
  rollout: K3sRollout | null;
  /** When the current pods started (their log lines begin here). */
  podsSince: number;
  created: string;
}

export interface K3sSecretRow extends Row {
  workspaceId: string;
  name: string;
  /** Key -> sealed value (AES-256-GCM); plaintext is never stored nor returned. */
  sealed: Record<string, string>;
  created: string;
}

declare module "../core/store" {
  interface Tables {
    k3sClusters: K3sClusterRow;
    k3sNodes: K3sNodeRow;
    k3sServices: K3sServiceRow;
    k3sSecrets: K3sSecretRow;
  }
}

// ---------------------------------------------------------------------------------------------
// Access and lookups
// ---------------------------------------------------------------------------------------------

export const READ: AccessNeed = { grant: ["WORKSPACE", "READ"] };
export const WRITE: AccessNeed = { role: "EDITOR", grant: ["WORKSPACE", "WRITE"] };

export function clusterOf(services: Services, workspaceId: string): K3sClusterRow | undefined {
  return services.store.t.k3sClusters.find((c) => c.workspaceId === workspaceId);
}

/** Writes inside the cluster need it ACTIVE (409 while provisioning, tearing down or failed). */
export function requireActiveCluster(services: Services, ws: WorkspaceRow): K3sClusterRow {
  const cluster = clusterOf(services, ws.id);
  if (!cluster) throw conflict("The workspace has no Kubernetes cluster; create one first");
  if (cluster.status !== "ACTIVE") throw conflict(`The Kubernetes cluster is ${cluster.status}; it must be ACTIVE`);
  return cluster;
}

export function nodeOfInstance(services: Services, instanceId: string): K3sNodeRow | undefined {
  return services.store.t.k3sNodes.find((n) => n.instanceId === instanceId);
}

export function loadNode(services: Services, ws: WorkspaceRow, id: string): K3sNodeRow {
  const node = services.store.t.k3sNodes.get(id);
  if (!node || node.workspaceId !== ws.id) throw notFound("Kubernetes node");
  return node;
}

export function loadService(services: Services, ws: WorkspaceRow, id: string): K3sServiceRow {
  const svc = services.store.t.k3sServices.get(id);
  if (!svc || svc.workspaceId !== ws.id) throw notFound("Kubernetes service");
  return svc;
}

export function loadSecret(services: Services, ws: WorkspaceRow, id: string): K3sSecretRow {
  const secret = services.store.t.k3sSecrets.get(id);
  if (!secret || secret.workspaceId !== ws.id) throw notFound("Kubernetes secret");
  return secret;
}

export const instanceRunning = (inst: InstanceRow | undefined): boolean => !!inst && inst.online && inst.state === "AVAILABLE";

// ---------------------------------------------------------------------------------------------
// Workflow effects (named, so in-flight work survives --state restarts)
// ---------------------------------------------------------------------------------------------

export type K3sTable = "k3sClusters" | "k3sNodes" | "k3sServices";

function resourceRow(services: Services, wf: WorkflowRow): (Row & { status: string }) | undefined {
  if (!wf.resource) return undefined;
  return services.store.table(wf.resource.kind as K3sTable).get(wf.resource.id) as (Row & { status: string }) | undefined;
}

/** Any k3s workflow that ends badly leaves its resource FAILED (rows use `status`, not `state`). */
const K3S_FAILED = defineWorkflowEffect("k3s.failed", (services, wf) => {
  const row = resourceRow(services, wf);
  if (!row || !wf.resource) return;
  const patch: Record<string, unknown> = { status: "FAILED" };
  if ("rollout" in row) patch.rollout = null;
  services.store.table(wf.resource.kind).update(row.id, patch as never);
});

const CLUSTER_READY = defineWorkflowEffect("k3s.cluster.ready", (services, wf) => {
  const row = resourceRow(services, wf);
  if (row?.status === "PROVISIONING") services.store.t.k3sClusters.update(row.id, { status: "ACTIVE" });
});

/** Teardown order (spec part 3): nodes, services, secrets, then the cluster. */
const CLUSTER_REMOVED = defineWorkflowEffect("k3s.cluster.removed", (services, wf) => {
  const cluster = services.store.t.k3sClusters.get(wf.resource?.id);
  if (!cluster) return;
  const { t } = services.store;
  const inWorkspace = (r: { workspaceId: string }) => r.workspaceId === cluster.workspaceId;
  for (const n of t.k3sNodes.filter(inWorkspace)) t.k3sNodes.delete(n.id);
  for (const s of t.k3sServices.filter(inWorkspace)) t.k3sServices.delete(s.id);
  for (const s of t.k3sSecrets.filter(inWorkspace)) t.k3sSecrets.delete(s.id);
  t.k3sClusters.delete(cluster.id);
});

const NODE_READY = defineWorkflowEffect("k3s.node.ready", (services, wf) => {
  const row = resourceRow(services, wf);
  if (row?.status === "JOINING") services.store.t.k3sNodes.update(row.id, { status: "READY" });
});

const NODE_REMOVED = defineWorkflowEffect("k3s.node.removed", (services, wf) => {
  if (wf.resource) services.store.t.k3sNodes.delete(wf.resource.id);
});

/** A rollout settles only if it is still the service's current one. */
export const SERVICE_SETTLED = defineWorkflowEffect("k3s.service.settled", (services, wf) => {
  const svc = services.store.t.k3sServices.get(wf.resource?.id);
  if (svc?.rollout?.workflowId === wf.id) services.store.t.k3sServices.update(svc.id, { status: "RUNNING", rollout: null });
});

export const SERVICE_REMOVED = defineWorkflowEffect("k3s.service.removed", (services, wf) => {
  if (wf.resource) services.store.t.k3sServices.delete(wf.resource.id);
});

export function startK3sWorkflow(
  ctx: RouteContext,
  name: string,
  ws: WorkspaceRow,
  kind: K3sTable,
  id: string,
  onComplete: string,
): WorkflowRow {
  return ctx.startWorkflow({ name, workspaceId: ws.id, resource: { kind, id }, onComplete, onFail: K3S_FAILED });
}

// ---------------------------------------------------------------------------------------------
// Cluster
// ---------------------------------------------------------------------------------------------

/** The cluster namespace identifier: derived from the workspace id ("not shown", chosen). */
const clusterName = (workspaceId: string) => `ws-${workspaceId}`;

export function requireCluster(services: Services, ws: WorkspaceRow): K3sClusterRow {
  const cluster = clusterOf(services, ws.id);
  if (!cluster) throw notFound("Kubernetes cluster");
  return cluster;
}

export function createCluster(ctx: RouteContext, ws: WorkspaceRow): WorkflowView {
  const existing = clusterOf(ctx, ws.id);
  if (existing) throw conflict(`The workspace already has a Kubernetes cluster (${existing.status})`);
  const cluster = ctx.store.t.k3sClusters.insert({
    id: ctx.store.newId(),
    workspaceId: ws.id,
    name: clusterName(ws.id),
    status: "PROVISIONING",
    created: ctx.clock.iso(),
  });
  const wf = startK3sWorkflow(ctx, "k3s-cluster-create", ws, "k3sClusters", cluster.id, CLUSTER_READY);
  return ctx.workflows.view(wf);
}

export function deleteCluster(ctx: RouteContext, ws: WorkspaceRow): WorkflowView {
  const cluster = requireCluster(ctx.services, ws);
  if (cluster.status === "PROVISIONING" || cluster.status === "DEPROVISIONING")
    throw conflict(`The Kubernetes cluster is ${cluster.status}; wait for it to settle`);
  ctx.store.t.k3sClusters.update(cluster.id, { status: "DEPROVISIONING" });
  const wf = startK3sWorkflow(ctx, "k3s-cluster-delete", ws, "k3sClusters", cluster.id, CLUSTER_REMOVED);
  return ctx.workflows.view(wf);
}

// ---------------------------------------------------------------------------------------------
// Nodes
// ---------------------------------------------------------------------------------------------

/** Name inside the cluster: the instance hostname as a DNS label, made unique in the workspace. */
function nodeNameFor(ctx: RouteContext, ws: WorkspaceRow, inst: InstanceRow): string {
  const base =
    (inst.hostname || inst.name)
      .toLowerCase()
      .replace(/[^a-z0-9-]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 40) || "node";
  const taken = new Set(ctx.store.t.k3sNodes.filter((n) => n.workspaceId === ws.id).map((n) => n.nodeName));
  if (!taken.has(base)) return base;
  return `${base}-${inst.id.slice(-6)}`;
}

export function joinNode(ctx: RouteContext, ws: WorkspaceRow, instanceId: string): WorkflowView {
  requireActiveCluster(ctx.services, ws);
  const inst = ctx.store.t.instances.get(instanceId);
  if (!inst || inst.workspaceId !== ws.id) throw fieldError("instance_id", "must be an instance of this workspace");
  if (nodeOfInstance(ctx, inst.id)) throw conflict("The instance is already a node of the cluster");
  if (!instanceRunning(inst)) throw conflict("The instance must be running (online and AVAILABLE) to join the cluster");
  const node = ctx.store.t.k3sNodes.insert({
    id: ctx.store.newId(),
    workspaceId: ws.id,
    instanceId: inst.id,
    nodeName: nodeNameFor(ctx, ws, inst),
    status: "JOINING",
    created: ctx.clock.iso(),
  });
  const wf = startK3sWorkflow(ctx, "k3s-node-join", ws, "k3sNodes", node.id, NODE_READY);
  return ctx.workflows.view(wf);
}

export function drainNode(ctx: RouteContext, ws: WorkspaceRow, node: K3sNodeRow): WorkflowView {
  requireActiveCluster(ctx.services, ws);
  if (node.status === "DRAINING") throw conflict("The node is already draining");
  ctx.store.t.k3sNodes.update(node.id, { status: "DRAINING" });
  const wf = startK3sWorkflow(ctx, "k3s-node-drain", ws, "k3sNodes", node.id, NODE_REMOVED);
  return ctx.workflows.view(wf);
}

// ---------------------------------------------------------------------------------------------
// Cross-area cleanup
// ---------------------------------------------------------------------------------------------

const withoutInstance = (spec: K3sServiceSpec, instanceId: string): K3sServiceSpec => ({
  ...spec,
  targetInstances: spec.targetInstances.filter((id) => id !== instanceId),
});

/** A deleted instance leaves the cluster and every service's targets (current and past revisions). */
onHook("instance.deleted", (services, { instanceId }) => {
  const { t } = services.store;
  for (const node of t.k3sNodes.filter((n) => n.instanceId === instanceId)) t.k3sNodes.delete(node.id);
  for (const svc of t.k3sServices.all()) {
    const mentions = [svc.spec, ...svc.history.map((h) => h.spec), ...(svc.rollout?.previous ? [svc.rollout.previous.spec] : [])];
    if (!mentions.some((s) => s.targetInstances.includes(instanceId))) continue;
    t.k3sServices.update(svc.id, {
      spec: withoutInstance(svc.spec, instanceId),
      history: svc.history.map((h) => ({ revision: h.revision, spec: withoutInstance(h.spec, instanceId) })),
      rollout: svc.rollout && {
        ...svc.rollout,
        previous: svc.rollout.previous && { ...svc.rollout.previous, spec: withoutInstance(svc.rollout.previous.spec, instanceId) },
      },
    });
  }
});
