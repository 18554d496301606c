/**
 * Part 3 Managed Kubernetes, the HTTP side: request schemas, the path lookups, lists, the log
 * endpoint (plain text, or server-sent events with follow) and the route table. The rules are
 * the area's domain: domain/k3s.ts (rows, access, cluster, nodes, workflows, cleanup),
 * domain/k3sServices.ts (services, secrets) and domain/k3sLive.ts (views, pods, logs).
 */
import { z } from "zod";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { AccessNeed } from "../core/auth";
import type { Domain } from "../core/domain";
import { badRequest, notFound } from "../core/errors";
import { paginate } from "../core/paging";
import { accepted, created, noContent, ok, type Reply, type RouteContext } from "../core/router";
import type { Services } from "../core/services";
import { contains, parseWith, pathId, queryEnum, queryIds, queryInt, zId } from "../core/validation";
import type { WorkspaceRow } from "../model";
import {
  createCluster,
  deleteCluster,
  drainNode,
  joinNode,
  loadNode,
  loadSecret,
  loadService,
  nodeOfInstance,
  requireCluster,
  NODE_STATUSES,
  READ,
  SERVICE_MODES,
  SERVICE_STATUSES,
  UPDATE_STRATEGIES,
  WRITE,
  type K3sClusterRow,
  type K3sNodeRow,
  type K3sSecretRow,
  type K3sServiceRow,
} from "../domain/k3s";
import {
  clusterView,
  currentSet,
  lastLineIndex,
  lineRange,
  logLine,
  k3sNodeView,
  secretView,
  serviceView,
  settledPods,
} from "../domain/k3sLive";
import {
  createSecret,
  createService,
  deleteSecret,
  deleteService,
  redeployService,
  replaceSecret,
  replaceService,
  rollbackService,
} from "../domain/k3sServices";

// ---------------------------------------------------------------------------------------------
// Requests
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

const zAbsolutePath = z
  .string()
  .max(4096)
  .regex(/^\/\S*$/, "must be an absolute path");
const zVolumeSpec = z.object({ host_path: zAbsolutePath, container_path: zAbsolutePath });

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const zEnvironment = z.record(
  z.string().regex(ENV_NAME, "environment names must be letters, digits and '_', not starting with a digit"),
  z.string().max(32_768),
);

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

const zSecretData = z.record(
  z.string().regex(/^[-._a-zA-Z0-9]{1,253}$/, "secret keys must be letters, digits, '-', '_' or '.'"),
  z.string().max(1_048_576),
);
const SecretCreateBody = z.object({ name: zName, data: zSecretData });
const SecretPutBody = z.object({ data: zSecretData });
const NodeCreateBody = z.object({ instance_id: zId });

// ---------------------------------------------------------------------------------------------
// Path lookups
// ---------------------------------------------------------------------------------------------

/** The path workspace, after checking the caller may act on it (404 when missing or invisible). */
function workspaceOf(ctx: RouteContext, need: AccessNeed): WorkspaceRow {
  const ws = ctx.store.t.workspaces.get(pathId(ctx.params.wid, "wid"));
  if (!ws) throw notFound("Workspace");
  ctx.access(ws.id, need);
  return ws;
}

const node = (ctx: RouteContext, need: AccessNeed): { ws: WorkspaceRow; node: K3sNodeRow } => {
  const ws = workspaceOf(ctx, need);
  return { ws, node: loadNode(ctx.services, ws, pathId(ctx.params.id, "id")) };
};

const service = (ctx: RouteContext, need: AccessNeed): { ws: WorkspaceRow; svc: K3sServiceRow } => {
  const ws = workspaceOf(ctx, need);
  return { ws, svc: loadService(ctx.services, ws, pathId(ctx.params.id, "id")) };
};

const secret = (ctx: RouteContext, need: AccessNeed): { ws: WorkspaceRow; secret: K3sSecretRow } => {
  const ws = workspaceOf(ctx, need);
  return { ws, secret: loadSecret(ctx.services, ws, pathId(ctx.params.id, "id")) };
};

// ---------------------------------------------------------------------------------------------
// Lists
// ---------------------------------------------------------------------------------------------

function listNodes(ctx: RouteContext): Reply {
  const ws = workspaceOf(ctx, READ);
  const ids = queryIds(ctx.query.id, "id");
  const instances = queryIds(ctx.query.instance, "instance");
  const status = queryEnum(ctx.query.status, "status", NODE_STATUSES);
  const rows = ctx.store.t.k3sNodes.filter(
    (n) =>
      n.workspaceId === ws.id &&
      (!ids.length || ids.includes(n.id)) &&
      (!instances.length || instances.includes(n.instanceId)) &&
      (!status || n.status === status),
  );
  return ok(
    paginate(rows, ctx.query, (n) => k3sNodeView(ctx.services, n), {
      id: (n) => n.id,
      sortable: { node_name: (n) => n.nodeName, status: (n) => n.status, created: (n) => n.created },
    }),
  );
}

function instanceNode(ctx: RouteContext): Reply {
  const inst = ctx.store.t.instances.get(pathId(ctx.params.iid, "iid"));
  if (!inst) throw notFound("Instance");
  ctx.access(inst.workspaceId, { ...READ, resource: { kind: "INSTANCE", id: inst.id } });
  const node = nodeOfInstance(ctx.services, inst.id);
  if (!node) throw notFound("Kubernetes node for this instance");
  return ok(k3sNodeView(ctx.services, node));
}

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
  return ok(
    paginate(rows, ctx.query, (s) => serviceView(ctx.services, s), {
      id: (s) => s.id,
      sortable: { name: (s) => s.name, status: (s) => s.status, created: (s) => s.created },
    }),
  );
}

function listSecrets(ctx: RouteContext): Reply {
  const ws = workspaceOf(ctx, READ);
  const rows = ctx.store.t.k3sSecrets.filter((s) => s.workspaceId === ws.id);
  return ok(paginate(rows, ctx.query, secretView, { id: (s) => s.id, sortable: { name: (s) => s.name, created: (s) => s.created } }));
}

// ---------------------------------------------------------------------------------------------
// Logs: the tail as text, or followed as server-sent events
// ---------------------------------------------------------------------------------------------

const SSE_POLL_MS = 100;
const MAX_LINES_PER_BURST = 1_000;

/** The `follow` flag: present (`?follow`), true or 1 turns it on. */
function followFlag(value: unknown): boolean {
  if (value === undefined) return false;
  if (value === "" || value === "true" || value === "1") return true;
  if (value === "false" || value === "0") return false;
  throw badRequest("Invalid query: follow must be a flag (true or false)", [{ field: "follow", message: "must be true or false" }]);
}

function boundedQueryInt(ctx: RouteContext, name: string, def: number, min: number, max: number): number {
  const value = queryInt(ctx.query[name], name) ?? def;
  if (value < min || value > max)
    throw badRequest(`Invalid query: ${name} must be from ${min} to ${max}`, [{ field: name, message: `must be from ${min} to ${max}` }]);
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
  const svc = loadService(ctx.services, ws, pathId(ctx.params.id, "id"));
  const tail = boundedQueryInt(ctx, "tail", 100, 0, 10_000);
  const since = ctx.query.since_seconds === undefined ? undefined : boundedQueryInt(ctx, "since_seconds", 0, 0, Number.MAX_SAFE_INTEGER);
  const podIndex = boundedQueryInt(ctx, "pod_index", 0, 0, 10_000);
  const pods = settledPods(ctx.services, svc, currentSet(svc));
  if (podIndex >= pods.length) {
    throw badRequest(`Invalid query: pod_index ${podIndex} is out of range (the service has ${pods.length} pods)`, [
      { field: "pod_index", message: "out of range" },
    ]);
  }
  const [first, last] = lineRange(svc, ctx.clock.now(), tail, since);
  if (followFlag(ctx.query.follow)) return { status: 200, stream: followStream(ctx.services, svc.id, pods[podIndex].name, first) };
  let text = "";
  for (let k = first; k <= last; k++) text += `${logLine(svc, pods[podIndex].name, k)}\n`;
  return { status: 200, text };
}

// ---------------------------------------------------------------------------------------------
// Routes
// ---------------------------------------------------------------------------------------------

const K3S = "/v1/workspaces/:wid/k3s";

export const k3sDomain: Domain = {
  name: "k3s",
  routes: [
    { method: "GET", path: K3S, handler: (ctx) => ok(clusterView(ctx.services, requireCluster(ctx.services, workspaceOf(ctx, READ)))) },
    { method: "POST", path: K3S, handler: (ctx) => accepted(createCluster(ctx, workspaceOf(ctx, WRITE))) },
    { method: "DELETE", path: K3S, handler: (ctx) => accepted(deleteCluster(ctx, workspaceOf(ctx, WRITE))) },
    { method: "GET", path: `${K3S}/nodes`, handler: listNodes },
    {
      method: "POST",
      path: `${K3S}/nodes`,
      handler: (ctx) => {
        const ws = workspaceOf(ctx, WRITE);
        return accepted(joinNode(ctx, ws, parseWith(NodeCreateBody, ctx.body).instance_id));
      },
    },
    { method: "GET", path: `${K3S}/nodes/:id`, handler: (ctx) => ok(k3sNodeView(ctx.services, node(ctx, READ).node)) },
    {
      method: "DELETE",
      path: `${K3S}/nodes/:id`,
      handler: (ctx) => {
        const { ws, node: target } = node(ctx, WRITE);
        return accepted(drainNode(ctx, ws, target));
      },
    },
    { method: "GET", path: "/v1/instances/:iid/k3s", handler: instanceNode },
    { method: "GET", path: `${K3S}/services`, handler: listServices },
    {
      method: "POST",
      path: `${K3S}/services`,
      handler: (ctx) => {
        const ws = workspaceOf(ctx, WRITE);
        return accepted(createService(ctx, ws, parseWith(ServiceCreateBody, ctx.body)));
      },
    },
    { method: "GET", path: `${K3S}/services/:id`, handler: (ctx) => ok(serviceView(ctx.services, service(ctx, READ).svc)) },
    {
      method: "PUT",
      path: `${K3S}/services/:id`,
      handler: (ctx) => {
        const { ws, svc } = service(ctx, WRITE);
        return accepted(replaceService(ctx, ws, svc, parseWith(ServicePutBody, ctx.body)));
      },
    },
    {
      method: "DELETE",
      path: `${K3S}/services/:id`,
      handler: (ctx) => {
        const { ws, svc } = service(ctx, WRITE);
        return accepted(deleteService(ctx, ws, svc));
      },
    },
    { method: "GET", path: `${K3S}/services/:id/logs`, handler: logsHandler },
    {
      method: "POST",
      path: `${K3S}/services/:id/redeploy`,
      handler: (ctx) => {
        const { ws, svc } = service(ctx, WRITE);
        return accepted(redeployService(ctx, ws, svc));
      },
    },
    {
      method: "POST",
      path: `${K3S}/services/:id/rollback`,
      handler: (ctx) => {
        const { ws, svc } = service(ctx, WRITE);
        return accepted(rollbackService(ctx, ws, svc));
      },
    },
    { method: "GET", path: `${K3S}/secrets`, handler: listSecrets },
    {
      method: "POST",
      path: `${K3S}/secrets`,
      handler: (ctx) => {
        const ws = workspaceOf(ctx, WRITE);
        return created(secretView(createSecret(ctx, ws, parseWith(SecretCreateBody, ctx.body))));
      },
    },
    {
      method: "PUT",
      path: `${K3S}/secrets/:id`,
      handler: (ctx) => {
        const { ws, secret: target } = secret(ctx, WRITE);
        return ok(secretView(replaceSecret(ctx, ws, target, parseWith(SecretPutBody, ctx.body).data)));
      },
    },
    {
      method: "DELETE",
      path: `${K3S}/secrets/:id`,
      handler: (ctx) => {
        const { ws, secret: target } = secret(ctx, WRITE);
        deleteSecret(ctx, ws, target);
        return noContent();
      },
    },
  ],
  inventory: {
    k3sClusters: { workspaceOf: (r: K3sClusterRow) => r.workspaceId },
    k3sNodes: { workspaceOf: (r: K3sNodeRow) => r.workspaceId, label: (r: K3sNodeRow) => r.nodeName },
    k3sServices: { workspaceOf: (r: K3sServiceRow) => r.workspaceId },
    k3sSecrets: { workspaceOf: (r: K3sSecretRow) => r.workspaceId },
  },
};
