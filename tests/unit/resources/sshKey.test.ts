/**
 * SshKey: the key's shape at preview and the policy table (check and diff only; no API).
 */
import { normalisePublicKey, sshKeyDefinition } from "../../../resources/sshKey";
import { checkOnly } from "../../support/preview";
import { fakeContext } from "./support";

// A real ed25519 public key (32-byte key), and a second one.
const blob = (type: string, key: Buffer) => {
  const field = (b: Buffer) => Buffer.concat([Buffer.from([0, 0, 0, b.length]), b]);
  return Buffer.concat([field(Buffer.from(type)), field(key)]).toString("base64");
};
const ED1 = `ssh-ed25519 ${blob("ssh-ed25519", Buffer.alloc(32, 1))} alice@laptop`;
const ED2 = `ssh-ed25519 ${blob("ssh-ed25519", Buffer.alloc(32, 2))} bob@laptop`;

describe("SshKey", () => {
  const p = checkOnly(sshKeyDefinition);
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

describe("SshKey API mapping (the state's shape)", () => {
  const apiKey = {
    id: "5",
    name: "deploy",
    public_key: ED1,
    fingerprint: "SHA256:abc",
    user: { id: 9, name: "ana" },
    owner: { id: 42, name: "ws" },
    created: "2026-01-01T00:00:00Z",
  };

  it("creates with name and public_key, and reads what the state records", async () => {
    const { ctx, calls } = fakeContext({ "POST /v1/workspaces/42/ssh": () => apiKey }, "create");
    expect(await sshKeyDefinition.api.create(ctx, { workspaceId: "42", name: "deploy", publicKey: ED1 })).toEqual({ id: "5" });
    expect(calls).toEqual([{ method: "POST", path: "/v1/workspaces/42/ssh", body: { name: "deploy", public_key: ED1 } }]);
    const read = async (answer: object) =>
      sshKeyDefinition.api.get(fakeContext({ "GET /v1/ssh/5": () => answer }).ctx, "5", { workspaceId: "7" });
    expect(await read(apiKey)).toStrictEqual({
      workspaceId: "42",
      name: "deploy",
      publicKey: ED1,
      fingerprint: "SHA256:abc",
      uploadedBy: { id: "9", name: "ana" },
      createdAt: "2026-01-01T00:00:00Z",
    });
    // Missing members are left out, not recorded as undefined.
    expect(await read({ id: "5", name: "deploy", public_key: ED1 })).toStrictEqual({
      workspaceId: "7",
      name: "deploy",
      publicKey: ED1,
      uploadedBy: null,
    });
  });
});
