/**
 * Part 2 Apps: containers deployed on an instance, from a custom image or an app template
 * (spec part 2, "App", "Apps", "App templates" deploy rules).
 *
 * - Writes need EDITOR and WRITE on APP; reads READ on APP. Resource tokens reach their APP
 *   (and, for the instance-scoped routes, their INSTANCE).
 * - Port allocations are the apps' port mappings: a host port is taken on an instance by any app
 *   on it (until the app is removed), per protocol.
 * - Every change is a workflow: the app goes PENDING and settles at AVAILABLE (DELETE removes it).
 * - The container: `containerId` appears when the first deploy completes (live statistics are
 *   null before, and while stopped); `runs` records when it ran, which drives the metrics (the
 *   network series read 0 for the first 60 s of each run).
 */
import { z } from "zod";
import type { AccessNeed } from "../core/auth";
import type { Domain } from "../core/domain";
import { workflowWithResource } from "../core/choices";
import { badRequest, conflict, fieldError, notFound } from "../core/errors";
import { onHook } from "../core/hooks";
import { paginate } from "../core/paging";
import { accepted, created, ok, type RouteContext } from "../core/router";
import type { Services } from "../core/services";
import type { Row } from "../core/store";
import { contains, parseWith, pathId, queryIds, queryInt, queryList, zStringId } from "../core/validation";
import { defineWorkflowEffect } from "../core/workflows";
import { RESOURCE_STATES, type InstanceRow, type ResourceState, type WorkflowRow } from "../model";
import {
  expandPlaceholders,
  loadTemplate,
  zEnvKey,
  zImageRef,
  zMount,
  zPortNumber,
  zProtocol,
  type AppTemplateRow,
  type Mount,
} from "./appTemplates";

// ---------------------------------------------------------------------------------------------
// Rows

export interface PortMapping {
  host_port: number;
  container_port: number;
  protocol: "TCP" | "UDP";
  http: boolean;
}

/** One period the container ran: epoch ms; `end` null while it still runs. */
export interface ContainerRun {
  start: number;
  end: number | null;
}

export interface AppRow extends Row {
  workspaceId: string;
  instanceId: string;
  name: string;
  image: string;
  environment: Record<string, string>;
  mounts: Mount[];
  ports: PortMapping[];
  domain: string | null;
  templateId: string | null;
  state: ResourceState;
  /** Whether the container should run (start/stop). */
  running: boolean;
  /** Set when a deploy completes; null before the first deploy. */
  containerId: string | null;
  runs: ContainerRun[];
  created: string;
  updated: string;
}

declare module "../core/store" {
  interface Tables {
    apps: AppRow;
  }
}

// ---------------------------------------------------------------------------------------------
// Schemas

const zPortMapping = z.object({
  host_port: zPortNumber,
  container_port: zPortNumber,
  protocol: zProtocol.default("TCP"),
  http: z.boolean().default(false),
});

const zDomain = z
  .string()
  .max(253)
  .regex(/^(?=.{1,253}$)(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\.)+[a-zA-Z]{2,63}$/, "must be a domain name such as app.example.com");

/** App names: not constrained by the spec beyond uniqueness; chosen 1 to 64 characters. */
const zAppName = z.string().trim().min(1).max(64);
const zEnvironment = z.record(zEnvKey, z.string().max(65536));
const zMounts = z.array(zMount).max(50);
const zPorts = z.array(zPortMapping).max(50);

const CreateApp = z.object({
  name: zAppName,
  image: zImageRef,
  environment: zEnvironment.default({}),
  mounts: zMounts.default([]),
  ports: zPorts.default([]),
  domain: zDomain.nullable().default(null),
});

const PatchApp = z.object({
  image: zImageRef.optional(),
  environment: zEnvironment.optional(),
  mounts: zMounts.optional(),
  ports: zPorts.optional(),
});

const FromTemplate = z.object({
  template_id: zStringId,
  name: zAppName,
  /** A string overrides the template default; null removes the variable. */
  environment: z.record(zEnvKey, z.string().max(65536).nullable()).default({}),
  mounts: zMounts.optional(),
  domain: zDomain.nullable().default(null),
});

// ---------------------------------------------------------------------------------------------
// Access

const READ: AccessNeed = { grant: ["APP", "READ"] };
const WRITE: AccessNeed = { role: "EDITOR", grant: ["APP", "WRITE"] };

function loadInstance(ctx: RouteContext, write: boolean): InstanceRow {
  const id = pathId(ctx.params.iid, "iid");
  const instance = ctx.store.t.instances.get(id);
  if (!instance) throw notFound("Instance");
  ctx.access(instance.workspaceId, { ...(write ? WRITE : READ), resource: { kind: "INSTANCE", id } });
  return instance;
}

function loadApp(ctx: RouteContext, write: boolean): AppRow {
  const id = pathId(ctx.params.id, "id");
  const app = ctx.store.t.apps.get(id);
  if (!app) throw notFound("App");
  ctx.access(app.workspaceId, { ...(write ? WRITE : READ), resource: { kind: "APP", id } });
  return app;
}

// ---------------------------------------------------------------------------------------------
// Port allocations

const portKey = (port: number, protocol: string) => `${port}/${protocol}`;

/** Host ports taken on an instance by its apps (except one being redeployed). */
function takenPorts(services: Services, instanceId: string, exceptAppId?: string): Set<string> {
  const taken = new Set<string>();
  for (const app of services.store.t.apps.filter((a) => a.instanceId === instanceId && a.id !== exceptAppId)) {
    for (const p of app.ports) taken.add(portKey(p.host_port, p.protocol));
  }
  return taken;
}

function checkPortsWellFormed(ports: PortMapping[]): void {
  const seen = new Set<string>();
  ports.forEach((p, i) => {
    const key = portKey(p.host_port, p.protocol);
    if (seen.has(key)) throw fieldError(`ports[${i}].host_port`, `host port ${key} is mapped twice`);
    seen.add(key);
  });
}

function checkPortsFree(services: Services, instanceId: string, ports: PortMapping[], exceptAppId?: string): void {
  const taken = takenPorts(services, instanceId, exceptAppId);
  const clash = ports.find((p) => taken.has(portKey(p.host_port, p.protocol)));
  if (clash) throw conflict(`Host port ${portKey(clash.host_port, clash.protocol)} is already allocated on this instance`);
}

function checkDomain(domain: string | null, ports: PortMapping[]): void {
  if (domain && !ports.some((p) => p.http)) throw fieldError("domain", "a domain needs at least one port with http true");
}

/** Deploy rule: the template's container_port when free on the instance, else random 20000-60000. */
const RANDOM_PORT_MIN = 20000;
const RANDOM_PORT_MAX = 60000;

function allocateHostPort(services: Services, taken: Set<string>, preferred: number, protocol: string): number {
  if (!taken.has(portKey(preferred, protocol))) return preferred;
  for (let attempt = 0; attempt < 10_000; attempt++) {
    const candidate = services.store.rng.int(RANDOM_PORT_MIN, RANDOM_PORT_MAX);
    if (!taken.has(portKey(candidate, protocol))) return candidate;
  }
  throw conflict("No free host port left on this instance");
}

// ---------------------------------------------------------------------------------------------
// The container and its statistics

const NETWORK_WARMUP_MS = 60_000;
const MAX_RUNS_KEPT = 100;

function closeRun(app: AppRow, now: number): ContainerRun[] {
  return app.runs.map((r) => (r.end === null ? { ...r, end: now } : r));
}

function openRun(app: AppRow, now: number): ContainerRun[] {
  return [...closeRun(app, now), { start: now, end: null }].slice(-MAX_RUNS_KEPT);
}

function runAt(app: AppRow, at: number): ContainerRun | undefined {
  return app.runs.find((r) => r.start <= at && (r.end === null || at < r.end));
}

/** Deterministic noise in [0, 1) for an app, a series and a second (FNV-1a). */
function noise(appId: string, series: string, second: number): number {
  let h = 0x811c9dc5;
  for (const ch of `${appId}:${series}:${second}`) {
    h ^= ch.charCodeAt(0);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h / 4294967296;
}

const MiB = 1024 * 1024;

/** The four AppMetrics series at one instant (zeros when the container was not running). */
function sampleAt(app: AppRow, at: number): { cpu: number; memory: number; network_rx: number; network_tx: number } {
  const run = runAt(app, at);
  if (!run) return { cpu: 0, memory: 0, network_rx: 0, network_tx: 0 };
  const second = Math.floor(at / 1000);
  const warm = at - run.start >= NETWORK_WARMUP_MS;
  return {
    cpu: Math.round((0.02 + 0.6 * noise(app.id, "cpu", second)) * 1000) / 1000,
    memory: 48 * MiB + Math.floor(noise(app.id, "memory", second) * 200 * MiB),
    network_rx: warm ? 1000 + Math.floor(noise(app.id, "rx", second) * 500_000) : 0,
    network_tx: warm ? 1000 + Math.floor(noise(app.id, "tx", second) * 250_000) : 0,
  };
}

/** Live statistics (inner fields "not shown"): null before the first deploy, while stopped or while the instance is offline. */
function statistics(services: Services, app: AppRow) {
  const instance = services.store.t.instances.get(app.instanceId);
  const now = services.clock.now();
  const run = runAt(app, now);
  if (!app.containerId || !app.running || !run || (instance && !instance.online)) return null;
  return {
    container_id: app.containerId,
    started: services.clock.iso(run.start),
    uptime_seconds: Math.floor((now - run.start) / 1000),
    ...sampleAt(app, now),
  };
}

// ---------------------------------------------------------------------------------------------
// Views

export function appView(services: Services, app: AppRow) {
  const workspace = services.store.t.workspaces.get(app.workspaceId);
  const instance = services.store.t.instances.get(app.instanceId);
  return {
    id: app.id,
    name: app.name,
    owner: workspace ? { id: workspace.id, name: workspace.name } : null,
    instance: { id: app.instanceId, name: instance?.name ?? null },
    image: app.image,
    environment: app.environment,
    mounts: app.mounts,
    ports: app.ports,
    domain: app.domain,
    template_id: app.templateId,
    state: app.state,
    running: app.running,
    created: app.created,
    updated: app.updated,
    live: {
      container_id: app.containerId,
      ports: app.ports.map((p) => ({ host_port: p.host_port, container_port: p.container_port, protocol: p.protocol, http: p.http })),
      statistics: statistics(services, app),
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Workflows: each settles the app at AVAILABLE and changes the container as its action says.

type ContainerChange = (app: AppRow, now: number, wf: WorkflowRow) => Partial<AppRow>;

const CONTAINER_CHANGES: Record<string, ContainerChange> = {
  /** Create or redeploy: a new container, running unless the app was stopped before a PATCH. */
  deploy: (app, now, wf) => ({
    containerId: String(wf.args.containerId),
    running: wf.args.start !== false,
    runs: wf.args.start !== false ? openRun(app, now) : closeRun(app, now),
  }),
  start: (app, now) => (app.running && runAt(app, now) ? {} : { running: true, runs: openRun(app, now) }),
  stop: (app, now) => ({ running: false, runs: closeRun(app, now) }),
  restart: (app, now) => ({ running: true, runs: openRun(app, now) }),
};

const SETTLE_EFFECTS: Record<string, string> = Object.fromEntries(
  Object.entries(CONTAINER_CHANGES).map(([action, change]) => [
    action,
    defineWorkflowEffect(`app.${action}`, (services, wf) => {
      const app = services.store.t.apps.get(wf.resource?.id);
      if (!app || app.state === "DELETING") return;
      const now = services.clock.now();
      services.store.t.apps.update(app.id, { ...change(app, now, wf), state: "AVAILABLE", updated: services.clock.iso(now) });
    }),
  ]),
);

const APP_REMOVED = defineWorkflowEffect("app.removed", (services, wf) => {
  if (wf.resource) services.store.t.apps.delete(wf.resource.id);
});

const WORKFLOW_NAMES: Record<string, string> = {
  deploy: "deploy-app",
  start: "start-app",
  stop: "stop-app",
  restart: "restart-app",
};

function startAppWorkflow(ctx: RouteContext, app: AppRow, action: keyof typeof WORKFLOW_NAMES, args: Record<string, unknown> = {}) {
  return ctx.startWorkflow({
    name: WORKFLOW_NAMES[action],
    workspaceId: app.workspaceId,
    resource: { kind: "apps", id: app.id },
    onComplete: SETTLE_EFFECTS[action],
    args,
  });
}

/** Another operation is in flight: PATCH, start, stop and restart wait for it to settle. */
function assertSettled(app: AppRow): void {
  if (app.state === "PENDING" || app.state === "DELETING") throw conflict(`App is ${app.state}; wait for the current operation to finish`);
}

// ---------------------------------------------------------------------------------------------
// Handlers

interface NewApp {
  name: string;
  image: string;
  environment: Record<string, string>;
  mounts: Mount[];
  ports: PortMapping[];
  domain: string | null;
  templateId: string | null;
}

function assertInstanceReady(instance: InstanceRow): void {
  if (instance.state !== "AVAILABLE") throw conflict(`Instance is ${instance.state}; apps deploy only to an AVAILABLE instance`);
}

function assertNameFree(services: Services, workspaceId: string, name: string): void {
  if (services.store.t.apps.find((a) => a.workspaceId === workspaceId && a.name === name)) {
    throw conflict(`An app named ${name} already exists in this workspace`);
  }
}

/** Shared tail of both create endpoints: insert PENDING, start the deploy, answer 201. */
function deployNewApp(ctx: RouteContext, instance: InstanceRow, spec: NewApp) {
  assertNameFree(ctx, instance.workspaceId, spec.name);
  checkPortsFree(ctx, instance.id, spec.ports);
  const now = ctx.clock.iso();
  const app = ctx.store.t.apps.insert({
    id: ctx.store.newId(),
    workspaceId: instance.workspaceId,
    instanceId: instance.id,
    ...spec,
    state: "PENDING",
    running: false,
    containerId: null,
    runs: [],
    created: now,
    updated: now,
  });
  const wf = startAppWorkflow(ctx, app, "deploy", { start: true, containerId: ctx.store.rng.hex(64) });
  return created(workflowWithResource(ctx.workflows.view(wf), appView(ctx, app)));
}

function createApp(ctx: RouteContext) {
  const instance = loadInstance(ctx, true);
  const input = parseWith(CreateApp, ctx.body);
  checkPortsWellFormed(input.ports);
  checkDomain(input.domain, input.ports);
  assertInstanceReady(instance);
  return deployNewApp(ctx, instance, { ...input, templateId: null });
}

/** First address of a family on the instance (oldest floating IP first). */
function firstAddress(services: Services, instanceId: string, family: "IPv4" | "IPv6"): string | null {
  const ips = services.store.t.floatingIps.filter((ip) => ip.instanceId === instanceId && ip.family === family);
  ips.sort((a, b) => a.created.localeCompare(b.created) || (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
  return ips[0]?.address ?? null;
}

function templatePorts(services: Services, instance: InstanceRow, template: AppTemplateRow): Map<string, PortMapping> {
  const taken = takenPorts(services, instance.id);
  const ports = new Map<string, PortMapping>();
  for (const p of template.ports) {
    const host = allocateHostPort(services, taken, p.container_port, p.protocol);
    taken.add(portKey(host, p.protocol));
    ports.set(p.name, { host_port: host, container_port: p.container_port, protocol: p.protocol, http: p.http });
  }
  return ports;
}

/** Template defaults, then overrides (string replaces, null removes); null defaults must be supplied. */
function mergeEnvironment(template: AppTemplateRow, overrides: Record<string, string | null>): Map<string, string> {
  const env = new Map<string, string | null>(template.environment.map((e) => [e.key, e.value]));
  for (const [key, value] of Object.entries(overrides)) {
    if (value === null && env.get(key) !== null) env.delete(key);
    else env.set(key, value);
  }
  for (const [key, value] of env) {
    if (value === null) throw fieldError(`environment.${key}`, `the template leaves ${key} for you to supply: send a string value`);
  }
  return env as Map<string, string>;
}

function resolveEnvironment(services: Services, instance: InstanceRow, template: AppTemplateRow, env: Map<string, string>, ports: Map<string, PortMapping>) {
  const resolver = {
    hostPort: (name: string) => ports.get(name)?.host_port ?? null,
    containerPort: (name: string) => ports.get(name)?.container_port ?? null,
    ip4: () => firstAddress(services, instance.id, "IPv4"),
    ip6: () => firstAddress(services, instance.id, "IPv6"),
    random: (length: number) => services.store.rng.alnum(length),
  };
  const out: Record<string, string> = {};
  for (const [key, value] of env) {
    const result = expandPlaceholders(value, resolver);
    if ("error" in result) throw fieldError(`environment.${key}`, result.error);
    out[key] = result.value;
  }
  return out;
}

function createFromTemplate(ctx: RouteContext) {
  const instance = loadInstance(ctx, true);
  const input = parseWith(FromTemplate, ctx.body);
  const template = loadTemplate(ctx, input.template_id);
  if (input.domain && !template.ports.some((p) => p.http)) throw fieldError("domain", "the template has no http port, so it cannot take a domain");
  const env = mergeEnvironment(template, input.environment);
  assertInstanceReady(instance);
  assertNameFree(ctx, instance.workspaceId, input.name);
  const ports = templatePorts(ctx, instance, template);
  const environment = resolveEnvironment(ctx, instance, template, env, ports);
  return deployNewApp(ctx, instance, {
    name: input.name,
    image: template.image,
    environment,
    mounts: input.mounts ?? structuredClone(template.mounts),
    ports: [...ports.values()],
    domain: input.domain,
    templateId: template.id,
  });
}

function patchApp(ctx: RouteContext) {
  const app = loadApp(ctx, true);
  const input = parseWith(PatchApp, ctx.body ?? {});
  const ports = input.ports ?? app.ports;
  checkPortsWellFormed(ports);
  checkDomain(app.domain, ports);
  assertSettled(app);
  if (input.ports) checkPortsFree(ctx, app.instanceId, input.ports, app.id);
  const changes = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
  ctx.store.t.apps.update(app.id, { ...changes, state: "PENDING", updated: ctx.clock.iso() });
  // A stopped app stays stopped after its redeploy; a running (or never deployed) one runs.
  const wf = startAppWorkflow(ctx, app, "deploy", { start: app.running || app.containerId === null, containerId: ctx.store.rng.hex(64) });
  return accepted(ctx.workflows.view(wf));
}

function containerAction(action: "start" | "stop" | "restart") {
  return (ctx: RouteContext) => {
    const app = loadApp(ctx, true);
    assertSettled(app);
    if (!app.containerId) throw conflict("App has not been deployed yet");
    ctx.store.t.apps.update(app.id, { state: "PENDING", updated: ctx.clock.iso() });
    return accepted(ctx.workflows.view(startAppWorkflow(ctx, app, action)));
  };
}

function deleteApp(ctx: RouteContext) {
  const app = loadApp(ctx, true);
  if (app.state === "DELETING") throw conflict("App is already being deleted");
  ctx.store.t.apps.update(app.id, { state: "DELETING", updated: ctx.clock.iso() });
  const wf = ctx.startWorkflow({ name: "delete-app", workspaceId: app.workspaceId, resource: { kind: "apps", id: app.id }, onComplete: APP_REMOVED });
  return accepted(ctx.workflows.view(wf));
}

function stateFilter(value: unknown): Set<string> {
  const states = queryList(value);
  for (const s of states) {
    if (!(RESOURCE_STATES as readonly string[]).includes(s)) throw badRequest(`Invalid query: state must be one of ${RESOURCE_STATES.join(", ")}`, [{ field: "state", message: "unknown state" }]);
  }
  return new Set(states);
}

function listApps(ctx: RouteContext, rows: AppRow[], allowInstanceFilter: boolean) {
  const q = ctx.query;
  const states = stateFilter(q.state);
  const instances = allowInstanceFilter ? new Set(queryIds(q.instance, "instance")) : new Set<string>();
  const filtered = rows.filter(
    (a) =>
      (!q.q || contains(a.name, q.q) || contains(a.image, q.q) || a.id === String(q.q)) &&
      contains(a.name, q.name) &&
      contains(a.image, q.image) &&
      (states.size === 0 || states.has(a.state)) &&
      (instances.size === 0 || instances.has(a.instanceId)),
  );
  return ok(
    paginate(filtered, q, (a) => appView(ctx, a), {
      id: (a) => a.id,
      sortable: { name: (a) => a.name, created: (a) => a.created, image: (a) => a.image, state: (a) => a.state },
      defaultSort: { field: "created", dir: "desc" },
    }),
  );
}

function listWorkspaceApps(ctx: RouteContext) {
  const wid = pathId(ctx.params.wid, "wid");
  ctx.access(wid, READ);
  return listApps(ctx, ctx.store.t.apps.filter((a) => a.workspaceId === wid), true);
}

function listInstanceApps(ctx: RouteContext) {
  const instance = loadInstance(ctx, false);
  return listApps(ctx, ctx.store.t.apps.filter((a) => a.instanceId === instance.id), false);
}

/** AppMetrics: start, end (Unix seconds) and step (seconds, minimum 15), all required. */
const MIN_STEP = 15;
const MAX_POINTS = 10_000;

function requiredInt(value: unknown, name: string): number {
  const n = queryInt(value, name);
  if (n === undefined) throw badRequest(`Invalid query: ${name} is required`, [{ field: name, message: "is required" }]);
  if (n < 0) throw badRequest(`Invalid query: ${name} must not be negative`, [{ field: name, message: "must not be negative" }]);
  return n;
}

function appMetrics(ctx: RouteContext) {
  const app = loadApp(ctx, false);
  const start = requiredInt(ctx.query.start, "start");
  const end = requiredInt(ctx.query.end, "end");
  const step = requiredInt(ctx.query.step, "step");
  if (step < MIN_STEP) throw badRequest(`Invalid query: step must be at least ${MIN_STEP} seconds`, [{ field: "step", message: `must be at least ${MIN_STEP}` }]);
  if (end < start) throw badRequest("Invalid query: end must not be before start", [{ field: "end", message: "must not be before start" }]);
  if (Math.floor((end - start) / step) + 1 > MAX_POINTS) {
    throw badRequest(`Invalid query: at most ${MAX_POINTS} points per series; raise step or narrow the range`, [{ field: "step", message: "too many points" }]);
  }
  const series = { cpu: [] as Point[], memory: [] as Point[], network_rx: [] as Point[], network_tx: [] as Point[] };
  // Metrics describe the past: no points after now.
  const lastSecond = Math.min(end, Math.floor(ctx.clock.now() / 1000));
  for (let t = start; t <= lastSecond; t += step) {
    const sample = sampleAt(app, t * 1000);
    for (const key of Object.keys(series) as Array<keyof typeof series>) series[key].push({ time: t, value: sample[key] });
  }
  return ok({ start, end, step, ...series });
}

interface Point {
  time: number;
  value: number;
}

// ---------------------------------------------------------------------------------------------
// Cross-area events

/** An instance removed for good takes its apps (and so their port allocations) with it. */
onHook("instance.deleted", (services, { instanceId }) => {
  for (const app of services.store.t.apps.filter((a) => a.instanceId === instanceId)) services.store.t.apps.delete(app.id);
});

/** Containers stop with their instance and start again with it (a new run: network warm-up again). */
onHook("instance.power", (services, { instanceId, online }) => {
  const now = services.clock.now();
  for (const app of services.store.t.apps.filter((a) => a.instanceId === instanceId && a.running && a.containerId !== null)) {
    services.store.t.apps.update(app.id, { runs: online ? openRun(app, now) : closeRun(app, now) });
  }
});

export const appsDomain: Domain = {
  name: "apps",
  routes: [
    { method: "GET", path: "/v1/workspaces/:wid/apps", handler: listWorkspaceApps },
    { method: "GET", path: "/v1/instances/:iid/apps", handler: listInstanceApps },
    { method: "POST", path: "/v1/instances/:iid/apps", handler: createApp },
    { method: "POST", path: "/v1/instances/:iid/apps/from-template", handler: createFromTemplate },
    { method: "GET", path: "/v1/apps/:id", handler: (ctx) => ok(appView(ctx, loadApp(ctx, false))) },
    { method: "PATCH", path: "/v1/apps/:id", handler: patchApp },
    { method: "DELETE", path: "/v1/apps/:id", handler: deleteApp },
    { method: "POST", path: "/v1/apps/:id/start", handler: containerAction("start") },
    { method: "POST", path: "/v1/apps/:id/stop", handler: containerAction("stop") },
    { method: "POST", path: "/v1/apps/:id/restart", handler: containerAction("restart") },
    { method: "GET", path: "/v1/apps/:id/metrics", handler: appMetrics },
  ],
  inventory: {
    apps: { workspaceOf: (row: AppRow) => row.workspaceId },
  },
};
