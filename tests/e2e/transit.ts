/**
 * The harness's stacks keep their secrets with Pulumi's `hashivault://` secrets provider, served
 * by this loopback stand-in for Vault's transit engine, not with a passphrase.
 *
 * Why: the passphrase secrets manager derives its key (PBKDF2, 1,000,000 rounds of SHA-256) in
 * every CLI process that opens the stack. That is about 0.3 s of CPU for each of the suite's
 * thousand-odd `pulumi` runs. A cloud secrets manager derives nothing. It asks the key service
 * once per process to open the stack's data key (`encryptedkey` in Pulumi.<stack>.yaml), then
 * seals each secret with it as the passphrase manager does (pulumi pkg/secrets/cloud). The engine's
 * handling of secrets is the same either way. Stacks made outside the harness (the examples, the
 * CI backends, the packed package's own stack) keep the passphrase a user starts with.
 *
 * What is served is what gocloud.dev/secrets/hashivault calls, as Vault answers it:
 * `PUT /v1/transit/encrypt/<key>` {plaintext: base64} → {data: {ciphertext: "vault:v1:…"}} and
 * `PUT /v1/transit/decrypt/<key>` {ciphertext} → {data: {plaintext: base64}}, with the token in
 * X-Vault-Token. The ciphertext is AES-256-GCM under a key that lives only in this process.
 */
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import * as http from "node:http";

export interface Transit {
  /** The `--secrets-provider` URL of a stack kept with it. */
  secretsProvider: string;
  /** What the CLI needs to reach it (gocloud.dev's hashivault variables). */
  env: Record<string, string>;
  /** Opens a ciphertext it made, as its decrypt endpoint does. */
  decrypt(ciphertext: string): Buffer;
  stop(): Promise<void>;
}

const PREFIX = "vault:v1:";

export async function startTransit(): Promise<Transit> {
  const key = randomBytes(32);
  const token = randomBytes(16).toString("hex");
  const encrypt = (plaintext: Buffer) => {
    const nonce = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", key, nonce);
    const sealed = Buffer.concat([nonce, cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
    return PREFIX + sealed.toString("base64");
  };
  const decrypt = (ciphertext: string) => {
    if (!ciphertext.startsWith(PREFIX)) throw new Error(`not a transit ciphertext: ${ciphertext.slice(0, 12)}…`);
    const sealed = Buffer.from(ciphertext.slice(PREFIX.length), "base64");
    const decipher = createDecipheriv("aes-256-gcm", key, sealed.subarray(0, 12));
    decipher.setAuthTag(sealed.subarray(sealed.length - 16));
    return Buffer.concat([decipher.update(sealed.subarray(12, sealed.length - 16)), decipher.final()]);
  };
  /** Vault's two transit operations, by the path's verb. */
  const operations: Record<string, (body: Record<string, string>) => Record<string, string>> = {
    encrypt: ({ plaintext }) => ({ ciphertext: encrypt(Buffer.from(plaintext ?? "", "base64")) }),
    decrypt: ({ ciphertext }) => ({ plaintext: decrypt(ciphertext ?? "").toString("base64") }),
  };

  const server = http.createServer((req, res) => {
    let text = "";
    req.on("data", (chunk: Buffer) => (text += chunk));
    req.on("end", () => {
      const answer = (status: number, body: unknown) =>
        res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
      const operation = /^\/v1\/transit\/(encrypt|decrypt)\/[\w-]+$/.exec(req.url ?? "")?.[1];
      if (req.headers["x-vault-token"] !== token) return answer(403, { errors: ["permission denied"] });
      if (!operation || (req.method !== "PUT" && req.method !== "POST"))
        return answer(404, { errors: [`no handler for ${req.method} ${req.url}`] });
      try {
        answer(200, { data: operations[operation](JSON.parse(text || "{}") as Record<string, string>) });
      } catch (err) {
        answer(400, { errors: [String((err as Error).message)] });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    secretsProvider: "hashivault://e2e",
    env: { VAULT_SERVER_URL: `http://127.0.0.1:${port}`, VAULT_SERVER_TOKEN: token },
    decrypt,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
