/**
 * Workspace — the unit that owns every other resource (spec part 1, Workspaces).
 *
 *   POST  /v1/workspaces        name (4-32) -> full workspace object; the caller becomes OWNER
 *   GET   /v1/workspaces/{id}   full workspace object: id, name, owner, flags (+ settings)
 *   PATCH /v1/workspaces/{id}   name (needs OWNER), mfa_required (needs OWNER; rejected unless
 *                               every member already has 2FA), disable_ssh_password
 *
 * The API has no delete for workspaces: `pulumi destroy` only forgets the workspace (it stays,
 * with whatever it still holds, and can be taken back with `adoptId`). Creating one needs a
 * user-scoped token (a person becomes its OWNER); a workspace or resource token is refused.
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
  createdAtIfAnswered,
} from "../provider/fields/declare";
import { createBody, outputsFromAnswer, updateBody } from "../provider/fields/convert";
import { listAll } from "../provider/client/paging";
import { zText } from "../provider/fields/constraints";
import { idOf } from "../provider/client/wire";
import { type ResourceDefinition } from "../provider/definition";
import type { WorkspaceArgs, WorkspaceOutputs } from "./generated/workspace";
import { updateRequest } from "../provider/fields/changeEffects";

const WHERE = "spec part 1, Workspaces";

// 1. Inputs and outputs, each field declared once: type and limits, doc, what a change does, how it is read (provider/fields/declare.ts).
// Everything is patched in place; a setting left out is not managed (its output still says what the API has).
/** @internal */
export const workspaceFields = fieldSet({
  name: autonamed(input(zText(4, 32, WHERE), { doc: "4 to 32 characters; renaming needs the OWNER role.", onChange: updateRequest })),
  mfaRequired: input(z.boolean().optional(), {
    doc:
      "Require two-factor authentication of every member. Needs OWNER, and the API rejects turning it on unless every member " +
      "already has 2FA (its reason is shown). Omit to leave the setting unmanaged.",
    onChange: updateRequest,
    wire: "mfa_required",
    // Patched right after creation (afterCreate): the create request takes only the name.
    create: false,
    fromAnswer: (w: ApiWorkspace) => !!w.mfa_required,
  }),
  disableSshPassword: input(z.boolean().optional(), {
    doc: "Disable SSH password authentication on instances when SSH keys are present. Omit to leave it unmanaged.",
    onChange: updateRequest,
    wire: "disable_ssh_password",
    create: false,
    fromAnswer: (w: ApiWorkspace) => !!w.disable_ssh_password,
  }),
  owner: computed<{ id: string; name: string } | null>({
    doc: "The owning user (id, name).",
    stable: true,
    fromAnswer: (w: ApiWorkspace) => (w.owner ? { id: idOf(w.owner.id)!, name: w.owner.name } : null),
  }),
  flags: computed<string[]>({
    doc: "Workspace flags (for example set by coupons).",
    fromAnswer: (w: ApiWorkspace) => [...(w.flags ?? [])],
  }),
  createdAt: createdAtIfAnswered,
});
type Inputs = InputsOf<typeof workspaceFields>;
type Outputs = OutputsOf<typeof workspaceFields>;

// 2. API mapping.
/** The API's full workspace object (spec part 1). */
interface ApiWorkspace {
  id: string;
  name: string;
  owner?: { id: string; name: string } | null;
  flags?: string[];
  mfa_required?: boolean;
  disable_ssh_password?: boolean;
  created?: string;
}

async function fetchWorkspace(ctx: OperationContext, id: string): Promise<ApiWorkspace | undefined> {
  return ifFound(ctx.client.get<ApiWorkspace>(`/v1/workspaces/${id}`));
}

/** The API's refusal, worded with the rule and what to do. */
function patchRefusal(ctx: OperationContext, err: ApiError, changed: string[]): Error {
  if (changed.includes("mfaRequired") && (err.status === 409 || err.status === 400)) {
    return new Error(
      `${ctx.label}: the API refused mfaRequired: ${err.reason ?? err.message} ` +
        `(${WHERE}: mfa_required is rejected unless every member already has two-factor authentication). ` +
        `Have every member activate 2FA, then run pulumi up again.`,
    );
  }
  if (err.status === 403) {
    return new Error(
      `${ctx.label}: the API refused the change of ${changed.join(", ")}: ${err.reason ?? err.message} (${WHERE}: name and mfa_required need the OWNER role; disable_ssh_password needs ADMINISTRATOR).`,
    );
  }
  return err;
}

// 3. The definition: what a change does (its effects) and the API calls.
/** @internal */
export const workspaceDefinition: ResourceDefinition<Inputs, Outputs> = {
  kind: "Workspace",
  doc: "A workspace; the token's user becomes its OWNER (needs a user-scoped token). The API cannot delete workspaces: `pulumi destroy` (or removing it from the program) only removes it from the stack; it keeps existing in the API, and `adoptId` takes it back. Its `id` is what workspace-scoped resources take as `workspaceId`.",
  ...fromFields(workspaceFields),
  // No delete endpoint: destroy only forgets the workspace.
  retainOnDelete: true,
  pricing: { notMetered: "an account container: no rate card meters it" },
  api: {
    async create(ctx, i) {
      const ws = await ctx.client.post<ApiWorkspace>(`/v1/workspaces`, createBody(workspaceFields, i));
      return { id: String(ws.id) };
    },
    // The summaries carry no creation time: the full object of each same-named workspace the
    // caller OWNS is read, and one created during this operation is the one.
    async findExisting(ctx, i) {
      const found = await listAll<{ id: string; name: string; access_level?: string }>(ctx.client, `/v1/workspaces`, { name: i.name });
      for (const s of found.filter((w) => w.name === i.name && (w.access_level === undefined || w.access_level === "OWNER"))) {
        const full = await fetchWorkspace(ctx, String(s.id));
        if (full && createdDuring(ctx, full.created)) return String(full.id);
      }
      return undefined;
    },
    async get(ctx, id) {
      const w = await fetchWorkspace(ctx, id);
      return w && outputsFromAnswer(workspaceFields, w);
    },
    // The create body carries only the name; the settings are patched right after.
    afterCreate: ["updateRequest"],
    update: {
      async updateRequest(ctx, id, _olds, news, changed) {
        try {
          await ctx.client.patch(`/v1/workspaces/${id}`, updateBody(workspaceFields, news, changed));
        } catch (err) {
          throw err instanceof ApiError ? patchRefusal(ctx, err, changed) : err;
        }
      },
    },
    // Never called (retainOnDelete): the API has no delete for workspaces.
    async delete() {
      return null;
    },
  },
};

// 4. The public Args: generated from the fields, with the class (resources/generated/workspace.ts).
export type { WorkspaceArgs, WorkspaceOutputs };
