/**
 * Reads secrets as the passphrase secrets manager wrote them (pulumi pkg/secrets/passphrase), so
 * the harness can read a stack's state from its checkpoint file as `pulumi stack export
 * --show-secrets` prints it, with no CLI process: each such process derives the key again (PBKDF2,
 * 1,000,000 rounds of SHA-256, about 0.5 s) and the tests read state after nearly every step.
 *
 * The stack's config file holds `encryptionsalt: v1:<salt>:<the word "pulumi", encrypted>`; each
 * secret is `v1:<nonce>:<AES-256-GCM ciphertext and tag>`, all base64.
 */
import { createDecipheriv, pbkdf2 } from "node:crypto";
import * as fs from "node:fs";
import { promisify } from "node:util";

export type Decrypt = (ciphertext: string) => string;

/** The decrypter of a stack whose config file is `stackConfigFile`; checked against the salt's own ciphertext. */
export async function passphraseDecrypter(stackConfigFile: string, passphrase: string): Promise<Decrypt> {
  const line = /^encryptionsalt: v1:([^:]+):(v1:\S+)$/m.exec(fs.readFileSync(stackConfigFile, "utf8"));
  if (!line) throw new Error(`${stackConfigFile} has no passphrase encryptionsalt`);
  const key = await promisify(pbkdf2)(passphrase, Buffer.from(line[1], "base64"), 1_000_000, 32, "sha256");
  const decrypt: Decrypt = (ciphertext) => {
    const [version, nonce, sealed] = ciphertext.split(":");
    if (version !== "v1" || !nonce || !sealed) throw new Error(`not a passphrase ciphertext: ${ciphertext.slice(0, 12)}…`);
    const bytes = Buffer.from(sealed, "base64");
    const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(nonce, "base64"));
    decipher.setAuthTag(bytes.subarray(bytes.length - 16));
    return Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - 16)), decipher.final()]).toString("utf8");
  };
  if (decrypt(line[2]) !== "pulumi") throw new Error(`the passphrase does not open ${stackConfigFile}`);
  return decrypt;
}
