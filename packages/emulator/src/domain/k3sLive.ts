/**
 * What clients see of the managed Kubernetes area, computed at read time: the `live` halves of
 * node and service objects come from the workflow clock, the nodes and the instances' power
 * state, so a client polling mid-rollout sees pods come up one by one and a powered-off
 * instance's node turn NotReady without any bookkeeping; logs are deterministic lines on the
 * emulator clock (spec part 3, "Managed Kubernetes"; the choices are in emulator/README.md).
 */
import { createHash } from "node:crypto";
import type { Services } from "../core/services";
import type { InstanceRow, WorkspaceRow } from "../model";
import {
  clusterOf,
  instanceRunning,
  nodeOfInstance,
  type K3sClusterRow,
  type K3sNodeRow,
  type K3sPodSet,
  type K3sRollout,
  type K3sSecretRow,
  type K3sServiceRow,
  type K3sServiceSpec,
} from "./k3s";

// ---------------------------------------------------------------------------------------------
// Views
// ---------------------------------------------------------------------------------------------

const workspaceSummary = (ws: WorkspaceRow | undefined, id: string) => ({ id, name: ws?.name ?? null });

function instanceSummary(services: Services, id: string) {
  return { id, name: services.store.t.instances.get(id)?.name ?? null };
}

export function clusterView(services: Services, c: K3sClusterRow) {
  return {
    id: c.id,
    owner: workspaceSummary(services.store.t.workspaces.get(c.workspaceId), c.workspaceId),
    name: c.name,
    status: c.status,
  };
}

/** Allocatable resources the kubelet reports (the whole instance; nothing reserved). */
function allocatable(inst: InstanceRow | undefined) {
  if (!inst) return {};
  return { cpu: String(inst.cpu), memory: `${Math.floor(inst.memoryBytes / 1024)}Ki`, pods: "110" };
}

/** live: null while the control plane is unreachable (cluster not ACTIVE) or the node FAILED. */
function nodeLive(services: Services, node: K3sNodeRow) {
  if (clusterOf(services, node.workspaceId)?.status !== "ACTIVE" || node.status === "FAILED") return null;
  const inst = services.store.t.instances.get(node.instanceId);
  const joined = node.status !== "JOINING";
  const up = instanceRunning(inst);
  // A kubelet that stopped posting status shows Ready "Unknown" (the instance is powered off).
  const readyCondition = !joined ? "False" : up ? "True" : "Unknown";
  return {
    ready: joined && up,
    conditions: {
      Ready: readyCondition,
      MemoryPressure: "False",
      DiskPressure: "False",
      PIDPressure: "False",
      NetworkUnavailable: "False",
    },
    allocatable: allocatable(inst),
  };
}

export function k3sNodeView(services: Services, node: K3sNodeRow) {
  return {
    node: {
      id: node.id,
      workspace: workspaceSummary(services.store.t.workspaces.get(node.workspaceId), node.workspaceId),
      instance: instanceSummary(services, node.instanceId),
      node_name: node.nodeName,
      status: node.status,
    },
    live: nodeLive(services, node),
  };
}

export function serviceView(services: Services, svc: K3sServiceRow) {
  const { spec } = svc;
  return {
    service: {
      id: svc.id,
      name: svc.name,
      image: spec.image,
      mode: svc.mode,
      target_instances: spec.targetInstances.map((id) => instanceSummary(services, id)),
      replicas: spec.replicas,
      ports: spec.ports.map((p) => ({ ...p })),
      volumes: spec.volumes.map((v) => ({ ...v })),
      secret_refs: [...spec.secretRefs],
      update_strategy: spec.updateStrategy,
      status: svc.status,
    },
    live: serviceLive(services, svc),
  };
}

export const secretView = (s: K3sSecretRow) => ({ id: s.id, name: s.name, keys: Object.keys(s.sealed).sort() });

// ---------------------------------------------------------------------------------------------
// Pods: placement and rollout progress on the workflow clock
// ---------------------------------------------------------------------------------------------

interface PodView {
  name: string;
  phase: "Pending" | "Running" | "Failed" | "Unknown";
  restart_count: number;
  ready: boolean;
  node_name: string | null;
}

/** Kubernetes' "safe" alphabet for generated name suffixes. */
const SAFE = "bcdfghjklmnpqrstvwxz2456789";

function safeHash(text: string, length: number): string {
  const bytes = createHash("sha1").update(text).digest();
  let out = "";
  for (let i = 0; i < length; i++) out += SAFE[bytes[i] % SAFE.length];
  return out;
}

/**
 * Where the pods of a pod set go. PINNED: one pod per target instance (the instance must be a
 * READY node, else the pod stays Pending). SPREAD: `replicas` pods round-robin over the target
 * instances that are READY nodes. DRAINING nodes are cordoned, so their pods go elsewhere.
 */
function placement(services: Services, mode: K3sServiceRow["mode"], spec: K3sServiceSpec): Array<K3sNodeRow | null> {
  const nodes = spec.targetInstances.map((iid) => {
    const node = nodeOfInstance(services, iid);
    return node && node.status === "READY" ? node : null;
  });
  if (mode === "PINNED") return nodes;
  const usable = nodes.filter((n): n is K3sNodeRow => n !== null);
  return Array.from({ length: spec.replicas }, (_, i) => (usable.length ? usable[i % usable.length] : null));
}

/** The pods of a pod set once settled: Running where their node is up. */
export function settledPods(services: Services, svc: K3sServiceRow, set: K3sPodSet): PodView[] {
  const template = safeHash(`${svc.id}:${set.revision}:${set.generation}`, 10);
  return placement(services, svc.mode, set.spec).map((node, i) => {
    const name = `${svc.name}-${template}-${safeHash(`${template}:${i}`, 5)}`;
    if (!node) return { name, phase: "Pending", restart_count: 0, ready: false, node_name: null };
    const up = instanceRunning(services.store.t.instances.get(node.instanceId));
    return { name, phase: up ? "Running" : "Unknown", restart_count: 0, ready: up, node_name: node.nodeName };
  });
}

const starting = (pod: PodView): PodView => ({ ...pod, phase: "Pending", ready: false });

export const currentSet = (svc: K3sServiceRow): K3sPodSet => ({ spec: svc.spec, revision: svc.revision, generation: svc.generation });

/** How far a rollout is, as the number of new pods that are up (0..count). */
function rolloutStep(services: Services, rollout: K3sRollout, count: number): number {
  const span = rollout.endsAt - rollout.startedAt;
  const fraction = span <= 0 ? 1 : Math.min(1, Math.max(0, (services.clock.now() - rollout.startedAt) / span));
  return Math.min(count, Math.floor(fraction * (count + 1)));
}

/**
 * Pods during a rollout. ROLLING replaces one pod at a time (the old pod goes as its new one is
 * created); START_FIRST starts every new pod first and removes the old ones once all are up.
 */
function rolloutPods(services: Services, svc: K3sServiceRow, rollout: K3sRollout): { pods: PodView[]; updated: number } {
  const fresh = settledPods(services, svc, currentSet(svc));
  const step = rolloutStep(services, rollout, fresh.length);
  const done = step >= fresh.length;
  const old = rollout.previous && !done ? settledPods(services, svc, rollout.previous) : [];
  if (svc.spec.updateStrategy === "START_FIRST" || !rollout.previous) {
    const pods = fresh.map((p, i) => (i < step ? p : starting(p)));
    return { pods: [...old, ...pods], updated: fresh.length };
  }
  const created = fresh.slice(0, Math.min(fresh.length, step + 1)).map((p, i) => (i < step ? p : starting(p)));
  return { pods: [...old.slice(step + 1), ...created], updated: created.length };
}

function servicePods(services: Services, svc: K3sServiceRow): { pods: PodView[]; updated: number; desired: number } {
  const settled = settledPods(services, svc, currentSet(svc));
  switch (svc.status) {
    case "DEPLOYING":
    case "UPDATING":
      if (svc.rollout) return { ...rolloutPods(services, svc, svc.rollout), desired: settled.length };
      break;
    case "FAILED":
      return { pods: settled.map((p) => ({ ...p, phase: "Failed", ready: false })), updated: settled.length, desired: settled.length };
    case "DELETING":
      // Terminating: still listed, no longer ready, nothing desired.
      return { pods: settled.map((p) => ({ ...p, ready: false })), updated: 0, desired: 0 };
    case "STOPPED":
      return { pods: [], updated: 0, desired: 0 };
  }
  return { pods: settled, updated: settled.length, desired: settled.length };
}

/** live: null while the control plane is unreachable (cluster not ACTIVE). */
function serviceLive(services: Services, svc: K3sServiceRow) {
  if (clusterOf(services, svc.workspaceId)?.status !== "ACTIVE") return null;
  const { pods, updated, desired } = servicePods(services, svc);
  const available = pods.filter((p) => p.ready).length;
  return {
    desired_replicas: desired,
    available_replicas: available,
    unavailable_replicas: Math.max(0, desired - available),
    updated_replicas: updated,
    updating: svc.status === "DEPLOYING" || svc.status === "UPDATING",
    pods,
  };
}

// ---------------------------------------------------------------------------------------------
// Logs: deterministic lines on the emulator clock
// ---------------------------------------------------------------------------------------------

/** One container log line every five seconds of emulator time, from when the pods started. */
const LOG_INTERVAL_MS = 5_000;

function logMessage(svc: K3sServiceRow, pod: string, k: number): string {
  const port = svc.spec.ports[0];
  const startup = [
    `[info] starting ${svc.spec.image}`,
    `[info] configuration loaded: ${Object.keys(svc.spec.environment).length} environment variables, ${svc.spec.secretRefs.length} secrets`,
    port
      ? `[info] listening on 0.0.0.0:${port.container_port}/${port.protocol.toLowerCase()}`
      : "[info] no ports published; running in the background",
  ];
  if (k < startup.length) return startup[k];
  return k % 2 === 1 ? `[info] GET /healthz 200 ${1 + ((k * 7) % 40)}ms` : `[debug] heartbeat pod=${pod} seq=${k}`;
}

export const logLine = (svc: K3sServiceRow, pod: string, k: number): string =>
  `${new Date(svc.podsSince + k * LOG_INTERVAL_MS).toISOString()} ${logMessage(svc, pod, k)}`;

/** Index of the newest line already written at `now` (-1 when none). */
export const lastLineIndex = (svc: K3sServiceRow, now: number): number => Math.floor((now - svc.podsSince) / LOG_INTERVAL_MS);

/** Line indexes to show: newer than since_seconds, the last `tail` of them. */
export function lineRange(svc: K3sServiceRow, now: number, tail: number, sinceSeconds: number | undefined): [number, number] {
  const last = lastLineIndex(svc, now);
  let first = 0;
  if (sinceSeconds !== undefined) first = Math.max(0, Math.floor((sinceSeconds * 1000 - svc.podsSince) / LOG_INTERVAL_MS) + 1);
  first = Math.max(first, last - tail + 1);
  return [first, last];
}
