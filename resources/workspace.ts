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
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { createdDuring, type OperationContext } from "../provider/context";
import { ApiError, ifFound } from "../provider/errors";
import { listAll } from "../provider/paging";
import { type CommonArgs } from "../provider/resource";
import { type InputsMatch, zText } from "../provider/schema";
import { compact, idOf } from "../provider/wire";
import { type ResourceSpec, updateRequest } from "../provider/spec";

const WHERE = "spec part 1, Workspaces";

// 1. Inputs.
const inputs = z.object({
  name: zText(4, 32, WHERE),
  mfaRequired: z.boolean().optional(),
  disableSshPassword: z.boolean().optional(),
});
type Inputs = z.infer<typeof inputs>;
// The public WorkspaceArgs and the schema above declare the same fields (checked by the compiler).
const _fieldsMatch: InputsMatch<WorkspaceArgs, z.infer<typeof inputs>> = true;

export interface WorkspaceOutputs extends Record<string, unknown> {
  name: string;
  mfaRequired: boolean;
  disableSshPassword: boolean;
  /** The owning user (id, name). */
  owner: { id: string; name: string } | null;
  /** Workspace flags (for example set by coupons). */
  flags: string[];
  createdAt?: string;
}

// 2. API mapping.
interface ApiWorkspace {
  id: string;
  name: string;
  owner?: { id: string; name: string } | null;
  flags?: string[];
  mfa_required?: boolean;
  disable_ssh_password?: boolean;
  created?: string;
}

const toOutputs = (w: ApiWorkspace): WorkspaceOutputs =>
  compact({
    name: w.name,
    mfaRequired: !!w.mfa_required,
    disableSshPassword: !!w.disable_ssh_password,
    owner: w.owner ? { id: idOf(w.owner.id)!, name: w.owner.name } : null,
    flags: [...(w.flags ?? [])],
    createdAt: w.created,
  });

async function fetchWorkspace(ctx: OperationContext, id: string): Promise<ApiWorkspace | undefined> {
  return ifFound(ctx.client.get<ApiWorkspace>(`/v1/workspaces/${id}`));
}

/** PATCH body field per input. */
const FIELDS: Record<string, string> = { name: "name", mfaRequired: "mfa_required", disableSshPassword: "disable_ssh_password" };

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

// 3. The spec: what a change does (policies) and the API calls.
/** @internal */
export const workspaceSpec: ResourceSpec<Inputs, WorkspaceOutputs> = {
  kind: "Workspace",
  doc: "A workspace; the token's user becomes its OWNER (needs a user-scoped token). The API cannot delete workspaces: `pulumi destroy` (or removing it from the program) only removes it from the stack; it keeps existing in the API, and `adoptId` takes it back. Its `id` is what workspace-scoped resources take as `workspaceId`.",
  inputs,
  // What a change does: everything is patched in place.
  policies: { name: updateRequest, mfaRequired: updateRequest, disableSshPassword: updateRequest },
  stableOutputs: ["owner", "createdAt"],
  // No delete endpoint: destroy only forgets the workspace.
  retainOnDelete: true,
  pricing: { notMetered: "an account container: no rate card meters it" },
  api: {
    async create(ctx, i) {
      const ws = await ctx.client.post<ApiWorkspace>(`/v1/workspaces`, { name: i.name });
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
    async read(ctx, id) {
      const w = await fetchWorkspace(ctx, id);
      return w && toOutputs(w);
    },
    // The create body carries only the name; the settings are patched right after.
    afterCreate: ["updateRequest"],
    update: {
      async updateRequest(ctx, id, _olds, news, changed) {
        const body: Record<string, unknown> = {};
        for (const f of changed) body[FIELDS[f]] = news[f];
        try {
          await ctx.client.patch(`/v1/workspaces/${id}`, body);
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

// 4. The public Args: the class is generated from them and the spec (resources/generated/).
export interface WorkspaceArgs extends CommonArgs {
  /** 4 to 32 characters. Renamed in place (needs the OWNER role). */
  name: pulumi.Input<string>;
  /**
   * Require two-factor authentication of every member. Patched in place; needs OWNER, and the
   * API rejects turning it on unless every member already has 2FA (its reason is shown).
   * Omit to leave the setting unmanaged.
   */
  mfaRequired?: pulumi.Input<boolean>;
  /** Disable SSH password authentication on instances when SSH keys are present. Patched in place. Omit to leave it unmanaged. */
  disableSshPassword?: pulumi.Input<boolean>;
}
