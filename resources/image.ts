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
import { z } from "../provider/fields/zod";
import { createdDuring, type OperationContext } from "../provider/context";
import { resourceOf, workflowOf } from "../provider/client/envelope";
import { ifFound } from "../provider/errors";
import {
  autonamed,
  computed,
  createdAt,
  derived,
  fieldSet,
  fromFields,
  input,
  type InputsOf,
  type OutputsOf,
  owningWorkspace,
} from "../provider/fields/declare";
import { member, nested, variant, variants } from "../provider/fields/objectInputs";
import { createBody, outputsFromAnswer, updateBody, variantFromWire, variantToWire } from "../provider/fields/convert";
import { listAll } from "../provider/client/paging";
import { exactly, zId, zText } from "../provider/fields/constraints";
import type { WideInteger } from "../provider/fields/integer";
import { compact, idOf, numberOf } from "../provider/client/wire";
import { type ResourceDefinition, type Rule } from "../provider/definition";
import type { ImageArgs, ImageOutputs, ImageSource, ImageSourceArgs } from "./generated/image";
import { depends, remember, replace, updateRequest } from "../provider/fields/changeEffects";

const WHERE = "spec part 2, Images";

// 1. Inputs and outputs, each field declared once: type and limits, doc, what a change does, how it is read (provider/fields/declare.ts).
/** @internal Where an image comes from: one of four shapes by `type`. */
export const imageSource = variants(
  {
    doc: "Where an image comes from, by type",
    args: "ImageSourceArgs",
    outputs: "ImageSource",
    discriminator: "type",
    what: "a source",
    where: `${WHERE}: source type`,
  },
  {
    URL: variant("URL: downloaded from an http or https URL.", {
      url: member(z.string().url(`must be an http or https URL (${WHERE}: source url)`), { doc: "An http or https URL." }),
    }),
    BACKUP: variant("BACKUP: a backup image promoted.", {
      backupId: member(zId("backup image id"), { doc: "The backup image to promote.", wire: "backup_id", id: true }),
    }),
    INSTANCE: variant("INSTANCE: made from a disk of an instance.", {
      instanceId: member(zId("instance id"), { doc: "The instance.", wire: "instance_id", id: true }),
      diskId: member(zId("disk id").optional(), { doc: "Its disk; default the boot disk.", wire: "disk_id", id: true }),
    }),
    UPLOAD: variant("UPLOAD: an ISO uploaded from a local file.", {
      filePath: member(z.string().min(1, "must name a local file"), {
        doc: "The local file, streamed to the API; a relative path is resolved against the program's directory.",
        local: true,
      }),
    }),
  },
);
type Source = (typeof imageSource)["__output"];

/** @internal An image's operating system. */
export const imageOs = nested(
  { doc: "An image's operating system", inputMembers: true },
  {
    family: member(z.enum(["LINUX", "WINDOWS", "BSD"], { error: `must be LINUX, WINDOWS or BSD (${WHERE}: os family)` }), {
      doc: "LINUX, WINDOWS or BSD.",
    }),
    name: member(z.string().optional(), { doc: "Display name (optional)." }),
  },
  (shape) => z.strictObject(shape, exactly("family, name")),
);
type Os = (typeof imageOs)["__output"];

/** An UPLOAD source whose only change is where the file lives: recorded, not re-uploaded (fileSha256 decides). */
const sourcePolicy = depends((old, next) => {
  const o = old as Source | undefined;
  const n = next as Source;
  return o?.type === "UPLOAD" && n.type === "UPLOAD" ? remember : replace;
});

/** @internal */
export const imageFields = fieldSet({
  // The image names its workspace as its owner.
  workspaceId: { ...owningWorkspace, fromAnswer: (i: ApiImage, prior) => idOf(i.owner) ?? (prior.workspaceId as string | undefined) ?? "" },
  kind: input(z.enum(["TEMPLATE", "BACKUP", "ISO"], { error: `must be TEMPLATE, BACKUP or ISO (${WHERE}: kind)` }), {
    doc: "TEMPLATE, BACKUP or ISO.",
    onChange: replace,
    stable: true,
  }),
  name: autonamed(
    input(zText(4, 64, `${WHERE}: create name 4 to 64 characters`), {
      doc: "4 to 64 characters at creation; a rename in place (PATCH) takes 4 to 32.",
      onChange: updateRequest,
    }),
  ),
  source: input(imageSource.schema, {
    doc: "Where the image comes from: URL (url: http or https), BACKUP (backupId), INSTANCE (instanceId, diskId: default the boot disk) or, for an ISO, UPLOAD (filePath: a local file, streamed to the API; relative paths are resolved against the program's directory). An UPLOAD file moved with the same content is only recorded (its SHA-256, fileSha256, decides); any other change replaces the image.",
    onChange: sourcePolicy,
    fromAnswer: (i: ApiImage, prior) => sourceEcho(i.source, prior.source as Source | undefined),
  }),
  description: input(zText(4, 1000, WHERE).optional(), {
    doc: "4 to 1000 characters.",
    onChange: updateRequest,
    fromAnswer: (i: ApiImage) => i.description ?? undefined,
  }),
  group: input(zText(4, 32, WHERE).optional(), {
    doc: "Catalogue group such as linux or windows, 4 to 32 characters.",
    onChange: updateRequest,
    fromAnswer: (i: ApiImage) => i.group ?? undefined,
  }),
  os: input(imageOs.schema.nullable().optional(), {
    doc: "Operating system: family LINUX, WINDOWS or BSD, optional display name; null clears.",
    onChange: updateRequest,
    // Read as null only where the recorded inputs had an os (so an image declared without one stays quiet).
    fromAnswer: (i: ApiImage, prior) =>
      i.os === null || i.os === undefined
        ? prior.os === undefined
          ? undefined
          : null
        : (compact({ family: i.os.family, name: i.os.name ?? undefined }) as Os),
  }),
  uefi: input(z.boolean().optional(), { doc: "Boots with UEFI.", onChange: replace, fromAnswer: (i: ApiImage) => !!i.uefi }),
  // The upload file's content identifies what is uploaded: hashed at preview.
  fileSha256: derived<string>({
    doc: "UPLOAD: SHA-256 of the uploaded file, computed at preview.",
    onChange: replace,
    from: (i: { source?: Source }) =>
      i.source?.type === "UPLOAD" && !fileProblem(i.source.filePath) ? sha256Of(i.source.filePath) : undefined,
  }),
  size: computed<WideInteger>({ doc: "Bytes.", fromAnswer: (i: ApiImage) => numberOf(i.size) ?? 0 }),
  state: computed<string>({ doc: "PENDING, AVAILABLE, FAILED, DELETING." }),
  official: computed<boolean>({
    doc: "Whether the platform provides the image (false: the workspace's own; spec part 2, Images: official).",
    fromAnswer: (i: ApiImage) => !!i.official,
  }),
  deprecated: computed<boolean>({ doc: "Whether the image is marked deprecated.", fromAnswer: (i: ApiImage) => !!i.deprecated }),
  createdAt,
});
type Inputs = InputsOf<typeof imageFields>;
type Outputs = OutputsOf<typeof imageFields>;

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

/**
 * The source as declared, read back from the API: a member the answer lacks reads "" where the
 * shape requires it; one the API fills in (an instance's boot disk) only where declared, so an
 * omitted diskId stays quiet; the local file path is the declaration's.
 */
function sourceEcho(api: ApiImage["source"], declared: Source | undefined): Source {
  const s = api ?? { type: declared?.type ?? "URL" };
  const read = variantFromWire(imageSource, s);
  // Platform images (type PLATFORM) and anything newer: reported as is.
  if (!read) return { ...(s as object) } as Source;
  const same = (declared?.type === s.type ? declared : {}) as Record<string, unknown>;
  for (const [k, m] of Object.entries(imageSource.variants[s.type as Source["type"]].members)) {
    if (m.local) read[k] = same[k] ?? "";
    else if (!m.schema.safeParse(undefined).success) read[k] ??= "";
    else if (same[k] === undefined) delete read[k];
  }
  return read as Source;
}

const toOutputs = (i: ApiImage, prior: Partial<Inputs>): Outputs => outputsFromAnswer(imageFields, i, prior) as Outputs;

async function fetchImage(ctx: OperationContext, id: string): Promise<ApiImage | undefined> {
  return ifFound(ctx.client.get<ApiImage>(`/v1/images/${id}`));
}

/** The source in the API's names; an UPLOAD sends the file's size in place of its path. */
const sourceToApi = (s: Source, sizeBytes?: number) => ({
  ...variantToWire(imageSource, s),
  ...(s.type === "UPLOAD" ? { size_bytes: sizeBytes } : {}),
});

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

// 3. The definition: what a change does (its effects) and the API calls.
/** @internal */
export const imageDefinition: ResourceDefinition<Inputs, Outputs> = {
  kind: "Image",
  doc: "A template, backup or ISO image of the workspace; an ISO can be uploaded from a local file.",
  ...fromFields(imageFields),
  rules,
  transitions: [
    {
      field: "name",
      check: (_old, next) =>
        typeof next === "string" && next.length > 32
          ? `renaming in place goes through PATCH /v1/images/{id}, which takes 4 to 32 characters (create takes up to 64): choose a name of at most 32 characters (${WHERE}: PATCH name)`
          : undefined,
    },
  ],
  broken: (o) => o.state === "FAILED",
  pricing: { notMetered: "the spec prices storage only as a disk's or an instance's; images are not estimated" },
  api: {
    async create(ctx, i) {
      const upload = i.source.type === "UPLOAD" ? i.source.filePath : undefined;
      const sizeBytes = upload ? (await fs.promises.stat(upload)).size : undefined;
      const body = compact(createBody(imageFields, { ...i, source: sourceToApi(i.source, sizeBytes), os: osToApi(i.os) }));
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
    // The workspace's own images (official=false leaves the platform's out).
    async list(ctx, workspaceId) {
      const own = await listAll<ApiImage>(ctx.client, `/v1/workspaces/${workspaceId}/images`, { official: false });
      return own.map((m) => ({
        id: idOf(m.id)!,
        name: m.name,
        // Its declaration names the local file it was uploaded from, which no read gives.
        ...(m.source?.type === "UPLOAD"
          ? { leftOut: "an uploaded ISO: its declaration names the local file (source.filePath), which the API does not keep" }
          : {}),
      }));
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
    async get(ctx, id, prior) {
      const i = await fetchImage(ctx, id);
      return i && toOutputs(i, prior);
    },
    settled: (o) => (o.state === "FAILED" ? "image is FAILED" : o.state === "AVAILABLE"),
    stateOf: (o) => o.state,
    update: {
      async updateRequest(ctx, id, _olds, news, changed) {
        await ctx.client.patch(`/v1/images/${id}`, updateBody(imageFields, { ...news, os: osToApi(news.os) }, changed));
      },
    },
    async delete(ctx, id) {
      return workflowOf(await ctx.client.delete(`/v1/images/${id}`));
    },
  },
};

// 4. The public Args: generated from the fields, with the class (resources/generated/image.ts).
export type { ImageArgs, ImageOutputs, ImageSourceArgs, ImageSource };
