/**
 * Part 1 Workspaces, the HTTP side: request schemas, the list and the route table (list, create,
 * read, update, quota and topology). The rules, and the pieces every part 1 area shares
 * (summaries, loading, creating a workspace, the user-token check), are the area's domain
 * (domain/workspaces.ts).
 */
import { z } from "zod";
import type { AccessNeed } from "../core/auth";
import type { Domain } from "../core/domain";
import { paginate } from "../core/paging";
import { created, ok, type RouteContext } from "../core/router";
import { contains, parseWith } from "../core/validation";
import type { WorkspaceRow } from "../model";
import {
  createOwnWorkspace,
  loadWorkspaceRow,
  topologyView,
  updateWorkspace,
  visibleWorkspaces,
  workspaceCreator,
  workspaceView,
} from "../domain/workspaces";

const workspaceName = z.string({ error: "must be a string" }).min(4, "must be 4 to 32 characters").max(32, "must be 4 to 32 characters");

const PatchWorkspace = z.object({
  name: workspaceName.optional(),
  mfa_required: z.boolean({ error: "must be a boolean" }).optional(),
  disable_ssh_password: z.boolean({ error: "must be a boolean" }).optional(),
});

const WORKSPACE_READ: AccessNeed = { grant: ["WORKSPACE", "READ"] };

/** The path workspace, readable by the caller. */
function readable(ctx: RouteContext): WorkspaceRow {
  const ws = loadWorkspaceRow(ctx, ctx.params.wid, "wid");
  ctx.access(ws.id, WORKSPACE_READ);
  return ws;
}

function listWorkspaces(ctx: RouteContext) {
  const rows = visibleWorkspaces(ctx).filter((x) => contains(x.ws.name, ctx.query.name));
  return ok(
    paginate(rows, ctx.query, (x) => ({ id: x.ws.id, name: x.ws.name, access_level: x.role }), {
      id: (x) => x.ws.id,
      sortable: { name: (x) => x.ws.name, created: (x) => x.ws.created },
      defaultSort: { field: "created", dir: "desc" },
    }),
  );
}

export const workspacesDomain: Domain = {
  name: "workspaces",
  routes: [
    { method: "GET", path: "/v1/workspaces", handler: listWorkspaces },
    {
      method: "POST",
      path: "/v1/workspaces",
      handler: (ctx) => {
        // The token is checked before the body is read.
        const user = workspaceCreator(ctx);
        const body = parseWith(z.object({ name: workspaceName }), ctx.body);
        return created(workspaceView(ctx.services, createOwnWorkspace(ctx, user, body.name)));
      },
    },
    { method: "GET", path: "/v1/workspaces/:wid", handler: (ctx) => ok(workspaceView(ctx.services, readable(ctx))) },
    {
      method: "PATCH",
      path: "/v1/workspaces/:wid",
      handler: (ctx) => {
        const ws = loadWorkspaceRow(ctx, ctx.params.wid, "wid");
        return ok(workspaceView(ctx.services, updateWorkspace(ctx, ws, parseWith(PatchWorkspace, ctx.body))));
      },
    },
    { method: "GET", path: "/v1/workspaces/:wid/quota", handler: (ctx) => ok({ ...readable(ctx).quota }) },
    { method: "GET", path: "/v1/workspaces/:wid/topology", handler: (ctx) => ok(topologyView(ctx.services, readable(ctx).id)) },
  ],
  inventory: {
    workspaces: { workspaceOf: (row: WorkspaceRow) => row.id },
  },
};
