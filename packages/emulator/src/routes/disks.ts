/**
 * Disks (spec part 2, "Disks"): block volumes. Every instance has a boot disk (created by the
 * instance area); standalone disks are created here and attached later. The states, billing and
 * commands are the area's domain (domain/disks.ts); this file holds the request schemas, the
 * list filters and the route table.
 */
import { z } from "zod";
import type { Domain } from "../core/domain";
import { paginate } from "../core/paging";
import { accepted, ok, type RouteContext } from "../core/router";
import { contains, parseWith, pathId, queryBool, queryEnumList, queryIds, zId, zInt } from "../core/validation";
import { workflowWithResource } from "../core/choices";
import type { AccessNeed } from "../core/auth";
import { RESOURCE_STATES, type DiskRow } from "../model";
import {
  attachDisk,
  createDisk,
  deleteDisk,
  detachDisk,
  diskView,
  loadDisk,
  renameDisk,
  resizeDisk,
  DISK_BACKENDS,
  DISK_READ,
  DISK_WRITE,
} from "../domain/disks";

// ---------------------------------------------------------------------------------------------
// Requests

const NAME = z.string().trim().min(1, "must not be empty").max(64, "must be at most 64 characters");
const SIZE = zInt.refine((v) => v > 0, "must be a positive number of bytes");

const CreateDisk = z.object({
  name: NAME,
  size: SIZE,
  backend: z.enum(DISK_BACKENDS),
  region: z.string().min(1, "must not be empty"),
});

const PatchDisk = z.object({ name: NAME });
const AttachDisk = z.object({ instance_id: zId });
const ResizeDisk = z.object({ size: SIZE });

// ---------------------------------------------------------------------------------------------
// Lists

function filterDisks(ctx: RouteContext, rows: DiskRow[]): DiskRow[] {
  const q = ctx.query;
  const ids = queryIds(q.id, "id");
  const instances = queryIds(q.instance, "instance");
  const owners = queryIds(q.owner, "owner");
  const boot = queryBool(q.boot, "boot");
  const states = queryEnumList(q.state, "state", RESOURCE_STATES);
  const backends = queryEnumList(q.backend, "backend", DISK_BACKENDS);
  return rows.filter(
    (d) =>
      (!ids.length || ids.includes(d.id)) &&
      (!instances.length || (d.instanceId !== null && instances.includes(d.instanceId))) &&
      (!owners.length || owners.includes(d.workspaceId)) &&
      (boot === undefined || d.boot === boot) &&
      (!states.length || states.includes(d.state)) &&
      (!backends.length || backends.includes(d.backend)) &&
      contains(d.name, q.name) &&
      (!q.q || d.id === String(q.q) || contains(d.name, q.q)),
  );
}

const DISK_SORTS = {
  name: (d: DiskRow) => d.name,
  size: (d: DiskRow) => d.size,
  created: (d: DiskRow) => d.created,
  state: (d: DiskRow) => d.state,
};

function listDisks(ctx: RouteContext, rows: DiskRow[]) {
  return ok(paginate(filterDisks(ctx, rows), ctx.query, (d) => diskView(ctx.services, d), { id: (d) => d.id, sortable: DISK_SORTS }));
}

// ---------------------------------------------------------------------------------------------
// Routes

const disk = (ctx: RouteContext, need: AccessNeed) => loadDisk(ctx, pathId(ctx.params.did, "did"), need);

export const disksDomain: Domain = {
  name: "disks",
  inventory: {
    disks: { workspaceOf: (row: DiskRow) => row.workspaceId },
  },
  routes: [
    {
      method: "GET",
      path: "/v1/workspaces/:wid/disks",
      handler: (ctx) => {
        const wid = pathId(ctx.params.wid, "wid");
        ctx.access(wid, DISK_READ);
        return listDisks(
          ctx,
          ctx.store.t.disks.filter((d) => d.workspaceId === wid),
        );
      },
    },
    {
      method: "GET",
      path: "/v1/disks",
      handler: (ctx) => {
        ctx.requireStaff();
        return listDisks(ctx, ctx.store.t.disks.all());
      },
    },
    {
      method: "POST",
      path: "/v1/workspaces/:wid/disks",
      handler: (ctx) => {
        const wid = pathId(ctx.params.wid, "wid");
        ctx.access(wid, DISK_WRITE);
        const { disk: created, workflow } = createDisk(ctx, wid, parseWith(CreateDisk, ctx.body));
        return accepted(workflowWithResource(workflow, diskView(ctx.services, created)));
      },
    },
    { method: "GET", path: "/v1/disks/:did", handler: (ctx) => ok(diskView(ctx.services, disk(ctx, DISK_READ))) },
    {
      method: "PATCH",
      path: "/v1/disks/:did",
      handler: (ctx) => {
        const target = disk(ctx, DISK_WRITE);
        const body = parseWith(PatchDisk, ctx.body);
        return ok(diskView(ctx.services, renameDisk(ctx, target, body.name)));
      },
    },
    {
      method: "POST",
      path: "/v1/disks/:did/attach",
      handler: (ctx) => {
        const target = disk(ctx, DISK_WRITE);
        return accepted(attachDisk(ctx, target, parseWith(AttachDisk, ctx.body).instance_id));
      },
    },
    { method: "POST", path: "/v1/disks/:did/detach", handler: (ctx) => accepted(detachDisk(ctx, disk(ctx, DISK_WRITE))) },
    {
      method: "POST",
      path: "/v1/disks/:did/resize",
      handler: (ctx) => {
        const target = disk(ctx, DISK_WRITE);
        return accepted(resizeDisk(ctx, target, parseWith(ResizeDisk, ctx.body).size));
      },
    },
    { method: "DELETE", path: "/v1/disks/:did", handler: (ctx) => accepted(deleteDisk(ctx, disk(ctx, DISK_WRITE))) },
  ],
};
