/**
 * ApiToken on both faces, in process (tests/support/inProcess.ts), on the instance of
 * tests/inprocess/support/access.ts (what the access files share): workspace and resource tokens
 * created, each code working within its grants (a secret output on the plugin face), replaced on
 * new grants (the old code stops working), deleted outside Pulumi read as gone and made again,
 * adopted by adoptId (its code unknown; adoptId needed once), a lost create answer recovered by
 * revoking the token the API made and creating it again so its code is known, and deleted, the
 * code no longer working. The refusals at preview are tests/unit/resources/apiToken.test.ts; a
 * token's code kept as ciphertext in the state file and given back as a stack output is
 * tests/e2e/access.test.ts.
 */
import { describeEachFace } from "../support/inProcess";
import { DAY_MS, accessHarness } from "./support/access";
import { collectNotices } from "./support/apps";

/** The lines a person sees during a case (notices), from both faces: one process, one sink. */
const shown = collectNotices();

describeEachFace("ApiToken", (ctx) => {
  const {
    env,
    state,
    face,
    api,
    get,
    withToken,
    lastSeq,
    mutations,
    lines,
    upLogged,
    outs,
    secretsOf,
    secretOn,
    refresh,
    emulatorNow,
    token,
    extra,
    declared,
    expectAllSame,
    setup,
    workspacesLeft,
  } = accessHarness(ctx, ["ApiToken"]);

  beforeAll(setup);

  it("creates workspace and resource tokens, each code working within its grants", async () => {
    for (const [name, kind, d] of declared())
      expect({ name, step: (await upLogged(name, kind, d)).step }).toEqual({ name, step: "create" });

    // The token's code works as a bearer token, within its grants.
    const tok = outs("token");
    expect(tok).toMatchObject({
      name: "ci-deploy",
      subject: "WORKSPACE",
      grants: { WORKSPACE: "READ", INSTANCE: "WRITE" },
      expiresInDays: 30,
      origin: "API",
      workspaceId: env.wid,
    });
    expect(Date.parse(tok.expires as string) - Date.parse(tok.created as string)).toBeGreaterThan(29.9 * DAY_MS);
    expect((await get(`/v1/tokens/${state.token.id}`)).grants).toEqual({ WORKSPACE: "READ", INSTANCE: "WRITE" });
    expect((await withToken(tok.code).get(`/v1/workspaces/${env.wid}`)).status).toBe(200);
    expect((await withToken(tok.code).patch(`/v1/workspaces/${env.wid}`, { disable_ssh_password: true })).status).toBe(403);
    expect(secretsOf("token")).toEqual(secretOn("code"));

    // The resource token reaches its instance only.
    const rtok = outs("rtoken");
    expect(rtok).toMatchObject({ subject: "RESOURCE", subjectId: env.vmId, grants: { INSTANCE: "READ" } });
    expect((await withToken(rtok.code).get(`/v1/instances/${env.vmId}`)).status).toBe(200);
    expect((await withToken(rtok.code).get(`/v1/workspaces/${env.wid}`)).status).toBe(403);
  });

  it("diffs the same declarations as no change and sends no mutating request", async () => {
    await expectAllSame();
  });

  it("replaces a token on new grants: new id, the old one gone and its code no longer working", async () => {
    const before = state.token.id;
    const oldCode = outs("token").code;
    token.grants = { WORKSPACE: "READ", INSTANCE: "READ" };
    expect((await upLogged("token", "ApiToken", token)).step).toBe("replace");
    expect(state.token.id).not.toBe(before);
    expect((await api().get(`/v1/tokens/${before}`)).status).toBe(404);
    // The old code no longer authenticates; the new one does, with the new grants.
    expect((await withToken(oldCode).get(`/v1/workspaces/${env.wid}`)).status).toBe(401);
    const newCode = outs("token").code;
    expect(newCode).not.toBe(oldCode);
    expect((await withToken(newCode).get(`/v1/workspaces/${env.wid}`)).status).toBe(200);
    expect((await get(`/v1/tokens/${state.token.id}`)).grants).toEqual({ WORKSPACE: "READ", INSTANCE: "READ" });
  });

  it("a read of a token deleted outside Pulumi answers no id, and the next up recreates it", async () => {
    const before = state.token.id;
    expect((await api().delete(`/v1/tokens/${before}`)).status).toBe(202);
    expect((await refresh("token", "ApiToken")).id).toBe("");
    expect((await upLogged("token", "ApiToken", token)).step).toBe("create");
    expect(state.token.id).not.toBe(before);
    expect((await withToken(outs("token").code).get(`/v1/workspaces/${env.wid}`)).status).toBe(200);
  });

  it("adopts an existing token by adoptId, sending nothing; its code cannot be read back", async () => {
    const made = await api().post(`/v1/workspaces/${env.wid}/tokens`, {
      name: "legacy-token",
      expires: new Date((await emulatorNow()) + 30 * DAY_MS).toISOString(),
      grants: { IMAGE: "READ" },
    });
    expect(made.status).toBe(201);
    const id = String(made.body.id);
    extra["legacy-token"] = ["ApiToken", { name: "legacy-token", expiresInDays: 30, grants: { IMAGE: "READ" }, adoptId: id }];
    const since = await lastSeq();
    expect((await upLogged("legacy-token", ...extra["legacy-token"])).step).toBe("create");
    expect(lines(await mutations(since))).toEqual([]);
    expect(state["legacy-token"].id).toBe(id);
    // An adopted token's code cannot be read back: it stays unset.
    expect(outs("legacy-token")).toMatchObject({ expiresInDays: 30, grants: { IMAGE: "READ" } });
    expect(outs("legacy-token").code).toBeUndefined();
    await expectAllSame();
  });

  it("adoptId is needed once: dropping it changes nothing", async () => {
    delete extra["legacy-token"][1].adoptId;
    await expectAllSame();
  });

  it("recovers from a lost create answer: the token the API made is revoked and created again, so its code is known", async () => {
    expect(
      (await ctx().emu.control.post("/_emulator/faults", { kind: "drop", method: "POST", path: "/v1/workspaces/*/tokens", times: 1 }))
        .status,
    ).toBe(201);
    extra["dropped-token"] = ["ApiToken", { name: "dropped-token", expiresInDays: 30, grants: { WORKSPACE: "READ" } }];
    const since = await lastSeq();
    expect((await upLogged("dropped-token", ...extra["dropped-token"])).step).toBe("create");
    const sent = await mutations(since);
    expect(sent.filter((m) => m.method === "POST" && m.path === `/v1/workspaces/${env.wid}/tokens`)).toHaveLength(2);
    const tokens = (await api().get(`/v1/workspaces/${env.wid}/tokens`, { name: "dropped-token" })).body.items;
    expect(tokens.map((t: { id: string }) => t.id)).toEqual([state["dropped-token"].id]);
    expect((await withToken(outs("dropped-token").code).get(`/v1/workspaces/${env.wid}`)).status).toBe(200);
    expect(shown).toContainEqual(expect.stringMatching(/revoking the token the API created/));
    await expectAllSame();
  });

  it("deletes the tokens: the code no longer works", async () => {
    const tokenCode = outs("token").code;
    for (const [name, kind] of declared()) {
      await face().delete(kind, state[name].id, state[name].outs);
      delete state[name];
    }
    expect(state).toEqual({});
    expect((await withToken(tokenCode).get(`/v1/workspaces/${env.wid}`)).status).toBe(401);
    expect(await workspacesLeft(["tokens"])).toEqual([]);
  });
});
