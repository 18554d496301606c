/**
 * The signed upload URL of an ISO image (not under /v1: the emulator stands in for the storage
 * service the spec's upload URL points at). The URL is single use and expires after an hour
 * ("not shown", chosen); a second concurrent PUT to the same URL is refused.
 */
import { timingSafeEqual } from "node:crypto";
import { badRequest, conflict, forbidden, notFound } from "../core/errors";
import type { Services } from "../core/services";
import type { ImageRow, WorkflowOutcome } from "../model";
import { signature, waitingUploadWorkflow, NEVER } from "./images";

/** The query of a signed upload URL. */
export interface UploadQuery {
  expires?: unknown;
  signature?: unknown;
}

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
function verifyUploadUrl(
  services: Services,
  query: UploadQuery,
  image: ImageRow | undefined,
): asserts image is ImageRow & { upload: NonNullable<ImageRow["upload"]> } {
  if (!image?.upload) throw notFound("Upload");
  const { upload } = image;
  const expires = String(Math.floor(Date.parse(upload.expiresAt) / 1000));
  if (query.expires !== expires || !sameText(String(query.signature ?? ""), signature(image.id, upload.token, upload.expiresAt))) {
    throw forbidden("Upload URL signature does not match");
  }
  if (upload.used) throw conflict("This upload URL has already been used");
  if (services.clock.now() >= Date.parse(upload.expiresAt)) throw forbidden("This upload URL has expired");
  if (image.state !== "PENDING") throw conflict(`Image is ${image.state}; it no longer accepts an upload`);
}

/** PUT /uploads/{token}: the bytes of an ISO, exactly as many as announced; the parked workflow then runs. */
export async function receiveUpload(services: Services, token: string, query: UploadQuery, body: unknown): Promise<void> {
  const findImage = () => services.store.t.images.find((i) => i.upload?.token === token);
  verifyUploadUrl(services, query, findImage());
  if (uploadsInFlight.has(token)) throw conflict("An upload to this URL is already in progress");
  uploadsInFlight.add(token);
  let received: number;
  try {
    received = await countBytes(body);
  } finally {
    uploadsInFlight.delete(token);
  }
  const image = findImage();
  verifyUploadUrl(services, query, image);
  const expected = image.upload.maxSizeBytes;
  if (received !== expected) {
    // The image keeps waiting: the URL stays usable for a correct upload until it expires
    // (and a failed request changes nothing, so there is nothing to record).
    throw badRequest(`Upload must be exactly ${expected} bytes; received ${received}`, [
      { field: "(body)", message: `expected ${expected} bytes, received ${received}` },
    ]);
  }
  services.store.t.images.update(image.id, { size: received, upload: { ...image.upload, used: true, received } });
  startParkedWorkflow(services, image.id);
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
