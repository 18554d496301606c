/**
 * Images' domain (spec part 2, "Image", "Images"): templates, backups and ISOs.
 *
 * - Platform images (owner null) are visible to every workspace and cannot be patched or
 *   deleted through the workspace endpoints (403).
 * - A new image is PENDING until its workflow completes (AVAILABLE). An ISO with source UPLOAD
 *   also gets a single-use signed URL served by this emulator (imageUploads.ts). Its workflow
 *   stays QUEUED until exactly `max_size_bytes` bytes arrive, then runs; if the URL expires
 *   first the workflow ends TIMED_OUT and the image FAILED.
 * - Reads need READ on IMAGE; writes EDITOR and WRITE on IMAGE (restore also WRITE on INSTANCE).
 */
import { createHmac } from "node:crypto";
import type { AccessNeed } from "../core/auth";
import type { WorkflowView } from "../core/choices";
import { badRequest, conflict, fieldError, forbidden, notFound } from "../core/errors";
import type { RouteContext } from "../core/router";
import type { Services } from "../core/services";
import { defineWorkflowEffect } from "../core/workflowEffects";
import type { DiskRow, ImageKind, ImageRow, InstanceRow, WorkflowRow } from "../model";
import { applyStagedUpgrades, setOnline } from "./instanceLifecycle";

export const IMAGE_KINDS = ["TEMPLATE", "BACKUP", "ISO"] as const;
export const OS_FAMILIES = ["LINUX", "WINDOWS", "BSD"] as const;
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
export const NEVER = Number.MAX_SAFE_INTEGER;
const GiB = 1024 ** 3;

export const IMAGE_READ: AccessNeed = { grant: ["IMAGE", "READ"] };
export const IMAGE_WRITE: AccessNeed = { role: "EDITOR", grant: ["IMAGE", "WRITE"] };

/** Where a new image comes from, as the route has validated it. */
export type ImageSourceRequest =
  | { type: "URL"; url: string }
  | { type: "BACKUP"; backup_id: string }
  | { type: "INSTANCE"; instance_id: string; disk_id?: string }
  | { type: "UPLOAD"; size_bytes: number };

/** A create request as the route has validated it. */
export interface ImageRequest {
  kind: ImageKind;
  name: string;
  source: ImageSourceRequest;
  description: string | null;
  group: string | null;
  os: ImageRow["os"];
  uefi: boolean;
}

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

/** Loads an image; a workspace's image also checks the caller's access (platform images are everyone's). */
export function loadImage(ctx: RouteContext, id: string, need: AccessNeed): ImageRow {
  const image = ctx.store.t.images.get(id);
  if (!image) throw notFound("Image");
  if (image.workspaceId) ctx.access(image.workspaceId, need);
  return image;
}

/** A workspace-owned image the caller may change: platform images answer 403. */
export function loadOwnImage(ctx: RouteContext, id: string): ImageRow & { workspaceId: string } {
  const image = loadImage(ctx, id, IMAGE_WRITE);
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
const SOURCE_RESOLVERS: {
  [T in SourceType]: (ctx: RouteContext, wid: string, s: Extract<ImageSourceRequest, { type: T }>) => ResolvedSource;
} = {
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
    const disk = targetDisk(ctx.services, instance, s.disk_id, "source.disk_id");
    return { source: { type: "INSTANCE", instance_id: instance.id, disk_id: disk.id }, size: disk.size };
  },
  UPLOAD: (_ctx, _wid, s) => ({ source: { type: "UPLOAD", size_bytes: s.size_bytes }, size: s.size_bytes }),
};

function resolveSource(ctx: RouteContext, wid: string, source: ImageSourceRequest): ResolvedSource {
  return (SOURCE_RESOLVERS[source.type] as (ctx: RouteContext, wid: string, s: ImageSourceRequest) => ResolvedSource)(ctx, wid, source);
}

/** ISO quotas (part 1 quota iso_count, iso_storage_bytes): 409 when the new ISO would exceed them. */
function checkIsoQuota(services: Services, wid: string, size: number): void {
  const workspace = services.store.t.workspaces.get(wid);
  if (!workspace) throw notFound("Workspace");
  const isos = services.store.t.images.filter((i) => i.workspaceId === wid && i.kind === "ISO");
  if (isos.length >= workspace.quota.iso_count)
    throw conflict(`ISO quota reached: the workspace may hold ${workspace.quota.iso_count} ISOs`);
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

export function signature(imageId: string, token: string, expiresAt: string): string {
  return createHmac("sha256", token).update(`${imageId}:${expiresAt}`).digest("hex");
}

function uploadUrl(services: Services, image: ImageRow): string {
  const upload = image.upload!;
  const query = new URLSearchParams({
    expires: String(Math.floor(Date.parse(upload.expiresAt) / 1000)),
    signature: signature(image.id, upload.token, upload.expiresAt),
  });
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

export function waitingUploadWorkflow(services: Services, imageId: string): WorkflowRow | undefined {
  return services.store.t.workflows.find(
    (w) => w.resource?.kind === "images" && w.resource.id === imageId && w.state === "QUEUED" && w.name === "create-image",
  );
}

/** A new image (PENDING) and its workflow; an UPLOAD source also gets its signed upload URL. */
export function createImage(
  ctx: RouteContext,
  wid: string,
  input: ImageRequest,
): { image: ImageRow; workflow: WorkflowView; upload: { url: string; expires_at: string; max_size_bytes: number } | null } {
  if (!KINDS_BY_SOURCE[input.source.type].includes(input.kind)) {
    throw fieldError(
      "source.type",
      `a ${input.kind} image cannot come from source ${input.source.type} (allowed: ${KINDS_BY_SOURCE[input.source.type].join(", ")})`,
    );
  }
  const { source, size } = resolveSource(ctx, wid, input.source);
  if (input.kind === "ISO") checkIsoQuota(ctx.services, wid, size);
  const now = ctx.clock.now();
  const upload =
    input.source.type === "UPLOAD"
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
  const wf = ctx.startWorkflow({
    name: "create-image",
    workspaceId: wid,
    resource: { kind: "images", id: image.id },
    onComplete: IMAGE_AVAILABLE,
  });
  if (!upload) return { image, workflow: ctx.workflows.view(wf), upload: null };
  parkUntilUploaded(ctx.services, wf, now + UPLOAD_TTL_MS);
  return {
    image,
    workflow: ctx.workflows.view(wf),
    upload: { url: uploadUrl(ctx.services, image), expires_at: upload.expiresAt, max_size_bytes: upload.maxSizeBytes },
  };
}

// ---------------------------------------------------------------------------------------------
// Changes

export function updateImage(
  ctx: RouteContext,
  image: ImageRow,
  input: Partial<Pick<ImageRow, "name" | "description" | "group" | "os">>,
): void {
  if (image.state === "DELETING") throw conflict("Image is being deleted");
  const changes = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
  ctx.store.t.images.update(image.id, changes);
}

export function deleteImage(ctx: RouteContext, image: ImageRow & { workspaceId: string }): WorkflowView {
  if (image.state === "DELETING") throw conflict("Image is already being deleted");
  const mountedOn = ctx.store.t.instances.find((i) => i.isoId === image.id);
  if (mountedOn) throw conflict(`ISO is attached to instance ${mountedOn.id}; detach it first`);
  const waiting = waitingUploadWorkflow(ctx.services, image.id);
  if (waiting) ctx.store.t.workflows.update(waiting.id, { state: "ABORTED" });
  ctx.store.t.images.update(image.id, { state: "DELETING" });
  const wf = ctx.startWorkflow({
    name: "delete-image",
    workspaceId: image.workspaceId,
    resource: { kind: "images", id: image.id },
    onComplete: IMAGE_REMOVED,
  });
  return ctx.workflows.view(wf);
}

/**
 * Restore done: a boot-disk restore records the image on the instance; with restart the
 * instance boots again, which is the "next restart" where staged upgrades apply.
 */
const IMAGE_RESTORED = defineWorkflowEffect("image.restored", (services, wf) => {
  const instance = services.store.t.instances.get(wf.resource?.id);
  if (!instance) return;
  const image = services.store.t.images.get(String(wf.args.imageId));
  if (wf.args.bootDisk && image)
    services.store.t.instances.update(instance.id, { imageId: image.id, osName: image.os?.name ?? instance.osName });
  if (wf.args.restart) {
    applyStagedUpgrades(services, instance);
    setOnline(services, instance, true);
  }
});

/** A failed restore leaves the instance powered off (the disk's contents are not to be trusted) and no row FAILED. */
const IMAGE_RESTORE_FAILED = defineWorkflowEffect("image.restore-failed", () => undefined);

/** Restores an image onto an instance's disk (the boot disk unless disk_id); the instance must be offline unless restart. */
export function restoreImage(
  ctx: RouteContext,
  image: ImageRow,
  input: { instance_id: string; disk_id?: string; restart: boolean },
): WorkflowView {
  const instance = ctx.store.t.instances.get(input.instance_id);
  if (!instance) throw notFound("Instance");
  ctx.access(instance.workspaceId, { role: "EDITOR", grant: ["INSTANCE", "WRITE"], resource: { kind: "INSTANCE", id: instance.id } });
  if (image.workspaceId && image.workspaceId !== instance.workspaceId) throw notFound("Image");
  if (image.kind === "ISO") throw badRequest("An ISO cannot be restored onto a disk; attach it with attach-iso");
  const disk = targetDisk(ctx.services, instance, input.disk_id, "disk_id");
  if (image.state !== "AVAILABLE") throw conflict(`Image is ${image.state}; it must be AVAILABLE`);
  if (instance.state !== "AVAILABLE") throw conflict(`Instance is ${instance.state}; it must be AVAILABLE`);
  if (instance.locked) throw conflict("Instance is locked");
  if (instance.online && !input.restart) throw conflict("Instance is online: power it off first, or send restart true");
  if (input.restart) setOnline(ctx.services, instance, false);
  const wf = ctx.startWorkflow({
    name: "restore-image",
    workspaceId: instance.workspaceId,
    resource: { kind: "instances", id: instance.id },
    onComplete: IMAGE_RESTORED,
    onFail: IMAGE_RESTORE_FAILED,
    args: { imageId: image.id, diskId: disk.id, bootDisk: disk.boot, restart: input.restart },
  });
  return ctx.workflows.view(wf);
}
