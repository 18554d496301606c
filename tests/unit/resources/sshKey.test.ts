/**
 * SshKey: the key's shape at preview and the policy table (check and diff only; no API).
 */
import { normalisePublicKey, sshKeySpec } from "../../../resources/sshKey";
import { checkOnly } from "../../support/preview";

// A real ed25519 public key (32-byte key), and a second one.
const blob = (type: string, key: Buffer) => {
  const field = (b: Buffer) => Buffer.concat([Buffer.from([0, 0, 0, b.length]), b]);
  return Buffer.concat([field(Buffer.from(type)), field(key)]).toString("base64");
};
const ED1 = `ssh-ed25519 ${blob("ssh-ed25519", Buffer.alloc(32, 1))} alice@laptop`;
const ED2 = `ssh-ed25519 ${blob("ssh-ed25519", Buffer.alloc(32, 2))} bob@laptop`;

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
