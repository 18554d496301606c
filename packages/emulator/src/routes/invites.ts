/**
 * Part 1 Invites, the HTTP side: request schemas, the list, lookup and acceptance by code, and
 * the route table. The rules (roles below the inviter's own, the single-use code, acceptance,
 * what deleting an invite revokes) are the area's domain (domain/invites.ts).
 */
import { z } from "zod";
import type { AccessNeed } from "../core/auth";
import type { Domain } from "../core/domain";
import { fieldError, notFound } from "../core/errors";
import { paginate } from "../core/paging";
import { accepted, created, ok, type RouteContext } from "../core/router";
import { contains, parseWith, pathId, queryEnum, queryIds } from "../core/validation";
import { loadWorkspaceRow, requireUserSubject } from "../domain/workspaces";
import {
  acceptInvite,
  changeInviteRole,
  createInvite,
  deleteInvite,
  findInviteByCode,
  inviteListOptions,
  inviteState,
  inviteView,
  loadInvite,
  lookupView,
  requireReadable,
  INVITE_ROLES,
  type InviteRow,
} from "../domain/invites";

// ---------------------------------------------------------------------------------------------
// Request bodies

const accessLevel = z.enum(INVITE_ROLES, { error: "must be VIEWER, EDITOR or ADMINISTRATOR (OWNER is never assignable by invite)" });

const CreateInvite = z.object({
  email: z.email({ error: "must be an email address" }),
  access_level: accessLevel,
});

const INVITE_ADMIN: AccessNeed = { role: "ADMINISTRATOR", grant: ["WORKSPACE", "WRITE"] };

// ---------------------------------------------------------------------------------------------
// Lists, lookup and acceptance

function listWorkspaceInvites(ctx: RouteContext) {
  const ws = loadWorkspaceRow(ctx, ctx.params.wid, "wid");
  ctx.access(ws.id, { grant: ["WORKSPACE", "READ"] });
  const q = ctx.query;
  const ids = queryIds(q.id, "id");
  const creators = queryIds(q.user, "user");
  const targets = queryIds(q.target, "target");
  const level = queryEnum(q.access_level, "access_level", INVITE_ROLES);
  const rows = ctx.store.t.invites.filter(
    (i) =>
      i.workspaceId === ws.id &&
      (ids.length === 0 || ids.includes(i.id)) &&
      (creators.length === 0 || creators.includes(i.creatorId)) &&
      (targets.length === 0 || (i.acceptedById !== null && targets.includes(i.acceptedById))) &&
      contains(i.email, q.email) &&
      (!level || i.role === level),
  );
  return ok(paginate(rows, q, (i) => inviteView(ctx.services, i), inviteListOptions));
}

/** GET /v1/invites/lookup?code=: no authentication; 404 once accepted or expired; never the code. */
function lookupInvite(ctx: RouteContext) {
  const code = ctx.query.code;
  if (typeof code !== "string" || code === "") throw fieldError("code", "is required");
  const invite = findInviteByCode(ctx.services, code);
  if (!invite || inviteState(ctx.services, invite) !== "PENDING") throw notFound("Invite");
  return ok(lookupView(ctx.services, invite));
}

function acceptInviteRoute(ctx: RouteContext) {
  const user = requireUserSubject(ctx);
  const body = parseWith(z.object({ code: z.string({ error: "is required" }).min(1, "is required") }), ctx.body);
  const invite = findInviteByCode(ctx.services, body.code);
  if (!invite) throw notFound("Invite");
  acceptInvite(ctx.services, invite, user);
  return ok(inviteView(ctx.services, invite));
}

export const invitesDomain: Domain = {
  name: "invites",
  routes: [
    { method: "GET", path: "/v1/workspaces/:wid/invites", handler: listWorkspaceInvites },
    {
      method: "POST",
      path: "/v1/workspaces/:wid/invites",
      handler: (ctx) => {
        const ws = loadWorkspaceRow(ctx, ctx.params.wid, "wid");
        const callerRole = ctx.access(ws.id, INVITE_ADMIN);
        const { invite, code } = createInvite(ctx, ws, callerRole, parseWith(CreateInvite, ctx.body));
        return created(inviteView(ctx.services, invite, code));
      },
    },
    { method: "GET", path: "/v1/invites/lookup", auth: "none", handler: lookupInvite },
    { method: "POST", path: "/v1/invites", handler: acceptInviteRoute },
    {
      method: "GET",
      path: "/v1/invites/:id",
      handler: (ctx) => {
        const invite = loadInvite(ctx.services, pathId(ctx.params.id, "id"));
        requireReadable(ctx, invite);
        return ok(inviteView(ctx.services, invite));
      },
    },
    {
      method: "PATCH",
      path: "/v1/invites/:id",
      handler: (ctx) => {
        const invite = loadInvite(ctx.services, pathId(ctx.params.id, "id"));
        const callerRole = ctx.access(invite.workspaceId, INVITE_ADMIN);
        const body = parseWith(z.object({ access_level: accessLevel }), ctx.body);
        return ok(inviteView(ctx.services, changeInviteRole(ctx, invite, callerRole, body)));
      },
    },
    {
      method: "DELETE",
      path: "/v1/invites/:id",
      handler: (ctx) => {
        // The accepted member loses access at once; never the last membership record of the workspace.
        const invite = loadInvite(ctx.services, pathId(ctx.params.id, "id"));
        deleteInvite(ctx, invite, ctx.access(invite.workspaceId, INVITE_ADMIN));
        return accepted();
      },
    },
  ],
  inventory: {
    invites: { workspaceOf: (row: InviteRow) => row.workspaceId, label: (row: InviteRow) => row.email },
  },
};
