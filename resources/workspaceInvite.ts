/**
 * WorkspaceInvite — an invitation of an email address into a workspace at a role (spec part 1,
 * Invites; Invite; States and transitions: Invite).
 *
 *   POST   /v1/workspaces/{wid}/invites   email, access_level -> 201 invite including its single-use code
 *   GET    /v1/invites/{id}               invite (never the code)
 *   PATCH  /v1/invites/{id}               access_level (lower than the caller's role; not one's own invite)
 *   DELETE /v1/invites/{id}               202; an accepted member loses access at once
 *
 * Creating, patching and deleting need the ADMINISTRATOR role, and the level must be lower than
 * the caller's own (OWNER is never assignable by invite).
 *
 * Lifecycle as the API shows it: pending -> accepted (the addressee used the code) or expired
 * (seven days passed). GET /v1/invites/{id} keeps answering for accepted and expired invites
 * (only the code lookup answers 404 for them), so:
 * - an accepted invite stays in the stack; it carries the membership: changing accessLevel
 *   changes the member's role, deleting it removes the member;
 * - an expired invite (seen by `pulumi refresh`) can no longer be accepted: the next `pulumi up`
 *   replaces it with a fresh one (deleting the expired one first).
 */
import { z } from "../provider/fields/zod";
import { createdDuring, type OperationContext } from "../provider/context";
import { ApiError, ifFound } from "../provider/errors";
import {
  computed,
  fieldSet,
  fromFields,
  input,
  type InputsOf,
  type OutputsOf,
  owningWorkspace,
  createdAtIfAnswered,
} from "../provider/fields/declare";
import { createBody, outputsFromAnswer, updateBody } from "../provider/fields/convert";
import { listAll } from "../provider/client/paging";
import { idOf } from "../provider/client/wire";
import { type ResourceDefinition } from "../provider/definition";
import type { WorkspaceInviteArgs, WorkspaceInviteOutputs } from "./generated/workspaceInvite";
import { replace, updateRequest } from "../provider/fields/changeEffects";

const WHERE = "spec part 1, Invites";

// 1. Inputs and outputs, each field declared once: type and limits, doc, what a change does, how it is read (provider/fields/declare.ts).
/** @internal */
export const workspaceInviteFields = fieldSet({
  workspaceId: owningWorkspace,
  // Lower-cased as the API stores it, so diffs stay quiet.
  email: input(
    z.email({ error: `must be an email address (${WHERE})` }).transform((e) => e.toLowerCase()),
    {
      doc: "Address the invite is mailed to (lower-cased, as the API stores it).",
      onChange: replace,
    },
  ),
  accessLevel: input(
    z.enum(["VIEWER", "EDITOR", "ADMINISTRATOR"], {
      error: `must be VIEWER, EDITOR or ADMINISTRATOR: OWNER is never assignable by invite, and the level must be lower than your own role (${WHERE})`,
    }),
    {
      doc: "VIEWER, EDITOR or ADMINISTRATOR, lower than your own role (OWNER is never assignable by invite); on an accepted invite a change changes the member's role.",
      onChange: updateRequest,
      wire: "access_level",
    },
  ),
  state: computed<string>({ doc: "PENDING, ACCEPTED or EXPIRED.", fromAnswer: (i: ApiInvite) => stateOf(i) }),
  expires: computed<string>({ doc: "Expiry, seven days after creation.", stable: true }),
  acceptedBy: computed<string | null>({
    doc: "User id of the member who accepted it, else null.",
    fromAnswer: (i: ApiInvite) => idOf(i.target),
  }),
  invitedBy: computed<{ id: string; name: string } | null>({
    doc: "The creator (id, name).",
    stable: true,
    fromAnswer: (i: ApiInvite) => (i.user ? { id: idOf(i.user.id)!, name: i.user.name } : null),
  }),
  // Only the creation answer carries it (spec part 1: the lookup omits it): create records it, reads keep it.
  code: computed<string | undefined>({
    doc: "Single-use code: returned only by the creation response (secret); unset when unknown (adopted).",
    secret: true,
    kept: true,
  }),
  createdAt: createdAtIfAnswered,
});
type Inputs = InputsOf<typeof workspaceInviteFields>;
type Outputs = OutputsOf<typeof workspaceInviteFields>;

// 2. API mapping.
/** The API's invite (spec part 1, Invite). */
interface ApiInvite {
  id: string;
  user?: { id: string; name: string } | null;
  target?: string | null;
  email: string;
  workspace?: { id: string; name: string } | null;
  expires: string;
  access_level: string;
  state?: string;
  created?: string;
  code?: string;
}

/** The state the spec describes: accepted (has a target), expired (past `expires`), else pending. */
function stateOf(i: ApiInvite): string {
  if (i.state) return i.state;
  if (i.target !== null && i.target !== undefined) return "ACCEPTED";
  return Date.parse(i.expires) <= Date.now() ? "EXPIRED" : "PENDING";
}

async function get(ctx: OperationContext, id: string, prior: Partial<Inputs>): Promise<Outputs | undefined> {
  const found = await ifFound(ctx.client.get<ApiInvite>(`/v1/invites/${id}`));
  return found && outputsFromAnswer(workspaceInviteFields, found, { workspaceId: prior.workspaceId ?? "" });
}

/** The API's refusals (role rules), with the rule. */
function refusal(ctx: OperationContext, err: unknown, what: string): unknown {
  if (!(err instanceof ApiError)) return err;
  if (err.status === 403) {
    return new Error(
      `${ctx.label}: the API refused to ${what}: ${err.reason ?? err.message} (${WHERE}: needs ADMINISTRATOR; the level must be lower than your own role; your own invite cannot be edited).`,
    );
  }
  if (err.status === 409) return new Error(`${ctx.label}: the API refused to ${what}: ${err.reason ?? err.message}.`);
  return err;
}

// 3. The definition: what a change does (its effects) and the API calls.
/** @internal */
export const workspaceInviteDefinition: ResourceDefinition<Inputs, Outputs> = {
  kind: "WorkspaceInvite",
  doc: "An invitation into a workspace (needs the ADMINISTRATOR role). The addressee accepts it with the single-use `code` (mailed, and kept here as a secret output) within seven days. `pulumi refresh` records acceptance (`acceptedBy`) or expiry; an expired invite is replaced by the next `pulumi up`. Deleting an accepted invite removes the member.",
  ...fromFields(workspaceInviteFields),
  // One pending invite per address in a workspace: a replacement that keeps the email deletes first.
  uniqueKey: ["email"],
  // An expired invite can no longer be accepted: the next up replaces it.
  broken: (o) => o.state === "EXPIRED",
  label: (i, id) => `WorkspaceInvite ${i.email ?? id ?? ""}`.trim(),
  pricing: { notMetered: "access, not capacity: no rate card meters it" },
  api: {
    async create(ctx, i) {
      let invite: ApiInvite;
      try {
        invite = await ctx.client.post<ApiInvite>(`/v1/workspaces/${i.workspaceId}/invites`, createBody(workspaceInviteFields, i));
      } catch (err) {
        throw refusal(ctx, err, `invite ${i.email} as ${i.accessLevel}`);
      }
      // The single-use code is only in this answer (spec part 1: the lookup omits it).
      return { id: String(invite.id), outputs: { code: invite.code } };
    },
    // A lost creation answer also lost the code: the pending invite is adopted (the addressee
    // got the code by mail) and `code` stays unset.
    async list(ctx, workspaceId) {
      const invites = await listAll<ApiInvite>(ctx.client, `/v1/workspaces/${workspaceId}/invites`);
      return invites.map((v) => ({
        id: String(v.id),
        name: v.email,
        ...(stateOf(v) === "EXPIRED" ? { leftOut: "expired: the API answers it no more" } : {}),
      }));
    },
    async findExisting(ctx, i) {
      const found = await listAll<ApiInvite>(ctx.client, `/v1/workspaces/${i.workspaceId}/invites`, { email: i.email });
      return found.find((v) => v.email === i.email && stateOf(v) === "PENDING" && createdDuring(ctx, v.created))?.id;
    },
    get: (ctx, id, prior) => get(ctx, id, prior),
    update: {
      async updateRequest(ctx, id, _olds, news, changed) {
        try {
          await ctx.client.patch(`/v1/invites/${id}`, updateBody(workspaceInviteFields, news, changed));
        } catch (err) {
          throw refusal(ctx, err, `change the access level to ${news.accessLevel}`);
        }
      },
    },
    async delete(ctx, id) {
      try {
        await ctx.client.delete(`/v1/invites/${id}`);
      } catch (err) {
        if (err instanceof ApiError && err.notFound) throw err;
        throw refusal(ctx, err, "delete the invite");
      }
      return null;
    },
  },
};

// 4. The public Args: generated from the fields, with the class (resources/generated/workspaceInvite.ts).
export type { WorkspaceInviteArgs, WorkspaceInviteOutputs };
