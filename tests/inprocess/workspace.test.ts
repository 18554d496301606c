/**
 * Workspace on both faces, in process (tests/support/inProcess.ts), with what lives in it: an SSH
 * key and a registry credential. Creates checked against the API (the credential's password kept
 * from the declaration, marked secret on the plugin face), in-place changes with the exact
 * requests, mfaRequired refused while a member lacks 2FA, replacements (an SSH key renamed is
 * deleted first), drift read and put back, deletions read as gone, adoption and its adoptId
 * dropped afterwards, lost create answers recovered without duplicates, and the deletion that
 * keeps workspaces. Also the quota and topology lookups. Each case builds on the previous one's
 * state, and most span the three kinds, so they stay with the kind the others live in; the SSH
 * key's and the registry credential's own cases are sshKey.test.ts and registryCredential.test.ts,
 * an invite's workspaceInvite.test.ts and a token's apiToken.test.ts
 * (tests/inprocess/support/access.ts: what the access files share).
 *
 * Elsewhere: the refusals at preview are tests/unit/resources/<kind>.test.ts (those no unit test
 * names are checked in sshKey and registryCredential.test.ts); what only the engine shows (secret
 * outputs as ciphertext in the state file, a lookup's Output form taking a resource's output) is
 * tests/e2e/access.test.ts; the lookups called from a real program are tests/e2e/lookups.test.ts's
 * path.
 */
import { describeEachFace, opened, type Props, type Logged } from "../support/inProcess";
import { KEY_1, KEY_2, KEY_3, accessHarness } from "./support/access";
import { collectNotices } from "./support/apps";

/** The lines a person sees during a case (notices), from both faces: one process, one sink. */
const shown = collectNotices();

describeEachFace("Workspace, with what lives in it", (ctx) => {
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
    upFails,
    outs,
    secretsOf,
    secretOn,
    secretIn,
    refresh,
    ws,
    key,
    reg,
    extra,
    declared,
    expectAllSame,
    setup,
    workspacesLeft,
  } = accessHarness(ctx, ["Workspace", "SshKey", "RegistryCredential"]);

  beforeAll(setup);

  it("creates a workspace, an SSH key and a registry credential", async () => {
    for (const [name, kind, d] of declared())
      expect({ name, step: (await upLogged(name, kind, d)).step }).toEqual({ name, step: "create" });

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

  it("patches the workspace and the registry credentials in place", async () => {
    const ids = { ws: state.ws.id, reg: state.reg.id };
    Object.assign(ws, { name: "e2e-team-b", disableSshPassword: true });
    Object.assign(reg, { username: "ci-bot", password: secretIn("n3w-token") });
    const sent: Logged[] = [];
    for (const [name, kind, d] of [
      ["ws", "Workspace", ws],
      ["reg", "RegistryCredential", reg],
    ] as const) {
      const { step, now, mutations: made } = await upLogged(name, kind, d);
      expect({ name, step, id: now.id }).toEqual({ name, step: "update", id: ids[name] });
      sent.push(...made);
    }
    expect(lines(sent)).toEqual([`PATCH /v1/workspaces/${ids.ws}`, `PATCH /v1/workspaces/${env.wid}/registries/${ids.reg}`]);
    expect(sent[0].body).toEqual({ name: "e2e-team-b", disable_ssh_password: true });
    expect(await get(`/v1/workspaces/${ids.ws}`)).toMatchObject({ name: "e2e-team-b", disable_ssh_password: true });
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

  it("replaces keys and registry credentials on a change of a replace field: new id, old one gone", async () => {
    const before = { key: state.key.id, reg: state.reg.id };
    key.name = "alice-key-2";
    Object.assign(reg, { registry: "GHCR.io", username: "octo-bot", password: secretIn("ghp_emulatorToken") });
    const replaced: Record<string, { replaces?: string[]; deleteFirst?: boolean; sent: string[] }> = {};
    for (const [name, kind, d] of [
      ["key", "SshKey", key],
      ["reg", "RegistryCredential", reg],
    ] as const) {
      const { step, diff, mutations: sent } = await upLogged(name, kind, d);
      expect({ name, step }).toEqual({ name, step: "replace" });
      replaced[name] = { replaces: diff?.replaces, deleteFirst: diff?.deleteBeforeReplace, sent: lines(sent) };
      expect(state[name].id).not.toBe(before[name]);
    }
    expect((await api().get(`/v1/ssh/${before.key}`)).status).toBe(404);
    expect((await api().get(`/v1/workspaces/${env.wid}/registries/${before.reg}`)).status).toBe(404);
    // Same public key under a new name: the old key is deleted before the new one is uploaded.
    expect(replaced.key).toEqual({
      replaces: ["name"],
      deleteFirst: true,
      sent: [`DELETE /v1/ssh/${before.key}`, `POST /v1/workspaces/${env.wid}/ssh`],
    });
    expect(replaced.reg.replaces).toEqual(["registry"]);
    expect(outs("reg")).toMatchObject({ registry: "ghcr.io", username: "octo-bot" });
  });

  it("a read finds out-of-band changes (workspace name, registry username); the next up puts the declaration back", async () => {
    const ids = { ws: state.ws.id, reg: state.reg.id };
    await api().patch(`/v1/workspaces/${ids.ws}`, { name: "renamed-by-hand" });
    await api().patch(`/v1/workspaces/${env.wid}/registries/${ids.reg}`, { username: "octo-ci", password: "ghp_second" });
    await refresh("ws", "Workspace");
    expect(outs("ws")).toMatchObject({ name: "renamed-by-hand" });
    await refresh("reg", "RegistryCredential");
    expect(outs("reg")).toMatchObject({ username: "octo-ci" });
    const sent: Logged[] = [];
    for (const [name, kind, d] of [
      ["ws", "Workspace", ws],
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
    expect((await get(`/v1/workspaces/${env.wid}/registries/${ids.reg}`)).username).toBe("octo-bot");
  });

  it("a read of what was deleted outside Pulumi (key, credential) answers no id, and the next up recreates it", async () => {
    const before = { key: state.key.id, reg: state.reg.id };
    expect((await api().delete(`/v1/ssh/${before.key}`)).status).toBe(202);
    expect((await api().delete(`/v1/workspaces/${env.wid}/registries/${before.reg}`)).status).toBe(204);
    for (const [name, kind, d] of [
      ["key", "SshKey", key],
      ["reg", "RegistryCredential", reg],
    ] as const) {
      expect({ name, id: (await refresh(name, kind)).id }).toEqual({ name, id: "" });
      expect({ name, step: (await upLogged(name, kind, d)).step }).toEqual({ name, step: "create" });
      expect(state[name].id).not.toBe(before[name]);
    }
  });

  it("adopts existing resources by adoptId and converges them; a credential for a host the workspace has is never taken over without it", async () => {
    const made = {
      ws: await api().post(`/v1/workspaces`, { name: "legacy-team" }),
      key: await api().post(`/v1/workspaces/${env.wid}/ssh`, { name: "legacy-key", public_key: KEY_2 }),
      reg: await api().post(`/v1/workspaces/${env.wid}/registries`, {
        registry: "registry.internal:5000",
        username: "robot",
        password: "r0bot-pass",
      }),
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
    extra["legacy-key"] = ["SshKey", { name: "legacy-key", publicKey: KEY_2, adoptId: id("key") }];
    extra["legacy-reg"] = [
      "RegistryCredential",
      { registry: "registry.internal:5000", username: "robot", password: secretIn("r0bot-pass"), adoptId: id("reg") },
    ];
    extra["by-host"] = ["RegistryCredential", { ...byHost, adoptId: id("byHost") }];
    const since = await lastSeq();
    for (const name of Object.keys(extra))
      expect({ name, step: (await upLogged(name, ...extra[name])).step }).toEqual({ name, step: "create" });
    const sent = await mutations(since);
    expect(sent.filter((m) => m.method === "POST")).toEqual([]);
    expect(lines(sent)).toEqual([
      `PATCH /v1/workspaces/${id("ws")}`,
      `PATCH /v1/workspaces/${env.wid}/registries/${id("reg")}`,
      `PATCH /v1/workspaces/${env.wid}/registries/${id("byHost")}`,
    ]);
    for (const [name, key] of [
      ["legacy-ws", "ws"],
      ["legacy-key", "key"],
      ["legacy-reg", "reg"],
      ["by-host", "byHost"],
    ] as const) {
      expect({ name, id: state[name].id }).toEqual({ name, id: id(key) });
    }
    expect((await get(`/v1/workspaces/${id("ws")}`)).name).toBe("legacy-team-managed");
    await expectAllSame();
  });

  it("adoptId is needed once: dropping it changes nothing", async () => {
    for (const [, d] of Object.values(extra)) delete d.adoptId;
    await expectAllSame();
  });

  it("recovers from lost create answers: one of each, adopted", async () => {
    for (const path of ["/v1/workspaces", "/v1/workspaces/*/ssh", "/v1/workspaces/*/registries"]) {
      expect((await ctx().emu.control.post("/_emulator/faults", { kind: "drop", method: "POST", path, times: 1 })).status).toBe(201);
    }
    extra["dropped-ws"] = ["Workspace", { name: "e2e-dropped" }];
    extra["dropped-key"] = ["SshKey", { name: "dropped-key", publicKey: KEY_3 }];
    extra["dropped-reg"] = ["RegistryCredential", { registry: "registry.other.io", username: "dropper", password: secretIn("dr0p-pass") }];
    const since = await lastSeq();
    for (const name of Object.keys(extra).filter((n) => n.startsWith("dropped-")))
      expect({ name, step: (await upLogged(name, ...extra[name])).step }).toEqual({ name, step: "create" });
    const sent = await mutations(since);
    const posts = (suffix: string) =>
      sent.filter(
        (m) => m.method === "POST" && (suffix === "" ? m.path === "/v1/workspaces" : m.path === `/v1/workspaces/${env.wid}/${suffix}`),
      );
    expect(posts("")).toHaveLength(1);
    expect(posts("ssh")).toHaveLength(1);
    expect(posts("registries")).toHaveLength(1);

    const wsList = (await api().get("/v1/workspaces", { name: "e2e-dropped" })).body.items;
    expect(wsList.map((w: { id: string }) => w.id)).toEqual([state["dropped-ws"].id]);
    const keys = (await api().get(`/v1/workspaces/${env.wid}/ssh`, { name: "dropped-key" })).body.items;
    expect(keys.map((k: { id: string }) => k.id)).toEqual([state["dropped-key"].id]);
    const regs = (await api().get(`/v1/workspaces/${env.wid}/registries`, { registry: "registry.other.io" })).body.items;
    expect(regs.map((r: { id: string }) => r.id)).toEqual([state["dropped-reg"].id]);
    await expectAllSame();
  });

  it("deletes keys and credentials; workspaces are kept (the API has no delete) with a notice", async () => {
    const retained = ["ws", "legacy-ws", "dropped-ws"].map((n) => state[n].id);
    // Dependents first, as the engine destroys: what lives in the workspaces before them.
    const byKind = (kind: string) => declared().filter(([, k]) => k === kind);
    for (const [name, kind] of [...byKind("SshKey"), ...byKind("RegistryCredential"), ...byKind("Workspace")]) {
      await face().delete(kind, state[name].id, state[name].outs);
      delete state[name];
    }
    expect(state).toEqual({});
    expect(shown.filter((l) => /the API has no delete for Workspace; it is kept and only removed from the stack/.test(l))).toHaveLength(3);
    // Kept: the three workspaces created or adopted here, still in the API.
    expect(await workspacesLeft(["sshKeys", "registries"])).toEqual(["e2e-dropped", "e2e-team-b", "legacy-team-managed"]);
    for (const id of retained) expect((await api().get(`/v1/workspaces/${id}`)).status).toBe(200);
  });
});
