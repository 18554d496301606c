/**
 * Workspaces' domain (spec part 1, "Workspaces"), and the base layer of the part 1 areas
 * (tokens, account, invites, SSH keys, registries): the user and workspace summary shapes,
 * loading a workspace, creating one with its OWNER membership, and the "user token only" check
 * for account-level actions.
 */
import { forbidden, notFound } from "../core/errors";
import type { RouteContext } from "../core/router";
import type { Services } from "../core/services";
import { pathId } from "../core/validation";
import { DEFAULT_QUOTA, type UserRow, type WorkspaceRow } from "../model";

/** Embedded user summary (token user/created_by, invite user, SSH key user): a "not shown" choice. */
export function userRef(user: UserRow | undefined): { id: string; name: string } | null {
  return user ? { id: user.id, name: user.name } : null;
}

/** Embedded workspace summary (part 1, Workspace: "summary objects embedded in other resources carry id and name"). */
export function workspaceRef(ws: WorkspaceRow | undefined): { id: string; name: string } | null {
  return ws ? { id: ws.id, name: ws.name } : null;
}

/**
 * Account-level actions (workspaces, invites accepted, tokens of a user, profile changes) act for
 * a person, so they need a USER-subject token; a workspace or resource token is refused.
 */
export function requireUserSubject(ctx: RouteContext): UserRow {
  if (ctx.principal.token.subject !== "USER") {
    throw forbidden("This action needs a user token; workspace and resource tokens cannot act on accounts");
  }
  return ctx.principal.user;
}

/** Loads a workspace by path id; a missing row answers 404 like an invisible one. */
export function loadWorkspaceRow(ctx: RouteContext, param: string | undefined, name = "id"): WorkspaceRow {
  const ws = ctx.store.t.workspaces.get(pathId(param, name));
  if (!ws) throw notFound("Workspace");
  return ws;
}

/** A new workspace owned by `owner`, with the default quota and an OWNER membership. */
export function createWorkspace(services: Services, owner: UserRow, name: string): WorkspaceRow {
  const { store, clock } = services;
  const ws = store.t.workspaces.insert({
    id: store.newId(),
    name,
    ownerId: owner.id,
    flags: [],
    mfaRequired: false,
    disableSshPassword: false,
    privateCloud: false,
    quota: { ...DEFAULT_QUOTA },
    created: clock.iso(),
  });
  store.t.memberships.insert({ id: store.newId(), workspaceId: ws.id, userId: owner.id, role: "OWNER", inviteId: null });
  return ws;
}
