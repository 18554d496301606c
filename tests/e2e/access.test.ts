/**
 * Access resources end to end through the real pulumi engine: Workspace, WorkspaceInvite,
 * ApiToken, SshKey and RegistryCredential, plus the workspace quota and topology lookups. One
 * stack; each test builds on the previous one's state.
 *
 * Kinds: Workspace, WorkspaceInvite, ApiToken, SshKey, RegistryCredential (scripts/testsOf.js: this file is their end-to-end proof)
 */
import { ref, secret, startE2E, writes as requestLines, type Declaration, type E2E } from "./harness";

jest.setTimeout(900_000);

/** An OpenSSH ed25519 public key line whose 32-byte key is `fill` repeated. */
function ed25519(fill: number, comment: string): string {
  const field = (b: Buffer) => Buffer.concat([Buffer.from([0, 0, 0, b.length]), b]);
  return `ssh-ed25519 ${Buffer.concat([field(Buffer.from("ssh-ed25519")), field(Buffer.alloc(32, fill))]).toString("base64")} ${comment}`;
}

const KEY_1 = ed25519(1, "alice@laptop");
const KEY_2 = ed25519(2, "legacy@host");
const KEY_3 = ed25519(3, "dropped@host");
const KEY_4 = ed25519(4, "over-quota@host");

const ACCOUNTS = {
  "registry.example.com": { deploy: "s3cret-token", "ci-bot": "n3w-token" },
  "ghcr.io": { "octo-bot": "ghp_emulatorToken", "octo-ci": "ghp_second" },
  "registry.internal:5000": { robot: "r0bot-pass" },
  "registry.other.io": { dropper: "dr0p-pass" },
};

const DAY_MS = 86_400_000;

describe("Access resources through the real pulumi engine", () => {
  let e2e: E2E;
  let wid: string;
  let vmId: string;
  let demoUserId: string;

  beforeAll(async () => {
    e2e = await startE2E("access");
    wid = e2e.emu.workspaceId;
    expect((await e2e.emu.control.post("/_emulator/settings", { registryAccounts: ACCOUNTS })).status).toBe(200);
    demoUserId = (await e2e.emu.api.get("/v1/users/@me")).body.id;
    // An instance for a RESOURCE-subject token and the topology lookup.
    const plans = (await e2e.emu.api.get("/v1/plans", { name: "lightning-1" })).body.items as Array<{ id: string; name: string }>;
    const vm = await e2e.emu.api.post(`/v1/workspaces/${wid}/instances`, {
      type: "PLAN",
      name: "agent-vm",
      region: "NA_01",
      plan: BigInt(plans.find((p) => p.name === "lightning-1")!.id),
    });
    expect(vm.status).toBe(202);
    vmId = String(vm.body.resource.id);
    await e2e.emu.waitFor(`/v1/instances/${vmId}`, (b: { state: string }) => b.state === "AVAILABLE", 10_000);
  });
  afterAll(async () => {
    await e2e?.stop();
  });

  // The declaration, changed test by test.
  const ws: Record<string, unknown> = { name: "e2e-team-a" };
  const invite: Record<string, unknown> = { workspaceId: ref("ws.id"), email: "First.Member@Example.com", accessLevel: "VIEWER" };
  const token: Record<string, unknown> = {
    name: "ci-deploy",
    expiresInDays: 30,
    grants: { WORKSPACE: "READ", INSTANCE: "WRITE", DISK: "NONE" },
  };
  const rtoken: Record<string, unknown> = { name: "vm-agent", expiresInDays: 60, grants: { INSTANCE: "READ" }, subject: "RESOURCE" };
  const key: Record<string, unknown> = { name: "alice-key", publicKey: KEY_1 };
  const reg: Record<string, unknown> = {
    registry: "https://Registry.Example.com/v2/",
    username: "deploy",
    password: secret("s3cret-token"),
  };
  const extra: Declaration[] = [];
  const declaration = (): Declaration[] => [
    { type: "Workspace", name: "ws", args: { ...ws } },
    { type: "WorkspaceInvite", name: "invite", args: { ...invite } },
    { type: "ApiToken", name: "token", args: { ...token } },
    { type: "ApiToken", name: "rtoken", args: { ...rtoken, subjectId: vmId } },
    { type: "SshKey", name: "key", args: { ...key } },
    { type: "RegistryCredential", name: "reg", args: { ...reg } },
    { lookup: "getWorkspaceQuota", name: "quota", args: {} },
    { lookup: "getWorkspaceTopology", name: "topology", args: {} },
    { lookup: "getWorkspaceQuotaOutput", name: "wsQuota", args: { workspaceId: ref("ws.id") } },
    ...extra,
  ];
  const RESOURCES = 6;

  const api = () => e2e.emu.api;
  const get = async (path: string) => (await api().get(path)).body;
  /** Stack outputs with secrets decrypted. */
  const exported = async (name: string) => (await e2e.stack.outputs())[name]?.value as Record<string, unknown>;
  const withToken = (code: unknown) => api().as(String(code));
  const upLogged = (decl = declaration()) => e2e.upLogged(decl);
  const emulatorNow = async () => Date.parse((await e2e.emu.control.get("/_emulator/clock")).body.now);

  it("creates a workspace, an invite in it, workspace and resource tokens, an SSH key and a registry credential; lookups answer", async () => {
    const result = await e2e.up(declaration());
    expect(result.summary.resourceChanges).toEqual({ create: RESOURCES + 1 });

    const wsId = await e2e.idOf("ws");
    const apiWs = await get(`/v1/workspaces/${wsId}`);
    expect(apiWs).toMatchObject({ name: "e2e-team-a", owner: { id: demoUserId }, mfa_required: false });
    expect(await e2e.outputsOf("ws")).toMatchObject({
      name: "e2e-team-a",
      mfaRequired: false,
      disableSshPassword: false,
      owner: { id: demoUserId },
      flags: [],
    });
    const summaries = (await api().get("/v1/workspaces", { name: "e2e-team-a" })).body.items;
    expect(summaries).toEqual([{ id: wsId, name: "e2e-team-a", access_level: "OWNER" }]);

    // The invite lives in the new workspace; its code (secret output) is the one the API mailed.
    const inv = await e2e.resource("invite");
    expect(inv.outputs).toMatchObject({
      workspaceId: wsId,
      email: "first.member@example.com",
      accessLevel: "VIEWER",
      state: "PENDING",
      acceptedBy: null,
    });
    const code = (await exported("invite")).code as string;
    expect(code).toMatch(/^\w{16,}$/);
    expect((await api().as(null).get("/v1/invites/lookup", { code })).body).toMatchObject({
      id: inv.id,
      email: "first.member@example.com",
      access_level: "VIEWER",
    });

    // The token's code works as a bearer token, within its grants.
    const tok = await e2e.resource("token");
    expect(tok.outputs).toMatchObject({
      name: "ci-deploy",
      subject: "WORKSPACE",
      grants: { WORKSPACE: "READ", INSTANCE: "WRITE" },
      expiresInDays: 30,
      origin: "API",
      workspaceId: wid,
    });
    expect(Date.parse(tok.outputs.expires as string) - Date.parse(tok.outputs.created as string)).toBeGreaterThan(29.9 * DAY_MS);
    expect((await get(`/v1/tokens/${tok.id}`)).grants).toEqual({ WORKSPACE: "READ", INSTANCE: "WRITE" });
    const tokenCode = (await exported("token")).code;
    expect((await withToken(tokenCode).get(`/v1/workspaces/${wid}`)).status).toBe(200);
    expect((await withToken(tokenCode).patch(`/v1/workspaces/${wid}`, { disable_ssh_password: true })).status).toBe(403);

    // The resource token reaches its instance only.
    const rtok = await e2e.resource("rtoken");
    expect(rtok.outputs).toMatchObject({ subject: "RESOURCE", subjectId: vmId, grants: { INSTANCE: "READ" } });
    const rcode = (await exported("rtoken")).code;
    expect((await withToken(rcode).get(`/v1/instances/${vmId}`)).status).toBe(200);
    expect((await withToken(rcode).get(`/v1/workspaces/${wid}`)).status).toBe(403);

    const k = await e2e.resource("key");
    expect(k.outputs).toMatchObject({
      name: "alice-key",
      publicKey: KEY_1,
      workspaceId: wid,
      fingerprint: expect.stringMatching(/^SHA256:/),
    });
    expect((await get(`/v1/ssh/${k.id}`)).public_key).toBe(KEY_1);

    const r = await e2e.resource("reg");
    expect(r.outputs).toMatchObject({ registry: "registry.example.com", username: "deploy" });
    expect(await get(`/v1/workspaces/${wid}/registries/${r.id}`)).toMatchObject({ registry: "registry.example.com", username: "deploy" });
    expect((await api().post(`/v1/workspaces/${wid}/registries/${r.id}/test`)).status).toBe(204);

    // Lookups, checked against the API.
    expect(await exported("quota")).toEqual({
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
    expect((await get(`/v1/workspaces/${wid}/quota`)).max_ssh_keys).toBe(20);
    expect((await exported("wsQuota")).maxSshKeys).toBe((await get(`/v1/workspaces/${wsId}/quota`)).max_ssh_keys);
    const topology = await exported("topology");
    const apiTopology = await get(`/v1/workspaces/${wid}/topology`);
    expect(topology.instances).toEqual([
      { id: vmId, name: "agent-vm", online: true, plan: { id: expect.any(String), name: "lightning-1" }, state: "AVAILABLE" },
    ]);
    expect((topology.ips as unknown[]).length).toBe(apiTopology.ips.length);
    expect((topology.ips as Array<{ instanceId: string }>).every((ip) => ip.instanceId === vmId)).toBe(true);
  });

  it("keeps the token code, invite code and registry password out of the state file in plaintext", async () => {
    const raw = await e2e.rawState();
    for (const name of ["token", "rtoken", "invite"]) expect(raw).not.toContain(String((await exported(name)).code));
    expect(raw).not.toContain("s3cret-token");
    expect(raw).toContain("registry.example.com");
  });

  it("previews no change and sends no mutating request", async () => {
    const since = await e2e.lastSeq();
    const preview = await e2e.preview(declaration());
    expect(preview.changeSummary).toEqual({ same: RESOURCES + 1 });
    expect(await e2e.mutations(since)).toEqual([]);
  });

  it.each([
    ["a workspace name under 4 characters", "ws", { name: "abc" }, /name.*4 to 32 characters/s],
    ["an OWNER invite", "invite", { accessLevel: "OWNER" }, /accessLevel.*OWNER is never assignable by invite/s],
    ["an unknown grant kind", "token", { grants: { VPC: "READ" } }, /grants\.VPC.*unknown resource kind/s],
    ["subjectId on a WORKSPACE token", "token", { subjectId: "123" }, /subjectId.*only for subject RESOURCE/s],
    ["a lifetime over 365 days", "token", { expiresInDays: 400 }, /expiresInDays.*7 to 365 days/s],
    ["a malformed public key", "key", { publicKey: "ssh-ed25519 not-base64!" }, /publicKey.*must be base64/s],
    ["a registry that is not a host", "reg", { registry: "https://" }, /registry.*must be a registry host/s],
  ])("preview rejects %s, naming the property and the rule, before any API request", async (_what, name, change, message) => {
    const decl = declaration().map((d) => (d.name === name ? { ...d, args: { ...d.args, ...change } } : d));
    const since = await e2e.lastSeq();
    await expect(e2e.preview(decl)).rejects.toThrow(message);
    // Only the lookups (quota, topology) reach the API; no resource check does.
    expect((await e2e.requests(since)).filter((r) => !/^\/v1\/workspaces\/\d+\/(quota|topology)$/.test(r.path))).toEqual([]);
  });

  it("patches the workspace, the invite's level and the registry credentials in place", async () => {
    const [wsId, invId, regId] = await Promise.all(["ws", "invite", "reg"].map(e2e.idOf));
    Object.assign(ws, { name: "e2e-team-b", disableSshPassword: true });
    invite.accessLevel = "EDITOR";
    Object.assign(reg, { username: "ci-bot", password: secret("n3w-token") });
    const { result, mutations } = await upLogged();
    expect(result.summary.resourceChanges).toMatchObject({ update: 3 });
    expect(requestLines(mutations).sort()).toEqual(
      [`PATCH /v1/invites/${invId}`, `PATCH /v1/workspaces/${wid}/registries/${regId}`, `PATCH /v1/workspaces/${wsId}`].sort(),
    );
    expect(mutations.find((m) => m.path === `/v1/workspaces/${wsId}`)!.body).toEqual({ name: "e2e-team-b", disable_ssh_password: true });
    expect(await Promise.all(["ws", "invite", "reg"].map(e2e.idOf))).toEqual([wsId, invId, regId]);
    expect(await get(`/v1/workspaces/${wsId}`)).toMatchObject({ name: "e2e-team-b", disable_ssh_password: true });
    expect((await get(`/v1/invites/${invId}`)).access_level).toBe("EDITOR");
    expect((await get(`/v1/workspaces/${wid}/registries/${regId}`)).username).toBe("ci-bot");
  });

  it("surfaces the registry's refusal of new credentials, and converges on the next up", async () => {
    const regId = await e2e.idOf("reg");
    reg.password = secret("wrong-password");
    const message = await e2e.upFails(declaration());
    expect(message).toMatch(
      /RegistryCredential registry\.example\.com: the API refused the credentials for registry\.example\.com: Registry registry\.example\.com rejected the credentials \(401 Unauthorized\)/,
    );
    expect((await api().post(`/v1/workspaces/${wid}/registries/${regId}/test`)).status).toBe(204);
    reg.password = secret("n3w-token");
    await e2e.up(declaration());
    expect((await e2e.preview(declaration())).changeSummary).toEqual({ same: RESOURCES + 1 });
  });

  it("mfaRequired: the API's refusal is shown while a member lacks 2FA; accepted once every member has it; turned off again", async () => {
    const wsId = await e2e.idOf("ws");
    ws.mfaRequired = true;
    const message = await e2e.upFails(declaration());
    expect(message).toMatch(
      /the API refused mfaRequired: mfa_required can only be enabled when every member has two-factor authentication active; 1 member\(s\) do not.*every member already has two-factor/s,
    );
    expect((await get(`/v1/workspaces/${wsId}`)).mfa_required).toBe(false);

    // The only member (the token's user) activates 2FA.
    const enrol = await api().post(`/v1/users/@me/totp`);
    expect(enrol.status).toBe(200);
    const totp = (await e2e.emu.control.get("/_emulator/totp", { secret: enrol.body.code })).body.code;
    expect((await api().put(`/v1/users/@me/totp`, { code: totp })).status).toBe(202);
    let { mutations } = await upLogged();
    expect(mutations).toEqual([expect.objectContaining({ method: "PATCH", path: `/v1/workspaces/${wsId}`, body: { mfa_required: true } })]);
    expect((await get(`/v1/workspaces/${wsId}`)).mfa_required).toBe(true);

    ws.mfaRequired = false;
    ({ mutations } = await upLogged());
    expect(mutations).toEqual([expect.objectContaining({ method: "PATCH", body: { mfa_required: false } })]);
  });

  it("replaces tokens, keys, invites and registry credentials on a change of a replace field: new id, old one gone", async () => {
    const before = Object.fromEntries(
      await Promise.all(["token", "key", "invite", "reg"].map(async (n) => [n, await e2e.idOf(n)] as const)),
    );
    const oldCode = (await exported("token")).code;
    token.grants = { WORKSPACE: "READ", INSTANCE: "READ" };
    key.name = "alice-key-2";
    invite.email = "second.member@example.com";
    Object.assign(reg, { registry: "GHCR.io", username: "octo-bot", password: secret("ghp_emulatorToken") });
    const { result, mutations } = await upLogged();
    expect(result.summary.resourceChanges).toMatchObject({ replace: 4 });
    const after = Object.fromEntries(
      await Promise.all(["token", "key", "invite", "reg"].map(async (n) => [n, await e2e.idOf(n)] as const)),
    );
    for (const n of Object.keys(before)) expect(after[n]).not.toBe(before[n]);
    expect((await api().get(`/v1/tokens/${before.token}`)).status).toBe(404);
    expect((await api().get(`/v1/ssh/${before.key}`)).status).toBe(404);
    expect((await api().get(`/v1/invites/${before.invite}`)).status).toBe(404);
    expect((await api().get(`/v1/workspaces/${wid}/registries/${before.reg}`)).status).toBe(404);
    // The old code no longer authenticates; the new one does, with the new grants.
    expect((await withToken(oldCode).get(`/v1/workspaces/${wid}`)).status).toBe(401);
    const newCode = (await exported("token")).code;
    expect(newCode).not.toBe(oldCode);
    expect((await withToken(newCode).get(`/v1/workspaces/${wid}`)).status).toBe(200);
    expect((await get(`/v1/tokens/${after.token}`)).grants).toEqual({ WORKSPACE: "READ", INSTANCE: "READ" });
    // Same public key under a new name: the old key is deleted before the new one is uploaded.
    const keyCalls = requestLines(mutations).filter((c) => c.includes("/ssh"));
    expect(keyCalls).toEqual([`DELETE /v1/ssh/${before.key}`, `POST /v1/workspaces/${wid}/ssh`]);
    expect(await e2e.outputsOf("reg")).toMatchObject({ registry: "ghcr.io", username: "octo-bot" });
  });

  it("surfaces the SSH key quota error", async () => {
    const quota = await get(`/v1/workspaces/${wid}/quota`);
    await e2e.emu.control.patch(`/_emulator/tables/workspaces/${wid}`, { quota: { ...quota, max_ssh_keys: 1 } });
    const decl = [...declaration(), { type: "SshKey", name: "key-over", args: { name: "over-quota", publicKey: KEY_4 } }];
    const message = await e2e.upFails(decl);
    expect(message).toMatch(
      /SshKey "over-quota": the workspace's SSH key quota is reached: SSH key quota reached: the workspace allows 1 keys \(max_ssh_keys\)/,
    );
    await e2e.emu.control.patch(`/_emulator/tables/workspaces/${wid}`, { quota });
    expect((await e2e.state()).some((r) => r.urn.endsWith("::key-over"))).toBe(false);
  });

  it("refresh reads out-of-band changes (workspace name, invite level, registry username), and the next up puts the declaration back", async () => {
    const [wsId, invId, regId] = await Promise.all(["ws", "invite", "reg"].map(e2e.idOf));
    await api().patch(`/v1/workspaces/${wsId}`, { name: "renamed-by-hand" });
    await api().patch(`/v1/invites/${invId}`, { access_level: "ADMINISTRATOR" });
    await api().patch(`/v1/workspaces/${wid}/registries/${regId}`, { username: "octo-ci", password: "ghp_second" });
    await e2e.refresh();
    expect(await e2e.outputsOf("ws")).toMatchObject({ name: "renamed-by-hand" });
    expect(await e2e.outputsOf("invite")).toMatchObject({ accessLevel: "ADMINISTRATOR" });
    expect(await e2e.outputsOf("reg")).toMatchObject({ username: "octo-ci" });
    const { result, mutations } = await upLogged();
    expect(result.summary.resourceChanges).toMatchObject({ update: 3 });
    // The password cannot be read back, so both are sent (the API re-validates the pair; the log masks it).
    expect(mutations.find((m) => m.path.includes("/registries/"))!.body).toEqual({ username: "octo-bot", password: "[masked]" });
    expect((await api().post(`/v1/workspaces/${wid}/registries/${regId}/test`)).status).toBe(204);
    expect((await get(`/v1/workspaces/${wsId}`)).name).toBe("e2e-team-b");
    expect((await get(`/v1/invites/${invId}`)).access_level).toBe("EDITOR");
    expect((await get(`/v1/workspaces/${wid}/registries/${regId}`)).username).toBe("octo-bot");
  });

  it("refresh drops what was deleted outside Pulumi (invite, token, key, credential), and the next up recreates it", async () => {
    const names = ["invite", "token", "key", "reg"];
    const before = Object.fromEntries(await Promise.all(names.map(async (n) => [n, await e2e.idOf(n)] as const)));
    expect((await api().delete(`/v1/invites/${before.invite}`)).status).toBe(202);
    expect((await api().delete(`/v1/tokens/${before.token}`)).status).toBe(202);
    expect((await api().delete(`/v1/ssh/${before.key}`)).status).toBe(202);
    expect((await api().delete(`/v1/workspaces/${wid}/registries/${before.reg}`)).status).toBe(204);
    await e2e.refresh();
    const urns = (await e2e.state()).map((r) => r.urn);
    for (const n of names) expect(urns.some((u) => u.endsWith(`::${n}`))).toBe(false);
    const result = await e2e.up(declaration());
    expect(result.summary.resourceChanges).toMatchObject({ create: 4 });
    for (const n of names) expect(await e2e.idOf(n)).not.toBe(before[n]);
    expect((await withToken((await exported("token")).code).get(`/v1/workspaces/${wid}`)).status).toBe(200);
  });

  it("adopts existing resources by adoptId and converges them; a credential for a host the workspace has is never taken over without it", async () => {
    const made = {
      ws: await api().post(`/v1/workspaces`, { name: "legacy-team" }),
      token: await api().post(`/v1/workspaces/${wid}/tokens`, {
        name: "legacy-token",
        expires: new Date((await emulatorNow()) + 30 * DAY_MS).toISOString(),
        grants: { IMAGE: "READ" },
      }),
      key: await api().post(`/v1/workspaces/${wid}/ssh`, { name: "legacy-key", public_key: KEY_2 }),
      reg: await api().post(`/v1/workspaces/${wid}/registries`, {
        registry: "registry.internal:5000",
        username: "robot",
        password: "r0bot-pass",
      }),
      invite: await api().post(`/v1/workspaces/${wid}/invites`, { email: "legacy.member@example.com", access_level: "VIEWER" }),
      byHost: await api().post(`/v1/workspaces/${wid}/registries`, {
        registry: "registry.example.com",
        username: "deploy",
        password: "s3cret-token",
      }),
    };
    for (const res of Object.values(made)) expect(res.status).toBe(201);
    const id = (k: keyof typeof made) => String(made[k].body.id);
    const byHost: Declaration = {
      type: "RegistryCredential",
      name: "by-host",
      args: { registry: "https://registry.example.com", username: "deploy", password: secret("s3cret-token") },
    };
    // One credential per host: the one a person stored is named, not silently replaced or taken over.
    const refused = await e2e.upFails([...declaration(), byHost]);
    // The host as check canonicalises it (spec part 1: aliases and full URLs normalise to one form).
    expect(refused).toContain(
      `RegistryCredential registry.example.com: the workspace already has a credential for registry.example.com (id ${id("byHost")}); a workspace holds one per host.`,
    );
    expect(refused).toContain(
      `This stack has no record of creating it, so it is not taken over on its own. To manage it here, set adoptId: "${id("byHost")}"; otherwise delete it first.`,
    );
    expect((await api().get(`/v1/workspaces/${wid}/registries/${id("byHost")}`)).status).toBe(200);
    extra.push(
      { type: "Workspace", name: "legacy-ws", args: { name: "legacy-team-managed", adoptId: id("ws") } },
      {
        type: "ApiToken",
        name: "legacy-token",
        args: { name: "legacy-token", expiresInDays: 30, grants: { IMAGE: "READ" }, adoptId: id("token") },
      },
      { type: "SshKey", name: "legacy-key", args: { name: "legacy-key", publicKey: KEY_2, adoptId: id("key") } },
      {
        type: "RegistryCredential",
        name: "legacy-reg",
        args: { registry: "registry.internal:5000", username: "robot", password: secret("r0bot-pass"), adoptId: id("reg") },
      },
      {
        type: "WorkspaceInvite",
        name: "legacy-invite",
        args: { email: "legacy.member@example.com", accessLevel: "EDITOR", adoptId: id("invite") },
      },
      { ...byHost, args: { ...byHost.args, adoptId: id("byHost") } },
    );
    const { result, mutations } = await upLogged();
    expect(result.summary.resourceChanges).toMatchObject({ create: 6 });
    expect(mutations.filter((m) => m.method === "POST")).toEqual([]);
    expect(requestLines(mutations).sort()).toEqual(
      [
        `PATCH /v1/workspaces/${id("ws")}`,
        `PATCH /v1/workspaces/${wid}/registries/${id("reg")}`,
        `PATCH /v1/invites/${id("invite")}`,
        `PATCH /v1/workspaces/${wid}/registries/${id("byHost")}`,
      ].sort(),
    );
    for (const [name, key] of [
      ["legacy-ws", "ws"],
      ["legacy-token", "token"],
      ["legacy-key", "key"],
      ["legacy-reg", "reg"],
      ["legacy-invite", "invite"],
      ["by-host", "byHost"],
    ] as const) {
      expect(await e2e.idOf(name)).toBe(id(key));
    }
    expect((await get(`/v1/workspaces/${id("ws")}`)).name).toBe("legacy-team-managed");
    expect((await get(`/v1/invites/${id("invite")}`)).access_level).toBe("EDITOR");
    // An adopted token's code cannot be read back: it stays unset.
    expect(await e2e.outputsOf("legacy-token")).toMatchObject({ expiresInDays: 30, grants: { IMAGE: "READ" } });
    expect((await e2e.outputsOf("legacy-token")).code).toBeUndefined();
    expect((await e2e.preview(declaration())).changeSummary).toEqual({ same: RESOURCES + 7 });
  });

  it("adoptId is needed once: dropping it changes nothing", async () => {
    for (const d of extra) delete (d.args as Record<string, unknown>).adoptId;
    const since = await e2e.lastSeq();
    expect((await e2e.preview(declaration())).changeSummary).toEqual({ same: RESOURCES + 7 });
    await e2e.up(declaration());
    expect(await e2e.mutations(since)).toEqual([]);
  });

  it("recovers from lost create answers: one of each, adopted; a token is revoked and created again so its code is known", async () => {
    for (const path of [
      "/v1/workspaces",
      "/v1/workspaces/*/invites",
      "/v1/workspaces/*/tokens",
      "/v1/workspaces/*/ssh",
      "/v1/workspaces/*/registries",
    ]) {
      expect((await e2e.emu.control.post("/_emulator/faults", { kind: "drop", method: "POST", path, times: 1 })).status).toBe(201);
    }
    extra.push(
      { type: "Workspace", name: "dropped-ws", args: { name: "e2e-dropped" } },
      { type: "WorkspaceInvite", name: "dropped-invite", args: { email: "dropped.member@example.com", accessLevel: "VIEWER" } },
      { type: "ApiToken", name: "dropped-token", args: { name: "dropped-token", expiresInDays: 30, grants: { WORKSPACE: "READ" } } },
      { type: "SshKey", name: "dropped-key", args: { name: "dropped-key", publicKey: KEY_3 } },
      {
        type: "RegistryCredential",
        name: "dropped-reg",
        args: { registry: "registry.other.io", username: "dropper", password: secret("dr0p-pass") },
      },
    );
    const { result, mutations } = await upLogged();
    expect(result.summary.resourceChanges).toMatchObject({ create: 5 });
    const posts = (suffix: string) =>
      mutations.filter(
        (m) => m.method === "POST" && (suffix === "" ? m.path === "/v1/workspaces" : m.path === `/v1/workspaces/${wid}/${suffix}`),
      );
    expect(posts("")).toHaveLength(1);
    expect(posts("invites")).toHaveLength(1);
    expect(posts("ssh")).toHaveLength(1);
    expect(posts("registries")).toHaveLength(1);
    expect(posts("tokens")).toHaveLength(2);

    const wsList = (await api().get("/v1/workspaces", { name: "e2e-dropped" })).body.items;
    expect(wsList).toHaveLength(1);
    expect(await e2e.idOf("dropped-ws")).toBe(wsList[0].id);
    const invites = (await api().get(`/v1/workspaces/${wid}/invites`, { email: "dropped.member@example.com" })).body.items;
    expect(invites.map((i: { id: string }) => i.id)).toEqual([await e2e.idOf("dropped-invite")]);
    // The adopted invite's code was in the lost answer only (the addressee has it by mail).
    expect((await e2e.outputsOf("dropped-invite")).code).toBeUndefined();
    const keys = (await api().get(`/v1/workspaces/${wid}/ssh`, { name: "dropped-key" })).body.items;
    expect(keys.map((k: { id: string }) => k.id)).toEqual([await e2e.idOf("dropped-key")]);
    const regs = (await api().get(`/v1/workspaces/${wid}/registries`, { registry: "registry.other.io" })).body.items;
    expect(regs.map((r: { id: string }) => r.id)).toEqual([await e2e.idOf("dropped-reg")]);
    const tokens = (await api().get(`/v1/workspaces/${wid}/tokens`, { name: "dropped-token" })).body.items;
    expect(tokens.map((t: { id: string }) => t.id)).toEqual([await e2e.idOf("dropped-token")]);
    expect((await withToken((await exported("dropped-token")).code).get(`/v1/workspaces/${wid}`)).status).toBe(200);
    expect(e2e.output()).toMatch(/revoking the token the API created/);
    expect((await e2e.preview(declaration())).changeSummary).toEqual({ same: RESOURCES + 12 });
  });

  it("an accepted invite reads ACCEPTED with its member; an expired one is replaced by the next up", async () => {
    const wsId = await e2e.idOf("ws");
    const inviteId = await e2e.idOf("invite");
    // The addressee registers, signs in and accepts with the code kept in the stack.
    expect(
      (
        await api()
          .as(null)
          .post("/v1/register", { name: "Second Member", email: "second.member@example.com", password: "member-password-1" })
      ).status,
    ).toBe(201);
    const login = await api().as(null).post("/v1/login", { email: "second.member@example.com", password: "member-password-1" });
    expect(login.status).toBe(200);
    const member = api().as(login.body.code);
    const accepted = await member.post("/v1/invites", { code: (await exported("invite")).code });
    expect(accepted.status).toBe(200);
    expect((await member.get(`/v1/workspaces/${wsId}`)).status).toBe(200);
    const memberId = (await member.get("/v1/users/@me")).body.id;
    expect((await member.delete("/v1/users/@me/tokens")).status).toBe(202);

    // Seven days pass: the pending invite expires; the accepted one stays.
    const expiring = await Promise.all(["dropped-invite", "legacy-invite"].map(e2e.idOf));
    await e2e.emu.control.post("/_emulator/clock", { advanceMs: 8 * DAY_MS });
    await e2e.refresh();
    expect(await e2e.outputsOf("invite")).toMatchObject({ state: "ACCEPTED", acceptedBy: memberId, accessLevel: "EDITOR" });
    expect(await e2e.outputsOf("dropped-invite")).toMatchObject({ state: "EXPIRED" });
    expect(await e2e.outputsOf("legacy-invite")).toMatchObject({ state: "EXPIRED" });
    const { result, mutations } = await upLogged();
    expect(result.summary.resourceChanges).toMatchObject({ replace: 2 });
    // Each expired invite is deleted before its replacement is created (one pending invite per address).
    const inviteCalls = requestLines(mutations).filter((c) => c.includes("invites"));
    expect(inviteCalls.filter((c) => c.startsWith("DELETE")).sort()).toEqual(expiring.map((id) => `DELETE /v1/invites/${id}`).sort());
    expect(inviteCalls.filter((c) => c.startsWith("POST"))).toEqual([
      `POST /v1/workspaces/${wid}/invites`,
      `POST /v1/workspaces/${wid}/invites`,
    ]);
    expect(inviteCalls[0]).toMatch(/^DELETE /);
    for (const name of ["dropped-invite", "legacy-invite"]) expect(await e2e.outputsOf(name)).toMatchObject({ state: "PENDING" });
    // A fresh invite: its code is known again.
    expect(
      (
        await api()
          .as(null)
          .get("/v1/invites/lookup", { code: String((await exported("dropped-invite")).code) })
      ).body.id,
    ).toBe(await e2e.idOf("dropped-invite"));
    expect(await e2e.outputsOf("legacy-invite")).toMatchObject({ accessLevel: "EDITOR" });
    expect(await e2e.idOf("invite")).toBe(inviteId);
    for (const id of expiring) expect((await api().get(`/v1/invites/${id}`)).status).toBe(404);
    expect((await e2e.preview(declaration())).changeSummary).toEqual({ same: RESOURCES + 12 });
  });

  it("destroy removes invites, tokens, keys and credentials; workspaces are retained (the API has no delete) and the accepted member loses access", async () => {
    const tokenCode = (await exported("token")).code;
    const retained = await Promise.all(["ws", "legacy-ws", "dropped-ws"].map(e2e.idOf));
    await e2e.destroy();
    expect((await withToken(tokenCode).get(`/v1/workspaces/${wid}`)).status).toBe(401);
    expect(e2e.output()).toMatch(/the API has no delete for Workspace; it is kept and only removed from the stack/);

    // The member's access hung on the accepted invite.
    const login = await api().as(null).post("/v1/login", { email: "second.member@example.com", password: "member-password-1" });
    expect((await api().as(login.body.code).get(`/v1/workspaces/${retained[0]}`)).status).toBe(404);
    await api().as(login.body.code).delete("/v1/users/@me/tokens");

    const deleted = await api().delete(`/v1/instances/${vmId}`);
    await e2e.emu.waitWorkflow(deleted.body.id, 10_000);
    const inventory = await e2e.inventoryTotal();
    for (const kind of ["invites", "tokens", "sshKeys", "registries"]) expect(inventory.resources[kind]).toEqual([]);
    // Retained: the three workspaces this stack created or adopted, still in the API, plus the
    // default workspace registration gave the member.
    const workspaces = inventory.resources.workspaces as Array<{ id: string; name: string }>;
    expect(workspaces.map((w) => w.name).sort()).toEqual(["Default Workspace", "e2e-dropped", "e2e-team-b", "legacy-team-managed"]);
    for (const id of retained) expect((await api().get(`/v1/workspaces/${id}`)).status).toBe(200);
    expect(inventory.total).toBe(workspaces.length);
  });
});
