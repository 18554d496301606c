/**
 * WorkspaceInvite on both faces, in process (tests/support/inProcess.ts), in a workspace made
 * through the API (tests/inprocess/support/access.ts: what the access files share): created with
 * the code the API mailed (a secret output on the plugin face), its level patched in place,
 * replaced on a new address, drift read and put back, deleted outside Pulumi read as gone and made
 * again, adopted by adoptId (needed once), a lost create answer recovered without a duplicate, an
 * accepted invite read ACCEPTED with its member while expired ones are replaced (each deleted
 * first), and deleted, the member losing access. The refusals at preview are
 * tests/unit/resources/workspaceInvite.test.ts; an invite's code kept as ciphertext in the state
 * file, and its workspaceId taken from a resource's output, are tests/e2e/access.test.ts.
 */
import { describeEachFace } from "../support/inProcess";
import { DAY_MS, accessHarness } from "./support/access";

describeEachFace("WorkspaceInvite", (ctx) => {
  const {
    env,
    state,
    face,
    api,
    get,
    lastSeq,
    mutations,
    lines,
    upLogged,
    outs,
    secretsOf,
    secretOn,
    refresh,
    invite,
    extra,
    declared,
    expectAllSame,
    setup,
    workspacesLeft,
  } = accessHarness(ctx, ["WorkspaceInvite"]);
  /** The workspace the invite is to, made through the API. */
  let teamWs: string;

  beforeAll(async () => {
    await setup();
    const made = await api().post("/v1/workspaces", { name: "e2e-team-a" });
    expect(made.status).toBe(201);
    teamWs = String(made.body.id);
    invite.workspaceId = teamWs;
  });

  it("creates an invite in the workspace: its code the one the API mailed, kept secret", async () => {
    expect((await upLogged("invite", "WorkspaceInvite", invite)).step).toBe("create");
    expect(outs("invite")).toMatchObject({
      workspaceId: teamWs,
      email: "first.member@example.com",
      accessLevel: "VIEWER",
      state: "PENDING",
      acceptedBy: null,
    });
    const code = outs("invite").code as string;
    expect(code).toMatch(/^\w{16,}$/);
    expect((await api().as(null).get("/v1/invites/lookup", { code })).body).toMatchObject({
      id: state.invite.id,
      email: "first.member@example.com",
      access_level: "VIEWER",
    });
    expect(secretsOf("invite")).toEqual(secretOn("code"));
  });

  it("diffs the same declaration as no change and sends no mutating request", async () => {
    await expectAllSame();
  });

  it("patches the invite's level in place", async () => {
    const id = state.invite.id;
    invite.accessLevel = "EDITOR";
    const { step, now, mutations: sent } = await upLogged("invite", "WorkspaceInvite", invite);
    expect({ step, id: now.id }).toEqual({ step: "update", id });
    expect(lines(sent)).toEqual([`PATCH /v1/invites/${id}`]);
    expect((await get(`/v1/invites/${id}`)).access_level).toBe("EDITOR");
  });

  it("replaces the invite on a new address: new id, old one gone", async () => {
    const before = state.invite.id;
    invite.email = "second.member@example.com";
    expect((await upLogged("invite", "WorkspaceInvite", invite)).step).toBe("replace");
    expect(state.invite.id).not.toBe(before);
    expect((await api().get(`/v1/invites/${before}`)).status).toBe(404);
  });

  it("a read finds an out-of-band level change; the next up puts the declaration back", async () => {
    const id = state.invite.id;
    await api().patch(`/v1/invites/${id}`, { access_level: "ADMINISTRATOR" });
    await refresh("invite", "WorkspaceInvite");
    expect(outs("invite")).toMatchObject({ accessLevel: "ADMINISTRATOR" });
    const { step, now } = await upLogged("invite", "WorkspaceInvite", invite);
    expect({ step, id: now.id }).toEqual({ step: "update", id });
    expect((await get(`/v1/invites/${id}`)).access_level).toBe("EDITOR");
  });

  it("a read of an invite deleted outside Pulumi answers no id, and the next up recreates it", async () => {
    const before = state.invite.id;
    expect((await api().delete(`/v1/invites/${before}`)).status).toBe(202);
    expect((await refresh("invite", "WorkspaceInvite")).id).toBe("");
    expect((await upLogged("invite", "WorkspaceInvite", invite)).step).toBe("create");
    expect(state.invite.id).not.toBe(before);
  });

  it("adopts an existing invite by adoptId and converges its level, creating nothing", async () => {
    const made = await api().post(`/v1/workspaces/${env.wid}/invites`, { email: "legacy.member@example.com", access_level: "VIEWER" });
    expect(made.status).toBe(201);
    const id = String(made.body.id);
    extra["legacy-invite"] = ["WorkspaceInvite", { email: "legacy.member@example.com", accessLevel: "EDITOR", adoptId: id }];
    const since = await lastSeq();
    expect((await upLogged("legacy-invite", ...extra["legacy-invite"])).step).toBe("create");
    const sent = await mutations(since);
    expect(sent.filter((m) => m.method === "POST")).toEqual([]);
    expect(lines(sent)).toEqual([`PATCH /v1/invites/${id}`]);
    expect(state["legacy-invite"].id).toBe(id);
    expect((await get(`/v1/invites/${id}`)).access_level).toBe("EDITOR");
    await expectAllSame();
  });

  it("adoptId is needed once: dropping it changes nothing", async () => {
    delete extra["legacy-invite"][1].adoptId;
    await expectAllSame();
  });

  it("recovers from a lost create answer: the invite found and adopted, not sent twice", async () => {
    expect(
      (await ctx().emu.control.post("/_emulator/faults", { kind: "drop", method: "POST", path: "/v1/workspaces/*/invites", times: 1 }))
        .status,
    ).toBe(201);
    extra["dropped-invite"] = ["WorkspaceInvite", { email: "dropped.member@example.com", accessLevel: "VIEWER" }];
    const since = await lastSeq();
    expect((await upLogged("dropped-invite", ...extra["dropped-invite"])).step).toBe("create");
    const sent = await mutations(since);
    expect(sent.filter((m) => m.method === "POST" && m.path === `/v1/workspaces/${env.wid}/invites`)).toHaveLength(1);
    const invites = (await api().get(`/v1/workspaces/${env.wid}/invites`, { email: "dropped.member@example.com" })).body.items;
    expect(invites.map((i: { id: string }) => i.id)).toEqual([state["dropped-invite"].id]);
    // The adopted invite's code was in the lost answer only (the addressee has it by mail).
    expect(outs("dropped-invite").code).toBeUndefined();
    await expectAllSame();
  });

  it("an accepted invite reads ACCEPTED with its member; expired ones are replaced by the next up, each deleted first", async () => {
    const inviteId = state.invite.id;
    // The addressee registers, signs in and accepts with the code kept in the state.
    const anon = api().as(null);
    expect(
      (await anon.post("/v1/register", { name: "Second Member", email: "second.member@example.com", password: "member-password-1" }))
        .status,
    ).toBe(201);
    const login = await anon.post("/v1/login", { email: "second.member@example.com", password: "member-password-1" });
    expect(login.status).toBe(200);
    const member = api().as(login.body.code);
    expect((await member.post("/v1/invites", { code: outs("invite").code })).status).toBe(200);
    expect((await member.get(`/v1/workspaces/${teamWs}`)).status).toBe(200);
    const memberId = (await member.get("/v1/users/@me")).body.id;
    expect((await member.delete("/v1/users/@me/tokens")).status).toBe(202);

    // Seven days pass: the pending invites expire; the accepted one stays.
    const expiring = { "dropped-invite": state["dropped-invite"].id, "legacy-invite": state["legacy-invite"].id };
    await ctx().emu.control.post("/_emulator/clock", { advanceMs: 8 * DAY_MS });
    await refresh("invite", "WorkspaceInvite");
    expect(outs("invite")).toMatchObject({ state: "ACCEPTED", acceptedBy: memberId, accessLevel: "EDITOR" });
    for (const name of Object.keys(expiring)) {
      await refresh(name, "WorkspaceInvite");
      expect({ name, outs: outs(name) }).toMatchObject({ name, outs: { state: "EXPIRED" } });
    }
    expect((await upLogged("invite", "WorkspaceInvite", invite)).step).toBe("same");
    for (const [name, old] of Object.entries(expiring)) {
      const { step, diff, mutations: sent } = await upLogged(name, ...extra[name]);
      // One pending invite per address: the expired one goes before its replacement is sent.
      expect({ name, step, replaces: diff?.replaces, sent: lines(sent) }).toEqual({
        name,
        step: "replace",
        replaces: ["state"],
        sent: [`DELETE /v1/invites/${old}`, `POST /v1/workspaces/${env.wid}/invites`],
      });
      expect(outs(name)).toMatchObject({ state: "PENDING" });
      expect((await api().get(`/v1/invites/${old}`)).status).toBe(404);
    }
    // A fresh invite: its code is known again.
    expect(
      (
        await api()
          .as(null)
          .get("/v1/invites/lookup", { code: String(outs("dropped-invite").code) })
      ).body.id,
    ).toBe(state["dropped-invite"].id);
    expect(outs("legacy-invite")).toMatchObject({ accessLevel: "EDITOR" });
    expect(state.invite.id).toBe(inviteId);
    await expectAllSame();
  });

  it("deletes the invites, and the accepted member loses access to the workspace", async () => {
    for (const [name, kind] of declared()) {
      await face().delete(kind, state[name].id, state[name].outs);
      delete state[name];
    }
    expect(state).toEqual({});
    // The member's access hung on the accepted invite.
    const login = await api().as(null).post("/v1/login", { email: "second.member@example.com", password: "member-password-1" });
    expect((await api().as(login.body.code).get(`/v1/workspaces/${teamWs}`)).status).toBe(404);
    await api().as(login.body.code).delete("/v1/users/@me/tokens");
    // Kept: the invite's workspace, and the default workspace registration gave the member.
    expect(await workspacesLeft(["invites"])).toEqual(["Default Workspace", "e2e-team-a"]);
  });
});
