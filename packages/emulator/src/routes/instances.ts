/**
 * Instances (spec part 2, "Instances"): create, list, fetch, settings, power, delete and
 * metrics. The rules are the area's domain: domain/instances.ts (access, views, search,
 * billing, metrics), domain/instanceLifecycle.ts (power, upgrades, removal, termination) and
 * domain/instanceProvisioning.ts (create). This file holds the request schemas and the route
 * table; floating IPs are their own area (routes/floatingIps.ts).
 */
import { z } from "zod";
import type { Domain } from "../core/domain";
import { badRequest } from "../core/errors";
import { paginate } from "../core/paging";
import { accepted, ok, type RouteContext } from "../core/router";
import { parseWith, pathId, queryInt, zId, zInt } from "../core/validation";
import { workflowWithResource } from "../core/choices";
import type { InstanceRow } from "../model";
import { PLAN_GROUPS } from "../domain/catalog";
import { DISK_BACKENDS } from "../domain/disks";
import {
  buildIndex,
  filterInstances,
  instanceView,
  loadInstance,
  metricsFor,
  INSTANCE_ADMIN,
  INSTANCE_OPERATE,
  INSTANCE_READ,
} from "../domain/instances";
import { changeSettings, requestDeletion, requestPower, POWER_ACTIONS, type InstanceSettings } from "../domain/instanceLifecycle";
import { provisionInstance, type InstanceRequest } from "../domain/instanceProvisioning";

// ---------------------------------------------------------------------------------------------
// Requests

export const INSTANCE_NAME = z.string().trim().min(1, "must not be empty").max(64, "must be at most 64 characters");
const positive = (what: string) => zInt.refine((v) => v > 0, `must be a positive ${what}`);

const IpRequest = z
  .object({ family: z.enum(["IPv4", "IPv6"]), ddos: z.boolean().default(false) })
  .refine((ip) => !(ip.ddos && ip.family === "IPv6"), { message: "DDoS protection is offered for IPv4 addresses only", path: ["ddos"] });

const CommonCreate = {
  name: INSTANCE_NAME,
  region: z.string().min(1, "must not be empty").optional(),
  node: zId.optional(),
  image: zId.optional(),
  ips: z.array(IpRequest).max(16, "at most 16 addresses").optional(),
  vpcs: z
    .array(zId)
    .max(8, "at most 8 VPCs")
    .refine((v) => new Set(v).size === v.length, "must not repeat a VPC")
    .optional(),
  boot: z.enum(["DISK", "ISO"]).optional(),
  cloud_init: z.string().max(65_536, "must be at most 64 KiB").optional(),
  disable_cloud_init: z.boolean().optional(),
  start: z.boolean().optional(),
};

const StorageEntry = z.object({
  size_bytes: positive("number of bytes"),
  boot: z.boolean().default(false),
  backing: z
    .string()
    .transform((s) => s.toUpperCase())
    .pipe(z.enum(DISK_BACKENDS, { error: "must be LOCAL or CEPH" }))
    .default("LOCAL"),
});

const Bandwidth = z.object({ upload_bytes_sec: positive("rate"), download_bytes_sec: positive("rate") });

const CreateInstance = z
  .discriminatedUnion(
    "type",
    [
      z.object({ type: z.literal("PLAN"), plan: zId, ...CommonCreate }),
      z.object({
        type: z.literal("CUSTOM"),
        group: z.enum(PLAN_GROUPS),
        cpu: zInt.refine((v) => v >= 1 && v <= 128, "must be from 1 to 128 cores"),
        memory_bytes: zInt.refine((v) => v >= 512 * 1024 ** 2, "must be at least 512 MiB"),
        storage: z
          .array(StorageEntry)
          .min(1, "needs at least one entry")
          .max(16, "at most 16 entries")
          .refine((s) => s.filter((e) => e.boot).length === 1, "exactly one entry must have boot true"),
        bandwidth: Bandwidth.optional(),
        ...CommonCreate,
      }),
    ],
    { error: "type must be PLAN or CUSTOM" },
  )
  .refine((b) => b.region !== undefined || b.node !== undefined, { message: "send region (for example NA_01) or node", path: ["region"] });

const PatchInstance = z.object({
  name: INSTANCE_NAME.optional(),
  boot: z.enum(["DISK", "ISO"]).optional(),
  uefi: z.boolean().optional(),
  secure_boot: z.boolean().optional(),
  attach_virtio_cdb: z.boolean().optional(),
  sync_hostname: z.boolean().optional(),
  firewall_enabled: z.boolean().optional(),
  os_name: z.string().trim().min(1, "must not be empty").max(64, "must be at most 64 characters").nullable().optional(),
});

/** PATCH body field -> row field. */
const PATCH_FIELDS: Record<keyof z.infer<typeof PatchInstance>, keyof InstanceSettings> = {
  name: "name",
  boot: "boot",
  uefi: "uefi",
  secure_boot: "secureBoot",
  attach_virtio_cdb: "attachVirtioCdb",
  sync_hostname: "syncHostname",
  firewall_enabled: "firewallEnabled",
  os_name: "osName",
};

const PowerBody = z.object({ action: z.enum(POWER_ACTIONS) });

// ---------------------------------------------------------------------------------------------
// Lists and metrics

const INSTANCE_SORTS = {
  name: (i: InstanceRow) => i.name,
  created: (i: InstanceRow) => i.created,
  state: (i: InstanceRow) => i.state,
  online: (i: InstanceRow) => i.online,
  cpu: (i: InstanceRow) => i.cpu,
  memory: (i: InstanceRow) => i.memoryBytes,
};

const MAX_METRIC_POINTS = 10_000;

function requiredQueryInt(ctx: RouteContext, name: string): number {
  const v = queryInt(ctx.query[name], name);
  if (v === undefined) throw badRequest(`Invalid query: ${name} is required`, [{ field: name, message: "is required" }]);
  return v;
}

function instanceMetrics(ctx: RouteContext) {
  if (ctx.query.instance === undefined || ctx.query.instance === "")
    throw badRequest("Invalid query: instance is required", [{ field: "instance", message: "is required" }]);
  const instanceId = pathId(String(ctx.query.instance), "instance");
  const start = requiredQueryInt(ctx, "start");
  const end = requiredQueryInt(ctx, "end");
  const step = requiredQueryInt(ctx, "step");
  if (step < 15) throw badRequest("Invalid query: step must be at least 15 seconds", [{ field: "step", message: "must be at least 15" }]);
  if (start < 0)
    throw badRequest("Invalid query: start must be a Unix time in seconds", [{ field: "start", message: "must not be negative" }]);
  if (end < start) throw badRequest("Invalid query: end must not be before start", [{ field: "end", message: "must not be before start" }]);
  if (Math.floor((end - start) / step) + 1 > MAX_METRIC_POINTS) {
    throw badRequest(`Invalid query: at most ${MAX_METRIC_POINTS} points per series; widen step`, [
      { field: "step", message: "too many points" },
    ]);
  }
  const inst = loadInstance(ctx, instanceId, INSTANCE_READ);
  return ok({ instance: inst.id, start, end, step, series: metricsFor(inst, start, end, step) });
}

// ---------------------------------------------------------------------------------------------

const instance = (ctx: RouteContext, need: typeof INSTANCE_READ) => loadInstance(ctx, pathId(ctx.params.id, "id"), need);

export const instancesDomain: Domain = {
  name: "instances",
  inventory: {
    instances: { workspaceOf: (row: InstanceRow) => row.workspaceId },
  },
  routes: [
    {
      method: "GET",
      path: "/v1/workspaces/:wid/instances",
      handler: (ctx) => {
        const wid = pathId(ctx.params.wid, "wid");
        ctx.access(wid, INSTANCE_READ);
        const rows = filterInstances(
          ctx.services,
          ctx.store.t.instances.filter((i) => i.workspaceId === wid),
          ctx.query,
        );
        const index = buildIndex(ctx.services);
        return ok(
          paginate(rows, ctx.query, (i) => instanceView(ctx.services, i, index), {
            id: (i) => i.id,
            sortable: INSTANCE_SORTS,
            defaultSort: { field: "created", dir: "desc" },
          }),
        );
      },
    },
    {
      method: "POST",
      path: "/v1/workspaces/:wid/instances",
      handler: (ctx) => {
        const wid = pathId(ctx.params.wid, "wid");
        ctx.access(wid, INSTANCE_ADMIN);
        const body: InstanceRequest = parseWith(CreateInstance, ctx.body);
        const { instance: created, workflow } = provisionInstance(ctx, wid, body);
        return accepted(workflowWithResource(workflow, instanceView(ctx.services, created)));
      },
    },
    { method: "GET", path: "/v1/instances/:id", handler: (ctx) => ok(instanceView(ctx.services, instance(ctx, INSTANCE_READ))) },
    {
      method: "PATCH",
      path: "/v1/instances/:id",
      handler: (ctx) => {
        const target = instance(ctx, INSTANCE_OPERATE);
        const body = parseWith(PatchInstance, ctx.body);
        const settings: InstanceSettings = {};
        for (const [field, column] of Object.entries(PATCH_FIELDS) as Array<[keyof typeof PATCH_FIELDS, keyof InstanceSettings]>) {
          if (body[field] !== undefined) (settings as Record<string, unknown>)[column] = body[field];
        }
        return ok(instanceView(ctx.services, changeSettings(ctx, target, settings)));
      },
    },
    {
      method: "POST",
      path: "/v1/instances/:id/power",
      handler: (ctx) => {
        const target = instance(ctx, INSTANCE_OPERATE);
        return accepted(requestPower(ctx, target, parseWith(PowerBody, ctx.body).action));
      },
    },
    { method: "DELETE", path: "/v1/instances/:id", handler: (ctx) => accepted(requestDeletion(ctx, instance(ctx, INSTANCE_ADMIN))) },
    { method: "GET", path: "/v1/metrics", handler: instanceMetrics },
  ],
};
