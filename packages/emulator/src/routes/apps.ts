/**
 * Part 2 Apps, the HTTP side: request schemas, lists, metrics queries and the route table. The
 * rules are the area's domain: domain/apps.ts (rows, access, ports, the container, workflows,
 * hooks) and domain/appFromTemplate.ts (the template deploy rules).

 */
import { z } from "zod";
import { workflowWithResource } from "../core/choices";
import type { Domain } from "../core/domain";
import { badRequest } from "../core/errors";
import { paginate } from "../core/paging";
import { accepted, created, ok, type RouteContext } from "../core/router";
import { contains, parseWith, pathId, queryIds, queryInt, queryList, zStringId } from "../core/validation";
import { RESOURCE_STATES } from "../model";
import { zEnvKey, zImageRef, zMount, zPortNumber, zProtocol } from "../domain/appTemplates";
import {
  appView,
  containerAction,
  createApp,
  deleteApp,
  loadApp,
  loadAppInstance,
  metricsSeries,
  patchApp,
  APP_READ,
  type AppRow,
} from "../domain/apps";
import { deployFromTemplate } from "../domain/appFromTemplate";

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
  .regex(
    /^(?=.{1,253}$)(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\.)+[a-zA-Z]{2,63}$/,
    "must be a domain name such as app.example.com",
  );

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
// Lists and metrics

const instanceOf = (ctx: RouteContext, write: boolean) => loadAppInstance(ctx, pathId(ctx.params.iid, "iid"), write);
const app = (ctx: RouteContext, write: boolean) => loadApp(ctx, pathId(ctx.params.id, "id"), write);

function stateFilter(value: unknown): Set<string> {
  const states = queryList(value);
  for (const s of states) {
    if (!(RESOURCE_STATES as readonly string[]).includes(s))
      throw badRequest(`Invalid query: state must be one of ${RESOURCE_STATES.join(", ")}`, [{ field: "state", message: "unknown state" }]);
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
    paginate(filtered, q, (a) => appView(ctx.services, a), {
      id: (a) => a.id,
      sortable: { name: (a) => a.name, created: (a) => a.created, image: (a) => a.image, state: (a) => a.state },
      defaultSort: { field: "created", dir: "desc" },
    }),
  );
}

function listWorkspaceApps(ctx: RouteContext) {
  const wid = pathId(ctx.params.wid, "wid");
  ctx.access(wid, APP_READ);
  return listApps(
    ctx,
    ctx.store.t.apps.filter((a) => a.workspaceId === wid),
    true,
  );
}

function listInstanceApps(ctx: RouteContext) {
  const instance = instanceOf(ctx, false);
  return listApps(
    ctx,
    ctx.store.t.apps.filter((a) => a.instanceId === instance.id),
    false,
  );
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
  const app = loadApp(ctx, pathId(ctx.params.id, "id"), false);
  const start = requiredInt(ctx.query.start, "start");
  const end = requiredInt(ctx.query.end, "end");
  const step = requiredInt(ctx.query.step, "step");
  if (step < MIN_STEP)
    throw badRequest(`Invalid query: step must be at least ${MIN_STEP} seconds`, [
      { field: "step", message: `must be at least ${MIN_STEP}` },
    ]);
  if (end < start) throw badRequest("Invalid query: end must not be before start", [{ field: "end", message: "must not be before start" }]);
  if (Math.floor((end - start) / step) + 1 > MAX_POINTS) {
    throw badRequest(`Invalid query: at most ${MAX_POINTS} points per series; raise step or narrow the range`, [
      { field: "step", message: "too many points" },
    ]);
  }
  return ok({ start, end, step, ...metricsSeries(ctx.services, app, start, end, step) });
}

// ---------------------------------------------------------------------------------------------
// Routes

const action = (name: "start" | "stop" | "restart") => (ctx: RouteContext) => accepted(containerAction(ctx, app(ctx, true), name));

export const appsDomain: Domain = {
  name: "apps",
  routes: [
    { method: "GET", path: "/v1/workspaces/:wid/apps", handler: listWorkspaceApps },
    { method: "GET", path: "/v1/instances/:iid/apps", handler: listInstanceApps },
    {
      method: "POST",
      path: "/v1/instances/:iid/apps",
      handler: (ctx) => {
        const instance = instanceOf(ctx, true);
        const { app: deployed, workflow } = createApp(ctx, instance, parseWith(CreateApp, ctx.body));
        return created(workflowWithResource(workflow, appView(ctx.services, deployed)));
      },
    },
    {
      method: "POST",
      path: "/v1/instances/:iid/apps/from-template",
      handler: (ctx) => {
        const instance = instanceOf(ctx, true);
        const { app: deployed, workflow } = deployFromTemplate(ctx, instance, parseWith(FromTemplate, ctx.body));
        return created(workflowWithResource(workflow, appView(ctx.services, deployed)));
      },
    },
    { method: "GET", path: "/v1/apps/:id", handler: (ctx) => ok(appView(ctx.services, app(ctx, false))) },
    {
      method: "PATCH",
      path: "/v1/apps/:id",
      handler: (ctx) => {
        const target = app(ctx, true);
        return accepted(patchApp(ctx, target, parseWith(PatchApp, ctx.body ?? {})));
      },
    },
    { method: "DELETE", path: "/v1/apps/:id", handler: (ctx) => accepted(deleteApp(ctx, app(ctx, true))) },
    { method: "POST", path: "/v1/apps/:id/start", handler: action("start") },
    { method: "POST", path: "/v1/apps/:id/stop", handler: action("stop") },
    { method: "POST", path: "/v1/apps/:id/restart", handler: action("restart") },
    { method: "GET", path: "/v1/apps/:id/metrics", handler: appMetrics },
  ],
  inventory: {
    apps: { workspaceOf: (row: AppRow) => row.workspaceId },
  },
};
