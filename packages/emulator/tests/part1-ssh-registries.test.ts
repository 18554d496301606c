/**
 * Part 1 SSH keys and registry credentials (/v1/workspaces/{wid}/ssh, .../registries).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { DEFAULT_REGISTRY_ACCOUNTS } from "../src/server";
import { useTestEmulator, startTestEmulator, type TestEmulator } from "../src/testing";
import { daysFromNow, ecdsaKey, ed25519Key, joinWorkspace, login, RELAXED_LIMITS, rsaKey, signUp } from "./accounts";

let t: TestEmulator;

useTestEmulator((started) => (t = started), RELAXED_LIMITS);
beforeEach(async () => {
  // Reset leaves settings alone: put the simulated live registry back as well.
  await t.control.post("/_emulator/settings", { registryAccounts: DEFAULT_REGISTRY_ACCOUNTS });
});

/** An API token of the demo user with just these grants. */
async function tokenWith(grants: Record<string, string>) {
  const session = await login(t, t.emu.email, t.emu.password);
  const res = await session.api.post("/v1/tokens", { name: "scoped-token", expires: await daysFromNow(t, 30), grants });
  return t.api.as(res.body.code);
}

describe("SSH keys", () => {
  const base = () => `/v1/workspaces/${t.workspaceId}/ssh`;

  it("uploads ed25519, RSA and ECDSA keys; the key object has user and owner", async () => {
    for (const [name, key] of [
      ["laptop-ed", ed25519Key("me@laptop")],
      ["server-rsa", rsaKey()],
      ["ci-ecdsa", ecdsaKey()],
    ]) {
      const res = await t.api.post(base(), { name, public_key: key });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.any(String),
        name,
        public_key: key,
        fingerprint: expect.stringMatching(/^SHA256:/),
        user: { id: t.emu.userId, name: "Demo User" },
        owner: { id: t.workspaceId, name: "demo-workspace" },
        created: expect.any(String),
      });
      expect((await t.api.get(`/v1/ssh/${res.body.id}`)).body.public_key).toBe(key);
    }
  });

  it.each([
    ["garbage", "not a key"],
    ["unknown type", `ssh-dss ${Buffer.from("x").toString("base64")}`],
    ["bad base64", "ssh-ed25519 !!!notbase64!!!"],
    ["type mismatch inside the blob", ed25519Key().replace(/^ssh-ed25519/, "ssh-rsa")],
    [
      "truncated blob",
      (() => {
        const [type, b64] = ed25519Key().split(" ");
        return `${type} ${Buffer.from(b64, "base64").subarray(0, 30).toString("base64")}`;
      })(),
    ],
    ["two lines", `${ed25519Key()}\n${ed25519Key()}`],
  ])("400 for a malformed public key: %s", async (_label, key) => {
    const res = await t.api.post(base(), { name: "bad-key", public_key: key });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].field).toBe("public_key");
  });

  it.each([["abc"], ["x".repeat(33)]])("400 for name %p", async (name) => {
    const res = await t.api.post(base(), { name, public_key: ed25519Key() });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].field).toBe("name");
  });

  it("the same key twice is 409; the workspace quota max_ssh_keys caps the count", async () => {
    const key = ed25519Key();
    expect((await t.api.post(base(), { name: "first", public_key: key })).status).toBe(201);
    expect((await t.api.post(base(), { name: "again", public_key: key })).status).toBe(409);
    const ws = t.emu.services.store.t.workspaces.get(t.workspaceId)!;
    await t.control.patch(`/_emulator/tables/workspaces/${t.workspaceId}`, { quota: { ...ws.quota, max_ssh_keys: 2 } });
    expect((await t.api.post(base(), { name: "second", public_key: ed25519Key() })).status).toBe(201);
    const over = await t.api.post(base(), { name: "third", public_key: ed25519Key() });
    expect(over.status).toBe(400);
    expect(over.message).toMatch(/max_ssh_keys/);
  });

  it("lists with q, id and name filters; pages by number and cursor", async () => {
    const ids: string[] = [];
    for (const name of ["alpha-key", "beta-key", "gamma-key"])
      ids.push((await t.api.post(base(), { name, public_key: ed25519Key() })).body.id);
    const all = await t.api.get(base());
    expect(all.body.items).toHaveLength(3);
    expect((await t.api.get(base(), { name: "BETA" })).body.items.map((k: { id: string }) => k.id)).toEqual([ids[1]]);
    expect((await t.api.get(base(), { q: "gamma" })).body.items.map((k: { id: string }) => k.id)).toEqual([ids[2]]);
    expect((await t.api.get(base(), { q: ids[0] })).body.items.map((k: { id: string }) => k.id)).toEqual([ids[0]]);
    expect((await t.api.get(base(), { id: [ids[0], ids[2]] })).body.items).toHaveLength(2);
    const p1 = await t.api.get(base(), { limit: 2, sort: "name" });
    expect(p1.body.items.map((k: { name: string }) => k.name)).toEqual(["alpha-key", "beta-key"]);
    const p2 = await t.api.get(base(), { limit: 2, sort: "name", after: p1.body.after });
    expect(p2.body.items.map((k: { name: string }) => k.name)).toEqual(["gamma-key"]);
    expect((await t.api.get(base(), { limit: 2, sort: "name", page: 2 })).body.items[0].name).toBe("gamma-key");
    const back = await t.api.get(base(), { limit: 2, sort: "name", before: p2.body.before });
    expect(back.body.items.map((k: { name: string }) => k.name)).toEqual(["alpha-key", "beta-key"]);
  });

  it("DELETE: 202 then 404; the inventory tracks keys", async () => {
    const key = await t.api.post(base(), { name: "doomed-key", public_key: ed25519Key() });
    const inv = await t.control.get("/_emulator/inventory", { workspace: t.workspaceId });
    expect(inv.body.resources.sshKeys).toEqual([{ id: key.body.id, name: "doomed-key", workspaceId: t.workspaceId, state: null }]);
    const res = await t.api.delete(`/v1/ssh/${key.body.id}`);
    expect(res.status).toBe(202);
    expect((await t.api.get(`/v1/ssh/${key.body.id}`)).status).toBe(404);
    expect((await t.api.delete(`/v1/ssh/${key.body.id}`)).status).toBe(404);
    expect((await t.api.get("/v1/ssh/9007199254740993")).status).toBe(404);
  });

  it("grants: INSTANCE WRITE to upload/delete, READ to read; VIEWER cannot upload; other workspace 404; no token 403", async () => {
    const key = await t.api.post(base(), { name: "shared-key", public_key: ed25519Key() });
    const reader = await tokenWith({ INSTANCE: "READ" });
    expect((await reader.get(base())).status).toBe(200);
    expect((await reader.get(`/v1/ssh/${key.body.id}`)).status).toBe(200);
    const upload = await reader.post(base(), { name: "nope-key", public_key: ed25519Key() });
    expect(upload.status).toBe(403);
    expect(upload.message).toMatch(/WRITE permission on INSTANCE/);
    expect((await reader.delete(`/v1/ssh/${key.body.id}`)).status).toBe(403);
    const none = await tokenWith({ DISK: "WRITE" });
    expect((await none.get(base())).status).toBe(403);

    const viewer = await signUp(t, "ssh-viewer");
    await joinWorkspace(t, t.api, t.workspaceId, viewer, "VIEWER");
    expect((await viewer.api.get(`/v1/ssh/${key.body.id}`)).status).toBe(200);
    expect((await viewer.api.post(base(), { name: "viewer-key", public_key: ed25519Key() })).status).toBe(403);

    const outsider = await signUp(t, "ssh-outsider");
    expect((await outsider.api.get(`/v1/ssh/${key.body.id}`)).status).toBe(404);
    expect((await outsider.api.get(base())).status).toBe(404);
    expect((await t.anon.get(base())).status).toBe(403);
  });
});

describe("registry credentials", () => {
  const base = () => `/v1/workspaces/${t.workspaceId}/registries`;

  it.each([
    ["https://GHCR.io/v2/", "ghcr.io", "octo-bot", "ghp_emulatorToken"],
    ["ghcr.io/", "ghcr.io", "octo-bot", "ghp_emulatorToken"],
    ["index.docker.io", "docker.io", "demo-user", "docker-hub-pass"],
    ["https://registry-1.docker.io/v2/", "docker.io", "demo-user", "docker-hub-pass"],
    ["Registry.Example.com:443", "registry.example.com", "deploy", "s3cret-token"],
  ])("canonicalises %s to %s; the password is never returned nor stored in plaintext", async (input, host, username, password) => {
    const res = await t.api.post(base(), { registry: input, username, password });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      registry: host,
      username,
      owner: { id: t.workspaceId, name: "demo-workspace" },
      user: { id: t.emu.userId, name: "Demo User" },
      created: expect.any(String),
      updated: expect.any(String),
    });
    expect(res.text).not.toContain(password);
    const row = await t.control.get(`/_emulator/tables/registries/${res.body.id}`);
    expect(row.text).not.toContain(password);
    expect(row.body.passwordEnc).toMatch(/^enc:v1:/);
    expect((await t.api.get(`${base()}/${res.body.id}`)).text).not.toContain(password);
  });

  it("400 with the reason when the live registry rejects the credentials or is unknown; 400 for a bad host", async () => {
    const wrong = await t.api.post(base(), { registry: "ghcr.io", username: "octo-bot", password: "wrong" });
    expect(wrong.status).toBe(400);
    expect(wrong.message).toMatch(/ghcr.io rejected the credentials/);
    const unknown = await t.api.post(base(), { registry: "quay.io", username: "a", password: "b" });
    expect(unknown.status).toBe(400);
    expect(unknown.message).toMatch(/quay.io could not be reached/);
    const bad = await t.api.post(base(), { registry: "https:///", username: "a", password: "b" });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe("registry");
    expect((await t.api.post(base(), { registry: "ghcr.io", username: "octo-bot" })).status).toBe(400);
    expect((await t.api.get(base())).body.items).toHaveLength(0);
  });

  it("a credential for a host already stored replaces the old one", async () => {
    const first = await t.api.post(base(), { registry: "docker.io", username: "demo-user", password: "docker-hub-pass" });
    await t.control.post("/_emulator/settings", {
      registryAccounts: { "docker.io": { "demo-user": "docker-hub-pass", "other-user": "pw-2" } },
    });
    const second = await t.api.post(base(), { registry: "https://index.docker.io/v1/", username: "other-user", password: "pw-2" });
    expect(second.status).toBe(201);
    expect(second.body.id).not.toBe(first.body.id);
    const list = await t.api.get(base());
    expect(list.body.items.map((r: { id: string; username: string }) => [r.id, r.username])).toEqual([[second.body.id, "other-user"]]);
    expect((await t.api.get(`${base()}/${first.body.id}`)).status).toBe(404);
  });

  it("PATCH: username and/or password, re-validated; host unchangeable; empty or null refused", async () => {
    await t.control.post("/_emulator/settings", {
      registryAccounts: { "registry.example.com": { deploy: "s3cret-token", ops: "s3cret-token", ci: "ci-pass" } },
    });
    const cred = await t.api.post(base(), { registry: "registry.example.com", username: "deploy", password: "s3cret-token" });
    const path = `${base()}/${cred.body.id}`;
    const user = await t.api.patch(path, { username: "ops" }); // same password, other account
    expect(user.status).toBe(200);
    expect(user.body.username).toBe("ops");
    const rejected = await t.api.patch(path, { username: "ci" }); // ci has another password
    expect(rejected.status).toBe(400);
    expect(rejected.message).toMatch(/rejected/);
    expect((await t.api.patch(path, { username: "ci", password: "ci-pass" })).body.username).toBe("ci");
    expect((await t.api.patch(path, { password: "wrong" })).status).toBe(400);

    expect((await t.api.patch(path, {})).status).toBe(400);
    expect((await t.api.patch(path, { password: null })).status).toBe(400);
    expect((await t.api.patch(path, { username: null })).status).toBe(400);
    const host = await t.api.patch(path, { registry: "ghcr.io", username: "ci" });
    expect(host.status).toBe(400);
    expect(host.message).toMatch(/registry: cannot be changed/);
    expect((await t.api.get(path)).body).toMatchObject({ registry: "registry.example.com", username: "ci" });
  });

  it("test: 204 while the credentials work, 400 with the reason once the live registry changes", async () => {
    const cred = await t.api.post(base(), { registry: "ghcr.io", username: "octo-bot", password: "ghp_emulatorToken" });
    const path = `${base()}/${cred.body.id}/test`;
    expect((await t.api.post(path)).status).toBe(204);
    await t.control.post("/_emulator/settings", { registryAccounts: { "ghcr.io": { "octo-bot": "rotated" } } });
    const res = await t.api.post(path);
    expect(res.status).toBe(400);
    expect(res.message).toMatch(/rejected the credentials/);
    await t.control.post("/_emulator/settings", { registryAccounts: {} });
    expect((await t.api.post(path)).message).toMatch(/could not be reached/);
  });

  it("DELETE 204 then 404; list filters registry, username, q, id; paging; inventory", async () => {
    const a = await t.api.post(base(), { registry: "ghcr.io", username: "octo-bot", password: "ghp_emulatorToken" });
    const b = await t.api.post(base(), { registry: "docker.io", username: "demo-user", password: "docker-hub-pass" });
    const c = await t.api.post(base(), { registry: "registry.example.com", username: "deploy", password: "s3cret-token" });
    const ids = async (query: Record<string, string | number | string[]>) =>
      (await t.api.get(base(), query)).body.items.map((r: { id: string }) => r.id);
    expect(await ids({ registry: "GHCR" })).toEqual([a.body.id]);
    expect(await ids({ username: "demo" })).toEqual([b.body.id]);
    expect(await ids({ q: "deploy" })).toEqual([c.body.id]);
    expect(await ids({ id: [b.body.id, c.body.id] })).toHaveLength(2);
    const p1 = await t.api.get(base(), { limit: 2, sort: "registry" });
    expect(p1.body.items.map((r: { registry: string }) => r.registry)).toEqual(["docker.io", "ghcr.io"]);
    expect((await t.api.get(base(), { limit: 2, sort: "registry", after: p1.body.after })).body.items[0].registry).toBe(
      "registry.example.com",
    );
    expect((await t.api.get(base(), { limit: 2, sort: "registry", page: 2 })).body.items[0].registry).toBe("registry.example.com");

    const inv = await t.control.get("/_emulator/inventory", { workspace: t.workspaceId });
    expect(inv.body.resources.registries.map((r: { name: string }) => r.name).sort()).toEqual([
      "docker.io",
      "ghcr.io",
      "registry.example.com",
    ]);

    const del = await t.api.delete(`${base()}/${a.body.id}`);
    expect(del.status).toBe(204);
    expect((await t.api.get(`${base()}/${a.body.id}`)).status).toBe(404);
    expect((await t.api.delete(`${base()}/${a.body.id}`)).status).toBe(404);
  });

  it("authorization: VIEWER reads but cannot write; other workspace 404 (also through another workspace's path); no token 403", async () => {
    const cred = await t.api.post(base(), { registry: "ghcr.io", username: "octo-bot", password: "ghp_emulatorToken" });
    const viewer = await signUp(t, "reg-viewer");
    await joinWorkspace(t, t.api, t.workspaceId, viewer, "VIEWER");
    expect((await viewer.api.get(`${base()}/${cred.body.id}`)).status).toBe(200);
    expect((await viewer.api.post(base(), { registry: "docker.io", username: "demo-user", password: "docker-hub-pass" })).status).toBe(403);
    expect((await viewer.api.delete(`${base()}/${cred.body.id}`)).status).toBe(403);

    const outsider = await signUp(t, "reg-outsider");
    expect((await outsider.api.get(`${base()}/${cred.body.id}`)).status).toBe(404);
    // The credential is not reachable through a workspace it does not belong to.
    expect((await outsider.api.get(`/v1/workspaces/${outsider.workspaceId}/registries/${cred.body.id}`)).status).toBe(404);
    expect((await t.anon.get(base())).status).toBe(403);
    const noWorkspaceGrant = await tokenWith({ INSTANCE: "WRITE" });
    expect((await noWorkspaceGrant.get(base())).status).toBe(403);
  });
});

describe("persistence", () => {
  it("registry credentials and SSH keys survive a --state restart (the stored password still decrypts)", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "part1-state-"));
    const stateFile = path.join(dir, "state.json");
    const first = await startTestEmulator({ stateFile });
    let credId: string;
    let keyId: string;
    try {
      const ws = `/v1/workspaces/${first.workspaceId}`;
      credId = (await first.api.post(`${ws}/registries`, { registry: "ghcr.io", username: "octo-bot", password: "ghp_emulatorToken" })).body
        .id;
      keyId = (await first.api.post(`${ws}/ssh`, { name: "persisted", public_key: ed25519Key() })).body.id;
      expect(fs.readFileSync(stateFile, "utf8")).not.toContain("ghp_emulatorToken");
    } finally {
      await first.stop();
    }
    const second = await startTestEmulator({ stateFile });
    try {
      expect((await second.api.post(`/v1/workspaces/${second.workspaceId}/registries/${credId}/test`)).status).toBe(204);
      expect((await second.api.get(`/v1/ssh/${keyId}`)).body.name).toBe("persisted");
    } finally {
      await second.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
