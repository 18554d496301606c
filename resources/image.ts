/**
 * Image — a template, backup or ISO image owned by the workspace (spec part 2, Image, Images).
 *
 *   POST   /v1/workspaces/{wid}/images   kind, name (4-64), source, description, group, os, uefi
 *                                        -> 202 WorkflowWithResource; an ISO from UPLOAD also gets an
 *                                        upload object: url (single-use signed), expires_at, max_size_bytes
 *   PUT    <upload url>                  the file's bytes, exactly max_size_bytes (no Authorization header)
 *   GET    /v1/images/{id}               detail; settles AVAILABLE
 *   PATCH  /v1/images/{id}               name (4-32), description (4-1000), group (4-32), os (nullable) -> 204
 *   DELETE /v1/images/{id}               202 workflow; permanent
 *
 * Sources: URL (url), BACKUP (backupId: a backup to promote), INSTANCE (instanceId, diskId: default
 * the boot disk) and UPLOAD (an ISO from a local file, `filePath`). For UPLOAD the provider sends
 * the file's size, then streams the file to the signed URL (never holding it in memory), printing
 * progress, and checks it sent exactly max_size_bytes bytes. The file's SHA-256 is computed at
 * preview and recorded (`fileSha256`): a changed file replaces the image; a moved file with the
 * same content does not.
 */
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as http from "node:http";
import * as https from "node:https";
import type * as pulumi from "@pulumi/pulumi";
import { z } from "../provider/zod";
import { createdDuring, type OperationContext } from "../provider/context";
import { resourceOf, workflowOf } from "../provider/envelope";
import { ifFound } from "../provider/errors";
import { listAll } from "../provider/paging";
import { type WorkspaceScopedArgs } from "../provider/resource";
import { emulatorLimit, exactly, type InputsMatch, zId, zText } from "../provider/schema";
import { compact, idOf, numberOf, wireId } from "../provider/wire";
import { depends, remember, replace, type ResourceSpec, type Rule, updateRequest } from "../provider/spec";

const WHERE = "spec part 2, Images";
/** Limits the spec does not give (source URL and os name lengths): the emulator's (emulator/routes/images.ts). */
const EMULATOR_LIMIT = emulatorLimit(WHERE);

// 1. Inputs and rules.
/** An image source as recorded (the schema below must produce exactly this). */
export type ImageSource =
  | { type: "URL"; url: string }
  | { type: "BACKUP"; backupId: string }
  | { type: "INSTANCE"; instanceId: string; diskId?: string }
  | { type: "UPLOAD"; filePath: string };

const source = z.discriminatedUnion(
  "type",
  [
    z.strictObject(
      {
        type: z.literal("URL"),
        url: z
          .string()
          .url(`must be an http or https URL (${WHERE}: source url)`)
          .max(2048, `must be at most 2048 characters (${EMULATOR_LIMIT})`),
      },
      exactly("type, url"),
    ),
    z.strictObject({ type: z.literal("BACKUP"), backupId: zId("backup image id") }, exactly("type, backupId")),
    z.strictObject(
      { type: z.literal("INSTANCE"), instanceId: zId("instance id"), diskId: zId("disk id").optional() },
      exactly("type, instanceId, diskId"),
    ),
    z.strictObject({ type: z.literal("UPLOAD"), filePath: z.string().min(1, "must name a local file") }, exactly("type, filePath")),
  ],
  {
    error: `must be a source whose type is URL (url), BACKUP (backupId), INSTANCE (instanceId, diskId) or UPLOAD (filePath) (${WHERE}: source type)`,
  },
) satisfies z.ZodType<ImageSource>;

const inputs = z.object({
  kind: z.enum(["TEMPLATE", "BACKUP", "ISO"], { error: `must be TEMPLATE, BACKUP or ISO (${WHERE}: kind)` }),
  name: zText(4, 64, `${WHERE}: create name 4 to 64 characters`),
  source,
  description: zText(4, 1000, WHERE).optional(),
  group: zText(4, 32, WHERE).optional(),
  os: z
    .strictObject(
      {
        family: z.enum(["LINUX", "WINDOWS", "BSD"], { error: `must be LINUX, WINDOWS or BSD (${WHERE}: os family)` }),
        name: z
          .string()
          .min(1, `must not be empty; omit it to leave the name unset (${WHERE}: os name is optional)`)
          .max(64, `must be at most 64 characters (${EMULATOR_LIMIT})`)
          .optional(),
      },
      exactly("family, name"),
    )
    .nullable()
    .optional(),
  uefi: z.boolean().optional(),
});
/** `fileSha256` is computed at preview from an UPLOAD source's file, never declared. */
type Inputs = z.infer<typeof inputs> & { workspaceId: string; fileSha256?: string };
// The public ImageArgs and the schema above declare the same fields (checked by the compiler).
const _fieldsMatch: InputsMatch<ImageArgs, z.infer<typeof inputs>> = true;

/** The upload's file, or why it cannot be used. */
function fileProblem(filePath: string): string | undefined {
  try {
    const st = fs.statSync(filePath);
    if (!st.isFile()) return `${filePath} is not a regular file`;
    if (st.size < 1) return `${filePath} is empty (${WHERE}: size_bytes is the exact byte count to upload)`;
    return undefined;
  } catch {
    return `no such file: ${filePath}`;
  }
}

/** SHA-256 of a file, read in chunks (synchronous: previews compute it; the file is never held whole). */
function sha256Of(filePath: string): string {
  const hash = createHash("sha256");
  const fd = fs.openSync(filePath, "r");
  try {
    const buffer = Buffer.allocUnsafe(1 << 20);
    for (;;) {
      const n = fs.readSync(fd, buffer, 0, buffer.length, null);
      if (n === 0) break;
      hash.update(buffer.subarray(0, n));
    }
  } finally {
    fs.closeSync(fd);
  }
  return hash.digest("hex");
}

const rules: Rule<Inputs>[] = [
  {
    fields: ["kind", "source"],
    property: "source",
    check: (i) =>
      i.source?.type === "UPLOAD" && i.kind !== "ISO"
        ? `an UPLOAD source is for ISO images (${WHERE}: ISO images with source type UPLOAD get an upload URL); use kind ISO, or a URL source`
        : undefined,
  },
  {
    fields: ["source"],
    property: "source",
    check: (i) =>
      i.source?.type === "UPLOAD" ? fileProblem(i.source.filePath) && `source.filePath: ${fileProblem(i.source.filePath)}` : undefined,
  },
];

/** An UPLOAD source whose only change is where the file lives: recorded, not re-uploaded (fileSha256 decides). */
const sourcePolicy = depends((old, next) => {
  const o = old as ImageSource | undefined;
  const n = next as ImageSource;
  return o?.type === "UPLOAD" && n.type === "UPLOAD" ? remember : replace;
});

export interface ImageOutputs extends Record<string, unknown> {
  workspaceId: string;
  kind: string;
  name: string;
  source: ImageSource;
  description?: string;
  group?: string;
  os?: { family: string; name?: string } | null;
  uefi: boolean;
  /** UPLOAD: SHA-256 of the uploaded file. */
  fileSha256?: string;
  /** Bytes. */
  size: number;
  /** PENDING, AVAILABLE, FAILED, DELETING. */
  state: string;
  official: boolean;
  deprecated: boolean;
  createdAt: string;
}

// 2. API mapping.
interface ApiImage {
  id: string;
  name: string;
  description: string | null;
  group: string | null;
  kind: string;
  source?: {
    type: string;
    url?: string | null;
    backup_id?: string | null;
    instance_id?: string | null;
    disk_id?: string | null;
    size_bytes?: number | null;
  } | null;
  os: { family: string; name: string | null } | null;
  size: number;
  uefi: boolean;
  official: boolean;
  deprecated: boolean;
  owner?: { id: string } | null;
  state: string;
  created?: string;
}

interface Upload {
  url: string;
  expires_at?: string;
  max_size_bytes: number | bigint;
}

/** The source as declared, read back from the API (the local file path is the declaration's). */
function sourceEcho(api: ApiImage["source"], declared: ImageSource | undefined): ImageSource {
  const s = api ?? { type: declared?.type ?? "URL" };
  switch (s.type) {
    case "URL":
      return { type: "URL", url: s.url ?? "" };
    case "BACKUP":
      return { type: "BACKUP", backupId: idOf(s.backup_id) ?? "" };
    case "INSTANCE":
      return compact({
        type: "INSTANCE" as const,
        instanceId: idOf(s.instance_id) ?? "",
        // The API fills in the boot disk; echoed only when declared, so an omitted diskId stays quiet.
        diskId: declared?.type === "INSTANCE" && declared.diskId !== undefined ? (idOf(s.disk_id) ?? undefined) : undefined,
      });
    case "UPLOAD":
      return { type: "UPLOAD", filePath: declared?.type === "UPLOAD" ? declared.filePath : "" };
    default:
      // Platform images (type PLATFORM) and anything newer: reported as is.
      return { ...(s as object) } as ImageSource;
  }
}

const toOutputs = (i: ApiImage, prior: Partial<Inputs>): ImageOutputs =>
  compact({
    workspaceId: idOf(i.owner) ?? prior.workspaceId ?? "",
    kind: i.kind,
    name: i.name,
    source: sourceEcho(i.source, prior.source),
    description: i.description ?? undefined,
    group: i.group ?? undefined,
    os:
      i.os === null || i.os === undefined
        ? prior.os === undefined
          ? undefined
          : null
        : compact({ family: i.os.family, name: i.os.name ?? undefined }),
    uefi: !!i.uefi,
    size: numberOf(i.size) ?? 0,
    state: i.state,
    official: !!i.official,
    deprecated: !!i.deprecated,
    createdAt: i.created ?? "",
  }) as ImageOutputs;

async function fetchImage(ctx: OperationContext, id: string): Promise<ApiImage | undefined> {
  return ifFound(ctx.client.get<ApiImage>(`/v1/images/${id}`));
}

function sourceToApi(s: ImageSource, sizeBytes?: number): Record<string, unknown> {
  switch (s.type) {
    case "URL":
      return { type: "URL", url: s.url };
    case "BACKUP":
      return { type: "BACKUP", backup_id: wireId(s.backupId) };
    case "INSTANCE":
      return compact({
        type: "INSTANCE",
        instance_id: wireId(s.instanceId),
        disk_id: s.diskId === undefined ? undefined : wireId(s.diskId),
      });
    case "UPLOAD":
      return { type: "UPLOAD", size_bytes: sizeBytes };
  }
}

const osToApi = (os: Inputs["os"]) => (os === null ? null : os === undefined ? undefined : { family: os.family, name: os.name ?? null });

function uploadOf(answer: unknown): Upload | undefined {
  const a = answer as { upload?: Upload; resource?: { upload?: Upload } } | null;
  const u = a?.upload ?? a?.resource?.upload;
  return u && typeof u.url === "string" ? u : undefined;
}

/**
 * Streams the file to the signed URL with a PUT (no Authorization header: the URL carries its
 * own signature), reporting progress; returns the bytes sent.
 */
async function streamUpload(ctx: OperationContext, filePath: string, upload: Upload): Promise<number> {
  const expected = Number(upload.max_size_bytes);
  const size = (await fs.promises.stat(filePath)).size;
  if (size !== expected)
    throw new Error(
      `${ctx.label}: the upload URL takes exactly ${expected} bytes, but the file now has ${size} (it changed during the operation); run pulumi up again`,
    );
  const url = new URL(upload.url);
  const transport = url.protocol === "https:" ? https : http;
  let sent = 0;
  let reported = 0;
  const started = Date.now();
  ctx.notice(`uploading the ISO file: ${size} bytes to the signed upload URL`);
  await new Promise<void>((resolve, reject) => {
    const req = transport.request(
      url,
      { method: "PUT", headers: { "Content-Type": "application/octet-stream", "Content-Length": String(size) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const status = res.statusCode ?? 0;
          if (status >= 200 && status < 300) return resolve();
          const reason = (res.headers["x-message"] as string | undefined) ?? Buffer.concat(chunks).toString("utf8").slice(0, 300);
          reject(
            new Error(`${ctx.label}: the upload was refused: PUT <signed upload URL> answered ${status}${reason ? `: ${reason}` : ""}`),
          );
        });
        res.on("error", reject);
      },
    );
    req.setTimeout(120_000, () => req.destroy(new Error("no progress for 120 s")));
    req.on("error", (err) => reject(new Error(`${ctx.label}: the upload failed after ${sent} of ${size} bytes: ${err.message}`)));
    const file = fs.createReadStream(filePath, { highWaterMark: 1 << 20 });
    file.on("data", (chunk) => {
      sent += chunk.length;
      const percent = Math.floor((sent * 100) / size);
      if (percent >= reported + 10 || sent === size) {
        reported = percent - (percent % 10);
        ctx.notice(`uploaded ${sent} of ${size} bytes (${percent}%, ${((Date.now() - started) / 1000).toFixed(1)}s)`);
      }
    });
    file.on("error", (err) => req.destroy(err));
    file.pipe(req);
  });
  if (sent !== expected) throw new Error(`${ctx.label}: sent ${sent} bytes, but the upload URL takes exactly ${expected}`);
  return sent;
}

/** A create that cannot finish its upload deletes the image it made, so nothing is left waiting. */
async function discard(ctx: OperationContext, id: string): Promise<void> {
  try {
    await ctx.waitForWorkflow(workflowOf(await ctx.client.delete(`/v1/images/${id}`)), "delete (upload failed)");
    ctx.notice(`deleted image ${id}, whose upload did not complete`);
  } catch (err) {
    ctx.notice(`could not delete image ${id} after the failed upload (${(err as Error).message}); delete it by hand`);
  }
}

// 3. The spec: what a change does (policies) and the API calls.
/** @internal */
export const imageSpec: ResourceSpec<Inputs, ImageOutputs> = {
  kind: "Image",
  doc: "A template, backup or ISO image of the workspace; an ISO can be uploaded from a local file.",
  workspaceScoped: true,
  inputs,
  rules,
  // The upload file's content identifies what is uploaded: hashed at preview.
  defaults: (i) => (i.source?.type === "UPLOAD" && !fileProblem(i.source.filePath) ? { fileSha256: sha256Of(i.source.filePath) } : {}),
  transitions: [
    {
      field: "name",
      check: (_old, next) =>
        typeof next === "string" && next.length > 32
          ? `renaming in place goes through PATCH /v1/images/{id}, which takes 4 to 32 characters (create takes up to 64): choose a name of at most 32 characters (${WHERE}: PATCH name)`
          : undefined,
    },
  ],
  // What a change does.
  policies: {
    kind: replace,
    source: sourcePolicy,
    fileSha256: replace,
    uefi: replace,
    name: updateRequest,
    description: updateRequest,
    group: updateRequest,
    os: updateRequest,
  },
  stableOutputs: ["createdAt", "kind"],
  keepFromState: ["fileSha256"],
  broken: (o) => o.state === "FAILED",
  pricing: { notMetered: "the spec prices storage only as a disk's or an instance's; images are not estimated" },
  api: {
    async create(ctx, i) {
      const upload = i.source.type === "UPLOAD" ? i.source.filePath : undefined;
      const sizeBytes = upload ? (await fs.promises.stat(upload)).size : undefined;
      const body = compact({
        kind: i.kind,
        name: i.name,
        source: sourceToApi(i.source, sizeBytes),
        description: i.description,
        group: i.group,
        os: osToApi(i.os),
        uefi: i.uefi,
      });
      const answer = await ctx.client.post(`/v1/workspaces/${i.workspaceId}/images`, body);
      const id = idOf(resourceOf<ApiImage>(answer, ["image"]).id)!;
      const workflow = workflowOf(answer);
      if (upload) {
        try {
          const target = uploadOf(answer);
          if (!target)
            throw new Error(`${ctx.label}: the API answered without an upload object (url, max_size_bytes) for an UPLOAD source`);
          if (Number(target.max_size_bytes) !== sizeBytes)
            throw new Error(`${ctx.label}: the API expects ${target.max_size_bytes} bytes, but the file has ${sizeBytes}`);
          await streamUpload(ctx, upload, target);
        } catch (err) {
          await discard(ctx, id);
          throw err;
        }
      }
      return { id, workflow };
    },
    async findExisting(ctx, i) {
      const found = (await listAll<ApiImage>(ctx.client, `/v1/workspaces/${i.workspaceId}/images`, { name: i.name, official: false })).find(
        (m) => m.name === i.name && m.kind === i.kind && createdDuring(ctx, m.created),
      );
      if (!found) return undefined;
      if (i.source.type === "UPLOAD") {
        // Its single-use upload URL was lost with the answer: remove it so the create is sent again.
        await discard(ctx, idOf(found.id)!);
        return undefined;
      }
      return idOf(found.id)!;
    },
    async read(ctx, id, prior) {
      const i = await fetchImage(ctx, id);
      return i && toOutputs(i, prior);
    },
    settled: (o) => (o.state === "FAILED" ? "image is FAILED" : o.state === "AVAILABLE"),
    stateOf: (o) => o.state,
    update: {
      async updateRequest(ctx, id, _olds, news, changed) {
        const body: Record<string, unknown> = {};
        for (const f of changed) body[f] = f === "os" ? osToApi(news.os) : news[f as keyof Inputs];
        await ctx.client.patch(`/v1/images/${id}`, body);
      },
    },
    async delete(ctx, id) {
      return workflowOf(await ctx.client.delete(`/v1/images/${id}`));
    },
  },
};

// 4. The public Args: the class is generated from them and the spec (resources/generated/).
export type ImageSourceArgs =
  | { type: "URL"; url: pulumi.Input<string> }
  | { type: "BACKUP"; backupId: pulumi.Input<string> }
  | { type: "INSTANCE"; instanceId: pulumi.Input<string>; diskId?: pulumi.Input<string> }
  | { type: "UPLOAD"; filePath: pulumi.Input<string> };

export interface ImageArgs extends WorkspaceScopedArgs {
  /** TEMPLATE, BACKUP or ISO. Changing it replaces the image. */
  kind: pulumi.Input<"TEMPLATE" | "BACKUP" | "ISO">;
  /** 4 to 64 characters at creation; a rename in place (PATCH) takes 4 to 32. */
  name: pulumi.Input<string>;
  /**
   * Where the image comes from: URL (url: http or https, at most 2048 characters, the emulator's limit), BACKUP (backupId), INSTANCE (instanceId, diskId: default
   * the boot disk) or, for an ISO, UPLOAD (filePath: a local file, streamed to the API; relative
   * paths are resolved against the program's directory). Changing it replaces the image; a changed
   * file (by SHA-256) replaces it too.
   */
  source: pulumi.Input<ImageSourceArgs>;
  /** 4 to 1000 characters. Patched in place. */
  description?: pulumi.Input<string>;
  /** Catalogue group such as linux or windows, 4 to 32 characters. Patched in place. */
  group?: pulumi.Input<string>;
  /** Operating system: family LINUX, WINDOWS or BSD, optional display name (1 to 64 characters, the emulator's limit); null clears. Patched in place. */
  os?: pulumi.Input<{ family: pulumi.Input<"LINUX" | "WINDOWS" | "BSD">; name?: pulumi.Input<string> } | null>;
  /** Boots with UEFI. Changing it replaces the image. */
  uefi?: pulumi.Input<boolean>;
}
