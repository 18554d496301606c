/**
 * Part 1 Account and sign-in: login, registration onboarding, password reset, email
 * verification, account lock, the user profile, password change and TOTP.
 */
import { useTestEmulator, type TestEmulator } from "../src/testing";
import { lastMail, login, mailCount, RELAXED_LIMITS, signUp } from "./accounts";

let t: TestEmulator;

useTestEmulator((started) => (t = started), RELAXED_LIMITS);
beforeEach(async () => {
  await t.control.post("/_emulator/settings", RELAXED_LIMITS);
});

const totpNow = async (secret: string) => (await t.control.get("/_emulator/totp", { secret })).body.code as string;

describe("POST /v1/login", () => {
  it("returns a one-day SESSION token with code and full grants, and mails a login notification", async () => {
    const before = await mailCount(t, t.emu.email, "LOGIN_NOTIFICATION");
    const res = await t.anon.post("/v1/login", { email: "DEMO@example.com", password: t.emu.password });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ origin: "SESSION", subject: "USER", subject_id: t.emu.userId, workspace_id: null });
    expect(Object.keys(res.body.grants).sort()).toEqual([
      "APP",
      "DEDIBOX",
      "DISK",
      "FLOATING_IP",
      "IMAGE",
      "INSTANCE",
      "NET_BALANCER",
      "WORKSPACE",
    ]);
    expect(Object.values(res.body.grants).every((v) => v === "WRITE")).toBe(true);
    const lifetime = Date.parse(res.body.expires) - Date.parse(res.body.created);
    expect(lifetime).toBe(86_400_000);
    expect(typeof res.body.code).toBe("string");
    expect((await t.api.as(res.body.code).get("/v1/users/@me")).body.id).toBe(t.emu.userId);
    expect(await mailCount(t, t.emu.email, "LOGIN_NOTIFICATION")).toBe(before + 1);
  });

  it("401 for a wrong password or unknown email; 400 for missing fields", async () => {
    const wrong = await t.anon.post("/v1/login", { email: t.emu.email, password: "nope-nope" });
    expect(wrong.status).toBe(401);
    expect(wrong.message).toBe("Invalid email or password");
    expect((await t.anon.post("/v1/login", { email: "ghost@example.com", password: "whatever1" })).status).toBe(401);
    const missing = await t.anon.post("/v1/login", { email: t.emu.email });
    expect(missing.status).toBe(400);
    expect(missing.body.errors[0].field).toBe("password");
  });

  it("lifecycle endpoints are rate limited tighter: 429 with Retry-After", async () => {
    await t.control.post("/_emulator/settings", { rateLimits: { lifecycle: { burst: 2, perSecond: 0.01 } } });
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i < 4; i++) {
      const res = await t.anon.post("/v1/verify-email", { email: "nobody@example.com" });
      statuses.push(res.status);
      if (res.status === 429) retryAfter = res.headers.get("retry-after");
    }
    expect(statuses).toEqual([202, 202, 429, 429]);
    expect(Number(retryAfter)).toBeGreaterThan(0);
    // The API at large is not affected.
    expect((await t.api.get("/v1/users/@me")).status).toBe(200);
  });
});

describe("POST /v1/lock-account", () => {
  it("the login-notification code locks the account (idempotent); a locked account cannot log in; a reset unlocks it", async () => {
    const session = await login(t, t.emu.email, t.emu.password);
    const mail = await lastMail(t, t.emu.email, "LOGIN_NOTIFICATION");
    const first = await t.anon.post("/v1/lock-account", { code: mail.code });
    expect(first.status).toBe(202);
    expect(first.text).toBe("");
    expect((await t.anon.post("/v1/lock-account", { code: mail.code })).status).toBe(202);
    expect((await session.api.get("/v1/users/@me")).status).toBe(401);
    const denied = await t.anon.post("/v1/login", { email: t.emu.email, password: t.emu.password });
    expect(denied.status).toBe(403);
    expect(denied.message).toMatch(/locked/);

    await t.anon.post("/v1/reset-password", { email: t.emu.email });
    const reset = await lastMail(t, t.emu.email, "RESET_PASSWORD");
    expect((await t.anon.post("/v1/reset-password", { code: reset.code, password: "brand-new-pass" })).status).toBe(202);
    expect((await t.anon.post("/v1/login", { email: t.emu.email, password: "brand-new-pass" })).status).toBe(200);
  });

  it("400 for an unknown or missing code", async () => {
    expect((await t.anon.post("/v1/lock-account", { code: "not-a-code" })).status).toBe(400);
    expect((await t.anon.post("/v1/lock-account", {})).status).toBe(400);
  });
});

describe("POST /v1/register", () => {
  it("201 with an empty body, a verification mail, and a default workspace the user owns with the default quota", async () => {
    const email = "new.person@example.org";
    const res = await t.anon.post("/v1/register", { name: "New Person", email, password: "long-enough" });
    expect(res.status).toBe(201);
    expect(res.text).toBe("");
    const session = await login(t, email, "long-enough");
    const me = await session.api.get("/v1/users/@me");
    expect(me.body).toMatchObject({ name: "New Person", email, flags: [], mfa_enabled: false, pending_email: null });

    const verify = await lastMail(t, email, "VERIFY_EMAIL");
    expect((await t.anon.post("/v1/verify-email", { code: verify.code })).status).toBe(202);
    expect((await session.api.get("/v1/users/@me")).body.flags).toEqual(["EMAIL_VERIFIED"]);
    expect((await t.anon.post("/v1/verify-email", { code: verify.code })).status).toBe(400);

    const workspaces = await session.api.get("/v1/workspaces");
    expect(workspaces.body.items).toEqual([{ id: expect.any(String), name: "Default Workspace", access_level: "OWNER" }]);
    const quota = await session.api.get(`/v1/workspaces/${workspaces.body.items[0].id}/quota`);
    expect(quota.body.max_ssh_keys).toBe(20);
    expect(quota.body.max_instances).toBe(25);
  });

  it("an existing email still answers 201 and gets a password-reset mail whose code works", async () => {
    const before = await mailCount(t, t.emu.email, "ACCOUNT_EXISTS");
    const res = await t.anon.post("/v1/register", { name: "Impostor", email: t.emu.email, password: "another-pass" });
    expect(res.status).toBe(201);
    expect(await mailCount(t, t.emu.email, "ACCOUNT_EXISTS")).toBe(before + 1);
    // The existing account is untouched...
    expect((await t.anon.post("/v1/login", { email: t.emu.email, password: "another-pass" })).status).toBe(401);
    // ...and the mail carries a reset code.
    const mail = await lastMail(t, t.emu.email, "ACCOUNT_EXISTS");
    expect((await t.anon.post("/v1/reset-password", { code: mail.code, password: "reset-by-mail" })).status).toBe(202);
    expect((await t.anon.post("/v1/login", { email: t.emu.email, password: "reset-by-mail" })).status).toBe(200);
  });

  it("an invite_code addressed to the email is accepted and verifies it (no verification mail)", async () => {
    const email = "invitee@example.org";
    const invite = await t.api.post(`/v1/workspaces/${t.workspaceId}/invites`, { email, access_level: "EDITOR" });
    const res = await t.anon.post("/v1/register", { name: "Invitee", email, password: "long-enough", invite_code: invite.body.code });
    expect(res.status).toBe(201);
    expect(await mailCount(t, email, "VERIFY_EMAIL")).toBe(0);
    const session = await login(t, email, "long-enough");
    expect((await session.api.get("/v1/users/@me")).body.flags).toContain("EMAIL_VERIFIED");
    const ws = await session.api.get("/v1/workspaces", { name: "demo" });
    expect(ws.body.items).toEqual([{ id: t.workspaceId, name: "demo-workspace", access_level: "EDITOR" }]);
  });

  it("an invite for another address is ignored; a coupon given at registration credits the new wallet", async () => {
    const coupon = await t.staff.post("/v1/coupons", { amount: 10_000_000, uses: 5, code: "WELCOME10" });
    expect(coupon.status).toBe(201);
    const invite = await t.api.post(`/v1/workspaces/${t.workspaceId}/invites`, {
      email: "someone-else@example.org",
      access_level: "VIEWER",
    });
    const email = "coupon.user@example.org";
    const res = await t.anon.post("/v1/register", {
      name: "Couponer",
      email,
      password: "long-enough",
      coupon: "WELCOME10",
      invite_code: invite.body.code,
    });
    expect(res.status).toBe(201);
    expect(await mailCount(t, email, "VERIFY_EMAIL")).toBe(1);
    const session = await login(t, email, "long-enough");
    expect((await session.api.get("/v1/workspaces")).body.items).toHaveLength(1);
    expect((await session.api.get("/v1/wallet/@me")).body.balance).toBe(10_000_000);
    expect((await t.staff.get(`/v1/coupons/${coupon.body.id}`)).body.uses_remaining).toBe(4);
  });

  it("registration never fails on a coupon that cannot be redeemed", async () => {
    expect(
      (await t.anon.post("/v1/register", { name: "No Coupon", email: "nocoupon@example.org", password: "long-enough", coupon: "BOGUS" }))
        .status,
    ).toBe(201);
    const session = await login(t, "nocoupon@example.org", "long-enough");
    expect((await session.api.get("/v1/wallet/@me")).body.balance).toBe(0);
  });

  it.each([
    ["name too short", { name: "ab" }, "name"],
    ["name too long", { name: "x".repeat(33) }, "name"],
    ["bad email", { email: "not-an-email" }, "email"],
    ["short password", { password: "1234567" }, "password"],
    ["missing password", { password: undefined }, "password"],
  ])("400 for %s", async (_label, patch, field) => {
    const res = await t.anon.post("/v1/register", { name: "Valid Name", email: "valid@example.org", password: "long-enough", ...patch });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].field).toBe(field);
  });
});

describe("POST /v1/reset-password and /v1/verify-email", () => {
  it.each([
    ["nothing", {}],
    ["email and code", { email: "a@example.org", code: "abc", password: "long-enough" }],
    ["code without password", { code: "abc" }],
    ["password alone", { password: "long-enough" }],
  ])("reset-password: 400 for %s", async (_label, body) => {
    const res = await t.anon.post("/v1/reset-password", body);
    expect(res.status).toBe(400);
    expect(res.message).toMatch(/exactly one of/);
  });

  it("reset: step 1 mails a code (202 even for unknown addresses); step 2 sets the password once and ends sessions", async () => {
    expect((await t.anon.post("/v1/reset-password", { email: "nobody@example.org" })).status).toBe(202);
    const session = await login(t, t.emu.email, t.emu.password);
    expect((await t.anon.post("/v1/reset-password", { email: t.emu.email })).status).toBe(202);
    const mail = await lastMail(t, t.emu.email, "RESET_PASSWORD");
    expect((await t.anon.post("/v1/reset-password", { code: mail.code, password: "short" })).status).toBe(400);
    expect((await t.anon.post("/v1/reset-password", { code: mail.code, password: "fresh-password" })).status).toBe(202);
    expect((await session.api.get("/v1/users/@me")).status).toBe(401);
    expect((await t.api.get("/v1/users/@me")).status).toBe(200); // API tokens survive
    expect((await t.anon.post("/v1/reset-password", { code: mail.code, password: "again-password" })).status).toBe(400);
    expect((await t.anon.post("/v1/login", { email: t.emu.email, password: "fresh-password" })).status).toBe(200);
  });

  it("verify-email: exactly one of email or code; resend mails a new code", async () => {
    expect((await t.anon.post("/v1/verify-email", {})).status).toBe(400);
    expect((await t.anon.post("/v1/verify-email", { email: "a@example.org", code: "x" })).status).toBe(400);
    expect((await t.anon.post("/v1/verify-email", { code: "unknown" })).status).toBe(400);
    await t.anon.post("/v1/register", { name: "Resender", email: "resend@example.org", password: "long-enough" });
    expect((await t.anon.post("/v1/verify-email", { email: "resend@example.org" })).status).toBe(202);
    expect(await mailCount(t, "resend@example.org", "VERIFY_EMAIL")).toBe(2);
    const code = (await lastMail(t, "resend@example.org", "VERIFY_EMAIL")).code;
    expect((await t.anon.post("/v1/verify-email", { code })).status).toBe(202);
  });
});

describe("users", () => {
  it("GET @me and own id; another user's id is 403; staff may read any user", async () => {
    const me = await t.api.get("/v1/users/@me");
    expect(me.status).toBe(200);
    expect(me.body).toEqual({
      id: t.emu.userId,
      name: "Demo User",
      email: t.emu.email,
      flags: ["EMAIL_VERIFIED"],
      pending_email: null,
      mfa_enabled: false,
      created: expect.any(String),
    });
    expect((await t.api.get(`/v1/users/${t.emu.userId}`)).body.id).toBe(t.emu.userId);
    const other = await signUp(t, "peer");
    expect((await t.api.get(`/v1/users/${other.userId}`)).status).toBe(403);
    expect((await t.staff.get(`/v1/users/${other.userId}`)).body.email).toBe(other.email);
    expect((await t.staff.get("/v1/users/9007199254740993")).status).toBe(404);
    expect((await t.api.get("/v1/users/not-a-number")).status).toBe(400);
    expect((await t.anon.get("/v1/users/@me")).status).toBe(403);
  });

  it("PATCH name at once; email only after the confirmation mailed to the new address is used", async () => {
    const res = await t.api.patch("/v1/users/@me", { name: "Renamed", email: "moved@example.org" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: "Renamed", email: t.emu.email, pending_email: "moved@example.org" });
    const mail = await lastMail(t, "moved@example.org", "CONFIRM_EMAIL_CHANGE");
    expect((await t.anon.post("/v1/verify-email", { code: mail.code })).status).toBe(202);
    const me = await t.api.get("/v1/users/@me");
    expect(me.body).toMatchObject({ email: "moved@example.org", pending_email: null });
    expect((await t.anon.post("/v1/login", { email: "moved@example.org", password: t.emu.password })).status).toBe(200);
  });

  it("PATCH: 400 for a bad name or email, 409 for an address in use, 403 for another user", async () => {
    expect((await t.api.patch("/v1/users/@me", { name: "ab" })).status).toBe(400);
    expect((await t.api.patch("/v1/users/@me", { email: "nope" })).status).toBe(400);
    const other = await signUp(t, "taken");
    const clash = await t.api.patch("/v1/users/@me", { email: other.email });
    expect(clash.status).toBe(409);
    expect((await t.api.patch(`/v1/users/${other.userId}`, { name: "Hijack" })).status).toBe(403);
  });

  it("POST password: wrong old password 400; success ends every session including the caller's", async () => {
    const session = await login(t, t.emu.email, t.emu.password);
    const other = await login(t, t.emu.email, t.emu.password);
    const wrong = await session.api.post("/v1/users/@me/password", { old_password: "wrong-one", password: "new-password-1" });
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors[0].field).toBe("old_password");
    expect((await session.api.post("/v1/users/@me/password", { old_password: t.emu.password, password: "short" })).status).toBe(400);
    expect((await session.api.post("/v1/users/@me/password", { old_password: t.emu.password, password: "new-password-1" })).status).toBe(
      202,
    );
    expect((await session.api.get("/v1/users/@me")).status).toBe(401);
    expect((await other.api.get("/v1/users/@me")).status).toBe(401);
    expect((await t.anon.post("/v1/login", { email: t.emu.email, password: "new-password-1" })).status).toBe(200);
  });

  it("DELETE fails while the user owns a workspace; otherwise deactivates the account and revokes sessions", async () => {
    const account = await signUp(t, "leaver");
    const owns = await account.api.delete("/v1/users/@me");
    expect(owns.status).toBe(409);
    expect(owns.message).toMatch(/owns 1 workspace/);

    // No API to hand a workspace over: move ownership directly.
    const ws = t.emu.services.store.t.workspaces.get(account.workspaceId)!;
    const membership = t.emu.services.store.t.memberships.find((m) => m.workspaceId === ws.id && m.userId === account.userId)!;
    await t.control.patch(`/_emulator/tables/workspaces/${ws.id}`, { ownerId: t.emu.userId });
    await t.control.patch(`/_emulator/tables/memberships/${membership.id}`, { role: "ADMINISTRATOR" });

    const res = await account.api.delete("/v1/users/@me");
    expect(res.status).toBe(202);
    expect((await account.api.get("/v1/users/@me")).status).toBe(401);
    expect((await t.anon.post("/v1/login", { email: account.email, password: account.password })).status).toBe(401);
    expect((await t.api.delete("/v1/users/@me")).status).toBe(409);
  });
});

describe("TOTP two-factor authentication", () => {
  it("enrol, activate (sessions end), log in with a code, disable with X-MFA", async () => {
    const session = await login(t, t.emu.email, t.emu.password);
    const start = await session.api.post("/v1/users/@me/totp");
    expect(start.status).toBe(200);
    expect(start.body.uri).toMatch(/^otpauth:\/\/totp\//);
    expect(start.body.uri).toContain(`secret=${start.body.code}`);
    expect(typeof start.body.reset).toBe("string");

    expect((await session.api.put("/v1/users/@me/totp", { code: "000000" })).status).toBe(400);
    expect((await session.api.put("/v1/users/@me/totp", {})).status).toBe(400);
    const activate = await session.api.put("/v1/users/@me/totp", { code: await totpNow(start.body.code) });
    expect(activate.status).toBe(202);
    expect((await session.api.get("/v1/users/@me")).status).toBe(401);
    expect((await t.api.get("/v1/users/@me")).body.mfa_enabled).toBe(true);
    expect((await t.api.post("/v1/users/@me/totp")).status).toBe(409);

    const missing = await t.anon.post("/v1/login", { email: t.emu.email, password: t.emu.password });
    expect(missing.status).toBe(400);
    expect(missing.body.errors[0].field).toBe("mfa");
    expect((await t.anon.post("/v1/login", { email: t.emu.email, password: t.emu.password, mfa: "123456" })).status).toBe(401);
    const withMfa = await login(t, t.emu.email, t.emu.password, await totpNow(start.body.code));

    expect((await withMfa.api.delete("/v1/users/@me/totp")).status).toBe(400);
    expect((await withMfa.api.delete("/v1/users/@me/totp", { headers: { "X-MFA": "999999" } })).status).toBe(400);
    const off = await withMfa.api.delete("/v1/users/@me/totp", { headers: { "X-MFA": await totpNow(start.body.code) } });
    expect(off.status).toBe(202);
    expect((await t.api.get("/v1/users/@me")).body.mfa_enabled).toBe(false);
    expect((await t.api.delete("/v1/users/@me/totp", { headers: { "X-MFA": "123456" } })).status).toBe(409);
  });

  it("the emergency reset token logs in once and turns 2FA off", async () => {
    const start = await t.api.post("/v1/users/@me/totp");
    await t.api.put("/v1/users/@me/totp", { code: await totpNow(start.body.code) });
    const res = await t.anon.post("/v1/login", { email: t.emu.email, password: t.emu.password, mfa: start.body.reset });
    expect(res.status).toBe(200);
    expect((await t.api.get("/v1/users/@me")).body.mfa_enabled).toBe(false);
    expect((await t.anon.post("/v1/login", { email: t.emu.email, password: t.emu.password })).status).toBe(200);
  });

  it("PUT without an enrolment is 409; another user's totp is 403", async () => {
    expect((await t.api.put("/v1/users/@me/totp", { code: "123456" })).status).toBe(409);
    const other = await signUp(t, "mfa-peer");
    expect((await t.api.post(`/v1/users/${other.userId}/totp`)).status).toBe(403);
  });
});

describe("GET /v1/users/{uid}/invites", () => {
  it("lists the pending invites addressed to the user's email, paged", async () => {
    const account = await signUp(t, "invited");
    const second = await account.api.post("/v1/workspaces", { name: "second-space" });
    const i1 = await t.api.post(`/v1/workspaces/${t.workspaceId}/invites`, { email: account.email, access_level: "VIEWER" });
    const other = await signUp(t, "host");
    const i2 = await other.api.post(`/v1/workspaces/${other.workspaceId}/invites`, {
      email: account.email.toUpperCase(),
      access_level: "EDITOR",
    });
    await t.api.post(`/v1/workspaces/${t.workspaceId}/invites`, { email: "unrelated@example.org", access_level: "VIEWER" });
    expect(second.status).toBe(201);

    const list = await account.api.get("/v1/users/@me/invites");
    expect(list.status).toBe(200);
    expect(list.body.items.map((i: { id: string }) => i.id).sort()).toEqual([i1.body.id, i2.body.id].sort());
    expect(list.body.items[0].code).toBeUndefined();
    const page = await account.api.get("/v1/users/@me/invites", { limit: 1 });
    expect(page.body.hasNext).toBe(true);
    const next = await account.api.get("/v1/users/@me/invites", { limit: 1, after: page.body.after });
    expect(next.body.items).toHaveLength(1);
    expect(next.body.items[0].id).not.toBe(page.body.items[0].id);

    await account.api.post("/v1/invites", { code: i1.body.code });
    expect((await account.api.get("/v1/users/@me/invites")).body.items.map((i: { id: string }) => i.id)).toEqual([i2.body.id]);
  });
});
