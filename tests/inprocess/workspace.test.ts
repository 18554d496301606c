/**
 * Workspace on both faces, in process (tests/support/inProcess.ts), with what lives in it: an
 * invite, workspace and resource tokens, an SSH key and a registry credential. Creates checked
 * against the API (a token's code works within its grants, an invite's code is the one the API
 * mailed, each secret output marked secret on the plugin face), in-place changes with the exact
 * requests, mfaRequired refused while a member lacks 2FA, replacements (an SSH key renamed is
 * deleted first, an old token's code stops working), drift read and put back, deletions read as
 * gone, adoption and its adoptId dropped afterwards, lost create answers recovered without
 * duplicates (a token revoked and made again), an accepted invite and expired ones replaced, and
 * the deletion that keeps workspaces. Also the quota and topology lookups. Each case builds on the
 * previous one's state, and most span the five kinds, so they stay with the kind the others live
 * in; the SSH key's and the registry credential's own cases are sshKey.test.ts and
 * registryCredential.test.ts (tests/inprocess/support/access.ts: what they share).
 *
 * Elsewhere: the refusals at preview are tests/unit/resources/<kind>.test.ts (those no unit test
 * names are checked in sshKey and registryCredential.test.ts); what only the engine shows (secret
 * outputs as ciphertext in the state file, a lookup's Output form taking a resource's output) is
 * tests/e2e/access.test.ts; the lookups called from a real program are tests/e2e/lookups.test.ts's
 * path.
 */
import { setProgressSink } from "../../provider/runtime/progress";
import { describeEachFace, opened, type Props, type Logged } from "../support/inProcess";
import { DAY_MS, KEY_1, KEY_2, KEY_3, accessHarness } from "./support/access";

/** The lines a person sees during an operation (notices), from both faces: one process, one sink. */
const shown: string[] = [];
beforeAll(() => setProgressSink((line, kind) => kind === "notice" && shown.push(line)));

describeEachFace("Workspace, with what lives in it", (ctx) => {
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
    upFails,
    outs,
    secretsOf,
    secretOn,
    secretIn,
    refresh,
    emulatorNow,
    ws,
    invite,
    token,
    key,
    reg,
    extra,
    declared,
    expectAllSame,
    setup,
  } = accessHarness(ctx);

  beforeAll(setup);

  it("creates a workspace, an invite in it, workspace and resource tokens, an SSH key and a registry credential", async () => {
    for (const [name, kind, d] of declared()) {
      if (name === "invite") invite.workspaceId = state.ws.id;
      expect({ name, step: (await upLogged(name, kind, d)).step }).toEqual({ name, step: "create" });
    }

    const wsId = state.ws.id;
    expect(await get(`/v1/workspaces/${wsId}`)).toMatchObject({ name: "e2e-team-a", owner: { id: env.demoUserId }, mfa_required: false });
    expect(outs("ws")).toMatchObject({
      name: "e2e-team-a",
      mfaRequired: false,
      disableSshPassword: false,
      owner: { id: env.demoUserId },
      flags: [],
    });
    expect((await api().get("/v1/workspaces", { name: "e2e-team-a" })).body.items).toEqual([
      { id: wsId, name: "e2e-team-a", access_level: "OWNER" },
    ]);

    // The invite lives in the new workspace; its code is the one the API mailed.
    expect(outs("invite")).toMatchObject({
      workspaceId: wsId,
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

    expect(outs("key")).toMatchObject({
      name: "alice-key",
      publicKey: KEY_1,
      workspaceId: env.wid,
      fingerprint: expect.stringMatching(/^SHA256:/),
    });
    expect((await get(`/v1/ssh/${state.key.id}`)).public_key).toBe(KEY_1);

    // The host as the API writes it; the password, which the API never answers, kept from the declaration.
    expect(outs("reg")).toMatchObject({ registry: "registry.example.com", username: "deploy", password: "s3cret-token" });
    expect(secretsOf("reg")).toEqual(secretOn("password"));
    expect(await get(`/v1/workspaces/${env.wid}/registries/${state.reg.id}`)).toMatchObject({
      registry: "registry.example.com",
      username: "deploy",
    });
    expect((await api().post(`/v1/workspaces/${env.wid}/registries/${state.reg.id}/test`)).status).toBe(204);
  });

  it("getWorkspaceQuota and getWorkspaceTopology answer the API's values, for the default workspace or one named", async () => {
    expect(await face().invoke("getWorkspaceQuota", {})).toEqual({
      maxInstances: 25,
      maxSshKeys: 20,
      maxVpcs: 10,
      maxFloatingIpv4: 20,
      maxFloatingIpv6: 20,
      maxFloatingIps: 30,
      maxStorageBytes: 4096 * 1024 ** 3,
      isoCount: 5,
      isoStorageBytes: 50 * 1024 ** 3,
      firewallRulesPerIp: 50,
    });
    expect((await get(`/v1/workspaces/${env.wid}/quota`)).max_ssh_keys).toBe(20);
    const named = (await face().invoke("getWorkspaceQuota", { workspaceId: state.ws.id })) as Props;
    expect(named.maxSshKeys).toBe((await get(`/v1/workspaces/${state.ws.id}/quota`)).max_ssh_keys);
    const topology = (await face().invoke("getWorkspaceTopology", {})) as { instances: unknown[]; ips: Array<{ instanceId: string }> };
    expect(topology.instances).toEqual([
      { id: env.vmId, name: "agent-vm", online: true, plan: { id: expect.any(String), name: "lightning-1" }, state: "AVAILABLE" },
    ]);
    expect(topology.ips).toHaveLength((await get(`/v1/workspaces/${env.wid}/topology`)).ips.length);
    expect(topology.ips.every((ip) => ip.instanceId === env.vmId)).toBe(true);
  });

  it("diffs the same declarations as no change and sends no mutating request", async () => {
    await expectAllSame();
  });

  it("patches the workspace, the invite's level and the registry credentials in place", async () => {
    const ids = { ws: state.ws.id, invite: state.invite.id, reg: state.reg.id };
    Object.assign(ws, { name: "e2e-team-b", disableSshPassword: true });
    invite.accessLevel = "EDITOR";
    Object.assign(reg, { username: "ci-bot", password: secretIn("n3w-token") });
    const sent: Logged[] = [];
    for (const [name, kind, d] of [
      ["ws", "Workspace", ws],
      ["invite", "WorkspaceInvite", invite],
      ["reg", "RegistryCredential", reg],
    ] as const) {
      const { step, now, mutations: made } = await upLogged(name, kind, d);
      expect({ name, step, id: now.id }).toEqual({ name, step: "update", id: ids[name] });
      sent.push(...made);
    }
    expect(lines(sent)).toEqual([
      `PATCH /v1/workspaces/${ids.ws}`,
      `PATCH /v1/invites/${ids.invite}`,
      `PATCH /v1/workspaces/${env.wid}/registries/${ids.reg}`,
    ]);
    expect(sent[0].body).toEqual({ name: "e2e-team-b", disable_ssh_password: true });
    expect(await get(`/v1/workspaces/${ids.ws}`)).toMatchObject({ name: "e2e-team-b", disable_ssh_password: true });
    expect((await get(`/v1/invites/${ids.invite}`)).access_level).toBe("EDITOR");
    expect((await get(`/v1/workspaces/${env.wid}/registries/${ids.reg}`)).username).toBe("ci-bot");
  });

  it("mfaRequired: the API's refusal is shown while a member lacks 2FA; accepted once every member has it; turned off again", async () => {
    const wsId = state.ws.id;
    ws.mfaRequired = true;
    const err = await upFails("ws", "Workspace", ws);
    expect(err.message).toMatch(
      /the API refused mfaRequired: mfa_required can only be enabled when every member has two-factor authentication active; 1 member\(s\) do not.*every member already has two-factor/s,
    );
    // Kept under its id with the API's value, so the next up asks again.
    expect(err.kept?.id).toBe(wsId);
    expect(opened(err.kept?.properties).value).toMatchObject({ mfaRequired: false });
    expect((await get(`/v1/workspaces/${wsId}`)).mfa_required).toBe(false);

    // The only member (the token's user) activates 2FA.
    const enrol = await api().post(`/v1/users/@me/totp`);
    expect(enrol.status).toBe(200);
    const totp = (await ctx().emu.control.get("/_emulator/totp", { secret: enrol.body.code })).body.code;
    expect((await api().put(`/v1/users/@me/totp`, { code: totp })).status).toBe(202);
    let { mutations: sent } = await upLogged("ws", "Workspace", ws);
    expect(sent).toEqual([expect.objectContaining({ method: "PATCH", path: `/v1/workspaces/${wsId}`, body: { mfa_required: true } })]);
    expect((await get(`/v1/workspaces/${wsId}`)).mfa_required).toBe(true);

    ws.mfaRequired = false;
    ({ mutations: sent } = await upLogged("ws", "Workspace", ws));
    expect(sent).toEqual([expect.objectContaining({ method: "PATCH", body: { mfa_required: false } })]);
  });

  it("replaces tokens, keys, invites and registry credentials on a change of a replace field: new id, old one gone", async () => {
    const before = { token: state.token.id, key: state.key.id, invite: state.invite.id, reg: state.reg.id };
    const oldCode = outs("token").code;
    token.grants = { WORKSPACE: "READ", INSTANCE: "READ" };
    key.name = "alice-key-2";
    invite.email = "second.member@example.com";
    Object.assign(reg, { registry: "GHCR.io", username: "octo-bot", password: secretIn("ghp_emulatorToken") });
    const replaced: Record<string, { replaces?: string[]; deleteFirst?: boolean; sent: string[] }> = {};
    for (const [name, kind, d] of [
      ["token", "ApiToken", token],
      ["key", "SshKey", key],
      ["invite", "WorkspaceInvite", invite],
      ["reg", "RegistryCredential", reg],
    ] as const) {
      const { step, diff, mutations: sent } = await upLogged(name, kind, d);
      expect({ name, step }).toEqual({ name, step: "replace" });
      replaced[name] = { replaces: diff?.replaces, deleteFirst: diff?.deleteBeforeReplace, sent: lines(sent) };
      expect(state[name].id).not.toBe(before[name]);
    }
    expect((await api().get(`/v1/tokens/${before.token}`)).status).toBe(404);
    expect((await api().get(`/v1/ssh/${before.key}`)).status).toBe(404);
    expect((await api().get(`/v1/invites/${before.invite}`)).status).toBe(404);
    expect((await api().get(`/v1/workspaces/${env.wid}/registries/${before.reg}`)).status).toBe(404);
    // The old code no longer authenticates; the new one does, with the new grants.
    expect((await withToken(oldCode).get(`/v1/workspaces/${env.wid}`)).status).toBe(401);
    const newCode = outs("token").code;
    expect(newCode).not.toBe(oldCode);
    expect((await withToken(newCode).get(`/v1/workspaces/${env.wid}`)).status).toBe(200);
    expect((await get(`/v1/tokens/${state.token.id}`)).grants).toEqual({ WORKSPACE: "READ", INSTANCE: "READ" });
    // Same public key under a new name: the old key is deleted before the new one is uploaded.
    expect(replaced.key).toEqual({
      replaces: ["name"],
      deleteFirst: true,
      sent: [`DELETE /v1/ssh/${before.key}`, `POST /v1/workspaces/${env.wid}/ssh`],
    });
    expect(replaced.reg.replaces).toEqual(["registry"]);
    expect(outs("reg")).toMatchObject({ registry: "ghcr.io", username: "octo-bot" });
  });

  it("a read finds out-of-band changes (workspace name, invite level, registry username); the next up puts the declaration back", async () => {
    const ids = { ws: state.ws.id, invite: state.invite.id, reg: state.reg.id };
    await api().patch(`/v1/workspaces/${ids.ws}`, { name: "renamed-by-hand" });
    await api().patch(`/v1/invites/${ids.invite}`, { access_level: "ADMINISTRATOR" });
    await api().patch(`/v1/workspaces/${env.wid}/registries/${ids.reg}`, { username: "octo-ci", password: "ghp_second" });
    await refresh("ws", "Workspace");
    expect(outs("ws")).toMatchObject({ name: "renamed-by-hand" });
    await refresh("invite", "WorkspaceInvite");
    expect(outs("invite")).toMatchObject({ accessLevel: "ADMINISTRATOR" });
    await refresh("reg", "RegistryCredential");
    expect(outs("reg")).toMatchObject({ username: "octo-ci" });
    const sent: Logged[] = [];
    for (const [name, kind, d] of [
      ["ws", "Workspace", ws],
      ["invite", "WorkspaceInvite", invite],
      ["reg", "RegistryCredential", reg],
    ] as const) {
      const { step, now, mutations: made } = await upLogged(name, kind, d);
      expect({ name, step, id: now.id }).toEqual({ name, step: "update", id: ids[name] });
      sent.push(...made);
    }
    // The password cannot be read back, so both are sent (the API re-validates the pair; the log masks it).
    expect(sent.find((m) => m.path.includes("/registries/"))!.body).toEqual({ username: "octo-bot", password: "[masked]" });
    expect((await api().post(`/v1/workspaces/${env.wid}/registries/${ids.reg}/test`)).status).toBe(204);
    expect((await get(`/v1/workspaces/${ids.ws}`)).name).toBe("e2e-team-b");
    expect((await get(`/v1/invites/${ids.invite}`)).access_level).toBe("EDITOR");
    expect((await get(`/v1/workspaces/${env.wid}/registries/${ids.reg}`)).username).toBe("octo-bot");
  });

  it("a read of what was deleted outside Pulumi (invite, token, key, credential) answers no id, and the next up recreates it", async () => {
    const before = { invite: state.invite.id, token: state.token.id, key: state.key.id, reg: state.reg.id };
    expect((await api().delete(`/v1/invites/${before.invite}`)).status).toBe(202);
    expect((await api().delete(`/v1/tokens/${before.token}`)).status).toBe(202);
    expect((await api().delete(`/v1/ssh/${before.key}`)).status).toBe(202);
    expect((await api().delete(`/v1/workspaces/${env.wid}/registries/${before.reg}`)).status).toBe(204);
    for (const [name, kind, d] of [
      ["invite", "WorkspaceInvite", invite],
      ["token", "ApiToken", token],
      ["key", "SshKey", key],
      ["reg", "RegistryCredential", reg],
    ] as const) {
      expect({ name, id: (await refresh(name, kind)).id }).toEqual({ name, id: "" });
      expect({ name, step: (await upLogged(name, kind, d)).step }).toEqual({ name, step: "create" });
      expect(state[name].id).not.toBe(before[name]);
    }
    expect((await withToken(outs("token").code).get(`/v1/workspaces/${env.wid}`)).status).toBe(200);
  });

  it("adopts existing resources by adoptId and converges them; a credential for a host the workspace has is never taken over without it", async () => {
    const made = {
      ws: await api().post(`/v1/workspaces`, { name: "legacy-team" }),
      token: await api().post(`/v1/workspaces/${env.wid}/tokens`, {
        name: "legacy-token",
        expires: new Date((await emulatorNow()) + 30 * DAY_MS).toISOString(),
        grants: { IMAGE: "READ" },
      }),
      key: await api().post(`/v1/workspaces/${env.wid}/ssh`, { name: "legacy-key", public_key: KEY_2 }),
      reg: await api().post(`/v1/workspaces/${env.wid}/registries`, {
        registry: "registry.internal:5000",
        username: "robot",
        password: "r0bot-pass",
      }),
      invite: await api().post(`/v1/workspaces/${env.wid}/invites`, { email: "legacy.member@example.com", access_level: "VIEWER" }),
      byHost: await api().post(`/v1/workspaces/${env.wid}/registries`, {
        registry: "registry.example.com",
        username: "deploy",
        password: "s3cret-token",
      }),
    };
    for (const res of Object.values(made)) expect(res.status).toBe(201);
    const id = (k: keyof typeof made) => String(made[k].body.id);
    const byHost: Props = { registry: "https://registry.example.com", username: "deploy", password: secretIn("s3cret-token") };
    // One credential per host: the one a person stored is named, not silently replaced or taken over.
    const refused = await upFails("by-host", "RegistryCredential", byHost);
    // The host as check canonicalises it (spec part 1: aliases and full URLs normalise to one form).
    expect(refused.message).toContain(
      `RegistryCredential registry.example.com: the workspace already has a credential for registry.example.com (id ${id("byHost")}); a workspace holds one per host.`,
    );
    expect(refused.message).toContain(
      `This stack has no record of creating it, so it is not taken over on its own. To manage it here, set adoptId: "${id("byHost")}"; otherwise delete it first.`,
    );
    expect(refused.kept).toBeUndefined();
    expect((await api().get(`/v1/workspaces/${env.wid}/registries/${id("byHost")}`)).status).toBe(200);

    extra["legacy-ws"] = ["Workspace", { name: "legacy-team-managed", adoptId: id("ws") }];
    extra["legacy-token"] = ["ApiToken", { name: "legacy-token", expiresInDays: 30, grants: { IMAGE: "READ" }, adoptId: id("token") }];
    extra["legacy-key"] = ["SshKey", { name: "legacy-key", publicKey: KEY_2, adoptId: id("key") }];
    extra["legacy-reg"] = [
      "RegistryCredential",
      { registry: "registry.internal:5000", username: "robot", password: secretIn("r0bot-pass"), adoptId: id("reg") },
    ];
    extra["legacy-invite"] = ["WorkspaceInvite", { email: "legacy.member@example.com", accessLevel: "EDITOR", adoptId: id("invite") }];
    extra["by-host"] = ["RegistryCredential", { ...byHost, adoptId: id("byHost") }];
    const since = await lastSeq();
    for (const name of Object.keys(extra))
      expect({ name, step: (await upLogged(name, ...extra[name])).step }).toEqual({ name, step: "create" });
    const sent = await mutations(since);
    expect(sent.filter((m) => m.method === "POST")).toEqual([]);
    expect(lines(sent)).toEqual([
      `PATCH /v1/workspaces/${id("ws")}`,
      `PATCH /v1/workspaces/${env.wid}/registries/${id("reg")}`,
      `PATCH /v1/invites/${id("invite")}`,
      `PATCH /v1/workspaces/${env.wid}/registries/${id("byHost")}`,
    ]);
    for (const [name, key] of [
      ["legacy-ws", "ws"],
      ["legacy-token", "token"],
      ["legacy-key", "key"],
      ["legacy-reg", "reg"],
      ["legacy-invite", "invite"],
      ["by-host", "byHost"],
    ] as const) {
      expect({ name, id: state[name].id }).toEqual({ name, id: id(key) });
    }
    expect((await get(`/v1/workspaces/${id("ws")}`)).name).toBe("legacy-team-managed");
    expect((await get(`/v1/invites/${id("invite")}`)).access_level).toBe("EDITOR");
    // An adopted token's code cannot be read back: it stays unset.
    expect(outs("legacy-token")).toMatchObject({ expiresInDays: 30, grants: { IMAGE: "READ" } });
    expect(outs("legacy-token").code).toBeUndefined();
    await expectAllSame();
  });

  it("adoptId is needed once: dropping it changes nothing", async () => {
    for (const [, d] of Object.values(extra)) delete d.adoptId;
    await expectAllSame();
  });

  it("recovers from lost create answers: one of each, adopted; a token is revoked and created again so its code is known", async () => {
    for (const path of [
      "/v1/workspaces",
      "/v1/workspaces/*/invites",
      "/v1/workspaces/*/tokens",
      "/v1/workspaces/*/ssh",
      "/v1/workspaces/*/registries",
    ]) {
      expect((await ctx().emu.control.post("/_emulator/faults", { kind: "drop", method: "POST", path, times: 1 })).status).toBe(201);
    }
    extra["dropped-ws"] = ["Workspace", { name: "e2e-dropped" }];
    extra["dropped-invite"] = ["WorkspaceInvite", { email: "dropped.member@example.com", accessLevel: "VIEWER" }];
    extra["dropped-token"] = ["ApiToken", { name: "dropped-token", expiresInDays: 30, grants: { WORKSPACE: "READ" } }];
    extra["dropped-key"] = ["SshKey", { name: "dropped-key", publicKey: KEY_3 }];
    extra["dropped-reg"] = ["RegistryCredential", { registry: "registry.other.io", username: "dropper", password: secretIn("dr0p-pass") }];
    const since = await lastSeq();
    const noticed = shown.length;
    for (const name of Object.keys(extra).filter((n) => n.startsWith("dropped-")))
      expect({ name, step: (await upLogged(name, ...extra[name])).step }).toEqual({ name, step: "create" });
    const sent = await mutations(since);
    const posts = (suffix: string) =>
      sent.filter(
        (m) => m.method === "POST" && (suffix === "" ? m.path === "/v1/workspaces" : m.path === `/v1/workspaces/${env.wid}/${suffix}`),
      );
    expect(posts("")).toHaveLength(1);
    expect(posts("invites")).toHaveLength(1);
    expect(posts("ssh")).toHaveLength(1);
    expect(posts("registries")).toHaveLength(1);
    expect(posts("tokens")).toHaveLength(2);

    const wsList = (await api().get("/v1/workspaces", { name: "e2e-dropped" })).body.items;
    expect(wsList.map((w: { id: string }) => w.id)).toEqual([state["dropped-ws"].id]);
    const invites = (await api().get(`/v1/workspaces/${env.wid}/invites`, { email: "dropped.member@example.com" })).body.items;
    expect(invites.map((i: { id: string }) => i.id)).toEqual([state["dropped-invite"].id]);
    // The adopted invite's code was in the lost answer only (the addressee has it by mail).
    expect(outs("dropped-invite").code).toBeUndefined();
    const keys = (await api().get(`/v1/workspaces/${env.wid}/ssh`, { name: "dropped-key" })).body.items;
    expect(keys.map((k: { id: string }) => k.id)).toEqual([state["dropped-key"].id]);
    const regs = (await api().get(`/v1/workspaces/${env.wid}/registries`, { registry: "registry.other.io" })).body.items;
    expect(regs.map((r: { id: string }) => r.id)).toEqual([state["dropped-reg"].id]);
    const tokens = (await api().get(`/v1/workspaces/${env.wid}/tokens`, { name: "dropped-token" })).body.items;
    expect(tokens.map((t: { id: string }) => t.id)).toEqual([state["dropped-token"].id]);
    expect((await withToken(outs("dropped-token").code).get(`/v1/workspaces/${env.wid}`)).status).toBe(200);
    expect(shown.slice(noticed)).toContainEqual(expect.stringMatching(/revoking the token the API created/));
    await expectAllSame();
  });

  it("an accepted invite reads ACCEPTED with its member; expired ones are replaced by the next up, each deleted first", async () => {
    const wsId = state.ws.id;
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
    expect((await member.get(`/v1/workspaces/${wsId}`)).status).toBe(200);
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

  it("deletes invites, tokens, keys and credentials; workspaces are kept (the API has no delete) and the accepted member loses access", async () => {
    const tokenCode = outs("token").code;
    const retained = ["ws", "legacy-ws", "dropped-ws"].map((n) => state[n].id);
    const noticed = shown.length;
    // Dependents first, as the engine destroys: the invites before the workspace they are in.
    const byKind = (kind: string) => declared().filter(([, k]) => k === kind);
    for (const [name, kind] of [
      ...byKind("WorkspaceInvite"),
      ...byKind("ApiToken"),
      ...byKind("SshKey"),
      ...byKind("RegistryCredential"),
      ...byKind("Workspace"),
    ]) {
      await face().delete(kind, state[name].id, state[name].outs);
      delete state[name];
    }
    expect(state).toEqual({});
    expect((await withToken(tokenCode).get(`/v1/workspaces/${env.wid}`)).status).toBe(401);
    expect(
      shown.slice(noticed).filter((l) => /the API has no delete for Workspace; it is kept and only removed from the stack/.test(l)),
    ).toHaveLength(3);

    // The member's access hung on the accepted invite.
    const login = await api().as(null).post("/v1/login", { email: "second.member@example.com", password: "member-password-1" });
    expect((await api().as(login.body.code).get(`/v1/workspaces/${retained[0]}`)).status).toBe(404);
    await api().as(login.body.code).delete("/v1/users/@me/tokens");

    const deleted = await api().delete(`/v1/instances/${env.vmId}`);
    await ctx().emu.waitWorkflow(deleted.body.id, 10_000);
    const inventory = (await ctx().emu.control.get("/_emulator/inventory")).body as { total: number; resources: Record<string, unknown[]> };
    for (const table of ["invites", "tokens", "sshKeys", "registries"])
      expect({ table, rows: inventory.resources[table] }).toEqual({ table, rows: [] });
    // Kept: the three workspaces created or adopted here, still in the API, plus the default
    // workspace registration gave the member.
    const workspaces = inventory.resources.workspaces as Array<{ id: string; name: string }>;
    expect(workspaces.map((w) => w.name).sort()).toEqual(["Default Workspace", "e2e-dropped", "e2e-team-b", "legacy-team-managed"]);
    for (const id of retained) expect((await api().get(`/v1/workspaces/${id}`)).status).toBe(200);
    expect(inventory.total).toBe(workspaces.length);
  });
});
