/**
 * Access and billing resources: the preview-time checks and the policy tables (check and diff
 * only; no API).
 */
import { UNKNOWN } from "../../../provider/lifecycle";
import { apiTokenSpec } from "../../../resources/apiToken";
import { couponSpec } from "../../../resources/coupon";
import { canonicalRegistryHost, registryCredentialSpec } from "../../../resources/registryCredential";
import { normalisePublicKey, sshKeySpec } from "../../../resources/sshKey";
import { workspaceSpec } from "../../../resources/workspace";
import { workspaceInviteSpec } from "../../../resources/workspaceInvite";
import { estimatePartBody } from "../../../resources/lookups/billing";
import { checkOnly } from "../../support/preview";

// A real ed25519 public key (32-byte key), and a second one.
const blob = (type: string, key: Buffer) => {
  const field = (b: Buffer) => Buffer.concat([Buffer.from([0, 0, 0, b.length]), b]);
  return Buffer.concat([field(Buffer.from(type)), field(key)]).toString("base64");
};
const ED1 = `ssh-ed25519 ${blob("ssh-ed25519", Buffer.alloc(32, 1))} alice@laptop`;
const ED2 = `ssh-ed25519 ${blob("ssh-ed25519", Buffer.alloc(32, 2))} bob@laptop`;

describe("Workspace", () => {
  const p = checkOnly(workspaceSpec);
  it("checks the name length with the rule", async () => {
    const r = await p.check!({}, { name: "abc" });
    expect(r.failures).toEqual([{ property: "name", reason: "must be 4 to 32 characters (spec part 1, Workspaces)" }]);
  });
  it("is not workspace-scoped and patches every field", async () => {
    const r = await p.check!({}, { name: "team-a", mfaRequired: true });
    expect(r.failures).toEqual([]);
    expect(r.inputs).toEqual({ name: "team-a", mfaRequired: true });
    const d = await p.diff!(
      "1",
      { name: "team-a", mfaRequired: false, disableSshPassword: false },
      { name: "team-b", mfaRequired: true, disableSshPassword: true },
    );
    expect(d).toMatchObject({ changes: true, replaces: [] });
  });
  it("is retained on destroy (the API has no delete)", () => {
    expect(workspaceSpec.retainOnDelete).toBe(true);
  });
});

describe("WorkspaceInvite", () => {
  const p = checkOnly(workspaceInviteSpec);
  it("rejects OWNER at preview with the rule", async () => {
    const r = await p.check!({}, { email: "a@example.com", accessLevel: "OWNER" });
    expect(r.failures).toHaveLength(1);
    expect(r.failures![0].property).toBe("accessLevel");
    expect(r.failures![0].reason).toMatch(/OWNER is never assignable by invite.*lower than your own role/);
  });
  it("lower-cases the email as the API stores it", async () => {
    const r = await p.check!({}, { email: "New.Person@Example.COM", accessLevel: "VIEWER" });
    expect(r.inputs).toMatchObject({ email: "new.person@example.com", workspaceId: "42" });
  });
  it("rejects a malformed email", async () => {
    const r = await p.check!({}, { email: "not-an-address", accessLevel: "VIEWER" });
    expect(r.failures![0]).toMatchObject({ property: "email", reason: expect.stringMatching(/email address/) });
  });
  it("patches the level, replaces on a new email", async () => {
    const olds = { workspaceId: "42", email: "a@example.com", accessLevel: "VIEWER", state: "PENDING" };
    expect(await p.diff!("1", olds, { ...olds, accessLevel: "EDITOR" })).toMatchObject({ changes: true, replaces: [] });
    expect(await p.diff!("1", olds, { ...olds, email: "b@example.com" })).toMatchObject({
      replaces: ["email"],
      deleteBeforeReplace: false,
    });
  });
  it("replaces an expired invite, deleting it first", async () => {
    const olds = { workspaceId: "42", email: "a@example.com", accessLevel: "VIEWER", state: "EXPIRED" };
    expect(await p.diff!("1", olds, { workspaceId: "42", email: "a@example.com", accessLevel: "VIEWER" })).toMatchObject({
      changes: true,
      replaces: ["state"],
      deleteBeforeReplace: true,
    });
  });
  it("marks the code secret and keeps it from state", () => {
    expect(workspaceInviteSpec.secretOutputs).toEqual(["code"]);
    expect(workspaceInviteSpec.keepFromState).toEqual(["code"]);
  });
});

describe("ApiToken", () => {
  const p = checkOnly(apiTokenSpec);
  const base = { name: "ci-deploy", expiresInDays: 30, grants: { INSTANCE: "WRITE", DISK: "NONE" } };
  it("drops NONE grants and defaults the subject to WORKSPACE", async () => {
    const r = await p.check!({}, base);
    expect(r.failures).toEqual([]);
    expect(r.inputs).toEqual({ ...base, grants: { INSTANCE: "WRITE" }, subject: "WORKSPACE", workspaceId: "42" });
  });
  it("rejects an unknown kind, a bad level and a map that is empty once NONE is dropped", async () => {
    let r = await p.check!({}, { ...base, grants: { VPC: "READ" } });
    expect(r.failures![0]).toMatchObject({ property: "grants.VPC", reason: expect.stringMatching(/unknown resource kind/) });
    r = await p.check!({}, { ...base, grants: { INSTANCE: "ADMIN" } });
    expect(r.failures![0]).toMatchObject({ property: "grants.INSTANCE", reason: expect.stringMatching(/NONE, READ or WRITE/) });
    r = await p.check!({}, { ...base, grants: { INSTANCE: "NONE" } });
    expect(r.failures![0]).toMatchObject({ property: "grants", reason: expect.stringMatching(/may not be empty/) });
  });
  it("bounds the lifetime to 7..365 days and the name to 4..48 characters", async () => {
    const r = await p.check!({}, { ...base, name: "ci", expiresInDays: 400 });
    expect(r.failures!.map((f) => f.property).sort()).toEqual(["expiresInDays", "name"]);
    expect(r.failures!.find((f) => f.property === "expiresInDays")!.reason).toMatch(/7 to 365 days/);
    expect((await p.check!({}, { ...base, expiresInDays: 6 })).failures).toHaveLength(1);
  });
  it("needs subjectId exactly when the subject is RESOURCE", async () => {
    expect((await p.check!({}, { ...base, subject: "RESOURCE" })).failures).toEqual([
      { property: "subjectId", reason: expect.stringMatching(/RESOURCE token needs subjectId/) },
    ]);
    expect((await p.check!({}, { ...base, subjectId: "7" })).failures).toEqual([
      { property: "subjectId", reason: expect.stringMatching(/only for subject RESOURCE/) },
    ]);
    expect((await p.check!({}, { ...base, subject: "RESOURCE", subjectId: "7" })).failures).toEqual([]);
    // Not known until up: checked then.
    expect((await p.check!({}, { ...base, subject: "RESOURCE", subjectId: UNKNOWN })).failures).toEqual([]);
  });
  it("replaces on every change", async () => {
    const olds = { workspaceId: "42", name: "ci-deploy", expiresInDays: 30, grants: { INSTANCE: "WRITE" }, subject: "WORKSPACE" };
    for (const change of [
      { name: "ci-deploy-2" },
      { expiresInDays: 60 },
      { grants: { INSTANCE: "READ" } },
      { subject: "RESOURCE", subjectId: "9" },
    ]) {
      const d = await p.diff!("1", olds, { ...olds, ...change });
      expect(d.replaces!.length).toBeGreaterThan(0);
    }
    expect(await p.diff!("1", { ...olds, code: "secret", lastUsed: "2026-01-01T00:00:00Z" }, olds)).toMatchObject({ changes: false });
  });
});

describe("SshKey", () => {
  const p = checkOnly(sshKeySpec);
  it("checks the key's shape and normalises its whitespace", async () => {
    const r = await p.check!({}, { name: "alice", publicKey: `  ${ED1.replace(/ /g, "   ")}\n` });
    expect(r.failures).toEqual([]);
    expect(r.inputs!.publicKey).toBe(ED1);
    expect(normalisePublicKey("ssh-dss AAAA")).toEqual({ error: expect.stringMatching(/must start with a key type/) });
    expect(normalisePublicKey("ssh-ed25519 not_base64!")).toEqual({ error: expect.stringMatching(/must be base64/) });
    expect(normalisePublicKey(`ssh-rsa ${ED1.split(" ")[1]}`)).toEqual({ error: expect.stringMatching(/not a ssh-rsa key/) });
  });
  it("reports a malformed key on publicKey with the rule", async () => {
    const r = await p.check!({}, { name: "alice", publicKey: "hello" });
    expect(r.failures![0]).toMatchObject({
      property: "publicKey",
      reason: expect.stringMatching(/well-formed public key.*spec part 1, SSH keys/),
    });
  });
  it("replaces on every change; a rename deletes the old key first (same key)", async () => {
    const olds = { workspaceId: "42", name: "alice", publicKey: ED1 };
    expect(await p.diff!("1", olds, { ...olds, name: "alice-2" })).toMatchObject({ replaces: ["name"], deleteBeforeReplace: true });
    expect(await p.diff!("1", olds, { ...olds, publicKey: ED2 })).toMatchObject({ replaces: ["publicKey"], deleteBeforeReplace: false });
  });
});

describe("RegistryCredential", () => {
  const p = checkOnly(registryCredentialSpec);
  it("canonicalises the host like the API", () => {
    expect(canonicalRegistryHost("https://GHCR.io/v2/")).toBe("ghcr.io");
    expect(canonicalRegistryHost("index.docker.io")).toBe("docker.io");
    expect(canonicalRegistryHost("user@registry.example.com:443/path")).toBe("registry.example.com");
    expect(canonicalRegistryHost("registry.example.com:5000")).toBe("registry.example.com:5000");
    expect(canonicalRegistryHost("not a host")).toBeNull();
  });
  it("records the canonical host, so an alias of the recorded host is no change", async () => {
    const r = await p.check!({}, { registry: "https://Registry.Example.com/", username: "deploy", password: "x" });
    expect(r.inputs).toMatchObject({ registry: "registry.example.com" });
    const olds = { workspaceId: "42", registry: "registry.example.com", username: "deploy", password: "x" };
    expect(await p.diff!("1", olds, r.inputs!)).toMatchObject({ changes: false });
  });
  it("rejects a value that is not a host, and empty credentials", async () => {
    const r = await p.check!({}, { registry: "://", username: "", password: "" });
    expect(r.failures!.map((f) => f.property).sort()).toEqual(["password", "registry", "username"]);
  });
  it("patches username and password, replaces on a new host", async () => {
    const olds = { workspaceId: "42", registry: "registry.example.com", username: "deploy", password: "x" };
    expect(await p.diff!("1", olds, { ...olds, username: "other", password: "y" })).toMatchObject({ changes: true, replaces: [] });
    expect(await p.diff!("1", olds, { ...olds, registry: "ghcr.io" })).toMatchObject({ replaces: ["registry"] });
  });
});

describe("Coupon", () => {
  const p = checkOnly(couponSpec);
  it("fills the API's defaults and drops duplicate flags", async () => {
    const r = await p.check!({}, { amount: 5_000_000, uses: 3, flags: ["BETA", "BETA"] });
    expect(r.failures).toEqual([]);
    expect(r.inputs).toEqual({ amount: 5_000_000, uses: 3, flags: ["BETA"], expiryDays: 30 });
  });
  it("rejects non-positive amounts and uses with the rule", async () => {
    const r = await p.check!({}, { amount: 0, uses: 1.5 });
    expect(r.failures!.map((f) => f.property).sort()).toEqual(["amount", "uses"]);
    expect(r.failures![0].reason).toMatch(/spec part 3/);
  });
  it("replaces on every change; a replacement that keeps the declared code deletes first", async () => {
    const olds = { amount: 1, uses: 1, code: "WELCOME", expiryDays: 30, flags: [] };
    expect(await p.diff!("1", olds, { ...olds, amount: 2 })).toMatchObject({ replaces: ["amount"], deleteBeforeReplace: true });
    expect(await p.diff!("1", olds, { ...olds, code: "OTHER" })).toMatchObject({ replaces: ["code"], deleteBeforeReplace: false });
    expect(await p.diff!("1", { ...olds, usesRemaining: 0 }, olds)).toMatchObject({ changes: false });
  });
});

describe("getBillingEstimate parts", () => {
  it("maps camelCase parts to the API's snake_case", () => {
    expect(estimatePartBody({ type: "CPU", cpu: 2, serviceGroup: "LIGHTNING" }, 0)).toEqual({
      type: "CPU",
      cpu: 2,
      service_group: "LIGHTNING",
    });
    expect(estimatePartBody({ type: "MEMORY", memoryBytes: 1024 }, 0)).toEqual({ type: "MEMORY", memory_bytes: 1024 });
    expect(estimatePartBody({ type: "STORAGE", storageBytes: 10, storageBacking: "ceph" }, 0)).toEqual({
      type: "STORAGE",
      storage_bytes: 10,
      storage_backing: "ceph",
    });
    expect(estimatePartBody({ type: "BANDWIDTH", direction: "UPLOAD", speedBytesSec: 5 }, 0)).toEqual({
      type: "BANDWIDTH",
      direction: "UPLOAD",
      speed_bytes_sec: 5,
    });
    expect(estimatePartBody({ type: "FLOATING_IP", family: "IPv4", ddos: true }, 0)).toEqual({
      type: "FLOATING_IP",
      family: "IPv4",
      ddos: true,
    });
  });
  it("names the part and field that is wrong", () => {
    expect(() => estimatePartBody({ type: "MEMORY" } as never, 2)).toThrow(/parts\[2\]\.memoryBytes is required/);
    expect(() => estimatePartBody({ type: "GPU" } as never, 1)).toThrow(/parts\[1\]\.type must be/);
    expect(() => estimatePartBody({ type: "FLOATING_IP", family: "IPv6", ddos: true }, 0)).toThrow(/IPv4 only/);
  });
});
