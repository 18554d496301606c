/**
 * Reads secrets as Pulumi's cloud secrets manager wrote them (pulumi pkg/secrets/cloud), so the
 * harness can read a stack's state from its checkpoint file as `pulumi stack export
 * --show-secrets` prints it, with no CLI process: the tests read state after nearly every step.
 *
 * The stack's config file holds `encryptedkey: <base64 of the key service's ciphertext of the data
 * key>`; each secret is `v1:<nonce>:<AES-256-GCM ciphertext and tag>` under that data key, all
 * base64 (pulumi sdk/go/common/resource/config, the symmetric crypter).
 */
import * as fs from "node:fs";
import { createDecipheriv } from "node:crypto";
import type { Transit } from "./transit";

export type Decrypt = (ciphertext: string) => string;

/** The decrypter of a stack whose config file is `stackConfigFile`, its data key opened by `transit`. */
export function stateDecrypter(stackConfigFile: string, transit: Transit): Decrypt {
  const key = transit.decrypt(Buffer.from(encryptedKeyOf(stackConfigFile), "base64").toString("utf8"));
  return (ciphertext) => {
    const [version, nonce, sealed] = ciphertext.split(":");
    if (version !== "v1" || !nonce || !sealed) throw new Error(`not a symmetric ciphertext: ${ciphertext.slice(0, 12)}…`);
    const bytes = Buffer.from(sealed, "base64");
    const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(nonce, "base64"));
    decipher.setAuthTag(bytes.subarray(bytes.length - 16));
    return Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - 16)), decipher.final()]).toString("utf8");
  };
}

/** The deployment's `secrets_providers` of such a stack, as `pulumi stack export` writes it (for a deployment made elsewhere). */
export function secretsProvidersOf(
  stackConfigFile: string,
  transit: Transit,
): { type: "cloud"; state: { url: string; encryptedkey: string } } {
  return { type: "cloud", state: { url: transit.secretsProvider, encryptedkey: encryptedKeyOf(stackConfigFile) } };
}

/** The stack's data key as the key service sealed it, base64 (`encryptedkey` in its config file). */
function encryptedKeyOf(stackConfigFile: string): string {
  const line = /^encryptedkey: (\S+)$/m.exec(fs.readFileSync(stackConfigFile, "utf8"));
  if (!line) throw new Error(`${stackConfigFile} has no encryptedkey: not a stack kept with the transit stand-in`);
  return line[1];
}
