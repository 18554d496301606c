/**
 * Part 1 Workspaces (list, create, read, update, quota, topology) and Invites (create, lookup,
 * accept, expiry, edit, delete).
 */
import { useTestEmulator, type TestEmulator } from "../src/testing";
import { daysFromNow, insertRow, joinWorkspace, lastMail, login, RELAXED_LIMITS, signUp, type Account } from "./accounts";

let t: TestEmulator;

useTestEmulator((started) => (t = started), RELAXED_LIMITS);

const totpNow = async (secret: string) => (await t.control.get("/_emulator/totp", { secret })).body.code as string;

async function enableMfa(api: Account["api"] | TestEmulator["api"]): Promise<void> {
  const start = await api.post("/v1/users/@me/totp");
  const res = await api.put("/v1/users/@me/totp", { code: await totpNow(start.body.code) });
  if (res.status !== 202) throw new Error(`totp: ${res.status} ${res.message}`);
}

describe("workspaces", () => {
  it("POST creates a workspace the caller OWNS; the list is newest first with access_level, filterable and paged", async () => {
    const a = await t.api.post("/v1/workspaces", { name: "alpha-space" });
    expect(a.status).toBe(201);
    expect(a.body).toEqual({
      id: expect.any(String),
      name: "alpha-space",
      owner: { id: t.emu.userId, name: "Demo User" },
      flags: [],
      mfa_required: false,
      disable_ssh_password: false,
      created: expect.any(String),
    });
    const b = await t.api.post("/v1/workspaces", { name: "beta-space" });
    const list = await t.api.get("/v1/workspaces");
    expect(list.body.items.map((w: { id: string }) => w.id)).toEqual([b.body.id, a.body.id, t.workspaceId]);
    expect(list.body.items[0]).toEqual({ id: b.body.id, name: "beta-space", access_level: "OWNER" });

    const filtered = await t.api.get("/v1/workspaces", { name: "ALPHA" });
    expect(filtered.body.items.map((w: { id: string }) => w.id)).toEqual([a.body.id]);
    const p1 = await t.api.get("/v1/workspaces", { limit: 2 });
    expect(p1.body).toMatchObject({ hasNext: true, hasPrevious: false });
    const p2 = await t.api.get("/v1/workspaces", { limit: 2, page: 2 });
    expect(p2.body.items.map((w: { id: string }) => w.id)).toEqual([t.workspaceId]);
    const viaCursor = await t.api.get("/v1/workspaces", { limit: 2, after: p1.body.after });
    expect(viaCursor.body.items.map((w: { id: string }) => w.id)).toEqual([t.workspaceId]);
    const backCursor = await t.api.get("/v1/workspaces", { limit: 2, before: viaCursor.body.before });
    expect(backCursor.body.items.map((w: { id: string }) => w.id)).toEqual([b.body.id, a.body.id]);
    const byName = await t.api.get("/v1/workspaces", { sort: "name" });
    expect(byName.body.items.map((w: { name: string }) => w.name)).toEqual(["alpha-space", "beta-space", "demo-workspace"]);
  });

  it.each([["abc"], ["x".repeat(33)], [42]])("POST: 400 for name %p", async (name) => {
    const res = await t.api.post("/v1/workspaces", { name });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].field).toBe("name");
  });

  it("GET: members see it; others 404; unknown 404; no token 403", async () => {
    const outsider = await signUp(t, "outsider");
    expect((await t.api.get(`/v1/workspaces/${t.workspaceId}`)).body.name).toBe("demo-workspace");
    expect((await outsider.api.get(`/v1/workspaces/${t.workspaceId}`)).status).toBe(404);
    expect((await t.api.get("/v1/workspaces/9007199254740993")).status).toBe(404);
    expect((await t.anon.get(`/v1/workspaces/${t.workspaceId}`)).status).toBe(403);
    expect((await t.api.get(`/v1/workspaces/${outsider.workspaceId}/quota`)).status).toBe(404);
  });

  it("PATCH: name and mfa_required need OWNER; disable_ssh_password needs ADMINISTRATOR", async () => {
    const admin = await signUp(t, "admin");
    const editor = await signUp(t, "editor");
    await joinWorkspace(t, t.api, t.workspaceId, admin, "ADMINISTRATOR");
    await joinWorkspace(t, t.api, t.workspaceId, editor, "EDITOR");

    const rename = await admin.api.patch(`/v1/workspaces/${t.workspaceId}`, { name: "renamed-space" });
    expect(rename.status).toBe(403);
    expect(rename.message).toMatch(/OWNER/);
    expect((await admin.api.patch(`/v1/workspaces/${t.workspaceId}`, { mfa_required: false })).status).toBe(403);
    expect((await editor.api.patch(`/v1/workspaces/${t.workspaceId}`, { disable_ssh_password: true })).status).toBe(403);
    const ssh = await admin.api.patch(`/v1/workspaces/${t.workspaceId}`, { disable_ssh_password: true });
    expect(ssh.status).toBe(200);
    expect(ssh.body.disable_ssh_password).toBe(true);
    const owner = await t.api.patch(`/v1/workspaces/${t.workspaceId}`, { name: "renamed-space" });
    expect(owner.body.name).toBe("renamed-space");
    expect((await t.api.patch(`/v1/workspaces/${t.workspaceId}`, { name: "no" })).status).toBe(400);
    expect((await t.api.patch(`/v1/workspaces/${t.workspaceId}`, { mfa_required: "yes" })).status).toBe(400);
  });

  it("PATCH mfa_required is refused until every member has 2FA active", async () => {
    const member = await signUp(t, "member");
    await joinWorkspace(t, t.api, t.workspaceId, member, "VIEWER");
    await enableMfa(t.api);
    const refused = await t.api.patch(`/v1/workspaces/${t.workspaceId}`, { mfa_required: true });
    expect(refused.status).toBe(409);
    expect(refused.message).toMatch(/1 member/);
    await enableMfa(t.api.as(member.code));
    const res = await t.api.patch(`/v1/workspaces/${t.workspaceId}`, { mfa_required: true });
    expect(res.status).toBe(200);
    expect(res.body.mfa_required).toBe(true);

    // Joining now needs 2FA.
    const newcomer = await signUp(t, "newcomer");
    const inv = await t.api.post(`/v1/workspaces/${t.workspaceId}/invites`, { email: newcomer.email, access_level: "VIEWER" });
    expect((await newcomer.api.post("/v1/invites", { code: inv.body.code })).status).toBe(403);
  });

  it("quota is the workspace's quota object", async () => {
    const res = await t.api.get(`/v1/workspaces/${t.workspaceId}/quota`);
    expect(res.body).toEqual({
      max_instances: 25,
      max_ssh_keys: 20,
      max_vpcs: 10,
      max_floating_ipv4: 20,
      max_floating_ipv6: 20,
      max_floating_ips: 30,
      max_storage_bytes: 4096 * 1024 ** 3,
      iso_count: 5,
      iso_storage_bytes: 50 * 1024 ** 3,
      firewall_rules_per_ip: 50,
    });
  });

  it("topology: slim instances, IPs, VPCs with members, no dediboxes, load balancers with members", async () => {
    const plan = t.emu.services.store.t.plans.all()[0];
    const ws = t.workspaceId;
    const inst = insertRow(t, "instances", { workspaceId: ws, name: "web-1", online: true, planId: plan.id, state: "AVAILABLE" });
    insertRow(t, "instances", { workspaceId: "1", name: "elsewhere", online: true, planId: null, state: "AVAILABLE" });
    const ip = insertRow(t, "floatingIps", { workspaceId: ws, address: "203.0.113.7", protected: true, instanceId: inst, family: "IPv4" });
    const vpc = insertRow(t, "vpcs", { workspaceId: ws, name: "backend", range: "10.1.0.0/24", vlan: 101, description: "" });
    insertRow(t, "vpcMembers", { vpcId: vpc, instanceId: inst, ip: "10.1.0.2" });
    const lb = insertRow(t, "netLbs", { workspaceId: ws, name: "front", address: "203.0.113.9" });
    insertRow(t, "netLbMembers", { lbId: lb, instanceId: inst, state: "AVAILABLE" });

    const res = await t.api.get(`/v1/workspaces/${ws}/topology`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      instances: [{ id: inst, name: "web-1", online: true, plan: { id: plan.id, name: plan.name }, state: "AVAILABLE" }],
      ips: [{ id: ip, instance_id: inst, address: "203.0.113.7", protected: true }],
      vpcs: [{ id: vpc, name: "backend", range: "10.1.0.0/24", vlan: 101, members: [{ instance_id: inst, ip: "10.1.0.2" }] }],
      dediboxes: [],
      net_balancers: [{ id: lb, name: "front", address: "203.0.113.9", members: [{ instance_id: inst, state: "AVAILABLE" }] }],
    });
    expect(res.text).toContain(`"id":"${inst}"`);
  });

  it("a token without the WORKSPACE grant cannot read the workspace (403)", async () => {
    const session = await t.anon.post("/v1/login", { email: t.emu.email, password: t.emu.password });
    const token = await t.api
      .as(session.body.code)
      .post("/v1/tokens", { name: "instances-only", expires: await daysFromNow(t, 30), grants: { INSTANCE: "READ" } });
    const res = await t.api.as(token.body.code).get(`/v1/workspaces/${t.workspaceId}`);
    expect(res.status).toBe(403);
    expect(res.message).toMatch(/WORKSPACE/);
  });

  it("the inventory lists workspaces created through the API", async () => {
    const a = await t.api.post("/v1/workspaces", { name: "inventory-ws" });
    const inv = await t.control.get("/_emulator/inventory");
    expect(inv.body.resources.workspaces).toEqual([{ id: a.body.id, name: "inventory-ws", workspaceId: a.body.id, state: null }]);
  });
});

describe("invites", () => {
  it("ADMINISTRATOR invites below their level; the mail carries the code; lookup without auth omits it", async () => {
    const res = await t.api.post(`/v1/workspaces/${t.workspaceId}/invites`, { email: "Friend@Example.org", access_level: "ADMINISTRATOR" });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      user: { id: t.emu.userId, name: "Demo User" },
      target: null,
      email: "friend@example.org",
      workspace: { id: t.workspaceId, name: "demo-workspace" },
      expires: expect.any(String),
      access_level: "ADMINISTRATOR",
      state: "PENDING",
      created: expect.any(String),
      code: expect.any(String),
    });
    expect(Date.parse(res.body.expires) - Date.parse(res.body.created)).toBe(7 * 86_400_000);
    const mail = await lastMail(t, "friend@example.org", "INVITE");
    expect(mail.code).toBe(res.body.code);

    const lookup = await t.anon.get("/v1/invites/lookup", { code: res.body.code });
    expect(lookup.status).toBe(200);
    expect(Object.keys(lookup.body).sort()).toEqual(["access_level", "email", "expires", "id", "user", "workspace"]);
    expect((await t.anon.get("/v1/invites/lookup", { code: "nope" })).status).toBe(404);
    expect((await t.anon.get("/v1/invites/lookup")).status).toBe(400);

    // GET /v1/invites/{id} never shows the code either.
    const got = await t.api.get(`/v1/invites/${res.body.id}`);
    expect(got.body.code).toBeUndefined();
  });

  it("role rules: OWNER never assignable (400), at or above own level 403, EDITOR cannot invite (403)", async () => {
    const admin = await signUp(t, "admin");
    const editor = await signUp(t, "editor");
    await joinWorkspace(t, t.api, t.workspaceId, admin, "ADMINISTRATOR");
    await joinWorkspace(t, t.api, t.workspaceId, editor, "EDITOR");
    const owner = await t.api.post(`/v1/workspaces/${t.workspaceId}/invites`, { email: "x@example.org", access_level: "OWNER" });
    expect(owner.status).toBe(400);
    expect(owner.message).toMatch(/access_level/);
    const same = await admin.api.post(`/v1/workspaces/${t.workspaceId}/invites`, { email: "x@example.org", access_level: "ADMINISTRATOR" });
    expect(same.status).toBe(403);
    expect(same.message).toMatch(/lower than your own role/);
    expect(
      (await admin.api.post(`/v1/workspaces/${t.workspaceId}/invites`, { email: "x@example.org", access_level: "EDITOR" })).status,
    ).toBe(201);
    expect(
      (await editor.api.post(`/v1/workspaces/${t.workspaceId}/invites`, { email: "y@example.org", access_level: "VIEWER" })).status,
    ).toBe(403);
    expect((await t.api.post(`/v1/workspaces/${t.workspaceId}/invites`, { email: "bad", access_level: "VIEWER" })).status).toBe(400);
    // Duplicates: a pending invite to the same address, or an existing member.
    expect((await t.api.post(`/v1/workspaces/${t.workspaceId}/invites`, { email: "x@example.org", access_level: "VIEWER" })).status).toBe(
      409,
    );
    expect((await t.api.post(`/v1/workspaces/${t.workspaceId}/invites`, { email: editor.email, access_level: "VIEWER" })).status).toBe(409);
    // Other workspace 404, no token 403.
    expect(
      (await admin.api.post(`/v1/workspaces/${editor.workspaceId}/invites`, { email: "z@example.org", access_level: "VIEWER" })).status,
    ).toBe(404);
    expect((await t.anon.post(`/v1/workspaces/${t.workspaceId}/invites`, { email: "z@example.org", access_level: "VIEWER" })).status).toBe(
      403,
    );
  });

  it("accept: only by the addressed email; makes the caller a member; then lookup 404 and a second accept 409", async () => {
    const friend = await signUp(t, "friend");
    const stranger = await signUp(t, "stranger");
    const inv = await t.api.post(`/v1/workspaces/${t.workspaceId}/invites`, { email: friend.email, access_level: "EDITOR" });
    expect((await friend.api.get(`/v1/invites/${inv.body.id}`)).status).toBe(200); // the addressee can read it
    expect((await stranger.api.get(`/v1/invites/${inv.body.id}`)).status).toBe(404);

    const wrong = await stranger.api.post("/v1/invites", { code: inv.body.code });
    expect(wrong.status).toBe(403);
    expect(wrong.message).toMatch(/another email/);
    expect((await friend.api.get(`/v1/workspaces/${t.workspaceId}`)).status).toBe(404);

    const res = await friend.api.post("/v1/invites", { code: inv.body.code });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: inv.body.id, target: friend.userId, state: "ACCEPTED" });
    expect(res.body.code).toBeUndefined();
    expect((await friend.api.get(`/v1/workspaces/${t.workspaceId}`)).status).toBe(200);
    const listed = await friend.api.get("/v1/workspaces", { name: "demo" });
    expect(listed.body.items[0].access_level).toBe("EDITOR");

    expect((await t.anon.get("/v1/invites/lookup", { code: inv.body.code })).status).toBe(404);
    const again = await friend.api.post("/v1/invites", { code: inv.body.code });
    expect(again.status).toBe(409);
    expect(again.message).toMatch(/already been accepted/);
    expect((await friend.api.post("/v1/invites", { code: "unknown" })).status).toBe(404);
    expect((await friend.api.post("/v1/invites", {})).status).toBe(400);
  });

  it("expires after seven days: lookup 404, accept 409, shown EXPIRED", async () => {
    const friend = await signUp(t, "late");
    const inv = await t.api.post(`/v1/workspaces/${t.workspaceId}/invites`, { email: friend.email, access_level: "VIEWER" });
    await t.control.post("/_emulator/clock", { advanceMs: 6 * 86_400_000 });
    expect((await t.anon.get("/v1/invites/lookup", { code: inv.body.code })).status).toBe(200);
    await t.control.post("/_emulator/clock", { advanceMs: 86_400_000 + 1000 });
    expect((await t.anon.get("/v1/invites/lookup", { code: inv.body.code })).status).toBe(404);
    const fresh = await login(t, friend.email, friend.password); // the sign-up session has expired meanwhile
    const accept = await fresh.api.post("/v1/invites", { code: inv.body.code });
    expect(accept.status).toBe(409);
    expect(accept.message).toMatch(/expired/);
    expect((await t.api.get(`/v1/invites/${inv.body.id}`)).body.state).toBe("EXPIRED");
    expect((await t.api.patch(`/v1/invites/${inv.body.id}`, { access_level: "EDITOR" })).status).toBe(409);
  });

  it("lists with filters id, user, target, email, access_level, and pages", async () => {
    const friend = await signUp(t, "lister");
    const admin = await signUp(t, "lister-admin");
    await joinWorkspace(t, t.api, t.workspaceId, admin, "ADMINISTRATOR");
    const accepted = await joinWorkspace(t, t.api, t.workspaceId, friend, "VIEWER");
    const byAdmin = await admin.api.post(`/v1/workspaces/${t.workspaceId}/invites`, {
      email: "pending@example.org",
      access_level: "EDITOR",
    });
    const base = `/v1/workspaces/${t.workspaceId}/invites`;
    const ids = async (query: Record<string, string | number | string[]>) =>
      (await t.api.get(base, query)).body.items.map((i: { id: string }) => i.id);

    expect(await ids({})).toHaveLength(3);
    expect(await ids({ target: [friend.userId] })).toEqual([accepted]);
    expect(await ids({ user: [admin.userId] })).toEqual([byAdmin.body.id]);
    expect(await ids({ email: "pending@" })).toEqual([byAdmin.body.id]);
    expect(await ids({ access_level: "EDITOR" })).toEqual([byAdmin.body.id]);
    expect(await ids({ id: [accepted, byAdmin.body.id] })).toHaveLength(2);
    expect((await t.api.get(base, { access_level: "OWNER" })).status).toBe(400);
    const p1 = await t.api.get(base, { limit: 2 });
    const p2 = await t.api.get(base, { limit: 2, after: p1.body.after });
    expect(p1.body.items).toHaveLength(2);
    expect(p2.body.items).toHaveLength(1);
    expect(p2.body.hasPrevious).toBe(true);
    expect((await t.api.get(base, { limit: 2, page: 2 })).body.items[0].id).toBe(p2.body.items[0].id);
  });

  it("PATCH: ADMINISTRATOR, level lower than own, not their own invite; an accepted invite changes the member's role", async () => {
    const admin = await signUp(t, "patch-admin");
    const member = await signUp(t, "patch-member");
    const adminInvite = await joinWorkspace(t, t.api, t.workspaceId, admin, "ADMINISTRATOR");
    const memberInvite = await joinWorkspace(t, admin.api, t.workspaceId, member, "EDITOR");

    const own = await admin.api.patch(`/v1/invites/${adminInvite}`, { access_level: "VIEWER" });
    expect(own.status).toBe(403);
    expect(own.message).toMatch(/own invite/);
    expect((await admin.api.patch(`/v1/invites/${memberInvite}`, { access_level: "ADMINISTRATOR" })).status).toBe(403);
    expect((await member.api.patch(`/v1/invites/${memberInvite}`, { access_level: "VIEWER" })).status).toBe(403);
    expect((await admin.api.patch(`/v1/invites/${memberInvite}`, { access_level: "OWNER" })).status).toBe(400);

    // The demotion applies to the membership at once.
    const res = await admin.api.patch(`/v1/invites/${memberInvite}`, { access_level: "VIEWER" });
    expect(res.status).toBe(200);
    expect(res.body.access_level).toBe("VIEWER");
    expect((await member.api.get("/v1/workspaces", { name: "demo" })).body.items[0].access_level).toBe("VIEWER");
    // The OWNER may change the administrator's invite.
    expect((await t.api.patch(`/v1/invites/${adminInvite}`, { access_level: "EDITOR" })).status).toBe(200);
    expect((await admin.api.get("/v1/workspaces", { name: "demo" })).body.items[0].access_level).toBe("EDITOR");
  });

  it("DELETE: 202, the accepted member loses access at once; EDITOR 403; the last membership record stays", async () => {
    const member = await signUp(t, "removed");
    const editor = await signUp(t, "del-editor");
    const invite = await joinWorkspace(t, t.api, t.workspaceId, member, "VIEWER");
    await joinWorkspace(t, t.api, t.workspaceId, editor, "EDITOR");
    expect((await member.api.get(`/v1/workspaces/${t.workspaceId}`)).status).toBe(200);
    expect((await editor.api.delete(`/v1/invites/${invite}`)).status).toBe(403);
    const res = await t.api.delete(`/v1/invites/${invite}`);
    expect(res.status).toBe(202);
    expect(res.text).toBe("");
    expect((await member.api.get(`/v1/workspaces/${t.workspaceId}`)).status).toBe(404);
    expect((await t.api.get(`/v1/invites/${invite}`)).status).toBe(404);
    expect((await t.api.delete(`/v1/invites/${invite}`)).status).toBe(404);

    // A workspace whose only membership record came from an invite: the invite cannot be deleted.
    const lone = await signUp(t, "lone");
    const ws = (await t.api.post("/v1/workspaces", { name: "lonely-space" })).body.id;
    const loneInvite = await joinWorkspace(t, t.api, ws, lone, "ADMINISTRATOR");
    const ownerMembership = t.emu.services.store.t.memberships.find((m) => m.workspaceId === ws && m.userId === t.emu.userId)!;
    t.emu.services.store.t.memberships.delete(ownerMembership.id);
    const last = await t.staff.delete(`/v1/invites/${loneInvite}`);
    expect(last.status).toBe(409);
    expect(last.message).toMatch(/last membership/);
  });

  it("pending invites appear in the inventory with their workspace", async () => {
    const inv = await t.api.post(`/v1/workspaces/${t.workspaceId}/invites`, { email: "inv@example.org", access_level: "VIEWER" });
    const res = await t.control.get("/_emulator/inventory", { workspace: t.workspaceId });
    expect(res.body.resources.invites).toEqual([
      { id: inv.body.id, name: "inv@example.org", workspaceId: t.workspaceId, state: "PENDING" },
    ]);
  });

  it("invite ids above 2^53 round-trip exactly in paths and filters", async () => {
    const inv = await t.api.post(`/v1/workspaces/${t.workspaceId}/invites`, { email: "big@example.org", access_level: "VIEWER" });
    expect(BigInt(inv.body.id)).toBeGreaterThan(2n ** 53n);
    expect(inv.text).toContain(`"id":"${inv.body.id}"`);
    expect((await t.api.get(`/v1/invites/${inv.body.id}`)).body.id).toBe(inv.body.id);
    const list = await t.api.get(`/v1/workspaces/${t.workspaceId}/invites`, { id: [inv.body.id] });
    expect(list.body.items.map((i: { id: string }) => i.id)).toEqual([inv.body.id]);
  });
});
