/**
 * Part 2 Images: templates, backups and ISOs (spec part 2, "Image", "Images").
 *
 * - Platform images (owner null) are visible to every workspace and cannot be patched or
 *   deleted through the workspace endpoints (403).
 * - Creating an image answers 202 with WorkflowWithResource; the image is PENDING until the
 *   workflow completes (AVAILABLE). An ISO with source UPLOAD also gets an `upload` object: a
 *   single-use signed URL served by this emulator (PUT /uploads/:token). Its workflow stays
 *   QUEUED until exactly `max_size_bytes` bytes arrive, then runs; if the URL expires first the
 *   workflow ends TIMED_OUT and the image FAILED.
 * - Reads need READ on IMAGE; writes EDITOR and WRITE on IMAGE (restore also WRITE on INSTANCE).
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import type { AccessNeed } from "../core/auth";
import type { Domain } from "../core/domain";
import { workflowWithResource } from "../core/choices";
import { badRequest, conflict, fieldError, forbidden, notFound } from "../core/errors";
import { paginate } from "../core/paging";
import { accepted, noContent, ok, okEmpty, type RouteContext } from "../core/router";
import type { Services } from "../core/services";
import { contains, parseWith, pathId, queryBool, queryEnum, queryIds, queryList, zId, zInt } from "../core/validation";
import { defineWorkflowEffect } from "../core/workflows";
import { applyStagedUpgrades, setOnline } from "../domain/instanceLifecycle";
import { RESOURCE_STATES, type DiskRow, type ImageKind, type ImageRow, type InstanceRow, type WorkflowOutcome, type WorkflowRow } from "../model";

const IMAGE_KINDS = ["TEMPLATE", "BACKUP", "ISO"] as const;
const OS_FAMILIES = ["LINUX", "WINDOWS", "BSD"] as const;
type SourceType = "URL" | "BACKUP" | "INSTANCE" | "UPLOAD";

/** Which image kinds each source type can create ("not shown"; chosen). */
const KINDS_BY_SOURCE: Record<SourceType, readonly ImageKind[]> = {
  URL: ["TEMPLATE", "ISO"],
  BACKUP: ["TEMPLATE"],
  INSTANCE: ["TEMPLATE", "BACKUP"],
  UPLOAD: ["ISO"],
};

/** How long a signed upload URL stays valid ("not shown"; chosen). */
export const UPLOAD_TTL_MS = 60 * 60 * 1000;
/** Far future, as core/workflows.ts uses for workflows that never end. */
const NEVER = Number.MAX_SAFE_INTEGER;
const GiB = 1024 ** 3;

const READ: AccessNeed = { grant: ["IMAGE", "READ"] };
const WRITE: AccessNeed = { role: "EDITOR", grant: ["IMAGE", "WRITE"] };

// ---------------------------------------------------------------------------------------------
// Schemas

const zHttpUrl = z
  .string()
  .max(2048)
  .refine((text) => {
    try {
      const url = new URL(text);
      return url.protocol === "http:" || url.protocol === "https:";
    } catch {
      return false;
    }
  }, { message: "must be an http or https URL" });

const zSource = z.discriminatedUnion("type", [
  z.object({ type: z.literal("URL"), url: zHttpUrl }),
  z.object({ type: z.literal("BACKUP"), backup_id: zId }),
  z.object({ type: z.literal("INSTANCE"), instance_id: zId, disk_id: zId.optional() }),
  z.object({ type: z.literal("UPLOAD"), size_bytes: zInt.refine((n) => n >= 1 && n <= Number.MAX_SAFE_INTEGER, { message: "must be a positive byte count" }) }),
]);
type SourceInput = z.infer<typeof zSource>;

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
// Views

function sourceView(source: ImageRow["source"]) {
  return {
    type: source.type,
    url: source.url ?? null,
    backup_id: source.backup_id ?? null,
    instance_id: source.instance_id ?? null,
    disk_id: source.disk_id ?? null,
    size_bytes: source.size_bytes ?? null,
  };
}

export function imageView(services: Services, image: ImageRow) {
  const owner = image.workspaceId ? services.store.t.workspaces.get(image.workspaceId) : undefined;
  return {
    id: image.id,
    name: image.name,
    description: image.description,
    group: image.group,
    kind: image.kind,
    source: sourceView(image.source),
    os: image.os,
    size: image.size,
    uefi: image.uefi,
    official: image.official,
    deprecated: image.deprecated,
    owner: owner ? { id: owner.id, name: owner.name } : null,
    state: image.state,
    created: image.created,
  };
}

// ---------------------------------------------------------------------------------------------
// Loading and access

function loadImage(ctx: RouteContext, need: AccessNeed): ImageRow {
  const image = ctx.store.t.images.get(pathId(ctx.params.id, "id"));
  if (!image) throw notFound("Image");
  if (image.workspaceId) ctx.access(image.workspaceId, need);
  return image;
}

/** A workspace-owned image the caller may change: platform images answer 403. */
function loadOwnImage(ctx: RouteContext): ImageRow & { workspaceId: string } {
  const image = loadImage(ctx, WRITE);
  if (!image.workspaceId) throw forbidden("Platform images cannot be changed or deleted");
  return image as ImageRow & { workspaceId: string };
}

function bootDisk(services: Services, instanceId: string): DiskRow | undefined {
  return services.store.t.disks.find((d) => d.instanceId === instanceId && d.boot);
}

/** The disk named by disk_id (attached to the instance), or the instance's boot disk. */
function targetDisk(services: Services, instance: InstanceRow, diskId: string | undefined, field: string): DiskRow {
  if (diskId === undefined) {
    const boot = bootDisk(services, instance.id);
    if (!boot) throw fieldError(field, "the instance has no boot disk; send disk_id");
    return boot;
  }
  const disk = services.store.t.disks.get(diskId);
  if (!disk || disk.workspaceId !== instance.workspaceId) throw notFound("Disk");
  if (disk.instanceId !== instance.id) throw fieldError(field, "the disk is not attached to the instance");
  return disk;
}

// ---------------------------------------------------------------------------------------------
// Creation

interface ResolvedSource {
  source: ImageRow["source"];
  size: number;
}

/** One resolver per source type: checks the reference and says what the image starts from. */
const SOURCE_RESOLVERS: { [T in SourceType]: (ctx: RouteContext, wid: string, s: Extract<SourceInput, { type: T }>) => ResolvedSource } = {
  URL: (_ctx, _wid, s) => ({ source: { type: "URL", url: s.url }, size: 0 }),
  BACKUP: (ctx, wid, s) => {
    const backup = ctx.store.t.images.get(s.backup_id);
    if (!backup || backup.workspaceId !== wid) throw notFound("Backup image");
    if (backup.kind !== "BACKUP") throw fieldError("source.backup_id", "must identify an image of kind BACKUP");
    if (backup.state !== "AVAILABLE") throw conflict(`Backup image is ${backup.state}; it must be AVAILABLE`);
    return { source: { type: "BACKUP", backup_id: backup.id }, size: backup.size };
  },
  INSTANCE: (ctx, wid, s) => {
    const instance = ctx.store.t.instances.get(s.instance_id);
    if (!instance || instance.workspaceId !== wid) throw notFound("Instance");
    const disk = targetDisk(ctx, instance, s.disk_id, "source.disk_id");
    return { source: { type: "INSTANCE", instance_id: instance.id, disk_id: disk.id }, size: disk.size };
  },
  UPLOAD: (_ctx, _wid, s) => ({ source: { type: "UPLOAD", size_bytes: s.size_bytes }, size: s.size_bytes }),
};

function resolveSource(ctx: RouteContext, wid: string, source: SourceInput): ResolvedSource {
  return (SOURCE_RESOLVERS[source.type] as (ctx: RouteContext, wid: string, s: SourceInput) => ResolvedSource)(ctx, wid, source);
}

/** ISO quotas (part 1 quota iso_count, iso_storage_bytes): 409 when the new ISO would exceed them. */
function checkIsoQuota(services: Services, wid: string, size: number): void {
  const workspace = services.store.t.workspaces.get(wid);
  if (!workspace) throw notFound("Workspace");
  const isos = services.store.t.images.filter((i) => i.workspaceId === wid && i.kind === "ISO");
  if (isos.length >= workspace.quota.iso_count) throw conflict(`ISO quota reached: the workspace may hold ${workspace.quota.iso_count} ISOs`);
  // An ISO waiting for its upload already reserves the bytes it will hold.
  const used = isos.reduce((sum, i) => sum + Math.max(i.size, i.upload?.maxSizeBytes ?? 0), 0);
  if (used + size > workspace.quota.iso_storage_bytes) {
    throw conflict(`ISO storage quota exceeded: ${used + size} bytes would exceed ${workspace.quota.iso_storage_bytes}`);
  }
}

/** Size of a URL-sourced image once "downloaded": deterministic per URL, 256 MiB to 4 GiB. */
function downloadedSize(url: string): number {
  const digest = createHmac("sha256", "image-size").update(url).digest();
  return 256 * 1024 * 1024 + (digest.readUInt32BE(0) % (4 * GiB - 256 * 1024 * 1024));
}

const IMAGE_AVAILABLE = defineWorkflowEffect("image.available", (services, wf) => {
  const image = services.store.t.images.get(wf.resource?.id);
  if (!image || image.state !== "PENDING") return;
  const size = image.size || (image.source.url ? downloadedSize(image.source.url) : 0);
  services.store.t.images.update(image.id, { state: "AVAILABLE", size });
});

const IMAGE_REMOVED = defineWorkflowEffect("image.removed", (services, wf) => {
  if (wf.resource) services.store.t.images.delete(wf.resource.id);
});

function signature(imageId: string, token: string, expiresAt: string): string {
  return createHmac("sha256", token).update(`${imageId}:${expiresAt}`).digest("hex");
}

function uploadUrl(services: Services, image: ImageRow): string {
  const upload = image.upload!;
  const query = new URLSearchParams({ expires: String(Math.floor(Date.parse(upload.expiresAt) / 1000)), signature: signature(image.id, upload.token, upload.expiresAt) });
  return `${services.settings.baseUrl}/uploads/${upload.token}?${query}`;
}

/**
 * The upload workflow waits QUEUED: it would start at the URL's expiry and end there TIMED_OUT
 * (so the image goes FAILED); a completed upload reschedules it with its planned outcome.
 */
function parkUntilUploaded(services: Services, wf: WorkflowRow, expiresAtMs: number): void {
  services.store.t.workflows.update(wf.id, {
    startsAt: expiresAtMs,
    endsAt: expiresAtMs,
    outcome: "TIMED_OUT",
    args: { ...wf.args, plannedOutcome: wf.outcome },
  });
}

function waitingUploadWorkflow(services: Services, imageId: string): WorkflowRow | undefined {
  return services.store.t.workflows.find((w) => w.resource?.kind === "images" && w.resource.id === imageId && w.state === "QUEUED" && w.name === "create-image");
}

function createImage(ctx: RouteContext) {
  const wid = pathId(ctx.params.wid, "wid");
  ctx.access(wid, WRITE);
  const input = parseWith(CreateImage, ctx.body);
  if (!KINDS_BY_SOURCE[input.source.type].includes(input.kind)) {
    throw fieldError("source.type", `a ${input.kind} image cannot come from source ${input.source.type} (allowed: ${KINDS_BY_SOURCE[input.source.type].join(", ")})`);
  }
  const { source, size } = resolveSource(ctx, wid, input.source);
  if (input.kind === "ISO") checkIsoQuota(ctx, wid, size);
  const now = ctx.clock.now();
  const upload = input.source.type === "UPLOAD"
    ? { token: ctx.store.rng.alnum(40), expiresAt: ctx.clock.iso(now + UPLOAD_TTL_MS), maxSizeBytes: size, used: false, received: 0 }
    : null;
  const image = ctx.store.t.images.insert({
    id: ctx.store.newId(),
    workspaceId: wid,
    name: input.name,
    description: input.description,
    group: input.group,
    kind: input.kind,
    source,
    os: input.os,
    size: upload ? 0 : size,
    uefi: input.uefi,
    official: false,
    deprecated: false,
    state: "PENDING",
    created: ctx.clock.iso(now),
    upload,
  });
  const wf = ctx.startWorkflow({ name: "create-image", workspaceId: wid, resource: { kind: "images", id: image.id }, onComplete: IMAGE_AVAILABLE });
  if (!upload) return accepted(workflowWithResource(ctx.workflows.view(wf), imageView(ctx, image)));
  parkUntilUploaded(ctx, wf, now + UPLOAD_TTL_MS);
  return accepted(
    workflowWithResource(ctx.workflows.view(wf), imageView(ctx, image), {
      upload: { url: uploadUrl(ctx, image), expires_at: upload.expiresAt, max_size_bytes: upload.maxSizeBytes },
    }),
  );
}

// ---------------------------------------------------------------------------------------------
// The signed upload URL (not under /v1: the emulator stands in for the storage service)

/** Uploads in progress, by token: a second concurrent PUT to the same URL is refused. */
const uploadsInFlight = new Set<string>();

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

async function countBytes(body: unknown): Promise<number> {
  if (body === undefined || body === null) return 0;
  if (Buffer.isBuffer(body) || typeof body === "string") return Buffer.byteLength(body);
  if (typeof (body as AsyncIterable<Buffer>)[Symbol.asyncIterator] === "function") {
    let n = 0;
    try {
      for await (const chunk of body as AsyncIterable<Buffer | string>) n += Buffer.byteLength(chunk);
    } catch (err) {
      throw badRequest(`Upload interrupted: ${(err as Error).message}`);
    }
    return n;
  }
  throw badRequest("Send the file as the raw request body (Content-Type: application/octet-stream)");
}

/** Checks the URL is genuine, unexpired and unused; answers as a storage service would. */
function verifyUploadUrl(ctx: RouteContext, image: ImageRow | undefined): asserts image is ImageRow & { upload: NonNullable<ImageRow["upload"]> } {
  if (!image?.upload) throw notFound("Upload");
  const { upload } = image;
  const expires = String(Math.floor(Date.parse(upload.expiresAt) / 1000));
  if (ctx.query.expires !== expires || !sameText(String(ctx.query.signature ?? ""), signature(image.id, upload.token, upload.expiresAt))) {
    throw forbidden("Upload URL signature does not match");
  }
  if (upload.used) throw conflict("This upload URL has already been used");
  if (ctx.clock.now() >= Date.parse(upload.expiresAt)) throw forbidden("This upload URL has expired");
  if (image.state !== "PENDING") throw conflict(`Image is ${image.state}; it no longer accepts an upload`);
}

async function receiveUpload(ctx: RouteContext) {
  const token = ctx.params.token ?? "";
  const findImage = () => ctx.store.t.images.find((i) => i.upload?.token === token);
  verifyUploadUrl(ctx, findImage());
  if (uploadsInFlight.has(token)) throw conflict("An upload to this URL is already in progress");
  uploadsInFlight.add(token);
  let received: number;
  try {
    received = await countBytes(ctx.body);
  } finally {
    uploadsInFlight.delete(token);
  }
  const image = findImage();
  verifyUploadUrl(ctx, image);
  const expected = image.upload.maxSizeBytes;
  if (received !== expected) {
    // The image keeps waiting: the URL stays usable for a correct upload until it expires
    // (and a failed request changes nothing, so there is nothing to record).
    throw badRequest(`Upload must be exactly ${expected} bytes; received ${received}`, [{ field: "(body)", message: `expected ${expected} bytes, received ${received}` }]);
  }
  ctx.store.t.images.update(image.id, { size: received, upload: { ...image.upload, used: true, received } });
  startParkedWorkflow(ctx, image.id);
  return okEmpty();
}

function startParkedWorkflow(services: Services, imageId: string): void {
  const wf = waitingUploadWorkflow(services, imageId);
  if (!wf) return;
  const now = services.clock.now();
  const duration = services.settings.workflowMs;
  const planned = (wf.args.plannedOutcome as WorkflowOutcome | undefined) ?? "COMPLETED";
  services.store.t.workflows.update(wf.id, {
    startsAt: now + Math.floor(duration / 5),
    endsAt: planned === "STUCK" ? NEVER : now + duration,
    outcome: planned,
  });
}

// ---------------------------------------------------------------------------------------------
// Changes

function patchImage(ctx: RouteContext) {
  const image = loadOwnImage(ctx);
  const input = parseWith(PatchImage, ctx.body ?? {});
  if (image.state === "DELETING") throw conflict("Image is being deleted");
  const changes = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
  ctx.store.t.images.update(image.id, changes);
  return noContent();
}

function deleteImage(ctx: RouteContext) {
  const image = loadOwnImage(ctx);
  if (image.state === "DELETING") throw conflict("Image is already being deleted");
  const mountedOn = ctx.store.t.instances.find((i) => i.isoId === image.id);
  if (mountedOn) throw conflict(`ISO is attached to instance ${mountedOn.id}; detach it first`);
  const waiting = waitingUploadWorkflow(ctx, image.id);
  if (waiting) ctx.store.t.workflows.update(waiting.id, { state: "ABORTED" });
  ctx.store.t.images.update(image.id, { state: "DELETING" });
  const wf = ctx.startWorkflow({ name: "delete-image", workspaceId: image.workspaceId, resource: { kind: "images", id: image.id }, onComplete: IMAGE_REMOVED });
  return accepted(ctx.workflows.view(wf));
}

/**
 * Restore done: a boot-disk restore records the image on the instance; with restart the
 * instance boots again, which is the "next restart" where staged upgrades apply.
 */
const IMAGE_RESTORED = defineWorkflowEffect("image.restored", (services, wf) => {
  const instance = services.store.t.instances.get(wf.resource?.id);
  if (!instance) return;
  const image = services.store.t.images.get(String(wf.args.imageId));
  if (wf.args.bootDisk && image) services.store.t.instances.update(instance.id, { imageId: image.id, osName: image.os?.name ?? instance.osName });
  if (wf.args.restart) {
    applyStagedUpgrades(services, instance);
    setOnline(services, instance, true);
  }
});

/** A failed restore leaves the instance powered off (the disk's contents are not to be trusted) and no row FAILED. */
const IMAGE_RESTORE_FAILED = defineWorkflowEffect("image.restore-failed", () => undefined);

function restoreImage(ctx: RouteContext) {
  const image = loadImage(ctx, READ);
  const input = parseWith(RestoreImage, ctx.body);
  const instance = ctx.store.t.instances.get(input.instance_id);
  if (!instance) throw notFound("Instance");
  ctx.access(instance.workspaceId, { role: "EDITOR", grant: ["INSTANCE", "WRITE"], resource: { kind: "INSTANCE", id: instance.id } });
  if (image.workspaceId && image.workspaceId !== instance.workspaceId) throw notFound("Image");
  if (image.kind === "ISO") throw badRequest("An ISO cannot be restored onto a disk; attach it with attach-iso");
  const disk = targetDisk(ctx, instance, input.disk_id, "disk_id");
  if (image.state !== "AVAILABLE") throw conflict(`Image is ${image.state}; it must be AVAILABLE`);
  if (instance.state !== "AVAILABLE") throw conflict(`Instance is ${instance.state}; it must be AVAILABLE`);
  if (instance.locked) throw conflict("Instance is locked");
  if (instance.online && !input.restart) throw conflict("Instance is online: power it off first, or send restart true");
  if (input.restart) setOnline(ctx, instance, false);
  const wf = ctx.startWorkflow({
    name: "restore-image",
    workspaceId: instance.workspaceId,
    resource: { kind: "instances", id: instance.id },
    onComplete: IMAGE_RESTORED,
    onFail: IMAGE_RESTORE_FAILED,
    args: { imageId: image.id, diskId: disk.id, bootDisk: disk.boot, restart: input.restart },
  });
  return accepted(ctx.workflows.view(wf));
}

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
    paginate(rows.filter(listFilter(ctx.query)), ctx.query, (i) => imageView(ctx, i), {
      id: (i) => i.id,
      sortable: { name: (i) => i.name.toLowerCase(), created: (i) => i.created, size: (i) => i.size, kind: (i) => i.kind, state: (i) => i.state },
    }),
  );
}

function listWorkspaceImages(ctx: RouteContext) {
  const wid = pathId(ctx.params.wid, "wid");
  ctx.access(wid, READ);
  return pageImages(ctx, ctx.store.t.images.filter((i) => i.workspaceId === null || i.workspaceId === wid));
}

function listAllImages(ctx: RouteContext) {
  ctx.requireStaff();
  return pageImages(ctx, ctx.store.t.images.all());
}

export const imagesDomain: Domain = {
  name: "images",
  routes: [
    { method: "GET", path: "/v1/workspaces/:wid/images", handler: listWorkspaceImages },
    { method: "POST", path: "/v1/workspaces/:wid/images", handler: createImage },
    { method: "GET", path: "/v1/images", handler: listAllImages },
    { method: "GET", path: "/v1/images/:id", handler: (ctx) => ok(imageView(ctx, loadImage(ctx, READ))) },
    { method: "PATCH", path: "/v1/images/:id", handler: patchImage },
    { method: "DELETE", path: "/v1/images/:id", handler: deleteImage },
    { method: "POST", path: "/v1/images/:id/restore", handler: restoreImage },
    { method: "PUT", path: "/uploads/:token", auth: "none", streamBody: true, handler: receiveUpload },
  ],
  inventory: {
    images: { workspaceOf: (row: ImageRow) => row.workspaceId },
  },
};
