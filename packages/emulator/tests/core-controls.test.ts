/**
 * Emulator core: the /_emulator test controls (inventory, request log, clock, settings, tables,
 * mail, totp), the shared error conventions (404 for unknown routes, empty 401/403 bodies, the
 * field-error body of a 400), rate limiting, and identifiers (large, small, seeded).
 */
import { totpCode } from "../src";
import { DEFAULT_RATE_LIMITS } from "../src/core/ratelimit";
import { DEFAULT_QUOTA } from "../src/model";
import { useTestEmulator, startTestEmulator, type TestEmulator } from "../src/testing";
import { ed25519Key } from "./accounts";
import { createInstance, member } from "./compute";

let t: TestEmulator;
let ws: string;
const GiB = 1024 ** 3;
const DAY = 86_400_000;

useTestEmulator((started) => {
  t = started;
  ws = `/v1/workspaces/${t.workspaceId}`;
});

const vpcBody = (name = "control-net") => ({ name, description: "controls", range: "10.30.0.0/16" });

async function createVpc(workspacePath = ws, name?: string): Promise<{ id: string; name: string }> {
  const res = await t.api.post(`${workspacePath}/vpcs`, vpcBody(name));
  if (res.status !== 201) throw new Error(`create vpc: ${res.status} ${res.message}`);
  return res.body;
}

interface Item {
  id: string;
  name: string | null;
  workspaceId: string | null;
  state: string | null;
}
interface Inventory {
  total: number;
  resources: Record<string, Item[]>;
}

const inventory = async (query?: Record<string, string>) => (await t.control.get<Inventory>("/_emulator/inventory", query)).body;
const countAll = (inv: Inventory) => Object.values(inv.resources).reduce((n, items) => n + items.length, 0);

describe("GET /_emulator/inventory", () => {
  it("lists nothing at the seed: seeded catalogue rows are never listed", async () => {
    const inv = await inventory();
    expect(inv.total).toBe(0);
    for (const items of Object.values(inv.resources)) expect(items).toEqual([]);
    // Tables holding seed rows are listed (empty), catalogue-only tables not at all.
    expect(Object.keys(inv.resources)).toEqual(
      expect.arrayContaining(["workspaces", "tokens", "images", "vpcs", "sshKeys", "disks", "instances"]),
    );
    expect(inv.resources).not.toHaveProperty("plans");
    expect(inv.resources).not.toHaveProperty("nodes");
    expect(t.emu.services.store.t.images.count()).toBeGreaterThan(0);
  });

  it("shows every live resource by table with workspaceId and state, and the total", async () => {
    const vpc = await createVpc();
    const key = (await t.api.post(`${ws}/ssh`, { name: "deploy-key", public_key: ed25519Key() })).body;
    // A minute-long workflow, so the disk is certainly PENDING when first listed.
    await t.control.post("/_emulator/settings", { workflowMs: 60_000 });
    const disk = await t.api.post(`${ws}/disks`, { name: "data-1", size: GiB, backend: "LOCAL", region: "NA_01" });
    const invite = (await t.api.post(`${ws}/invites`, { email: "guest@example.org", access_level: "VIEWER" })).body;

    const during = await inventory();
    expect(during.resources.disks).toEqual([{ id: disk.body.resource.id, name: "data-1", workspaceId: t.workspaceId, state: "PENDING" }]);
    await t.control.post("/_emulator/clock", { advanceMs: 61_000 });

    const inv = await inventory();
    expect(inv.resources.vpcs).toEqual([{ id: vpc.id, name: "control-net", workspaceId: t.workspaceId, state: null }]);
    expect(inv.resources.sshKeys).toEqual([{ id: key.id, name: "deploy-key", workspaceId: t.workspaceId, state: null }]);
    expect(inv.resources.disks).toEqual([{ id: disk.body.resource.id, name: "data-1", workspaceId: t.workspaceId, state: "AVAILABLE" }]);
    expect(inv.resources.invites).toEqual([expect.objectContaining({ id: invite.id, workspaceId: t.workspaceId })]);
    expect(inv.total).toBe(4);
    expect(countAll(inv)).toBe(inv.total);

    // Deleted resources leave the inventory.
    await t.api.delete(`/v1/vpcs/${vpc.id}`);
    const after = await inventory();
    expect(after.resources.vpcs).toEqual([]);
    expect(after.total).toBe(3);
  });

  it("filters by ?workspace=", async () => {
    const other = await t.api.post("/v1/workspaces", { name: "other-space" });
    expect(other.status).toBe(201);
    const otherWs = `/v1/workspaces/${other.body.id}`;
    const mine = await createVpc(ws, "mine-net");
    const theirs = await createVpc(otherWs, "their-net");

    const all = await inventory();
    expect(all.resources.vpcs.map((v) => v.id).sort()).toEqual([mine.id, theirs.id].sort());
    expect(all.resources.workspaces).toEqual([
      expect.objectContaining({ id: other.body.id, name: "other-space", workspaceId: other.body.id }),
    ]);

    const onlyOther = await inventory({ workspace: other.body.id });
    expect(onlyOther.resources.vpcs).toEqual([expect.objectContaining({ id: theirs.id, workspaceId: other.body.id })]);
    expect(onlyOther.resources.workspaces).toHaveLength(1);
    expect(
      Object.values(onlyOther.resources)
        .flat()
        .every((i) => i.workspaceId === other.body.id),
    ).toBe(true);
    expect(onlyOther.total).toBe(countAll(onlyOther));

    const onlyMine = await inventory({ workspace: t.workspaceId });
    expect(onlyMine.resources.vpcs).toEqual([expect.objectContaining({ id: mine.id })]);
    expect(onlyMine.resources.workspaces).toEqual([]); // the seeded workspace is not a live resource
    expect(onlyMine.total + onlyOther.total).toBe(all.total);
  });
});

describe("/_emulator/requests", () => {
  it("records method, path, query, status and body, masking passwords and codes", async () => {
    const login = await t.anon.post("/v1/login", { email: t.emu.email, password: t.emu.password });
    expect(login.status).toBe(200);
    await t.anon.post("/v1/verify-email", { code: "not-a-real-code" });
    await t.api.get(`${ws}/vpcs`, { limit: 2, sort: "name" });
    await t.api.get("/v1/no-such-thing");

    const { requests, lastSeq } = (await t.control.get("/_emulator/requests")).body;
    expect(requests.map((r: { method: string; path: string; status: number }) => [r.method, r.path, r.status])).toEqual([
      ["POST", "/v1/login", 200],
      ["POST", "/v1/verify-email", 400],
      ["GET", `${ws}/vpcs`, 200],
      ["GET", "/v1/no-such-thing", 404],
    ]);
    expect(requests[0].body).toEqual({ email: t.emu.email, password: "[masked]" });
    expect(JSON.stringify(requests)).not.toContain(t.emu.password);
    expect(requests[1].body).toEqual({ code: "[masked]" });
    expect(requests[2].query).toEqual({ limit: "2", sort: "name" });
    expect(requests[2]).toMatchObject({ seq: expect.any(Number), time: expect.any(String), durationMs: expect.any(Number) });
    expect(lastSeq).toBe(requests[3].seq);
    // Control requests are not logged.
    expect(requests.some((r: { path: string }) => r.path.startsWith("/_emulator"))).toBe(false);
  });

  it("masks secrets in the query string too (an invite code looked up)", async () => {
    const invite = (await t.api.post(`${ws}/invites`, { email: "guest@example.org", access_level: "VIEWER" })).body;
    expect((await t.anon.get("/v1/invites/lookup", { code: invite.code })).status).toBe(200);
    const logged = (await t.control.get("/_emulator/requests", { path: "/v1/invites/lookup" })).body.requests;
    expect(logged).toEqual([expect.objectContaining({ method: "GET", status: 200, query: { code: "[masked]" } })]);
    expect(JSON.stringify((await t.control.get("/_emulator/requests")).body)).not.toContain(invite.code);
  });

  it("filters with since, method and path prefix; DELETE clears", async () => {
    await t.api.get(ws);
    const mark = (await t.control.get("/_emulator/requests")).body.lastSeq as number;
    await createVpc();
    await t.api.get(`${ws}/vpcs`);
    const since = (await t.control.get("/_emulator/requests", { since: String(mark) })).body.requests;
    expect(since.map((r: { method: string }) => r.method)).toEqual(["POST", "GET"]);
    expect(since.every((r: { seq: number }) => r.seq > mark)).toBe(true);
    expect((await t.control.get("/_emulator/requests", { method: "post" })).body.requests).toHaveLength(1);
    expect((await t.control.get("/_emulator/requests", { path: `${ws}/vpcs` })).body.requests).toHaveLength(2);

    const cleared = await t.control.delete("/_emulator/requests");
    expect(cleared.status).toBe(204);
    expect((await t.control.get("/_emulator/requests")).body.requests).toEqual([]);
    await t.api.get(ws);
    const fresh = (await t.control.get("/_emulator/requests")).body.requests;
    expect(fresh).toHaveLength(1);
    expect(fresh[0].seq).toBeGreaterThan(mark); // sequence numbers never repeat
  });
});

describe("/_emulator/clock", () => {
  it("moves the emulator's clock: an invite expires after 7 days", async () => {
    const invite = await t.api.post(`${ws}/invites`, { email: "late@example.org", access_level: "EDITOR" });
    expect(invite.status).toBe(201);
    const lookup = () => t.anon.get("/v1/invites/lookup", { code: invite.body.code });
    expect((await lookup()).status).toBe(200);

    const before = (await t.control.get("/_emulator/clock")).body;
    expect(before.offsetMs).toBe(0);
    const moved = await t.control.post("/_emulator/clock", { advanceMs: 7 * DAY - 60_000 });
    expect(moved.body.offsetMs).toBe(7 * DAY - 60_000);
    expect(Date.parse(moved.body.now) - Date.parse(before.now)).toBeGreaterThanOrEqual(7 * DAY - 60_000);
    expect((await lookup()).status).toBe(200); // a minute left

    await t.control.post("/_emulator/clock", { advanceMs: 60_001 });
    const gone = await lookup();
    expect(gone.status).toBe(404);
    expect(gone.message).toBeTruthy();
  });

  it("refuses a negative or missing advance", async () => {
    expect((await t.control.post("/_emulator/clock", { advanceMs: -1 })).status).toBe(400);
    expect((await t.control.post("/_emulator/clock", {})).status).toBe(400);
    expect((await t.control.get("/_emulator/clock")).body.offsetMs).toBe(0);
  });
});

describe("/_emulator/settings", () => {
  it("reports the startup settings and applies a workflowMs change to new workflows", async () => {
    const settings = (await t.control.get("/_emulator/settings")).body;
    expect(settings).toEqual({ workflowMs: 30, rateLimits: DEFAULT_RATE_LIMITS, registryAccounts: expect.any(Object) });

    const changed = await t.control.post("/_emulator/settings", { workflowMs: 5000 });
    expect(changed.status).toBe(200);
    expect(changed.body.workflowMs).toBe(5000);
    const disk = await t.api.post(`${ws}/disks`, { name: "slow-disk", size: GiB, backend: "LOCAL", region: "NA_01" });
    const wf = (await t.control.get(`/_emulator/tables/workflows/${disk.body.workflow.id}`)).body;
    expect(wf.endsAt - wf.created).toBe(5000);
    expect(wf.startsAt - wf.created).toBe(1000); // QUEUED for the first fifth
    expect((await t.api.get(`/v1/disks/${disk.body.resource.id}`)).body.state).toBe("PENDING");

    await t.control.post("/_emulator/settings", { workflowMs: 0 });
    const fast = await t.api.post(`${ws}/disks`, { name: "fast-disk", size: GiB, backend: "LOCAL", region: "NA_01" });
    expect((await t.api.get(`/v1/workflows/${fast.body.workflow.id}`)).body.state).toBe("COMPLETED");
    expect((await t.api.get(`/v1/disks/${fast.body.resource.id}`)).body.state).toBe("AVAILABLE");
  });

  it.each([
    ["a negative workflowMs", { workflowMs: -1 }],
    ["a fractional workflowMs", { workflowMs: 1.5 }],
    ["a bucket without perSecond", { rateLimits: { general: { burst: 5 } } }],
    ["a zero burst", { rateLimits: { lifecycle: { burst: 0, perSecond: 1 } } }],
  ])("refuses %s with 400", async (_label, body) => {
    const res = await t.control.post("/_emulator/settings", body);
    expect(res.status).toBe(400);
    expect(res.message).toMatch(/invalid settings/);
    expect((await t.control.get("/_emulator/settings")).body.workflowMs).toBe(30);
  });
});

describe("/_emulator/tables", () => {
  it("reads and patches a row: a locked instance refuses a snapshot", async () => {
    const inst = await createInstance(t);
    const row = await t.control.get(`/_emulator/tables/instances/${inst.id}`);
    expect(row.status).toBe(200);
    expect(row.body).toMatchObject({ id: inst.id, workspaceId: t.workspaceId, locked: false });

    const patched = await t.control.patch(`/_emulator/tables/instances/${inst.id}`, { locked: true });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ id: inst.id, locked: true, name: inst.name });
    expect((await t.api.get(`/v1/instances/${inst.id}`)).body.locked).toBe(true);
    const refused = await t.api.post("/v1/commands/create-snapshot", { instance_id: BigInt(inst.id) });
    expect(refused.status).toBe(409);
    expect(refused.message).toMatch(/locked/);

    await t.control.patch(`/_emulator/tables/instances/${inst.id}`, { locked: false });
    expect((await t.api.post("/v1/commands/create-snapshot", { instance_id: BigInt(inst.id) })).status).toBe(202);
  });

  it("a tightened quota takes effect at once", async () => {
    await t.control.patch(`/_emulator/tables/workspaces/${t.workspaceId}`, { quota: { ...DEFAULT_QUOTA, max_vpcs: 1 } });
    await createVpc();
    const second = await t.api.post(`${ws}/vpcs`, vpcBody("second"));
    expect(second.status).toBe(400);
    expect(second.message).toMatch(/max_vpcs/);
  });

  it("answers 404 for an unknown table or row and 400 for a body that is not an object", async () => {
    const noTable = await t.control.get(`/_emulator/tables/nonsense/${t.workspaceId}`);
    expect(noTable.status).toBe(404);
    expect(noTable.message).toBeTruthy();
    expect((await t.control.patch(`/_emulator/tables/nonsense/${t.workspaceId}`, { a: 1 })).status).toBe(404);
    expect((await t.control.get("/_emulator/tables/workspaces/12345")).status).toBe(404);
    expect((await t.control.patch("/_emulator/tables/workspaces/12345", { name: "x" })).status).toBe(404);
    const notObject = await t.control.patch(`/_emulator/tables/workspaces/${t.workspaceId}`, undefined, { rawBody: '"locked"' });
    expect(notObject.status).toBe(400);
    expect((await t.api.get(ws)).body.name).toBe("demo-workspace");
  });
});

describe("/_emulator/mail", () => {
  it("holds verification, login-notification and invite mail with their codes; ?to= filters", async () => {
    const email = "newcomer@example.org";
    expect((await t.anon.post("/v1/register", { name: "New Comer", email, password: "long-enough-1" })).status).toBe(201);
    const mine = (await t.control.get("/_emulator/mail", { to: email.toUpperCase() })).body.mail;
    expect(mine).toEqual([{ id: expect.any(String), to: email, kind: "VERIFY_EMAIL", code: expect.any(String), sent: expect.any(String) }]);
    // The code in the mail is the one the API accepts.
    expect((await t.anon.post("/v1/verify-email", { code: mine[0].code })).status).toBe(202);
    expect((await t.anon.post("/v1/login", { email, password: "long-enough-1" })).status).toBe(200);

    await t.api.post(`${ws}/invites`, { email: "friend@example.org", access_level: "VIEWER" });
    const all = (await t.control.get("/_emulator/mail")).body.mail as Array<{ to: string; kind: string }>;
    expect(all.map((m) => [m.to, m.kind])).toEqual([
      [email, "VERIFY_EMAIL"],
      [email, "LOGIN_NOTIFICATION"],
      ["friend@example.org", "INVITE"],
    ]);
    expect((await t.control.get("/_emulator/mail", { to: "nobody@example.org" })).body.mail).toEqual([]);
  });
});

describe("/_emulator/totp", () => {
  it("shows the current code for a secret, which the API accepts", async () => {
    const enrol = await t.api.post("/v1/users/@me/totp");
    expect(enrol.status).toBe(200);
    const secret = enrol.body.code as string;
    const before = Date.parse((await t.control.get("/_emulator/clock")).body.now);
    const { code } = (await t.control.get("/_emulator/totp", { secret })).body;
    const after = Date.parse((await t.control.get("/_emulator/clock")).body.now);
    expect(code).toMatch(/^\d{6}$/);
    expect([totpCode(secret, before), totpCode(secret, after)]).toContain(code);
    expect((await t.api.put("/v1/users/@me/totp", { code })).status).toBe(202);
  });

  it("follows the emulator's clock", async () => {
    const secret = "JBSWY3DPEHPK3PXP";
    await t.control.post("/_emulator/clock", { advanceMs: 10 * DAY });
    const now = Date.parse((await t.control.get("/_emulator/clock")).body.now);
    const { code } = (await t.control.get("/_emulator/totp", { secret })).body;
    expect([totpCode(secret, now), totpCode(secret, now + 30_000)]).toContain(code);
  });

  it("answers 400 for a missing or non-base32 secret", async () => {
    expect((await t.control.get("/_emulator/totp")).status).toBe(400);
    const bad = await t.control.get("/_emulator/totp", { secret: "not base32!" });
    expect(bad.status).toBe(400);
    expect(bad.message).toMatch(/secret/);
  });
});

describe("error conventions", () => {
  it("an unknown route answers 404 with X-Message", async () => {
    for (const [method, path] of [
      ["GET", "/v1/nope"],
      ["PUT", "/v1/plans"],
      ["GET", "/v2/workspaces"],
      ["GET", "/_emulator/nope"],
    ]) {
      const res = await t.api.request(method, path);
      expect(res.status).toBe(404);
      expect(res.message).toBe(`No route ${method} ${path}`);
      expect(res.body).toEqual({ message: res.message });
    }
  });

  it("401 and 403 have empty bodies and the reason in X-Message", async () => {
    const cases = [
      [await t.anon.get(ws), 403],
      [await t.api.as("svc_not-a-token").get(ws), 401],
      [await t.anon.request("GET", ws, undefined, { headers: { authorization: "Basic abc" } }), 401],
      [await member(t, t.workspaceId, "VIEWER").post(`${ws}/vpcs`, vpcBody()), 403],
    ] as const;
    for (const [res, status] of cases) {
      expect(res.status).toBe(status);
      expect(res.text).toBe("");
      expect(res.message).toBeTruthy();
    }
  });

  it("a 400 carries the field-error body {message, errors:[{field, message}]}", async () => {
    const res = await t.api.post(`${ws}/vpcs`, { ...vpcBody(), name: "ab" });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: res.message, errors: [{ field: "name", message: expect.any(String) }] });
    expect(res.message).toContain("name");

    const badJson = await t.api.post(`${ws}/vpcs`, undefined, { rawBody: "{ nope" });
    expect(badJson.status).toBe(400);
    expect(badJson.message).toMatch(/not valid JSON/);
    expect(badJson.body).toEqual({ message: badJson.message, errors: [] });
  });
});

describe("rate limiting", () => {
  it("the general bucket answers 429 with Retry-After once exhausted (per token)", async () => {
    await t.control.post("/_emulator/settings", { rateLimits: { general: { burst: 5, perSecond: 0.2 } } });
    const statuses: number[] = [];
    let limited: Awaited<ReturnType<typeof t.api.get>> | undefined;
    for (let i = 0; i < 8; i++) {
      const res = await t.api.get(ws);
      statuses.push(res.status);
      if (res.status === 429) limited ??= res;
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
    expect(Number(limited!.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(Number.isInteger(Number(limited!.headers.get("retry-after")))).toBe(true);
    expect(limited!.message).toMatch(/Rate limit/);
    // Another token has its own bucket.
    expect((await t.staff.get(ws)).status).toBe(200);
    // Settings changes (and reset) refill the buckets.
    await t.control.post("/_emulator/reset");
    expect((await t.api.get(ws)).status).toBe(200);
  });

  it("under the default settings, lifecycle endpoints are limited far tighter than the rest", async () => {
    expect((await t.control.get("/_emulator/settings")).body.rateLimits).toEqual(DEFAULT_RATE_LIMITS);
    const logins: number[] = [];
    let limited: Awaited<ReturnType<typeof t.anon.post>> | undefined;
    for (let i = 0; i < 25; i++) {
      const res = await t.anon.post("/v1/login", { email: t.emu.email, password: "wrong-password" });
      logins.push(res.status);
      if (res.status === 429) limited ??= res;
    }
    // The bucket starts full, so the first logins are answered (401: wrong password)...
    expect(logins.slice(0, 10)).toEqual(Array(10).fill(401));
    // ...and well before 25 quick ones it is empty.
    expect(logins).toContain(429);
    expect(logins.filter((s) => s === 401).length).toBeLessThan(25);
    expect(Number(limited!.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(limited!.text).toContain("Rate limit");

    const gets: number[] = [];
    for (let i = 0; i < 25; i++) gets.push((await t.api.get(ws)).status);
    expect(new Set(gets)).toEqual(new Set([200]));
  });
});

describe("identifiers", () => {
  it("are decimal strings above 2^53 by default", async () => {
    const vpc = await createVpc();
    for (const id of [t.workspaceId, t.emu.userId, vpc.id]) {
      expect(id).toMatch(/^\d+$/);
      expect(BigInt(id)).toBeGreaterThan(2n ** 53n);
    }
    // Exact through the API: the id read back is the id issued.
    expect((await t.api.get(`/v1/vpcs/${vpc.id}`)).body.id).toBe(vpc.id);
  });

  it('idMode "small" gives 1, 2, 3...', async () => {
    const small = await startTestEmulator({ idMode: "small" });
    try {
      expect(small.emu.userId).toBe("1");
      expect(small.workspaceId).toBe("3");
      const path = `/v1/workspaces/${small.workspaceId}/vpcs`;
      const a = (await small.api.post(path, vpcBody("small-a"))).body.id as string;
      const b = (await small.api.post(path, vpcBody("small-b"))).body.id as string;
      expect(Number(b)).toBe(Number(a) + 1);
      expect(Number(a)).toBeLessThan(10_000);
      const seedIds = small.emu.services.store.t.plans.all().map((p) => Number(p.id));
      expect(Math.max(...seedIds)).toBeLessThan(Number(a));
    } finally {
      await small.stop();
    }
  });

  it("the same seed gives the same ids and bootstrap tokens twice; another seed does not", async () => {
    const run = async (seed: number) => {
      const e = await startTestEmulator({ seed });
      try {
        const vpc = (await e.api.post(`/v1/workspaces/${e.workspaceId}/vpcs`, vpcBody())).body.id;
        const { token, staffToken, workspaceId, userId } = e.emu;
        return { token, staffToken, workspaceId, userId, vpc };
      } finally {
        await e.stop();
      }
    };
    const first = await run(777);
    expect(await run(777)).toEqual(first);
    const other = await run(778);
    expect(other.token).not.toBe(first.token);
    expect(other.workspaceId).not.toBe(first.workspaceId);
  });
});
