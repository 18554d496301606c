/**
 * Part 3 Managed Kubernetes: one cluster per workspace, instances enrolled as worker nodes,
 * containerised services with a live rollout view and logs, and secrets the services reference.
 *
 * Everything that provisions or tears down runs as a workflow (spec part 3, "States and
 * transitions"): cluster PROVISIONING -> ACTIVE, DEPROVISIONING -> removed; node JOINING ->
 * READY, DRAINING -> removed; service DEPLOYING/UPDATING -> RUNNING, DELETING -> removed.
 *
 * The `live` halves of node and service objects are computed at read time from the workflow
 * clock, the nodes and the instances' power state, so a client polling mid-rollout sees pods
 * come up one by one and a powered-off instance's node turn NotReady without any bookkeeping.
 *
 * Access ("not shown", chosen): the grants map has no Kubernetes kind, so every endpoint uses
 * the WORKSPACE grant: reads need READ (any role), writes need WRITE and the EDITOR role.
 */
import { createCipheriv, createHash } from "node:crypto";
import { z } from "zod";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { AccessNeed } from "../core/auth";
import type { Domain } from "../core/domain";
import { badRequest, conflict, fieldError, notFound } from "../core/errors";
import { onHook } from "../core/hooks";
import { paginate } from "../core/paging";
import { accepted, created, noContent, ok, type Reply, type RouteContext } from "../core/router";
import type { Services } from "../core/services";
import type { Row } from "../core/store";
import { contains, parseWith, pathId, queryEnum, queryIds, queryInt, zId } from "../core/validation";
import { defineWorkflowEffect } from "../core/workflows";
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
interface K3sPodSet {
  spec: K3sServiceSpec;
  revision: number;
  generation: number;
}

interface K3sRollout {
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

const READ: AccessNeed = { grant: ["WORKSPACE", "READ"] };
const WRITE: AccessNeed = { role: "EDITOR", grant: ["WORKSPACE", "WRITE"] };

/** The path workspace, after checking the caller may act on it (404 when missing or invisible). */
function workspaceOf(ctx: RouteContext, need: AccessNeed): WorkspaceRow {
  const ws = ctx.store.t.workspaces.get(pathId(ctx.params.wid, "wid"));
  if (!ws) throw notFound("Workspace");
  ctx.access(ws.id, need);
  return ws;
}

function clusterOf(services: Services, workspaceId: string): K3sClusterRow | undefined {
  return services.store.t.k3sClusters.find((c) => c.workspaceId === workspaceId);
}

/** Writes inside the cluster need it ACTIVE (409 while provisioning, tearing down or failed). */
function requireActiveCluster(ctx: RouteContext, ws: WorkspaceRow): K3sClusterRow {
  const cluster = clusterOf(ctx, ws.id);
  if (!cluster) throw conflict("The workspace has no Kubernetes cluster; create one first");
  if (cluster.status !== "ACTIVE") throw conflict(`The Kubernetes cluster is ${cluster.status}; it must be ACTIVE`);
  return cluster;
}

function nodeOfInstance(services: Services, instanceId: string): K3sNodeRow | undefined {
  return services.store.t.k3sNodes.find((n) => n.instanceId === instanceId);
}

function loadNode(ctx: RouteContext, ws: WorkspaceRow): K3sNodeRow {
  const node = ctx.store.t.k3sNodes.get(pathId(ctx.params.id, "id"));
  if (!node || node.workspaceId !== ws.id) throw notFound("Kubernetes node");
  return node;
}

function loadService(ctx: RouteContext, ws: WorkspaceRow): K3sServiceRow {
  const svc = ctx.store.t.k3sServices.get(pathId(ctx.params.id, "id"));
  if (!svc || svc.workspaceId !== ws.id) throw notFound("Kubernetes service");
  return svc;
}

function loadSecret(ctx: RouteContext, ws: WorkspaceRow): K3sSecretRow {
  const secret = ctx.store.t.k3sSecrets.get(pathId(ctx.params.id, "id"));
  if (!secret || secret.workspaceId !== ws.id) throw notFound("Kubernetes secret");
  return secret;
}

const instanceRunning = (inst: InstanceRow | undefined): boolean => !!inst && inst.online && inst.state === "AVAILABLE";

// ---------------------------------------------------------------------------------------------
// Views
// ---------------------------------------------------------------------------------------------

const workspaceSummary = (ws: WorkspaceRow | undefined, id: string) => ({ id, name: ws?.name ?? null });

function instanceSummary(services: Services, id: string) {
  return { id, name: services.store.t.instances.get(id)?.name ?? null };
}

function clusterView(services: Services, c: K3sClusterRow) {
  return { id: c.id, owner: workspaceSummary(services.store.t.workspaces.get(c.workspaceId), c.workspaceId), name: c.name, status: c.status };
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
    conditions: { Ready: readyCondition, MemoryPressure: "False", DiskPressure: "False", PIDPressure: "False", NetworkUnavailable: "False" },
    allocatable: allocatable(inst),
  };
}

function nodeView(services: Services, node: K3sNodeRow) {
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

function serviceView(services: Services, svc: K3sServiceRow) {
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

const secretView = (s: K3sSecretRow) => ({ id: s.id, name: s.name, keys: Object.keys(s.sealed).sort() });

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
function settledPods(services: Services, svc: K3sServiceRow, set: K3sPodSet): PodView[] {
  const template = safeHash(`${svc.id}:${set.revision}:${set.generation}`, 10);
  return placement(services, svc.mode, set.spec).map((node, i) => {
    const name = `${svc.name}-${template}-${safeHash(`${template}:${i}`, 5)}`;
    if (!node) return { name, phase: "Pending", restart_count: 0, ready: false, node_name: null };
    const up = instanceRunning(services.store.t.instances.get(node.instanceId));
    return { name, phase: up ? "Running" : "Unknown", restart_count: 0, ready: up, node_name: node.nodeName };
  });
}

const starting = (pod: PodView): PodView => ({ ...pod, phase: "Pending", ready: false });

const currentSet = (svc: K3sServiceRow): K3sPodSet => ({ spec: svc.spec, revision: svc.revision, generation: svc.generation });

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
const SSE_POLL_MS = 100;
const MAX_LINES_PER_BURST = 1_000;

function logMessage(svc: K3sServiceRow, pod: string, k: number): string {
  const port = svc.spec.ports[0];
  const startup = [
    `[info] starting ${svc.spec.image}`,
    `[info] configuration loaded: ${Object.keys(svc.spec.environment).length} environment variables, ${svc.spec.secretRefs.length} secrets`,
    port ? `[info] listening on 0.0.0.0:${port.container_port}/${port.protocol.toLowerCase()}` : "[info] no ports published; running in the background",
  ];
  if (k < startup.length) return startup[k];
  return k % 2 === 1 ? `[info] GET /healthz 200 ${1 + ((k * 7) % 40)}ms` : `[debug] heartbeat pod=${pod} seq=${k}`;
}

const logLine = (svc: K3sServiceRow, pod: string, k: number): string =>
  `${new Date(svc.podsSince + k * LOG_INTERVAL_MS).toISOString()} ${logMessage(svc, pod, k)}`;

/** Index of the newest line already written at `now` (-1 when none). */
const lastLineIndex = (svc: K3sServiceRow, now: number): number => Math.floor((now - svc.podsSince) / LOG_INTERVAL_MS);

/** Line indexes to show: newer than since_seconds, the last `tail` of them. */
function lineRange(svc: K3sServiceRow, now: number, tail: number, sinceSeconds: number | undefined): [number, number] {
  const last = lastLineIndex(svc, now);
  let first = 0;
  if (sinceSeconds !== undefined) first = Math.max(0, Math.floor((sinceSeconds * 1000 - svc.podsSince) / LOG_INTERVAL_MS) + 1);
  first = Math.max(first, last - tail + 1);
  return [first, last];
}

/** The `follow` flag: present (`?follow`), true or 1 turns it on. */
function followFlag(value: unknown): boolean {
  if (value === undefined) return false;
  if (value === "" || value === "true" || value === "1") return true;
  if (value === "false" || value === "0") return false;
  throw badRequest("Invalid query: follow must be a flag (true or false)", [{ field: "follow", message: "must be true or false" }]);
}

function boundedQueryInt(ctx: RouteContext, name: string, def: number, min: number, max: number): number {
  const value = queryInt(ctx.query[name], name) ?? def;
  if (value < min || value > max) throw badRequest(`Invalid query: ${name} must be from ${min} to ${max}`, [{ field: name, message: `must be from ${min} to ${max}` }]);
  return value;
}

/** Server-sent events: the tail, then new lines as the clock moves; ends when the service is gone. */
function followStream(services: Services, serviceId: string, pod: string, first: number) {
  return (request: FastifyRequest, reply: FastifyReply): void => {
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache", connection: "keep-alive" });
    let next = first;
    const emit = (): boolean => {
      services.workflows.advance();
      const svc = services.store.t.k3sServices.get(serviceId);
      if (!svc || svc.status === "DELETING") {
        res.end("event: end\ndata: service deleted\n\n");
        return false;
      }
      const last = lastLineIndex(svc, services.clock.now());
      next = Math.max(next, last - MAX_LINES_PER_BURST + 1);
      let chunk = "";
      for (; next <= last; next++) chunk += `id: ${next}\ndata: ${logLine(svc, pod, next)}\n\n`;
      if (chunk) res.write(chunk);
      return true;
    };
    if (!emit()) return;
    const timer = setInterval(() => {
      if (!emit()) clearInterval(timer);
    }, SSE_POLL_MS);
    timer.unref();
    const stop = () => clearInterval(timer);
    request.raw.on("close", stop);
    res.on("close", stop);
  };
}

function logsHandler(ctx: RouteContext): Reply {
  const ws = workspaceOf(ctx, READ);
  const svc = loadService(ctx, ws);
  const tail = boundedQueryInt(ctx, "tail", 100, 0, 10_000);
  const since = ctx.query.since_seconds === undefined ? undefined : boundedQueryInt(ctx, "since_seconds", 0, 0, Number.MAX_SAFE_INTEGER);
  const podIndex = boundedQueryInt(ctx, "pod_index", 0, 0, 10_000);
  const pods = settledPods(ctx, svc, currentSet(svc));
  if (podIndex >= pods.length) {
    throw badRequest(`Invalid query: pod_index ${podIndex} is out of range (the service has ${pods.length} pods)`, [{ field: "pod_index", message: "out of range" }]);
  }
  const [first, last] = lineRange(svc, ctx.clock.now(), tail, since);
  if (followFlag(ctx.query.follow)) return { status: 200, stream: followStream(ctx.services, svc.id, pods[podIndex].name, first) };
  let text = "";
  for (let k = first; k <= last; k++) text += `${logLine(svc, pods[podIndex].name, k)}\n`;
  return { status: 200, text };
}

// ---------------------------------------------------------------------------------------------
// Secrets: sealed at rest
// ---------------------------------------------------------------------------------------------

/** The emulator's sealing key: values are really encrypted, so the row never holds plaintext. */
const SEALING_KEY = createHash("sha256").update("pulumi-svc emulator: k3s secret sealing key").digest();

function seal(services: Services, value: string): string {
  const iv = Buffer.from(services.store.rng.hex(24), "hex");
  const cipher = createCipheriv("aes-256-gcm", SEALING_KEY, iv);
  const body = Buffer.concat([cipher.update(value, "utf8"), cipher.final(), cipher.getAuthTag()]);
  return `enc:v1:${iv.toString("base64")}:${body.toString("base64")}`;
}

function sealAll(services: Services, data: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(data).map(([k, v]) => [k, seal(services, v)]));
}

// ---------------------------------------------------------------------------------------------
// Validation
// ---------------------------------------------------------------------------------------------

/** Service and secret names: DNS-1123 labels ("not shown", chosen: Kubernetes object names). */
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;
const zName = z.string().regex(DNS_LABEL, "must be 1 to 63 lowercase letters, digits or '-', starting and ending with a letter or digit");

/** An image reference with an explicit tag: [registry[:port]/]path:tag. */
const IMAGE = /^[a-z0-9]+(?:[._-][a-z0-9]+)*(?::\d+)?(?:\/[a-z0-9]+(?:[._-][a-z0-9]+)*)*:[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$/;
const zImage = z.string().max(512).regex(IMAGE, "must be a container image with a tag, such as nginx:1.27 or ghcr.io/org/app:v2");

const zPort = z.number().int().min(1).max(65535);
const zPortSpec = z.object({
  host_port: zPort,
  container_port: zPort,
  protocol: z.enum(["TCP", "UDP"]).default("TCP"),
  http: z.boolean().default(false),
});

const zAbsolutePath = z.string().max(4096).regex(/^\/\S*$/, "must be an absolute path");
const zVolumeSpec = z.object({ host_path: zAbsolutePath, container_path: zAbsolutePath });

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const zEnvironment = z.record(z.string().regex(ENV_NAME, "environment names must be letters, digits and '_', not starting with a digit"), z.string().max(32_768));

/** Everything PUT replaces (spec part 3: "full desired state"); optional fields default when omitted. */
const SpecFields = {
  image: zImage,
  target_instances: z.array(zId).min(1).max(100),
  replicas: z.number().int().min(1).max(100).default(1),
  ports: z.array(zPortSpec).max(64).default([]),
  volumes: z.array(zVolumeSpec).max(64).default([]),
  environment: zEnvironment.default({}),
  secret_refs: z.array(zName).max(64).default([]),
  update_strategy: z.enum(UPDATE_STRATEGIES).default("ROLLING"),
};

const ServiceCreateBody = z.object({ name: zName, mode: z.enum(SERVICE_MODES), ...SpecFields });
const ServicePutBody = z.object({ name: z.string().optional(), mode: z.string().optional(), ...SpecFields });
type SpecInput = z.infer<typeof ServicePutBody>;

const zSecretData = z.record(z.string().regex(/^[-._a-zA-Z0-9]{1,253}$/, "secret keys must be letters, digits, '-', '_' or '.'"), z.string().max(1_048_576));
const SecretCreateBody = z.object({ name: zName, data: zSecretData });
const SecretPutBody = z.object({ data: zSecretData });

function firstDuplicate<T>(items: T[], key: (item: T) => string): number {
  const seen = new Set<string>();
  for (let i = 0; i < items.length; i++) {
    const k = key(items[i]);
    if (seen.has(k)) return i;
    seen.add(k);
  }
  return -1;
}

function rejectDuplicates<T>(items: T[], field: string, key: (item: T) => string, what: string): void {
  const i = firstDuplicate(items, key);
  if (i >= 0) throw fieldError(`${field}[${i}]`, `duplicate ${what}`);
}

/** Target instances: instances of this workspace (400 otherwise) that are READY nodes (409 otherwise). */
function checkTargets(ctx: RouteContext, ws: WorkspaceRow, ids: string[]): void {
  rejectDuplicates(ids, "target_instances", (id) => id, "instance");
  ids.forEach((id, i) => {
    const inst = ctx.store.t.instances.get(id);
    if (!inst || inst.workspaceId !== ws.id) throw fieldError(`target_instances[${i}]`, `instance ${id} is not an instance of this workspace`);
    if (nodeOfInstance(ctx, id)?.status !== "READY") throw conflict(`Instance ${id} is not a READY node of the workspace's Kubernetes cluster`);
  });
}

/** Secret references must name secrets of the workspace (400 otherwise). */
function checkSecretRefs(ctx: RouteContext, ws: WorkspaceRow, names: string[]): void {
  rejectDuplicates(names, "secret_refs", (n) => n, "secret name");
  names.forEach((name, i) => {
    if (!secretByName(ctx, ws.id, name)) throw fieldError(`secret_refs[${i}]`, `no secret named ${name} in this workspace`);
  });
}

function checkPorts(ports: K3sPort[]): void {
  rejectDuplicates(ports, "ports", (p) => `${p.host_port}/${p.protocol}`, "host_port and protocol");
  ports.forEach((p, i) => {
    if (p.http && p.protocol !== "TCP") throw fieldError(`ports[${i}].http`, "http applies to TCP ports only");
  });
}

function specFrom(ctx: RouteContext, ws: WorkspaceRow, input: SpecInput): K3sServiceSpec {
  checkPorts(input.ports);
  rejectDuplicates(input.volumes, "volumes", (v) => v.container_path, "container_path");
  checkSecretRefs(ctx, ws, input.secret_refs);
  checkTargets(ctx, ws, input.target_instances);
  return {
    image: input.image,
    targetInstances: input.target_instances,
    replicas: input.replicas,
    ports: input.ports,
    volumes: input.volumes,
    environment: input.environment,
    secretRefs: input.secret_refs,
    updateStrategy: input.update_strategy,
  };
}

function secretByName(services: Services, workspaceId: string, name: string): K3sSecretRow | undefined {
  return services.store.t.k3sSecrets.find((s) => s.workspaceId === workspaceId && s.name === name);
}

// ---------------------------------------------------------------------------------------------
// Workflow effects (named, so in-flight work survives --state restarts)
// ---------------------------------------------------------------------------------------------

type K3sTable = "k3sClusters" | "k3sNodes" | "k3sServices";

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
const SERVICE_SETTLED = defineWorkflowEffect("k3s.service.settled", (services, wf) => {
  const svc = services.store.t.k3sServices.get(wf.resource?.id);
  if (svc?.rollout?.workflowId === wf.id) services.store.t.k3sServices.update(svc.id, { status: "RUNNING", rollout: null });
});

const SERVICE_REMOVED = defineWorkflowEffect("k3s.service.removed", (services, wf) => {
  if (wf.resource) services.store.t.k3sServices.delete(wf.resource.id);
});

function startK3sWorkflow(ctx: RouteContext, name: string, ws: WorkspaceRow, kind: K3sTable, id: string, onComplete: string): WorkflowRow {
  return ctx.startWorkflow({ name, workspaceId: ws.id, resource: { kind, id }, onComplete, onFail: K3S_FAILED });
}

// ---------------------------------------------------------------------------------------------
// Cluster
// ---------------------------------------------------------------------------------------------

/** The cluster namespace identifier: derived from the workspace id ("not shown", chosen). */
const clusterName = (workspaceId: string) => `ws-${workspaceId}`;

function getCluster(ctx: RouteContext): Reply {
  const ws = workspaceOf(ctx, READ);
  const cluster = clusterOf(ctx, ws.id);
  if (!cluster) throw notFound("Kubernetes cluster");
  return ok(clusterView(ctx, cluster));
}

function createCluster(ctx: RouteContext): Reply {
  const ws = workspaceOf(ctx, WRITE);
  const existing = clusterOf(ctx, ws.id);
  if (existing) throw conflict(`The workspace already has a Kubernetes cluster (${existing.status})`);
  const cluster = ctx.store.t.k3sClusters.insert({ id: ctx.store.newId(), workspaceId: ws.id, name: clusterName(ws.id), status: "PROVISIONING", created: ctx.clock.iso() });
  const wf = startK3sWorkflow(ctx, "k3s-cluster-create", ws, "k3sClusters", cluster.id, CLUSTER_READY);
  return accepted(ctx.workflows.view(wf));
}

function deleteCluster(ctx: RouteContext): Reply {
  const ws = workspaceOf(ctx, WRITE);
  const cluster = clusterOf(ctx, ws.id);
  if (!cluster) throw notFound("Kubernetes cluster");
  if (cluster.status === "PROVISIONING" || cluster.status === "DEPROVISIONING") throw conflict(`The Kubernetes cluster is ${cluster.status}; wait for it to settle`);
  ctx.store.t.k3sClusters.update(cluster.id, { status: "DEPROVISIONING" });
  const wf = startK3sWorkflow(ctx, "k3s-cluster-delete", ws, "k3sClusters", cluster.id, CLUSTER_REMOVED);
  return accepted(ctx.workflows.view(wf));
}

// ---------------------------------------------------------------------------------------------
// Nodes
// ---------------------------------------------------------------------------------------------

/** Name inside the cluster: the instance hostname as a DNS label, made unique in the workspace. */
function nodeNameFor(ctx: RouteContext, ws: WorkspaceRow, inst: InstanceRow): string {
  const base = (inst.hostname || inst.name).toLowerCase().replace(/[^a-z0-9-]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 40) || "node";
  const taken = new Set(ctx.store.t.k3sNodes.filter((n) => n.workspaceId === ws.id).map((n) => n.nodeName));
  if (!taken.has(base)) return base;
  return `${base}-${inst.id.slice(-6)}`;
}

function listNodes(ctx: RouteContext): Reply {
  const ws = workspaceOf(ctx, READ);
  const ids = queryIds(ctx.query.id, "id");
  const instances = queryIds(ctx.query.instance, "instance");
  const status = queryEnum(ctx.query.status, "status", NODE_STATUSES);
  const rows = ctx.store.t.k3sNodes.filter(
    (n) => n.workspaceId === ws.id && (!ids.length || ids.includes(n.id)) && (!instances.length || instances.includes(n.instanceId)) && (!status || n.status === status),
  );
  return ok(paginate(rows, ctx.query, (n) => nodeView(ctx, n), { id: (n) => n.id, sortable: { node_name: (n) => n.nodeName, status: (n) => n.status, created: (n) => n.created } }));
}

function createNode(ctx: RouteContext): Reply {
  const ws = workspaceOf(ctx, WRITE);
  const body = parseWith(z.object({ instance_id: zId }), ctx.body);
  requireActiveCluster(ctx, ws);
  const inst = ctx.store.t.instances.get(body.instance_id);
  if (!inst || inst.workspaceId !== ws.id) throw fieldError("instance_id", "must be an instance of this workspace");
  if (nodeOfInstance(ctx, inst.id)) throw conflict("The instance is already a node of the cluster");
  if (!instanceRunning(inst)) throw conflict("The instance must be running (online and AVAILABLE) to join the cluster");
  const node = ctx.store.t.k3sNodes.insert({ id: ctx.store.newId(), workspaceId: ws.id, instanceId: inst.id, nodeName: nodeNameFor(ctx, ws, inst), status: "JOINING", created: ctx.clock.iso() });
  const wf = startK3sWorkflow(ctx, "k3s-node-join", ws, "k3sNodes", node.id, NODE_READY);
  return accepted(ctx.workflows.view(wf));
}

function deleteNode(ctx: RouteContext): Reply {
  const ws = workspaceOf(ctx, WRITE);
  const node = loadNode(ctx, ws);
  requireActiveCluster(ctx, ws);
  if (node.status === "DRAINING") throw conflict("The node is already draining");
  ctx.store.t.k3sNodes.update(node.id, { status: "DRAINING" });
  const wf = startK3sWorkflow(ctx, "k3s-node-drain", ws, "k3sNodes", node.id, NODE_REMOVED);
  return accepted(ctx.workflows.view(wf));
}

function instanceNode(ctx: RouteContext): Reply {
  const inst = ctx.store.t.instances.get(pathId(ctx.params.iid, "iid"));
  if (!inst) throw notFound("Instance");
  ctx.access(inst.workspaceId, { ...READ, resource: { kind: "INSTANCE", id: inst.id } });
  const node = nodeOfInstance(ctx, inst.id);
  if (!node) throw notFound("Kubernetes node for this instance");
  return ok(nodeView(ctx, node));
}

// ---------------------------------------------------------------------------------------------
// Services
// ---------------------------------------------------------------------------------------------

function listServices(ctx: RouteContext): Reply {
  const ws = workspaceOf(ctx, READ);
  const ids = queryIds(ctx.query.id, "id");
  const mode = queryEnum(ctx.query.mode, "mode", SERVICE_MODES);
  const status = queryEnum(ctx.query.status, "status", SERVICE_STATUSES);
  const q = ctx.query.q;
  const rows = ctx.store.t.k3sServices.filter(
    (s) =>
      s.workspaceId === ws.id &&
      (!ids.length || ids.includes(s.id)) &&
      contains(s.name, ctx.query.name) &&
      (!mode || s.mode === mode) &&
      (!status || s.status === status) &&
      (q === undefined || q === "" || contains(s.name, q) || s.id === String(q)),
  );
  return ok(paginate(rows, ctx.query, (s) => serviceView(ctx, s), { id: (s) => s.id, sortable: { name: (s) => s.name, status: (s) => s.status, created: (s) => s.created } }));
}

/** Starts a rollout of the service's current spec; `previous` is what was running before. */
function startRollout(ctx: RouteContext, ws: WorkspaceRow, svc: K3sServiceRow, name: string, previous: K3sPodSet | null): Reply {
  const wf = startK3sWorkflow(ctx, name, ws, "k3sServices", svc.id, SERVICE_SETTLED);
  ctx.store.t.k3sServices.update(svc.id, {
    status: previous ? "UPDATING" : "DEPLOYING",
    rollout: { workflowId: wf.id, startedAt: wf.created, endsAt: wf.endsAt, previous },
    podsSince: wf.created,
  });
  return accepted(ctx.workflows.view(wf));
}

function createService(ctx: RouteContext): Reply {
  const ws = workspaceOf(ctx, WRITE);
  const body = parseWith(ServiceCreateBody, ctx.body);
  requireActiveCluster(ctx, ws);
  if (ctx.store.t.k3sServices.find((s) => s.workspaceId === ws.id && s.name === body.name)) throw conflict(`A service named ${body.name} already exists in the workspace`);
  const spec = specFrom(ctx, ws, body);
  const now = ctx.clock.now();
  const svc = ctx.store.t.k3sServices.insert({
    id: ctx.store.newId(), workspaceId: ws.id, name: body.name, mode: body.mode, spec, revision: 1, history: [], generation: 1,
    status: "DEPLOYING", rollout: null, podsSince: now, created: ctx.clock.iso(now),
  });
  return startRollout(ctx, ws, svc, "k3s-service-deploy", null);
}

/** PUT, redeploy and rollback need a settled service (409 while a rollout or deletion runs). */
function requireSettled(svc: K3sServiceRow): void {
  if (svc.status === "DEPLOYING" || svc.status === "UPDATING" || svc.status === "DELETING") {
    throw conflict(`The service is ${svc.status}; wait for the current operation to finish`);
  }
}

function loadServiceForWrite(ctx: RouteContext): { ws: WorkspaceRow; svc: K3sServiceRow } {
  const ws = workspaceOf(ctx, WRITE);
  const svc = loadService(ctx, ws);
  return { ws, svc };
}

function replaceService(ctx: RouteContext): Reply {
  const { ws, svc } = loadServiceForWrite(ctx);
  const body = parseWith(ServicePutBody, ctx.body);
  if (body.name !== undefined && body.name !== svc.name) throw fieldError("name", "cannot change; delete and re-create the service");
  if (body.mode !== undefined && body.mode !== svc.mode) throw fieldError("mode", "cannot change; delete and re-create the service");
  requireActiveCluster(ctx, ws);
  requireSettled(svc);
  const spec = specFrom(ctx, ws, body);
  const previous = currentSet(svc);
  ctx.store.t.k3sServices.update(svc.id, {
    spec,
    revision: svc.revision + 1,
    history: [...svc.history, { revision: svc.revision, spec: svc.spec }],
    generation: svc.generation + 1,
  });
  return startRollout(ctx, ws, svc, "k3s-service-update", previous);
}

function redeployService(ctx: RouteContext): Reply {
  const { ws, svc } = loadServiceForWrite(ctx);
  requireActiveCluster(ctx, ws);
  requireSettled(svc);
  const previous = currentSet(svc);
  ctx.store.t.k3sServices.update(svc.id, { generation: svc.generation + 1 });
  return startRollout(ctx, ws, svc, "k3s-service-redeploy", previous);
}

function rollbackService(ctx: RouteContext): Reply {
  const { ws, svc } = loadServiceForWrite(ctx);
  requireActiveCluster(ctx, ws);
  requireSettled(svc);
  const target = svc.history[svc.history.length - 1];
  if (!target) throw conflict("The service has no previous revision to roll back to");
  const previous = currentSet(svc);
  ctx.store.t.k3sServices.update(svc.id, { spec: target.spec, revision: target.revision, history: svc.history.slice(0, -1), generation: svc.generation + 1 });
  return startRollout(ctx, ws, svc, "k3s-service-rollback", previous);
}

function deleteService(ctx: RouteContext): Reply {
  const ws = workspaceOf(ctx, WRITE);
  const svc = loadService(ctx, ws);
  requireActiveCluster(ctx, ws);
  if (svc.status === "DELETING") throw conflict("The service is already being deleted");
  ctx.store.t.k3sServices.update(svc.id, { status: "DELETING", rollout: null });
  const wf = startK3sWorkflow(ctx, "k3s-service-delete", ws, "k3sServices", svc.id, SERVICE_REMOVED);
  return accepted(ctx.workflows.view(wf));
}

// ---------------------------------------------------------------------------------------------
// Secrets
// ---------------------------------------------------------------------------------------------

function listSecrets(ctx: RouteContext): Reply {
  const ws = workspaceOf(ctx, READ);
  const rows = ctx.store.t.k3sSecrets.filter((s) => s.workspaceId === ws.id);
  return ok(paginate(rows, ctx.query, secretView, { id: (s) => s.id, sortable: { name: (s) => s.name, created: (s) => s.created } }));
}

function createSecret(ctx: RouteContext): Reply {
  const ws = workspaceOf(ctx, WRITE);
  const body = parseWith(SecretCreateBody, ctx.body);
  requireActiveCluster(ctx, ws);
  if (secretByName(ctx, ws.id, body.name)) throw conflict(`A secret named ${body.name} already exists in the workspace`);
  const secret = ctx.store.t.k3sSecrets.insert({ id: ctx.store.newId(), workspaceId: ws.id, name: body.name, sealed: sealAll(ctx, body.data), created: ctx.clock.iso() });
  return created(secretView(secret));
}

function replaceSecret(ctx: RouteContext): Reply {
  const ws = workspaceOf(ctx, WRITE);
  const secret = loadSecret(ctx, ws);
  const body = parseWith(SecretPutBody, ctx.body);
  requireActiveCluster(ctx, ws);
  return ok(secretView(ctx.store.t.k3sSecrets.update(secret.id, { sealed: sealAll(ctx, body.data) })));
}

function deleteSecret(ctx: RouteContext): Reply {
  const ws = workspaceOf(ctx, WRITE);
  const secret = loadSecret(ctx, ws);
  requireActiveCluster(ctx, ws);
  const user = ctx.store.t.k3sServices.find((s) => s.workspaceId === ws.id && s.spec.secretRefs.includes(secret.name));
  if (user) throw conflict(`The secret is referenced by service ${user.name}; remove it from secret_refs first`);
  ctx.store.t.k3sSecrets.delete(secret.id);
  return noContent();
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
      rollout: svc.rollout && { ...svc.rollout, previous: svc.rollout.previous && { ...svc.rollout.previous, spec: withoutInstance(svc.rollout.previous.spec, instanceId) } },
    });
  }
});

// ---------------------------------------------------------------------------------------------
// Routes
// ---------------------------------------------------------------------------------------------

const K3S = "/v1/workspaces/:wid/k3s";

export const k3sDomain: Domain = {
  name: "k3s",
  routes: [
    { method: "GET", path: K3S, handler: getCluster },
    { method: "POST", path: K3S, handler: createCluster },
    { method: "DELETE", path: K3S, handler: deleteCluster },
    { method: "GET", path: `${K3S}/nodes`, handler: listNodes },
    { method: "POST", path: `${K3S}/nodes`, handler: createNode },
    { method: "GET", path: `${K3S}/nodes/:id`, handler: (ctx) => ok(nodeView(ctx, loadNode(ctx, workspaceOf(ctx, READ)))) },
    { method: "DELETE", path: `${K3S}/nodes/:id`, handler: deleteNode },
    { method: "GET", path: "/v1/instances/:iid/k3s", handler: instanceNode },
    { method: "GET", path: `${K3S}/services`, handler: listServices },
    { method: "POST", path: `${K3S}/services`, handler: createService },
    { method: "GET", path: `${K3S}/services/:id`, handler: (ctx) => ok(serviceView(ctx, loadService(ctx, workspaceOf(ctx, READ)))) },
    { method: "PUT", path: `${K3S}/services/:id`, handler: replaceService },
    { method: "DELETE", path: `${K3S}/services/:id`, handler: deleteService },
    { method: "GET", path: `${K3S}/services/:id/logs`, handler: logsHandler },
    { method: "POST", path: `${K3S}/services/:id/redeploy`, handler: redeployService },
    { method: "POST", path: `${K3S}/services/:id/rollback`, handler: rollbackService },
    { method: "GET", path: `${K3S}/secrets`, handler: listSecrets },
    { method: "POST", path: `${K3S}/secrets`, handler: createSecret },
    { method: "PUT", path: `${K3S}/secrets/:id`, handler: replaceSecret },
    { method: "DELETE", path: `${K3S}/secrets/:id`, handler: deleteSecret },
  ],
  inventory: {
    k3sClusters: { workspaceOf: (r: K3sClusterRow) => r.workspaceId },
    k3sNodes: { workspaceOf: (r: K3sNodeRow) => r.workspaceId, label: (r: K3sNodeRow) => r.nodeName },
    k3sServices: { workspaceOf: (r: K3sServiceRow) => r.workspaceId },
    k3sSecrets: { workspaceOf: (r: K3sSecretRow) => r.workspaceId },
  },
};
