/**
 * SshKey — a public key of a workspace, injected into new instances at provision time (spec
 * part 1, SSH keys).
 *
 *   POST   /v1/workspaces/{wid}/ssh   name (4-32), public_key (well-formed) -> SSH key object;
 *                                     error when the workspace quota of keys (max_ssh_keys) is reached
 *   GET    /v1/ssh/{id}               SSH key object
 *   DELETE /v1/ssh/{id}               202
 *
 * There is no update endpoint: every change replaces the key. Deleting a key does not change
 * instances already provisioned.
 */
import { z } from "../provider/fields/zod";
import { createdDuring, type OperationContext } from "../provider/context";
import { ApiError, ifFound } from "../provider/errors";
import {
  autonamed,
  computed,
  fieldSet,
  fromFields,
  input,
  type InputsOf,
  type OutputsOf,
  owningWorkspace,
  createdAtIfAnswered,
} from "../provider/fields/declare";
import { createBody, outputsFromAnswer } from "../provider/fields/convert";
import { listAll } from "../provider/client/paging";
import { zText } from "../provider/fields/constraints";
import { idOf } from "../provider/client/wire";
import { type ResourceDefinition } from "../provider/definition";
import type { SshKeyArgs, SshKeyOutputs } from "./generated/sshKey";
import { replace } from "../provider/fields/changeEffects";

const WHERE = "spec part 1, SSH keys";

// 1. Inputs and outputs, each field declared once: type and limits, doc, what a change does, how it is read (provider/fields/declare.ts).
/** OpenSSH public key types. @internal */
const SSH_KEY_TYPES = [
  "ssh-ed25519",
  "ssh-rsa",
  "ecdsa-sha2-nistp256",
  "ecdsa-sha2-nistp384",
  "ecdsa-sha2-nistp521",
  "sk-ssh-ed25519@openssh.com",
  "sk-ecdsa-sha2-nistp256@openssh.com",
];

/**
 * Checks the shape of an OpenSSH public key line, "<type> <base64 blob> [comment]", whose blob
 * starts with the type again (RFC 4253 section 6.6). Returns the line with its whitespace
 * normalised (single spaces, trimmed), or the reason it is not well-formed.
 * @internal
 */
export function normalisePublicKey(text: string): { line: string } | { error: string } {
  const trimmed = text.trim();
  if (/[\r\n]/.test(trimmed)) return { error: "must be a single line" };
  const [type, b64, ...comment] = trimmed.split(/\s+/);
  if (!SSH_KEY_TYPES.includes(type)) return { error: `must start with a key type (${SSH_KEY_TYPES.join(", ")})` };
  if (!b64 || !/^[A-Za-z0-9+/]+={0,2}$/.test(b64) || b64.length % 4 !== 0) return { error: `the key body after "${type}" must be base64` };
  const blob = Buffer.from(b64, "base64");
  const len = blob.length >= 4 ? blob.readUInt32BE(0) : -1;
  if (len < 0 || 4 + len > blob.length || blob.subarray(4, 4 + len).toString() !== type)
    return { error: `the base64 body is not a ${type} key (its first field must repeat the key type)` };
  return { line: [type, b64, ...comment].join(" ") };
}

const zPublicKey = z.string().transform((v, ctx) => {
  const r = normalisePublicKey(v);
  if ("error" in r) {
    ctx.addIssue({
      code: "custom",
      message: `${r.error}: a well-formed public key looks like "ssh-ed25519 AAAAC3Nza... user@host" (${WHERE}: public_key)`,
    });
    return z.NEVER;
  }
  return r.line;
});

// No update endpoint: every change replaces the key.
/** @internal */
export const sshKeyFields = fieldSet({
  workspaceId: owningWorkspace,
  name: autonamed(input(zText(4, 32, WHERE), { doc: "Display name, 4 to 32 characters (the API has no update).", onChange: replace })),
  publicKey: input(zPublicKey, {
    doc: 'OpenSSH public key line, "<type> <base64> [comment]" (ssh-ed25519, ssh-rsa, ecdsa-sha2-*, sk-*); checked at preview.',
    onChange: replace,
    wire: "public_key",
  }),
  fingerprint: computed<string | undefined>({ doc: "Fingerprint, when the API reports one (SHA256:...).", stable: true }),
  uploadedBy: computed<{ id: string; name: string } | null>({
    doc: "The uploader (id, name).",
    stable: true,
    fromAnswer: (k: ApiSshKey) => (k.user ? { id: idOf(k.user.id)!, name: k.user.name } : null),
  }),
  createdAt: createdAtIfAnswered,
});
type Inputs = InputsOf<typeof sshKeyFields>;
type Outputs = OutputsOf<typeof sshKeyFields>;

// 2. API mapping.
/** The API's SSH key object (spec part 1). */
interface ApiSshKey {
  id: string;
  name: string;
  public_key: string;
  fingerprint?: string;
  user?: { id: string; name: string } | null;
  owner?: { id: string; name: string } | null;
  created?: string;
}

// The owner is the key's workspace (owningWorkspace reads `workspace`).
const toOutputs = (k: ApiSshKey, workspaceId: string): Outputs =>
  outputsFromAnswer(sshKeyFields, { ...k, workspace: k.owner }, { workspaceId });

async function get(ctx: OperationContext, id: string, prior: Partial<Inputs>): Promise<Outputs | undefined> {
  const found = await ifFound(ctx.client.get<ApiSshKey>(`/v1/ssh/${id}`));
  return found && toOutputs(found, prior.workspaceId ?? "");
}

/** Key type and body: the comment does not make a different key. */
const keyBody = (line: string) => line.split(" ").slice(0, 2).join(" ");

// 3. The definition: what a change does (its effects) and the API calls.
/** @internal */
export const sshKeyDefinition: ResourceDefinition<Inputs, Outputs> = {
  kind: "SshKey",
  doc: "A workspace SSH key, injected into instances provisioned after it exists. Every change replaces it.",
  ...fromFields(sshKeyFields),
  // The API refuses the same key twice in a workspace: a replacement that keeps the key material
  // (a rename, or only a new comment) deletes the old one first. The comment is not identity.
  uniqueKey: (i) => i.publicKey?.split(" ").slice(0, 2).join(" "),
  pricing: { notMetered: "access, not capacity: no rate card meters it" },
  api: {
    async create(ctx, i) {
      try {
        const key = await ctx.client.post<ApiSshKey>(`/v1/workspaces/${i.workspaceId}/ssh`, createBody(sshKeyFields, i));
        return { id: String(key.id) };
      } catch (err) {
        if (err instanceof ApiError && err.status === 400 && /quota/i.test(err.reason ?? "")) {
          throw new Error(
            `${ctx.label}: the workspace's SSH key quota is reached: ${err.reason} (${WHERE}: key count capped by max_ssh_keys; see getWorkspaceQuota). Delete a key or ask for a higher quota.`,
          );
        }
        throw err;
      }
    },
    // The same key twice in a workspace is refused (a 409 from the emulator; the spec is silent):
    // the key that holds it is found first, so the message names the adoptId that takes it over.
    async conflict(ctx, i) {
      const held = (await listAll<ApiSshKey>(ctx.client, `/v1/workspaces/${i.workspaceId}/ssh`)).find(
        (k) => keyBody(k.public_key) === keyBody(i.publicKey),
      );
      return (
        held && {
          id: String(held.id),
          description: `the workspace already stores this public key as SSH key "${held.name}" (id ${held.id})`,
          alternative: "remove the other declaration of it",
        }
      );
    },
    async list(ctx, workspaceId) {
      return (await listAll<ApiSshKey>(ctx.client, `/v1/workspaces/${workspaceId}/ssh`)).map((k) => ({ id: String(k.id), name: k.name }));
    },
    async findExisting(ctx, i) {
      const found = await listAll<ApiSshKey>(ctx.client, `/v1/workspaces/${i.workspaceId}/ssh`, { name: i.name });
      return found.find((k) => k.name === i.name && keyBody(k.public_key) === keyBody(i.publicKey) && createdDuring(ctx, k.created))?.id;
    },
    get: (ctx, id, prior) => get(ctx, id, prior),
    async delete(ctx, id) {
      await ctx.client.delete(`/v1/ssh/${id}`);
      return null;
    },
  },
};

// 4. The public Args: generated from the fields, with the class (resources/generated/sshKey.ts).
export type { SshKeyArgs, SshKeyOutputs };
