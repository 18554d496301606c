/**
 * RegistryCredential — a username and password for a private container registry, stored per
 * workspace (spec part 1, Registry credentials; Registry credential).
 *
 *   GET    /v1/workspaces/{wid}/registries        paged credential views (no password); query registry (host substring)
 *   POST   /v1/workspaces/{wid}/registries        registry (host, full URL or alias), username, password -> 201 view
 *   GET    /v1/workspaces/{wid}/registries/{id}   credential view
 *   PATCH  /v1/workspaces/{wid}/registries/{id}   username, password (re-validated against the live registry)
 *   DELETE /v1/workspaces/{wid}/registries/{id}   204
 *
 * Rules: credentials are validated against the live registry before being stored (a refusal is
 * a 400 whose reason is shown); the host is canonicalised by the server (aliases and full URLs
 * normalise to one form), cannot be changed by PATCH (so a change replaces the credential), and
 * a POST for a host the workspace already has replaces the existing credential.
 *
 * The password is write-only (never returned by any endpoint): it is kept from state as a
 * secret, so a password changed outside Pulumi cannot be detected; the username can.
 *
 * One credential per host: when the workspace already has one for the declared host, creating
 * this resource stops and names the adoptId that takes it over (a POST would silently replace a
 * credential a person stored). With adoptId, the username and password converge with PATCH and
 * `pulumi destroy` deletes it like one this stack created.
 */
import { z } from "../provider/fields/zod";
import type { OperationContext } from "../provider/context";
import { ApiError, ifFound } from "../provider/errors";
import {
  computed,
  fieldSet,
  fromFields,
  input,
  type InputsOf,
  type OutputsOf,
  owningWorkspace,
  writeOnly,
  createdAtIfAnswered,
} from "../provider/fields/declare";
import { createBody, outputsFromAnswer, updateBody } from "../provider/fields/convert";
import { listAll } from "../provider/client/paging";
import { type ResourceDefinition } from "../provider/definition";
import { canonicalRegistryHost } from "../provider/fields/registryHost";
import type { RegistryCredentialArgs, RegistryCredentialOutputs } from "./generated/registryCredential";
import { replace, updateRequest } from "../provider/fields/changeEffects";

export { canonicalRegistryHost };

const WHERE = "spec part 1, Registry credentials";

// 1. Inputs and outputs, each field declared once: type and limits, doc, what a change does, how it is read (provider/fields/declare.ts).
const nonEmpty = (what: string) => z.string().min(1, `must not be empty (${WHERE}: ${what} is required)`);

/** Canonicalised at preview, so an alias or URL of the recorded host is no change. */
const zHost = z.string().transform((v, ctx) => {
  const host = canonicalRegistryHost(v);
  if (!host) {
    ctx.addIssue({
      code: "custom",
      message: `must be a registry host, full URL or alias, for example ghcr.io or https://registry.example.com (${WHERE}: registry)`,
    });
    return z.NEVER;
  }
  return host;
});

// The host cannot be patched (a new one is another credential); username and password are patched together.
/** @internal */
export const registryCredentialFields = fieldSet({
  workspaceId: owningWorkspace,
  registry: input(zHost, {
    doc: "Registry host, full URL or alias (https://GHCR.io/v2/ and ghcr.io are the same). Recorded in the canonical form the API uses.",
    onChange: replace,
  }),
  username: input(nonEmpty("username"), { doc: "Username (re-validated against the registry on a change).", onChange: updateRequest }),
  password: writeOnly(nonEmpty("password"), {
    doc: "Password or access token (secret; re-validated on a change). Write-only in the API: a change made outside Pulumi cannot be detected.",
    onChange: updateRequest,
    secret: true,
  }),
  createdAt: createdAtIfAnswered,
  updatedAt: computed<string | undefined>({ doc: "Time of the last change (ISO 8601), as the API reports it.", wire: "updated" }),
});
type Inputs = InputsOf<typeof registryCredentialFields>;
type Outputs = OutputsOf<typeof registryCredentialFields>;

// 2. API mapping.
/** The API's credential view (spec part 1, Registry credential): never the password. */
interface ApiRegistry {
  id: string;
  registry: string;
  username: string;
  owner?: { id: string; name: string } | null;
  created?: string;
  updated?: string;
}

const path = (workspaceId: string, id?: string) => `/v1/workspaces/${workspaceId}/registries${id ? `/${id}` : ""}`;

// The owner is the credential's workspace (owningWorkspace reads `workspace`).
const toOutputs = (r: ApiRegistry, workspaceId: string): Outputs =>
  outputsFromAnswer(registryCredentialFields, { ...r, workspace: r.owner }, { workspaceId });

async function get(ctx: OperationContext, id: string, prior: Partial<Inputs>): Promise<Outputs | undefined> {
  const found = await ifFound(ctx.client.get<ApiRegistry>(path(prior.workspaceId ?? "", id)));
  return found && toOutputs(found, prior.workspaceId ?? "");
}

/** The workspace's credential for a canonical host, if any. */
async function credentialFor(ctx: OperationContext, workspaceId: string, host: string): Promise<ApiRegistry | undefined> {
  const found = await listAll<ApiRegistry>(ctx.client, path(workspaceId), { registry: host });
  return found.find((r) => canonicalRegistryHost(r.registry) === host);
}

/** The live registry's refusal (400), with the rule. */
function rejected(ctx: OperationContext, err: unknown, host: string): unknown {
  if (err instanceof ApiError && err.status === 400) {
    return new Error(
      `${ctx.label}: the API refused the credentials for ${host}: ${err.reason ?? err.message} (${WHERE}: credentials are validated against the live registry before being stored). Check the username and password.`,
    );
  }
  return err;
}

// 3. The definition: what a change does (its effects) and the API calls.
/** @internal */
export const registryCredentialDefinition: ResourceDefinition<Inputs, Outputs> = {
  kind: "RegistryCredential",
  doc: "Credentials apps use to pull images from a private registry. Validated by the API against the live registry; a credential the workspace already has for the host is adopted, not duplicated. Apps pulling from that registry can no longer pull updates once it is deleted.",
  ...fromFields(registryCredentialFields),
  label: (i, id) => `RegistryCredential ${i.registry ?? id ?? ""}`.trim(),
  // One credential per host and workspace (conflict): a replacement keeping both deletes the old one first.
  uniqueKey: ["workspaceId", "registry"],
  pricing: { notMetered: "access, not capacity: no rate card meters it" },
  api: {
    // One credential per host: a POST would silently replace one a person stored, so an existing
    // credential for the host is taken over only through adoptId.
    async conflict(ctx, i) {
      const existing = await credentialFor(ctx, i.workspaceId, i.registry);
      return (
        existing && {
          id: String(existing.id),
          description: `the workspace already has a credential for ${i.registry} (id ${existing.id}); a workspace holds one per host`,
          alternative: "delete it first",
        }
      );
    },
    async create(ctx, i) {
      try {
        const created = await ctx.client.post<ApiRegistry>(path(i.workspaceId), createBody(registryCredentialFields, i));
        return { id: String(created.id) };
      } catch (err) {
        throw rejected(ctx, err, i.registry);
      }
    },
    async list(ctx, workspaceId) {
      return (await listAll<ApiRegistry>(ctx.client, path(workspaceId))).map((r) => ({ id: String(r.id), name: r.registry }));
    },
    // One credential per host, and conflict showed there was none before the POST: the one for
    // the host now is the one this create made.
    async findExisting(ctx, i) {
      return (await credentialFor(ctx, i.workspaceId, i.registry))?.id;
    },
    get: (ctx, id, prior) => get(ctx, id, prior),
    update: {
      // Both are sent: the API re-validates the pair, and the stored password cannot be read to
      // know whether it still matches the declared one (it may have been changed outside Pulumi).
      async updateRequest(ctx, id, olds, news) {
        try {
          await ctx.client.patch(path(news.workspaceId, id), updateBody(registryCredentialFields, news, ["username", "password"]));
        } catch (err) {
          throw rejected(ctx, err, olds.registry);
        }
      },
    },
    // Answered 204 once deleted (spec part 1, DELETE /v1/workspaces/{wid}/registries/{id}).
    goneOnAnswer: true,
    async delete(ctx, id, olds) {
      await ctx.client.delete(path(olds.workspaceId, id));
      return null;
    },
  },
};

// 4. The public Args: generated from the fields, with the class (resources/generated/registryCredential.ts).
export type { RegistryCredentialArgs, RegistryCredentialOutputs };
