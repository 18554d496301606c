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
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { createdDuring, type OperationContext } from "../provider/context";
import { ApiError, ifFound } from "../provider/errors";
import { listAll } from "../provider/paging";
import { type WorkspaceScopedArgs } from "../provider/resource";
import { type InputsMatch } from "../provider/schema";
import { compact, idOf } from "../provider/wire";
import { replace, type ResourceSpec, updateRequest } from "../provider/spec";

const WHERE = "spec part 1, Invites";

// 1. Inputs.
const inputs = z.object({
  /** Lower-cased as the API stores it, so diffs stay quiet. */
  email: z.email({ error: `must be an email address (${WHERE})` }).transform((e) => e.toLowerCase()),
  accessLevel: z.enum(["VIEWER", "EDITOR", "ADMINISTRATOR"], {
    error: `must be VIEWER, EDITOR or ADMINISTRATOR: OWNER is never assignable by invite, and the level must be lower than your own role (${WHERE})`,
  }),
});
type Inputs = z.infer<typeof inputs> & { workspaceId: string };
// The public WorkspaceInviteArgs and the schema above declare the same fields (checked by the compiler).
const _fieldsMatch: InputsMatch<WorkspaceInviteArgs, z.infer<typeof inputs>> = true;

export interface WorkspaceInviteOutputs extends Record<string, unknown> {
  workspaceId: string;
  email: string;
  accessLevel: string;
  /** PENDING, ACCEPTED or EXPIRED. */
  state: string;
  /** Expiry, seven days after creation. */
  expires: string;
  /** User id of the member who accepted it, else null. */
  acceptedBy: string | null;
  /** The creator (id, name). */
  invitedBy: { id: string; name: string } | null;
  /** Single-use code: returned only by the creation response (secret); unset when unknown (adopted). */
  code?: string;
  createdAt?: string;
}

// 2. API mapping.
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

const toOutputs = (i: ApiInvite, workspaceId: string): WorkspaceInviteOutputs =>
  compact({
    workspaceId: idOf(i.workspace) ?? workspaceId,
    email: i.email,
    accessLevel: i.access_level,
    state: stateOf(i),
    expires: i.expires,
    acceptedBy: idOf(i.target),
    invitedBy: i.user ? { id: idOf(i.user.id)!, name: i.user.name } : null,
    createdAt: i.created,
  });

async function read(ctx: OperationContext, id: string, prior: Partial<Inputs>): Promise<WorkspaceInviteOutputs | undefined> {
  const found = await ifFound(ctx.client.get<ApiInvite>(`/v1/invites/${id}`));
  return found && toOutputs(found, prior.workspaceId ?? "");
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

// 3. The spec: what a change does (policies) and the API calls.
/** @internal */
export const workspaceInviteSpec: ResourceSpec<Inputs, WorkspaceInviteOutputs> = {
  kind: "WorkspaceInvite",
  doc: "An invitation into a workspace (needs the ADMINISTRATOR role). The addressee accepts it with the single-use `code` (mailed, and kept here as a secret output) within seven days. `pulumi refresh` records acceptance (`acceptedBy`) or expiry; an expired invite is replaced by the next `pulumi up`. Deleting an accepted invite removes the member.",
  workspaceScoped: true,
  inputs,
  // What a change does.
  policies: { email: replace, accessLevel: updateRequest },
  secretOutputs: ["code"],
  keepFromState: ["code"],
  stableOutputs: ["expires", "createdAt", "invitedBy"],
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
        invite = await ctx.client.post<ApiInvite>(`/v1/workspaces/${i.workspaceId}/invites`, {
          email: i.email,
          access_level: i.accessLevel,
        });
      } catch (err) {
        throw refusal(ctx, err, `invite ${i.email} as ${i.accessLevel}`);
      }
      // The single-use code is only in this answer (spec part 1: the lookup omits it).
      return { id: String(invite.id), outputs: { code: invite.code } };
    },
    // A lost creation answer also lost the code: the pending invite is adopted (the addressee
    // got the code by mail) and `code` stays unset.
    async findExisting(ctx, i) {
      const found = await listAll<ApiInvite>(ctx.client, `/v1/workspaces/${i.workspaceId}/invites`, { email: i.email });
      return found.find((v) => v.email === i.email && stateOf(v) === "PENDING" && createdDuring(ctx, v.created))?.id;
    },
    read: (ctx, id, prior) => read(ctx, id, prior),
    update: {
      async updateRequest(ctx, id, _olds, news) {
        try {
          await ctx.client.patch(`/v1/invites/${id}`, { access_level: news.accessLevel });
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

// 4. The public Args: the class is generated from them and the spec (resources/generated/).
export interface WorkspaceInviteArgs extends WorkspaceScopedArgs {
  /** Address the invite is mailed to (lower-cased, as the API stores it). Changing it replaces the invite. */
  email: pulumi.Input<string>;
  /**
   * VIEWER, EDITOR or ADMINISTRATOR, lower than your own role (OWNER is never assignable by
   * invite). Changed in place; on an accepted invite this changes the member's role.
   */
  accessLevel: pulumi.Input<"VIEWER" | "EDITOR" | "ADMINISTRATOR">;
}
