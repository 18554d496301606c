/**
 * Part 2 Images, the HTTP side: request schemas, lists and the route table (with the signed
 * upload URL, PUT /uploads/:token). The rules are the area's domain: domain/images.ts (views,
 * creation, changes, restore) and domain/imageUploads.ts (the upload URL).
 */
import { z } from "zod";
import type { Domain } from "../core/domain";
import { workflowWithResource } from "../core/choices";
import { paginate } from "../core/paging";
import { accepted, noContent, ok, okEmpty, type RouteContext } from "../core/router";
import { contains, parseWith, pathId, queryBool, queryEnum, queryIds, queryList, zId, zInt } from "../core/validation";
import { RESOURCE_STATES, type ImageRow } from "../model";
import {
  createImage,
  deleteImage,
  imageView,
  loadImage,
  loadOwnImage,
  restoreImage,
  updateImage,
  IMAGE_KINDS,
  IMAGE_READ,
  IMAGE_WRITE,
  OS_FAMILIES,
} from "../domain/images";
import { receiveUpload } from "../domain/imageUploads";

// ---------------------------------------------------------------------------------------------
// Schemas

const zHttpUrl = z
  .string()
  .max(2048)
  .refine(
    (text) => {
      try {
        const url = new URL(text);
        return url.protocol === "http:" || url.protocol === "https:";
      } catch {
        return false;
      }
    },
    { message: "must be an http or https URL" },
  );

const zSource = z.discriminatedUnion("type", [
  z.object({ type: z.literal("URL"), url: zHttpUrl }),
  z.object({ type: z.literal("BACKUP"), backup_id: zId }),
  z.object({ type: z.literal("INSTANCE"), instance_id: zId, disk_id: zId.optional() }),
  z.object({
    type: z.literal("UPLOAD"),
    size_bytes: zInt.refine((n) => n >= 1 && n <= Number.MAX_SAFE_INTEGER, { message: "must be a positive byte count" }),
  }),
]);

const zOs = z.object({ family: z.enum(OS_FAMILIES), name: z.string().min(1).max(64).nullable().default(null) });

const CreateImage = z.object({
  kind: z.enum(IMAGE_KINDS),
  name: z.string().min(4).max(64),
  source: zSource,
  description: z.string().min(4).max(1000).nullable().default(null),
  group: z.string().min(4).max(32).nullable().default(null),
  os: zOs.nullable().default(null),
  uefi: z.boolean().default(false),
});

const PatchImage = z.object({
  name: z.string().min(4).max(32).optional(),
  description: z.string().min(4).max(1000).optional(),
  group: z.string().min(4).max(32).optional(),
  os: zOs.nullable().optional(),
});

const RestoreImage = z.object({
  instance_id: zId,
  disk_id: zId.optional(),
  restart: z.boolean().default(false),
});

// ---------------------------------------------------------------------------------------------
// Lists

function listFilter(q: Record<string, unknown>) {
  const ids = new Set(queryIds(q.id, "id"));
  const kinds = queryList(q.kind).map((k) => queryEnum(k, "kind", IMAGE_KINDS)!);
  const states = queryList(q.state).map((s) => queryEnum(s, "state", RESOURCE_STATES)!);
  const os = queryEnum(q.os, "os", OS_FAMILIES);
  const sourceInstances = new Set(queryIds(q.source_instance, "source_instance"));
  const sourceDisks = new Set(queryIds(q.source_disk, "source_disk"));
  const owners = new Set(queryIds(q.owner, "owner"));
  const official = queryBool(q.official, "official");
  const deprecated = queryBool(q.deprecated, "deprecated");
  return (i: ImageRow) =>
    (!q.q || contains(i.name, q.q) || contains(i.description, q.q) || i.id === String(q.q)) &&
    (ids.size === 0 || ids.has(i.id)) &&
    contains(i.name, q.name) &&
    contains(i.group, q.group) &&
    contains(i.description, q.description) &&
    (!os || i.os?.family === os) &&
    (kinds.length === 0 || kinds.includes(i.kind)) &&
    (states.length === 0 || states.includes(i.state)) &&
    (sourceInstances.size === 0 || sourceInstances.has(i.source.instance_id ?? "")) &&
    (sourceDisks.size === 0 || sourceDisks.has(i.source.disk_id ?? "")) &&
    (owners.size === 0 || owners.has(i.workspaceId ?? "")) &&
    (official === undefined || (official ? i.workspaceId === null : i.workspaceId !== null)) &&
    (deprecated === undefined || i.deprecated === deprecated);
}

function pageImages(ctx: RouteContext, rows: ImageRow[]) {
  return ok(
    paginate(rows.filter(listFilter(ctx.query)), ctx.query, (i) => imageView(ctx.services, i), {
      id: (i) => i.id,
      sortable: {
        name: (i) => i.name.toLowerCase(),
        created: (i) => i.created,
        size: (i) => i.size,
        kind: (i) => i.kind,
        state: (i) => i.state,
      },
    }),
  );
}

function listWorkspaceImages(ctx: RouteContext) {
  const wid = pathId(ctx.params.wid, "wid");
  ctx.access(wid, IMAGE_READ);
  return pageImages(
    ctx,
    ctx.store.t.images.filter((i) => i.workspaceId === null || i.workspaceId === wid),
  );
}

function listAllImages(ctx: RouteContext) {
  ctx.requireStaff();
  return pageImages(ctx, ctx.store.t.images.all());
}

// ---------------------------------------------------------------------------------------------
// Routes

const imageId = (ctx: RouteContext) => pathId(ctx.params.id, "id");

export const imagesDomain: Domain = {
  name: "images",
  routes: [
    { method: "GET", path: "/v1/workspaces/:wid/images", handler: listWorkspaceImages },
    {
      method: "POST",
      path: "/v1/workspaces/:wid/images",
      handler: (ctx) => {
        const wid = pathId(ctx.params.wid, "wid");
        ctx.access(wid, IMAGE_WRITE);
        const { image, workflow, upload } = createImage(ctx, wid, parseWith(CreateImage, ctx.body));
        return accepted(workflowWithResource(workflow, imageView(ctx.services, image), upload ? { upload } : undefined));
      },
    },
    { method: "GET", path: "/v1/images", handler: listAllImages },
    { method: "GET", path: "/v1/images/:id", handler: (ctx) => ok(imageView(ctx.services, loadImage(ctx, imageId(ctx), IMAGE_READ))) },
    {
      method: "PATCH",
      path: "/v1/images/:id",
      handler: (ctx) => {
        const image = loadOwnImage(ctx, imageId(ctx));
        updateImage(ctx, image, parseWith(PatchImage, ctx.body ?? {}));
        return noContent();
      },
    },
    { method: "DELETE", path: "/v1/images/:id", handler: (ctx) => accepted(deleteImage(ctx, loadOwnImage(ctx, imageId(ctx)))) },
    {
      method: "POST",
      path: "/v1/images/:id/restore",
      handler: (ctx) => {
        const image = loadImage(ctx, imageId(ctx), IMAGE_READ);
        return accepted(restoreImage(ctx, image, parseWith(RestoreImage, ctx.body)));
      },
    },
    {
      method: "PUT",
      path: "/uploads/:token",
      auth: "none",
      streamBody: true,
      handler: async (ctx) => {
        await receiveUpload(ctx.services, ctx.params.token ?? "", ctx.query, ctx.body);
        return okEmpty();
      },
    },
  ],
  inventory: {
    images: { workspaceOf: (row: ImageRow) => row.workspaceId },
  },
};
