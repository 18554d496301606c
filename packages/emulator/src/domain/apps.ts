/**
 * Apps' domain (spec part 2, "App", "Apps"): containers deployed on an instance, from a custom
 * image or an app template (the template deploy rules are in appFromTemplate.ts).
 *
 * - Writes need EDITOR and WRITE on APP; reads READ on APP. Resource tokens reach their APP
 *   (and, for the instance-scoped routes, their INSTANCE).
 * - Port allocations are the apps' port mappings: a host port is taken on an instance by any app
 *   on it (until the app is removed), per protocol.
 * - Every change is a workflow: the app goes PENDING and settles at AVAILABLE (DELETE removes it).
 * - The container: `containerId` appears when the first deploy completes (live statistics are
 *   null before, and while stopped); `runs` records when it ran, which drives the metrics (the
 *   network series read 0 for the first 60 s of each run).
 * - An instance's deletion takes its apps; its power state stops and starts their containers.
 */
import type { AccessNeed } from "../core/auth";
import type { WorkflowView } from "../core/choices";
import { conflict, fieldError, notFound } from "../core/errors";
import { onHook } from "../core/hooks";
import type { RouteContext } from "../core/router";
import type { Services } from "../core/services";
import type { Row } from "../core/store";
import { defineWorkflowEffect } from "../core/workflowEffects";
import type { InstanceRow, ResourceState, WorkflowRow } from "../model";
import type { Mount } from "./appTemplates";

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
// Access

export const APP_READ: AccessNeed = { grant: ["APP", "READ"] };
export const APP_WRITE: AccessNeed = { role: "EDITOR", grant: ["APP", "WRITE"] };

/** The instance an app lives on, checked with the app grants (resource tokens of the instance reach it). */
export function loadAppInstance(ctx: RouteContext, id: string, write: boolean): InstanceRow {
  const instance = ctx.store.t.instances.get(id);
  if (!instance) throw notFound("Instance");
  ctx.access(instance.workspaceId, { ...(write ? APP_WRITE : APP_READ), resource: { kind: "INSTANCE", id } });
  return instance;
}

export function loadApp(ctx: RouteContext, id: string, write: boolean): AppRow {
  const app = ctx.store.t.apps.get(id);
  if (!app) throw notFound("App");
  ctx.access(app.workspaceId, { ...(write ? APP_WRITE : APP_READ), resource: { kind: "APP", id } });
  return app;
}

// ---------------------------------------------------------------------------------------------
// Port allocations

export const portKey = (port: number, protocol: string) => `${port}/${protocol}`;

/** Host ports taken on an instance by its apps (except one being redeployed). */
export function takenPorts(services: Services, instanceId: string, exceptAppId?: string): Set<string> {
  const taken = new Set<string>();
  for (const app of services.store.t.apps.filter((a) => a.instanceId === instanceId && a.id !== exceptAppId)) {
    for (const p of app.ports) taken.add(portKey(p.host_port, p.protocol));
  }
  return taken;
}

export function checkPortsWellFormed(ports: PortMapping[]): void {
  const seen = new Set<string>();
  ports.forEach((p, i) => {
    const key = portKey(p.host_port, p.protocol);
    if (seen.has(key)) throw fieldError(`ports[${i}].host_port`, `host port ${key} is mapped twice`);
    seen.add(key);
  });
}

export function checkPortsFree(services: Services, instanceId: string, ports: PortMapping[], exceptAppId?: string): void {
  const taken = takenPorts(services, instanceId, exceptAppId);
  const clash = ports.find((p) => taken.has(portKey(p.host_port, p.protocol)));
  if (clash) throw conflict(`Host port ${portKey(clash.host_port, clash.protocol)} is already allocated on this instance`);
}

export function checkDomain(domain: string | null, ports: PortMapping[]): void {
  if (domain && !ports.some((p) => p.http)) throw fieldError("domain", "a domain needs at least one port with http true");
}

/** Deploy rule: the template's container_port when free on the instance, else random 20000-60000. */
const RANDOM_PORT_MIN = 20000;
const RANDOM_PORT_MAX = 60000;

export function allocateHostPort(services: Services, taken: Set<string>, preferred: number, protocol: string): number {
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
export function sampleAt(app: AppRow, at: number): { cpu: number; memory: number; network_rx: number; network_tx: number } {
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
// Deploys and changes

export interface NewApp {
  name: string;
  image: string;
  environment: Record<string, string>;
  mounts: Mount[];
  ports: PortMapping[];
  domain: string | null;
  templateId: string | null;
}

export function assertInstanceReady(instance: InstanceRow): void {
  if (instance.state !== "AVAILABLE") throw conflict(`Instance is ${instance.state}; apps deploy only to an AVAILABLE instance`);
}

export function assertNameFree(services: Services, workspaceId: string, name: string): void {
  if (services.store.t.apps.find((a) => a.workspaceId === workspaceId && a.name === name)) {
    throw conflict(`An app named ${name} already exists in this workspace`);
  }
}

/** Shared tail of both create endpoints: insert PENDING and start the deploy. */
export function deployNewApp(ctx: RouteContext, instance: InstanceRow, spec: NewApp): { app: AppRow; workflow: WorkflowView } {
  assertNameFree(ctx.services, instance.workspaceId, spec.name);
  checkPortsFree(ctx.services, instance.id, spec.ports);
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
  return { app, workflow: ctx.workflows.view(wf) };
}

/** An app from a custom image (POST /v1/instances/{iid}/apps). */
export function createApp(
  ctx: RouteContext,
  instance: InstanceRow,
  input: Omit<NewApp, "templateId">,
): { app: AppRow; workflow: WorkflowView } {
  checkPortsWellFormed(input.ports);
  checkDomain(input.domain, input.ports);
  assertInstanceReady(instance);
  return deployNewApp(ctx, instance, { ...input, templateId: null });
}

/** PATCH: a redeploy with the changed image, environment, mounts or ports. */
export function patchApp(
  ctx: RouteContext,
  app: AppRow,
  input: Partial<Pick<AppRow, "image" | "environment" | "mounts" | "ports">>,
): WorkflowView {
  const ports = input.ports ?? app.ports;
  checkPortsWellFormed(ports);
  checkDomain(app.domain, ports);
  assertSettled(app);
  if (input.ports) checkPortsFree(ctx.services, app.instanceId, input.ports, app.id);
  const changes = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
  ctx.store.t.apps.update(app.id, { ...changes, state: "PENDING", updated: ctx.clock.iso() });
  // A stopped app stays stopped after its redeploy; a running (or never deployed) one runs.
  const wf = startAppWorkflow(ctx, app, "deploy", { start: app.running || app.containerId === null, containerId: ctx.store.rng.hex(64) });
  return ctx.workflows.view(wf);
}

export function containerAction(ctx: RouteContext, app: AppRow, action: "start" | "stop" | "restart"): WorkflowView {
  assertSettled(app);
  if (!app.containerId) throw conflict("App has not been deployed yet");
  ctx.store.t.apps.update(app.id, { state: "PENDING", updated: ctx.clock.iso() });
  return ctx.workflows.view(startAppWorkflow(ctx, app, action));
}

export function deleteApp(ctx: RouteContext, app: AppRow): WorkflowView {
  if (app.state === "DELETING") throw conflict("App is already being deleted");
  ctx.store.t.apps.update(app.id, { state: "DELETING", updated: ctx.clock.iso() });
  const wf = ctx.startWorkflow({
    name: "delete-app",
    workspaceId: app.workspaceId,
    resource: { kind: "apps", id: app.id },
    onComplete: APP_REMOVED,
  });
  return ctx.workflows.view(wf);
}

/** The AppMetrics series from start to end (Unix seconds) by step; metrics describe the past: no points after now. */
export function metricsSeries(services: Services, app: AppRow, start: number, end: number, step: number) {
  const series = { cpu: [] as Point[], memory: [] as Point[], network_rx: [] as Point[], network_tx: [] as Point[] };
  const lastSecond = Math.min(end, Math.floor(services.clock.now() / 1000));
  for (let t = start; t <= lastSecond; t += step) {
    const sample = sampleAt(app, t * 1000);
    for (const key of Object.keys(series) as Array<keyof typeof series>) series[key].push({ time: t, value: sample[key] });
  }
  return series;
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
