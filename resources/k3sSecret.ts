/**
 * K3sSecret — key-value pairs services inject as environment variables (spec part 3, Managed
 * Kubernetes, Kubernetes secret).
 *
 *   GET    /v1/workspaces/{wid}/k3s/secrets        paged { id, name, keys } (values are never returned)
 *   POST   /v1/workspaces/{wid}/k3s/secrets        name (unique in the workspace), data -> secret object (names only)
 *   PUT    /v1/workspaces/{wid}/k3s/secrets/{id}   data: full replacement (keys not present are removed)
 *   DELETE /v1/workspaces/{wid}/k3s/secrets/{id}   204; 409 while any service lists it in secret_refs
 *
 * There is no GET of one secret: it is read from the list. Values are write-only: `data` is kept
 * from state (as a Pulumi secret) and only its key names can be compared with the API. When the
 * key names differ (changed outside Pulumi), `data` is dropped from the outputs so the next up
 * writes it again; a value changed outside Pulumi under the same key cannot be detected.
 */
import { isDeepStrictEqual } from "node:util";
import { z } from "../provider/fields/zod";
import type { OperationContext } from "../provider/context";
import { ApiError } from "../provider/errors";
import {
  autonamed,
  computed,
  fieldSet,
  fromFields,
  input,
  type InputField,
  type InputsOf,
  type OutputsOf,
  owningWorkspace,
  writeOnly,
} from "../provider/fields/declare";
import { createBody, outputsFromAnswer } from "../provider/fields/convert";
import { listAll } from "../provider/client/paging";
import { idOf } from "../provider/client/wire";
import { type ResourceDefinition } from "../provider/definition";
import type { K3sSecretArgs, K3sSecretOutputs } from "./generated/k3sSecret";
import { clusterOf } from "./k3sCluster";
import { replace, updateRequest } from "../provider/fields/changeEffects";

const WHERE = "spec part 3, Kubernetes secret";

// 1. Inputs and outputs, each field declared once (provider/fields/declare.ts).
const zData = z.record(z.string(), z.string({ error: `values must be strings (${WHERE}: data is an object of key to value)` }), {
  error: `must be an object of key to value (${WHERE})`,
});

/** @internal */
export const k3sSecretFields = fieldSet({
  workspaceId: owningWorkspace,
  name: autonamed(
    input(z.string().min(1, `must not be empty (${WHERE}: name is required, unique in the workspace)`), {
      doc: "Unique in the workspace; services reference the secret by this name.",
      // The name cannot change.
      onChange: replace,
    }),
  ),
  // Write-only in the API: kept from state; recorded as null when the API's key names no longer
  // match it (changed outside Pulumi, see read), so the next up writes it again.
  data: writeOnly(zData, {
    doc: "Key to value; every pair is injected into referencing services as an environment variable. Always stored as a Pulumi secret (wrapped if given in plain). Values are write-only in the API: only a change of key names made outside Pulumi is detected (the recorded data then reads as null, and the next up writes it again).",
    // PUT replaces the whole data map.
    onChange: updateRequest,
    secret: true,
  }) as InputField<typeof zData, true, Record<string, string> | null | undefined>,
  keys: computed<string[]>({ doc: "Key names, sorted.", fromAnswer: (s: ApiSecret) => [...(s.keys ?? [])].sort() }),
});
type Inputs = InputsOf<typeof k3sSecretFields>;
type Outputs = OutputsOf<typeof k3sSecretFields>;

// 2. API mapping.
interface ApiSecret {
  id: string;
  name: string;
  keys?: string[];
}

const secretsPath = (workspaceId: string) => `/v1/workspaces/${workspaceId}/k3s/secrets`;

const listSecrets = (ctx: OperationContext, workspaceId: string) => listAll<ApiSecret>(ctx.client, secretsPath(workspaceId));

const secretByName = async (ctx: OperationContext, workspaceId: string, name: string) =>
  (await listSecrets(ctx, workspaceId)).find((s) => s.name === name);

async function get(ctx: OperationContext, id: string, prior: Partial<Outputs>): Promise<Outputs | undefined> {
  const workspaceId = prior.workspaceId ?? "";
  const found = (await listSecrets(ctx, workspaceId)).find((s) => idOf(s.id) === id);
  if (!found) return undefined;
  const out = outputsFromAnswer(k3sSecretFields, found, { workspaceId });
  // `data` itself is carried over from state by the lifecycle (kept); when the recorded keys no
  // longer match the API's, the recorded values are stale: null makes the next up rewrite them.
  return prior.data && !isDeepStrictEqual(Object.keys(prior.data).sort(), out.keys) ? { ...out, data: null } : out;
}

/** Names of the services whose secret_refs list the secret (for the 409 message). */
async function referencingServices(ctx: OperationContext, workspaceId: string, name: string): Promise<string[]> {
  try {
    const views = await listAll<{ service?: { name: string; secret_refs?: string[] } }>(
      ctx.client,
      `/v1/workspaces/${workspaceId}/k3s/services`,
    );
    return views
      .map((v) => v.service ?? (v as unknown as { name: string; secret_refs?: string[] }))
      .filter((s) => s.secret_refs?.includes(name))
      .map((s) => s.name);
  } catch {
    return [];
  }
}

// 3. The definition: what a change does (its effects) and the API calls.
/** @internal */
export const k3sSecretDefinition: ResourceDefinition<Inputs, Outputs> = {
  kind: "K3sSecret",
  doc: "Key-value pairs for K3sServices (through their secretRefs); the values stay secret in state.",
  ...fromFields(k3sSecretFields),
  // Names are unique in the workspace: a replacement that keeps the name deletes the old secret first.
  uniqueKey: ["name"],
  pricing: { notMetered: "configuration data: no rate card meters it" },
  api: {
    // Names are unique in the workspace (spec part 3).
    async conflict(ctx, i) {
      const existing = await secretByName(ctx, i.workspaceId, i.name);
      return (
        existing && {
          id: String(existing.id),
          description: `a secret named "${i.name}" already exists in the workspace (id ${existing.id})`,
          alternative: "choose another name",
        }
      );
    },
    async create(ctx, i) {
      const secret = await ctx.client.post<ApiSecret>(secretsPath(i.workspaceId), createBody(k3sSecretFields, i));
      return { id: String(secret.id) };
    },
    async list(ctx, workspaceId) {
      return (await listSecrets(ctx, workspaceId)).map((s) => ({ id: String(s.id), name: s.name }));
    },
    // conflict showed the name was free before the POST, so a secret found by name now is the
    // one this create made.
    async findExisting(ctx, i) {
      return (await secretByName(ctx, i.workspaceId, i.name))?.id;
    },
    get,
    update: {
      async updateRequest(ctx, id, _olds, news) {
        await ctx.client.put(`${secretsPath(news.workspaceId)}/${id}`, { data: news.data });
      },
    },
    async delete(ctx, id, olds) {
      try {
        await ctx.client.delete(`${secretsPath(olds.workspaceId)}/${id}`);
      } catch (err) {
        if (!(err instanceof ApiError) || err.status !== 409) throw err;
        const cluster = await clusterOf(ctx, olds.workspaceId);
        // The cluster is being torn down (which removes its secrets): wait for it.
        if (!cluster || cluster.status === "DEPROVISIONING") return null;
        if (cluster.status !== "ACTIVE") throw err;
        const users = await referencingServices(ctx, olds.workspaceId, olds.name);
        throw new Error(
          `${ctx.label}: the API refuses to delete secret ${id} (409: ${err.reason ?? "the secret is in use"}). ` +
            `${users.length ? `Service${users.length > 1 ? "s" : ""} ${users.join(", ")} still list${users.length > 1 ? "" : "s"}` : "A service still lists"} "${olds.name}" in secret_refs: ` +
            `remove the reference first (drop it from the K3sService's secretRefs, or delete the service), then run pulumi up again.`,
        );
      }
      return null;
    },
  },
};

// 4. The public Args: generated from the fields, with the class (resources/generated/k3sSecret.ts).
export type { K3sSecretArgs, K3sSecretOutputs };
