/**
 * Part 1 Tokens: creation rules, the token object, visibility and deletion, session refresh
 * and revocation, workspace and resource tokens.
 */
import { createHash } from "node:crypto";
import { useTestEmulator, type TestEmulator } from "../src/testing";
import { daysFromNow, insertRow, joinWorkspace, login, RELAXED_LIMITS, signUp, type Session } from "./accounts";

let t: TestEmulator;
let demo: Session;

useTestEmulator((started) => (t = started), RELAXED_LIMITS);
beforeEach(async () => {
  demo = await login(t, t.emu.email, t.emu.password);
});

const TOKEN_FIELDS = [
  "created",
  "created_by",
  "expires",
  "grants",
  "id",
  "last_ip",
  "last_used",
  "name",
  "origin",
  "subject",
  "subject_id",
  "user",
  "workspace_id",
];
const CREATION_FIELDS = ["code", "created", "expires", "grants", "id", "name", "origin", "subject", "subject_id", "workspace_id"];

async function userTokenBody(name = "ci-token", days = 30, grants: Record<string, string> = { INSTANCE: "WRITE", DISK: "READ" }) {
  return { name, expires: await daysFromNow(t, days), grants };
}

describe("user-scope token creation", () => {
  it("creates an API token from a login session: creation fields, code once, NONE dropped, hash only stored", async () => {
    const res = await demo.api.post(
      "/v1/tokens",
      await userTokenBody("deploy-bot", 30, { INSTANCE: "WRITE", IMAGE: "NONE", DISK: "READ" }),
    );
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(CREATION_FIELDS);
    expect(res.body).toMatchObject({
      name: "deploy-bot",
      origin: "API",
      subject: "USER",
      subject_id: t.emu.userId,
      workspace_id: null,
      grants: { INSTANCE: "WRITE", DISK: "READ" },
    });
    expect(res.body.grants).not.toHaveProperty("IMAGE");
    expect(typeof res.body.code).toBe("string");

    const row = t.emu.services.store.t.tokens.get(res.body.id)!;
    expect(row.codeHash).toBe(createHash("sha256").update(res.body.code).digest("hex"));
    expect(JSON.stringify(row)).not.toContain(res.body.code);

    // The code authenticates; fetch never returns it, and shows the last use.
    const own = t.api.as(res.body.code);
    expect((await own.get(`/v1/workspaces/${t.workspaceId}/quota`)).status).toBe(403); // no WORKSPACE grant
    const got = await demo.api.get(`/v1/tokens/${res.body.id}`);
    expect(got.status).toBe(200);
    expect(Object.keys(got.body).sort()).toEqual(TOKEN_FIELDS);
    expect(got.body.code).toBeUndefined();
    expect(got.body.user).toEqual({ id: t.emu.userId, name: "Demo User" });
    expect(got.body.created_by).toEqual({ id: t.emu.userId, name: "Demo User" });
    expect(got.body.last_ip).toBe("127.0.0.1");
    expect(typeof got.body.last_used).toBe("string");
  });

  it("accepts /v1/users/@me/tokens and the caller's own id, refuses another user's id", async () => {
    expect((await demo.api.post("/v1/users/@me/tokens", await userTokenBody())).status).toBe(201);
    expect((await demo.api.post(`/v1/users/${t.emu.userId}/tokens`, await userTokenBody())).status).toBe(201);
    const other = await signUp(t, "other");
    const res = await demo.api.post(`/v1/users/${other.userId}/tokens`, await userTokenBody());
    expect(res.status).toBe(403);
    expect(res.message).toMatch(/authenticated user/);
  });

  it("refuses API tokens: 403 Only login sessions can create tokens", async () => {
    const res = await t.api.post("/v1/tokens", await userTokenBody());
    expect(res.status).toBe(403);
    expect(res.message).toBe("Only login sessions can create tokens");
    expect(res.text).toBe("");
    expect((await t.api.post("/v1/users/@me/tokens", await userTokenBody())).status).toBe(403);
  });

  it.each([
    ["name too short", { name: "abc" }, /name/],
    ["name too long", { name: "x".repeat(49) }, /name/],
    ["expires not a timestamp", { expires: "next week" }, /expires/],
    ["grants empty", { grants: {} }, /grants/],
    ["grants only NONE", { grants: { INSTANCE: "NONE" } }, /grants/],
    ["grants unknown kind", { grants: { BUCKET: "READ" } }, /grants\.BUCKET/],
    ["grants bad level", { grants: { INSTANCE: "ADMIN" } }, /grants\.INSTANCE/],
    ["subject on the user endpoint", { subject: "WORKSPACE" }, /subject/],
    ["missing grants", { grants: undefined }, /grants/],
  ])("400 for %s", async (_label, patch, message) => {
    const res = await demo.api.post("/v1/tokens", { ...(await userTokenBody()), ...patch });
    expect(res.status).toBe(400);
    expect(res.message).toMatch(message);
    expect(res.body.errors.length).toBeGreaterThan(0);
  });

  it("accepts names of 4 and 48 characters", async () => {
    expect((await demo.api.post("/v1/tokens", await userTokenBody("abcd"))).status).toBe(201);
    expect((await demo.api.post("/v1/tokens", await userTokenBody("y".repeat(48)))).status).toBe(201);
  });

  it.each([[1], [6], [366], [1000]])("expires %i days from now: 400 naming the minimum and maximum", async (days) => {
    const res = await demo.api.post("/v1/tokens", await userTokenBody("expiry", days));
    expect(res.status).toBe(400);
    expect(res.message).toMatch(/expires must be between a minimum of 7 days and a maximum of 365 days/);
    expect(res.body.errors).toEqual([{ field: "expires", message: expect.stringMatching(/minimum/) }]);
  });

  it.each([[7], [365]])("expires exactly %i days from now is accepted", async (days) => {
    expect((await demo.api.post("/v1/tokens", await userTokenBody("bounds", days))).status).toBe(201);
  });

  it("an API token stops working once it expires (401)", async () => {
    const created = await demo.api.post("/v1/tokens", await userTokenBody("short", 7, { WORKSPACE: "READ" }));
    const token = t.api.as(created.body.code);
    expect((await token.get(`/v1/workspaces/${t.workspaceId}`)).status).toBe(200);
    await t.control.post("/_emulator/clock", { advanceMs: 8 * 86_400_000 });
    const res = await token.get(`/v1/workspaces/${t.workspaceId}`);
    expect(res.status).toBe(401);
    expect(res.message).toMatch(/expired/);
  });
});

describe("authentication", () => {
  it("no token 403, unknown token 401, both with an empty body and X-Message", async () => {
    const none = await t.anon.get("/v1/users/@me/tokens");
    expect(none.status).toBe(403);
    expect(none.text).toBe("");
    expect(none.message).toBeTruthy();
    const bad = await t.api.as("svc_nope").get("/v1/users/@me/tokens");
    expect(bad.status).toBe(401);
    expect(bad.text).toBe("");
  });
});

describe("listing, fetching and deleting user tokens", () => {
  it("lists the user's SESSION and API tokens with filters, sorting and paging (page numbers and cursors)", async () => {
    for (const name of ["alpha-one", "alpha-two", "beta-three"]) await demo.api.post("/v1/tokens", await userTokenBody(name));
    const all = await demo.api.get("/v1/users/@me/tokens", { limit: 100 });
    expect(all.status).toBe(200);
    const origins = all.body.items.map((x: { origin: string }) => x.origin).sort();
    // bootstrap API token, this test's session, three new API tokens; the operator's SYSTEM token is not the user's.
    expect(origins).toEqual(["API", "API", "API", "API", "SESSION"]);
    // Newest first by default.
    expect(all.body.items[0].name).toBe("beta-three");

    const byName = await demo.api.get("/v1/users/@me/tokens", { name: "alpha" });
    expect(byName.body.items.map((x: { name: string }) => x.name).sort()).toEqual(["alpha-one", "alpha-two"]);
    const sessions = await demo.api.get("/v1/users/@me/tokens", { origin: "SESSION" });
    expect(sessions.body.items).toHaveLength(1);
    expect(sessions.body.items[0].id).toBe(demo.tokenId);
    const byQ = await demo.api.get("/v1/users/@me/tokens", { q: demo.tokenId });
    expect(byQ.body.items.map((x: { id: string }) => x.id)).toEqual([demo.tokenId]);
    const byId = await demo.api.get("/v1/users/@me/tokens", { id: [demo.tokenId] });
    expect(byId.body.items).toHaveLength(1);
    expect((await demo.api.get("/v1/users/@me/tokens", { subject: "WORKSPACE" })).body.items).toHaveLength(0);
    expect((await demo.api.get("/v1/users/@me/tokens", { origin: "BOGUS" })).status).toBe(400);

    const sorted = await demo.api.get("/v1/users/@me/tokens", { sort: "name", dir: "asc", limit: 100 });
    const names = sorted.body.items.map((x: { name: string }) => x.name);
    expect(names).toEqual([...names].sort());

    const page1 = await demo.api.get("/v1/users/@me/tokens", { limit: 2 });
    expect(page1.body).toMatchObject({ hasNext: true, hasPrevious: false });
    const page2 = await demo.api.get("/v1/users/@me/tokens", { limit: 2, page: 2 });
    expect(page2.body.hasPrevious).toBe(true);
    const next = await demo.api.get("/v1/users/@me/tokens", { limit: 2, after: page1.body.after });
    expect(next.body.items.map((x: { id: string }) => x.id)).toEqual(page2.body.items.map((x: { id: string }) => x.id));
    const back = await demo.api.get("/v1/users/@me/tokens", { limit: 2, before: next.body.before });
    expect(back.body.items.map((x: { id: string }) => x.id)).toEqual(page1.body.items.map((x: { id: string }) => x.id));
  });

  it("another user cannot see or delete my USER token (404), nor list my tokens (403)", async () => {
    const mine = await demo.api.post("/v1/tokens", await userTokenBody());
    const other = await signUp(t, "outsider");
    expect((await other.api.get(`/v1/tokens/${mine.body.id}`)).status).toBe(404);
    expect((await other.api.delete(`/v1/tokens/${mine.body.id}`)).status).toBe(404);
    expect((await other.api.get(`/v1/users/${t.emu.userId}/tokens`)).status).toBe(403);
  });

  it("DELETE /v1/tokens/{id}: 202, the token is invalid at once and gone", async () => {
    const created = await demo.api.post("/v1/tokens", await userTokenBody("doomed", 30, { WORKSPACE: "READ" }));
    const token = t.api.as(created.body.code);
    expect((await token.get(`/v1/workspaces/${t.workspaceId}`)).status).toBe(200);
    const del = await demo.api.delete(`/v1/tokens/${created.body.id}`);
    expect(del.status).toBe(202);
    expect(del.text).toBe("");
    expect((await token.get(`/v1/workspaces/${t.workspaceId}`)).status).toBe(401);
    expect((await demo.api.get(`/v1/tokens/${created.body.id}`)).status).toBe(404);
    expect((await demo.api.get("/v1/tokens/9007199254740993")).status).toBe(404);
  });

  it("DELETE /v1/users/{uid}/tokens revokes every session, leaves API tokens", async () => {
    const second = await login(t, t.emu.email, t.emu.password);
    const apiToken = await demo.api.post("/v1/tokens", await userTokenBody("survivor", 30, { WORKSPACE: "READ" }));
    const res = await t.api.delete("/v1/users/@me/tokens");
    expect(res.status).toBe(202);
    expect((await demo.api.get("/v1/users/@me")).status).toBe(401);
    expect((await second.api.get("/v1/users/@me")).status).toBe(401);
    expect((await t.api.as(apiToken.body.code).get(`/v1/workspaces/${t.workspaceId}`)).status).toBe(200);
    expect((await t.api.get("/v1/users/@me")).status).toBe(200);
  });
});

describe("session refresh", () => {
  it("only in the last 6 hours of the one-day lifetime; API tokens never", async () => {
    const early = await t.api.post("/v1/tokens/refresh", { code: demo.code });
    expect(early.status).toBe(409);
    expect(early.message).toMatch(/last 6 hours/);

    const api = await t.api.post("/v1/tokens/refresh", { code: t.emu.token });
    expect(api.status).toBe(400);
    expect(api.message).toMatch(/API tokens cannot/);

    expect((await t.api.post("/v1/tokens/refresh", { code: "svc_unknown" })).status).toBe(400);
    expect((await t.api.post("/v1/tokens/refresh", {})).status).toBe(400);

    await t.control.post("/_emulator/clock", { advanceMs: 19 * 3_600_000 });
    const ok = await demo.api.post("/v1/tokens/refresh", { code: demo.code });
    expect(ok.status).toBe(200);
    const clock = await t.control.get("/_emulator/clock");
    expect(Math.abs(Date.parse(ok.body.expires) - (Date.parse(clock.body.now) + 86_400_000))).toBeLessThan(5_000);

    // 20 more hours: the old expiry is past, the refreshed session still works.
    await t.control.post("/_emulator/clock", { advanceMs: 20 * 3_600_000 });
    expect((await demo.api.get("/v1/users/@me")).status).toBe(200);
    await t.control.post("/_emulator/clock", { advanceMs: 5 * 3_600_000 });
    const expired = await demo.api.get("/v1/users/@me");
    expect(expired.status).toBe(401);
    expect(expired.message).toMatch(/expired/);
  });

  it("another user's session code cannot be refreshed", async () => {
    const other = await signUp(t, "refresher");
    await t.control.post("/_emulator/clock", { advanceMs: 20 * 3_600_000 });
    const res = await t.api.post("/v1/tokens/refresh", { code: other.code });
    expect(res.status).toBe(400);
  });
});

describe("workspace and resource tokens", () => {
  async function wsTokenBody(extra: Record<string, unknown> = {}) {
    return { name: "ws-token", expires: await daysFromNow(t, 30), grants: { WORKSPACE: "READ", INSTANCE: "WRITE" }, ...extra };
  }

  it("ADMINISTRATOR creates a WORKSPACE token (default subject); EDITOR and VIEWER get 403", async () => {
    const admin = await signUp(t, "admin");
    const editor = await signUp(t, "editor");
    const viewer = await signUp(t, "viewer");
    await joinWorkspace(t, t.api, t.workspaceId, admin, "ADMINISTRATOR");
    await joinWorkspace(t, t.api, t.workspaceId, editor, "EDITOR");
    await joinWorkspace(t, t.api, t.workspaceId, viewer, "VIEWER");

    const res = await admin.api.post(`/v1/workspaces/${t.workspaceId}/tokens`, await wsTokenBody());
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(CREATION_FIELDS);
    expect(res.body).toMatchObject({ origin: "API", subject: "WORKSPACE", subject_id: t.workspaceId, workspace_id: t.workspaceId });
    expect((await admin.api.post(`/v1/workspaces/${t.workspaceId}/tokens`, await wsTokenBody({ subject: "WORKSPACE" }))).status).toBe(201);

    for (const who of [editor, viewer]) {
      const denied = await who.api.post(`/v1/workspaces/${t.workspaceId}/tokens`, await wsTokenBody());
      expect(denied.status).toBe(403);
      expect(denied.message).toMatch(/ADMINISTRATOR/);
    }

    // Visible to EDITOR and above; a VIEWER gets 403; deletion needs ADMINISTRATOR.
    const fetched = await editor.api.get(`/v1/tokens/${res.body.id}`);
    expect(fetched.status).toBe(200);
    expect(fetched.body.user).toBeNull();
    expect(fetched.body.created_by).toEqual({ id: admin.userId, name: expect.any(String) });
    expect((await viewer.api.get(`/v1/tokens/${res.body.id}`)).status).toBe(403);
    expect((await editor.api.get(`/v1/workspaces/${t.workspaceId}/tokens`)).body.items).toHaveLength(2);
    expect((await viewer.api.get(`/v1/workspaces/${t.workspaceId}/tokens`)).status).toBe(403);
    expect((await editor.api.delete(`/v1/tokens/${res.body.id}`)).status).toBe(403);
    expect((await admin.api.delete(`/v1/tokens/${res.body.id}`)).status).toBe(202);
    expect((await t.api.as(res.body.code).get(`/v1/workspaces/${t.workspaceId}`)).status).toBe(401);
  });

  it("a workspace token reaches only its workspace and cannot act on accounts", async () => {
    const created = await t.api.post(`/v1/workspaces/${t.workspaceId}/tokens`, await wsTokenBody());
    expect(created.status).toBe(201);
    const ws = t.api.as(created.body.code);
    expect((await ws.get(`/v1/workspaces/${t.workspaceId}`)).status).toBe(200);
    const list = await ws.get("/v1/workspaces");
    expect(list.body.items.map((x: { id: string }) => x.id)).toEqual([t.workspaceId]);
    const other = await signUp(t, "elsewhere");
    expect((await ws.get(`/v1/workspaces/${other.workspaceId}`)).status).toBe(404);
    expect((await ws.get("/v1/users/@me/tokens")).status).toBe(403);
    expect((await ws.post("/v1/workspaces", { name: "sneaky" })).status).toBe(403);
  });

  it("RESOURCE tokens bind an INSTANCE or APP of the workspace; big ids round-trip exactly", async () => {
    const instanceId = insertRow(t, "instances", {
      workspaceId: t.workspaceId,
      name: "web-1",
      state: "AVAILABLE",
      online: true,
      planId: null,
    });
    expect(BigInt(instanceId)).toBeGreaterThan(2n ** 53n);
    const raw = `{"name":"instance-token","expires":"${await daysFromNow(t, 30)}","grants":{"INSTANCE":"READ"},"subject":"RESOURCE","subject_id":${instanceId}}`;
    const res = await t.api.request("POST", `/v1/workspaces/${t.workspaceId}/tokens`, undefined, { rawBody: raw });
    expect(res.status).toBe(201);
    expect(res.body.subject).toBe("RESOURCE");
    expect(res.body.subject_id).toBe(instanceId);
    expect(res.text).toContain(`"subject_id":"${instanceId}"`);

    const appId = insertRow(t, "apps", { workspaceId: t.workspaceId, name: "api" });
    const app = await t.api.request("POST", `/v1/workspaces/${t.workspaceId}/tokens`, undefined, {
      rawBody: `{"name":"app-token","expires":"${await daysFromNow(t, 30)}","grants":{"APP":"WRITE"},"subject":"RESOURCE","subject_id":${appId}}`,
    });
    expect(app.status).toBe(201);
    expect(app.body.subject_id).toBe(appId);

    // A resource token cannot reach workspace-level endpoints.
    expect((await t.api.as(res.body.code).get(`/v1/workspaces/${t.workspaceId}`)).status).toBe(403);
    const listed = await t.api.get(`/v1/workspaces/${t.workspaceId}/tokens`, { subject: "RESOURCE" });
    expect(listed.body.items).toHaveLength(2);
  });

  it("400 for RESOURCE without subject_id, a foreign or unknown subject, or subject_id with a workspace token", async () => {
    const other = await signUp(t, "foreign");
    const foreignInstance = insertRow(t, "instances", {
      workspaceId: other.workspaceId,
      name: "theirs",
      state: "AVAILABLE",
      online: true,
      planId: null,
    });
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ subject: "RESOURCE" }, /subject_id.*required/],
      [{ subject: "RESOURCE", subject_id: BigInt(foreignInstance) }, /subject_id/],
      [{ subject: "RESOURCE", subject_id: 9007199254740993n }, /subject_id/],
      [{ subject_id: BigInt(t.workspaceId) }, /subject_id/],
      [{ subject: "WORKSPACE", subject_id: 12345 }, /subject_id/],
      [{ subject: "USER" }, /subject/],
      [{ subject: "RESOURCE", subject_id: "123" }, /subject_id/],
    ];
    for (const [extra, message] of cases) {
      const res = await t.api.post(`/v1/workspaces/${t.workspaceId}/tokens`, await wsTokenBody(extra));
      expect([res.status, res.message]).toEqual([400, expect.stringMatching(message)]);
    }
    expect(
      (
        await t.api.post(
          `/v1/workspaces/${t.workspaceId}/tokens`,
          await wsTokenBody({ subject: "WORKSPACE", subject_id: BigInt(t.workspaceId) }),
        )
      ).status,
    ).toBe(201);
  });

  it("other workspace 404, no token 403 on workspace token endpoints", async () => {
    const other = await signUp(t, "privacy");
    expect((await t.api.get(`/v1/workspaces/${other.workspaceId}/tokens`)).status).toBe(404);
    expect((await t.api.post(`/v1/workspaces/${other.workspaceId}/tokens`, await wsTokenBody())).status).toBe(404);
    expect((await t.anon.get(`/v1/workspaces/${t.workspaceId}/tokens`)).status).toBe(403);
    expect((await t.api.get("/v1/workspaces/9007199254740993/tokens")).status).toBe(404);
  });

  it("the inventory lists API and workspace tokens with their workspace", async () => {
    const ws = await t.api.post(`/v1/workspaces/${t.workspaceId}/tokens`, await wsTokenBody());
    const inv = await t.control.get("/_emulator/inventory", { workspace: t.workspaceId });
    expect(inv.body.resources.tokens).toEqual([{ id: ws.body.id, name: "ws-token", workspaceId: t.workspaceId, state: null }]);
  });
});
