/**
 * Managed Kubernetes services and secrets (spec part 3): a service's desired state (image,
 * target instances that are READY nodes, replicas, ports, volumes, environment, secret
 * references, update strategy) is checked, stored as a revision and rolled out as a workflow;
 * PUT, redeploy and rollback need a settled service; secrets are sealed at rest and cannot go
 * while a service's current secret_refs names them.
 */
import { createCipheriv, createHash } from "node:crypto";
import { conflict, fieldError } from "../core/errors";
import type { RouteContext } from "../core/router";
import type { Services } from "../core/services";
import type { WorkflowView } from "../core/choices";
import type { WorkspaceRow } from "../model";
import {
  requireActiveCluster,
  nodeOfInstance,
  startK3sWorkflow,
  SERVICE_REMOVED,
  SERVICE_SETTLED,
  type K3sPodSet,
  type K3sPort,
  type K3sSecretRow,
  type K3sServiceRow,
  type K3sServiceSpec,
  type K3sVolume,
} from "./k3s";
import { currentSet } from "./k3sLive";

/** A service's desired state as the route has validated it (spec part 3: "full desired state"). */
export interface ServiceSpecInput {
  image: string;
  target_instances: string[];
  replicas: number;
  ports: K3sPort[];
  volumes: K3sVolume[];
  environment: Record<string, string>;
  secret_refs: string[];
  update_strategy: K3sServiceSpec["updateStrategy"];
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
// Desired state checks
// ---------------------------------------------------------------------------------------------

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
    if (!inst || inst.workspaceId !== ws.id)
      throw fieldError(`target_instances[${i}]`, `instance ${id} is not an instance of this workspace`);
    if (nodeOfInstance(ctx.services, id)?.status !== "READY")
      throw conflict(`Instance ${id} is not a READY node of the workspace's Kubernetes cluster`);
  });
}

/** Secret references must name secrets of the workspace (400 otherwise). */
function checkSecretRefs(ctx: RouteContext, ws: WorkspaceRow, names: string[]): void {
  rejectDuplicates(names, "secret_refs", (n) => n, "secret name");
  names.forEach((name, i) => {
    if (!secretByName(ctx.services, ws.id, name)) throw fieldError(`secret_refs[${i}]`, `no secret named ${name} in this workspace`);
  });
}

function checkPorts(ports: K3sPort[]): void {
  rejectDuplicates(ports, "ports", (p) => `${p.host_port}/${p.protocol}`, "host_port and protocol");
  ports.forEach((p, i) => {
    if (p.http && p.protocol !== "TCP") throw fieldError(`ports[${i}].http`, "http applies to TCP ports only");
  });
}

function specFrom(ctx: RouteContext, ws: WorkspaceRow, input: ServiceSpecInput): K3sServiceSpec {
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
// Services
// ---------------------------------------------------------------------------------------------

/** Starts a rollout of the service's current spec; `previous` is what was running before. */
function startRollout(ctx: RouteContext, ws: WorkspaceRow, svc: K3sServiceRow, name: string, previous: K3sPodSet | null): WorkflowView {
  const wf = startK3sWorkflow(ctx, name, ws, "k3sServices", svc.id, SERVICE_SETTLED);
  ctx.store.t.k3sServices.update(svc.id, {
    status: previous ? "UPDATING" : "DEPLOYING",
    rollout: { workflowId: wf.id, startedAt: wf.created, endsAt: wf.endsAt, previous },
    podsSince: wf.created,
  });
  return ctx.workflows.view(wf);
}

export function createService(
  ctx: RouteContext,
  ws: WorkspaceRow,
  body: ServiceSpecInput & { name: string; mode: K3sServiceRow["mode"] },
): WorkflowView {
  requireActiveCluster(ctx.services, ws);
  if (ctx.store.t.k3sServices.find((s) => s.workspaceId === ws.id && s.name === body.name))
    throw conflict(`A service named ${body.name} already exists in the workspace`);
  const spec = specFrom(ctx, ws, body);
  const now = ctx.clock.now();
  const svc = ctx.store.t.k3sServices.insert({
    id: ctx.store.newId(),
    workspaceId: ws.id,
    name: body.name,
    mode: body.mode,
    spec,
    revision: 1,
    history: [],
    generation: 1,
    status: "DEPLOYING",
    rollout: null,
    podsSince: now,
    created: ctx.clock.iso(now),
  });
  return startRollout(ctx, ws, svc, "k3s-service-deploy", null);
}

/** PUT, redeploy and rollback need a settled service (409 while a rollout or deletion runs). */
function requireSettled(svc: K3sServiceRow): void {
  if (svc.status === "DEPLOYING" || svc.status === "UPDATING" || svc.status === "DELETING") {
    throw conflict(`The service is ${svc.status}; wait for the current operation to finish`);
  }
}

export function replaceService(
  ctx: RouteContext,
  ws: WorkspaceRow,
  svc: K3sServiceRow,
  body: ServiceSpecInput & { name?: string; mode?: string },
): WorkflowView {
  if (body.name !== undefined && body.name !== svc.name) throw fieldError("name", "cannot change; delete and re-create the service");
  if (body.mode !== undefined && body.mode !== svc.mode) throw fieldError("mode", "cannot change; delete and re-create the service");
  requireActiveCluster(ctx.services, ws);
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

export function redeployService(ctx: RouteContext, ws: WorkspaceRow, svc: K3sServiceRow): WorkflowView {
  requireActiveCluster(ctx.services, ws);
  requireSettled(svc);
  const previous = currentSet(svc);
  ctx.store.t.k3sServices.update(svc.id, { generation: svc.generation + 1 });
  return startRollout(ctx, ws, svc, "k3s-service-redeploy", previous);
}

export function rollbackService(ctx: RouteContext, ws: WorkspaceRow, svc: K3sServiceRow): WorkflowView {
  requireActiveCluster(ctx.services, ws);
  requireSettled(svc);
  const target = svc.history[svc.history.length - 1];
  if (!target) throw conflict("The service has no previous revision to roll back to");
  const previous = currentSet(svc);
  ctx.store.t.k3sServices.update(svc.id, {
    spec: target.spec,
    revision: target.revision,
    history: svc.history.slice(0, -1),
    generation: svc.generation + 1,
  });
  return startRollout(ctx, ws, svc, "k3s-service-rollback", previous);
}

export function deleteService(ctx: RouteContext, ws: WorkspaceRow, svc: K3sServiceRow): WorkflowView {
  requireActiveCluster(ctx.services, ws);
  if (svc.status === "DELETING") throw conflict("The service is already being deleted");
  ctx.store.t.k3sServices.update(svc.id, { status: "DELETING", rollout: null });
  const wf = startK3sWorkflow(ctx, "k3s-service-delete", ws, "k3sServices", svc.id, SERVICE_REMOVED);
  return ctx.workflows.view(wf);
}

// ---------------------------------------------------------------------------------------------
// Secrets
// ---------------------------------------------------------------------------------------------

export function createSecret(ctx: RouteContext, ws: WorkspaceRow, body: { name: string; data: Record<string, string> }): K3sSecretRow {
  requireActiveCluster(ctx.services, ws);
  if (secretByName(ctx.services, ws.id, body.name)) throw conflict(`A secret named ${body.name} already exists in the workspace`);
  const secret = ctx.store.t.k3sSecrets.insert({
    id: ctx.store.newId(),
    workspaceId: ws.id,
    name: body.name,
    sealed: sealAll(ctx.services, body.data),
    created: ctx.clock.iso(),
  });
  return secret;
}

export function replaceSecret(ctx: RouteContext, ws: WorkspaceRow, secret: K3sSecretRow, data: Record<string, string>): K3sSecretRow {
  requireActiveCluster(ctx.services, ws);
  return ctx.store.t.k3sSecrets.update(secret.id, { sealed: sealAll(ctx.services, data) });
}

export function deleteSecret(ctx: RouteContext, ws: WorkspaceRow, secret: K3sSecretRow): void {
  requireActiveCluster(ctx.services, ws);
  const user = ctx.store.t.k3sServices.find((s) => s.workspaceId === ws.id && s.spec.secretRefs.includes(secret.name));
  if (user) throw conflict(`The secret is referenced by service ${user.name}; remove it from secret_refs first`);
  ctx.store.t.k3sSecrets.delete(secret.id);
}
