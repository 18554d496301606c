/**
 * Part 2 ISO upload: POST an ISO with source UPLOAD, PUT exactly max_size_bytes bytes to the
 * single-use signed URL the emulator serves, and the image moves PENDING -> AVAILABLE. Covers the
 * wrong byte count, reuse, tampering, expiry, concurrency, streaming and injected faults.
 */
import { useTestEmulator, type TestEmulator } from "../src/testing";
import { setTimeout as sleep } from "node:timers/promises";

let t: TestEmulator;
useTestEmulator((started) => (t = started));

interface Created {
  workflow: { id: string; name: string; state: string };
  resource: { id: string; state: string; size: number };
  upload: { url: string; expires_at: string; max_size_bytes: number };
}

async function createUpload(size: number, name = "custom-installer"): Promise<Created> {
  const res = await t.api.post(`/v1/workspaces/${t.workspaceId}/images`, {
    kind: "ISO",
    name,
    source: { type: "UPLOAD", size_bytes: size },
  });
  expect(res.status).toBe(202);
  return res.body;
}

function put(
  url: string,
  body: Buffer | ReadableStream<Uint8Array> | string,
  headers: Record<string, string> = { "content-type": "application/octet-stream" },
) {
  return fetch(url, { method: "PUT", body, headers, duplex: "half" } as RequestInit);
}

const workflowState = async (id: string) => (await t.api.get(`/v1/workflows/${id}`)).body.state;
const imageState = async (id: string) => (await t.api.get(`/v1/images/${id}`)).body.state;

test("the create answers an absolute single-use URL, its expiry and the exact size; the workflow waits QUEUED", async () => {
  const before = t.emu.services.clock.now();
  const created = await createUpload(1024);
  expect(created.upload.url.startsWith(`${t.emu.url}/uploads/`)).toBe(true);
  expect(new URL(created.upload.url).searchParams.get("signature")).toMatch(/^[0-9a-f]{64}$/);
  expect(created.upload.max_size_bytes).toBe(1024);
  const expires = Date.parse(created.upload.expires_at);
  expect(expires - before).toBeGreaterThanOrEqual(3_600_000 - 1000);
  expect(expires - before).toBeLessThanOrEqual(3_600_000 + 1000);
  expect(created.resource).toMatchObject({ state: "PENDING", size: 0, source: { type: "UPLOAD", size_bytes: 1024 } });
  expect(created.workflow).toMatchObject({ name: "create-image", state: "QUEUED" });
  await t.control.post("/_emulator/clock", { advanceMs: 30 * 60_000 });
  await sleep(60);
  expect(await workflowState(created.workflow.id)).toBe("QUEUED");
  expect(await imageState(created.resource.id)).toBe("PENDING");
});

test("exactly max_size_bytes bytes: 200, then the workflow runs and the image becomes AVAILABLE; the URL is then spent", async () => {
  const created = await createUpload(4096);
  const res = await put(created.upload.url, Buffer.alloc(4096, 7));
  expect(res.status).toBe(200);
  expect(await t.waitWorkflow(created.workflow.id)).toBe("COMPLETED");
  const image = (await t.api.get(`/v1/images/${created.resource.id}`)).body;
  expect(image).toMatchObject({ state: "AVAILABLE", size: 4096, kind: "ISO" });
  const again = await put(created.upload.url, Buffer.alloc(4096, 7));
  expect(again.status).toBe(409);
  expect(again.headers.get("x-message")).toMatch(/already been used/);
});

test("a wrong byte count is 400 and the image keeps waiting; a correct retry on the same URL succeeds", async () => {
  const created = await createUpload(100);
  for (const size of [99, 101, 0]) {
    const res = await put(created.upload.url, Buffer.alloc(size));
    expect(res.status).toBe(400);
    expect(res.headers.get("x-message")).toBe(`Upload must be exactly 100 bytes; received ${size}`);
  }
  expect(await imageState(created.resource.id)).toBe("PENDING");
  expect(await workflowState(created.workflow.id)).toBe("QUEUED");
  expect((await put(created.upload.url, Buffer.alloc(100))).status).toBe(200);
  expect(await t.waitWorkflow(created.workflow.id)).toBe("COMPLETED");
});

test("a streamed body is counted as it arrives (several MiB in chunks)", async () => {
  const size = 5 * 1024 * 1024 + 17;
  const created = await createUpload(size);
  let sent = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      const n = Math.min(256 * 1024, size - sent);
      if (n === 0) return controller.close();
      sent += n;
      controller.enqueue(new Uint8Array(n));
    },
  });
  const res = await put(created.upload.url, stream);
  expect(res.status).toBe(200);
  expect(await t.waitWorkflow(created.workflow.id)).toBe("COMPLETED");
  expect((await t.api.get(`/v1/images/${created.resource.id}`)).body.size).toBe(size);
  const log = (await t.control.get("/_emulator/requests", { method: "PUT" })).body.requests;
  expect(log.at(-1)).toMatchObject({ path: expect.stringMatching(/^\/uploads\//), status: 200, body: "[stream]" });
});

test("a second PUT while one is in flight is 409", async () => {
  const created = await createUpload(20);
  let push!: ReadableStreamDefaultController<Uint8Array>;
  const slow = new ReadableStream<Uint8Array>({ start: (c) => void (push = c) });
  push.enqueue(new Uint8Array(10));
  const first = put(created.upload.url, slow);
  // Until the first PUT reaches the handler a wrong-size PUT is a harmless 400; then it is 409.
  let second = await put(created.upload.url, Buffer.alloc(5));
  for (let i = 0; second.status === 400 && i < 200; i++) {
    await sleep(10);
    second = await put(created.upload.url, Buffer.alloc(5));
  }
  expect(second.status).toBe(409);
  expect(second.headers.get("x-message")).toMatch(/already in progress/);
  push.enqueue(new Uint8Array(10));
  push.close();
  expect((await first).status).toBe(200);
  expect(await t.waitWorkflow(created.workflow.id)).toBe("COMPLETED");
});

test("tampered signature or expiry is 403; an unknown token is 404; no Authorization header is needed", async () => {
  const created = await createUpload(10);
  const url = new URL(created.upload.url);
  const badSig = new URL(url);
  badSig.searchParams.set("signature", "0".repeat(64));
  expect((await put(badSig.toString(), Buffer.alloc(10))).status).toBe(403);
  const noSig = new URL(url);
  noSig.searchParams.delete("signature");
  expect((await put(noSig.toString(), Buffer.alloc(10))).status).toBe(403);
  const later = new URL(url);
  later.searchParams.set("expires", String(Number(url.searchParams.get("expires")) + 3600));
  const res = await put(later.toString(), Buffer.alloc(10));
  expect(res.status).toBe(403);
  expect(res.headers.get("x-message")).toMatch(/signature does not match/);
  const unknown = new URL(url);
  unknown.pathname = "/uploads/nosuchtoken";
  expect((await put(unknown.toString(), Buffer.alloc(10))).status).toBe(404);
  expect(await imageState(created.resource.id)).toBe("PENDING");
  expect((await put(url.toString(), Buffer.alloc(10))).status).toBe(200);
});

test("after expiry: the workflow ends TIMED_OUT, the image is FAILED and the URL answers 403", async () => {
  const created = await createUpload(10);
  await t.control.post("/_emulator/clock", { advanceMs: 3_600_000 + 1000 });
  expect(await workflowState(created.workflow.id)).toBe("TIMED_OUT");
  expect(await imageState(created.resource.id)).toBe("FAILED");
  const res = await put(created.upload.url, Buffer.alloc(10));
  expect(res.status).toBe(403);
  expect(res.headers.get("x-message")).toMatch(/expired/);
});

test("a workflow fault injected on the create applies once the upload arrives", async () => {
  await t.control.post("/_emulator/faults", {
    kind: "workflow",
    outcome: "FAILED",
    method: "POST",
    path: "/v1/workspaces/*/images",
    times: 1,
  });
  const created = await createUpload(10);
  expect(await workflowState(created.workflow.id)).toBe("QUEUED");
  expect((await put(created.upload.url, Buffer.alloc(10))).status).toBe(200);
  expect(await t.waitWorkflow(created.workflow.id)).toBe("FAILED");
  expect(await imageState(created.resource.id)).toBe("FAILED");
});

test("deleting the image while it waits aborts the workflow; its URL then answers 404", async () => {
  const created = await createUpload(10);
  const del = await t.api.delete(`/v1/images/${created.resource.id}`);
  expect(del.status).toBe(202);
  expect(await workflowState(created.workflow.id)).toBe("ABORTED");
  await t.waitWorkflow(del.body.id);
  expect((await put(created.upload.url, Buffer.alloc(10))).status).toBe(404);
});

test("a body sent as JSON is refused with 400", async () => {
  const created = await createUpload(2);
  const res = await put(created.upload.url, "{}", { "content-type": "application/json" });
  expect(res.status).toBe(400);
  expect(res.headers.get("x-message")).toMatch(/raw request body/);
});

test("uploaded ISOs count against the storage quota", async () => {
  const ws = t.emu.services.store.t.workspaces.get(t.workspaceId)!;
  await t.control.patch(`/_emulator/tables/workspaces/${t.workspaceId}`, { quota: { ...ws.quota, iso_storage_bytes: 150 } });
  await createUpload(100, "first-iso");
  const res = await t.api.post(`/v1/workspaces/${t.workspaceId}/images`, {
    kind: "ISO",
    name: "second-iso",
    source: { type: "UPLOAD", size_bytes: 51 },
  });
  expect(res.status).toBe(409);
  expect(res.message).toMatch(/ISO storage quota exceeded/);
});
