/**
 * Part 1 SSH keys, the HTTP side: the upload schema, the list and the route table. The rules are
 * the area's domain (domain/ssh.ts).
 */
import { z } from "zod";
import type { Domain } from "../core/domain";
import { paginate } from "../core/paging";
import { accepted, created, ok, type RouteContext } from "../core/router";
import { contains, parseWith, pathId, queryIds } from "../core/validation";
import { loadWorkspaceRow } from "../domain/workspaces";
import { createKey, deleteKey, loadKey, sshKeyView, SSH_READ, SSH_WRITE, type SshKeyRow } from "../domain/ssh";

const CreateSshKey = z.object({
  name: z.string({ error: "must be a string" }).min(4, "must be 4 to 32 characters").max(32, "must be 4 to 32 characters"),
  public_key: z.string({ error: "is required" }).min(1, "is required"),
});

function listKeys(ctx: RouteContext) {
  const ws = loadWorkspaceRow(ctx, ctx.params.wid, "wid");
  ctx.access(ws.id, SSH_READ);
  const q = ctx.query;
  const ids = queryIds(q.id, "id");
  const rows = ctx.store.t.sshKeys.filter(
    (k) =>
      k.workspaceId === ws.id &&
      (ids.length === 0 || ids.includes(k.id)) &&
      contains(k.name, q.name) &&
      (q.q === undefined || q.q === "" || contains(k.name, q.q) || k.id === String(q.q) || k.fingerprint === String(q.q)),
  );
  return ok(
    paginate(rows, q, (k) => sshKeyView(ctx.services, k), {
      id: (k) => k.id,
      sortable: { name: (k) => k.name, created: (k) => k.created },
    }),
  );
}

export const sshDomain: Domain = {
  name: "ssh",
  routes: [
    { method: "GET", path: "/v1/workspaces/:wid/ssh", handler: listKeys },
    {
      method: "POST",
      path: "/v1/workspaces/:wid/ssh",
      handler: (ctx) => {
        const ws = loadWorkspaceRow(ctx, ctx.params.wid, "wid");
        ctx.access(ws.id, SSH_WRITE);
        return created(sshKeyView(ctx.services, createKey(ctx, ws, parseWith(CreateSshKey, ctx.body))));
      },
    },
    {
      method: "GET",
      path: "/v1/ssh/:id",
      handler: (ctx) => ok(sshKeyView(ctx.services, loadKey(ctx, pathId(ctx.params.id, "id"), "READ"))),
    },
    {
      method: "DELETE",
      path: "/v1/ssh/:id",
      handler: (ctx) => {
        deleteKey(ctx, loadKey(ctx, pathId(ctx.params.id, "id"), "WRITE"));
        return accepted();
      },
    },
  ],
  inventory: {
    sshKeys: { workspaceOf: (row: SshKeyRow) => row.workspaceId },
  },
};
