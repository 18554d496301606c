/**
 * Part 1 Registry credentials, the HTTP side: request schemas, the list and the route table.
 * The rules (canonical hosts, validation against the simulated live registry, the encrypted
 * password) are the area's domain (domain/registries.ts).
 */
import { z } from "zod";
import type { AccessNeed } from "../core/auth";
import type { Domain } from "../core/domain";
import { paginate } from "../core/paging";
import { created, noContent, ok, type RouteContext } from "../core/router";
import { contains, parseWith, pathId, queryIds } from "../core/validation";
import type { WorkspaceRow } from "../model";
import { loadWorkspaceRow } from "../domain/workspaces";
import {
  createRegistry,
  deleteRegistry,
  loadRegistry,
  registryView,
  testRegistry,
  updateRegistry,
  type RegistryRow,
} from "../domain/registries";

const REGISTRY_READ: AccessNeed = { grant: ["WORKSPACE", "READ"] };
const REGISTRY_WRITE: AccessNeed = { role: "EDITOR", grant: ["WORKSPACE", "WRITE"] };

const nonEmpty = z.string({ error: "must be a non-empty string" }).min(1, "must be a non-empty string");

const CreateRegistry = z.object({ registry: nonEmpty, username: nonEmpty, password: nonEmpty });

const PatchRegistry = z
  .object({
    registry: z.undefined({ error: "cannot be changed; delete the credential and create a new one" }).optional(),
    username: nonEmpty.optional(),
    password: nonEmpty.optional(),
  })
  .refine((b) => b.username !== undefined || b.password !== undefined, { message: "send username, password or both", path: ["(body)"] });

/** The path workspace, after the access check. */
function workspace(ctx: RouteContext, need: AccessNeed): WorkspaceRow {
  const ws = loadWorkspaceRow(ctx, ctx.params.wid, "wid");
  ctx.access(ws.id, need);
  return ws;
}

const registry = (ctx: RouteContext, need: AccessNeed): RegistryRow =>
  loadRegistry(ctx.services, workspace(ctx, need), pathId(ctx.params.id, "id"));

function listRegistries(ctx: RouteContext) {
  const ws = workspace(ctx, REGISTRY_READ);
  const q = ctx.query;
  const ids = queryIds(q.id, "id");
  const rows = ctx.store.t.registries.filter(
    (r) =>
      r.workspaceId === ws.id &&
      (ids.length === 0 || ids.includes(r.id)) &&
      contains(r.host, q.registry) &&
      contains(r.username, q.username) &&
      (q.q === undefined || q.q === "" || contains(r.host, q.q) || contains(r.username, q.q) || r.id === String(q.q)),
  );
  return ok(
    paginate(rows, q, (r) => registryView(ctx.services, r), {
      id: (r) => r.id,
      sortable: { registry: (r) => r.host, username: (r) => r.username, created: (r) => r.created },
    }),
  );
}

export const registriesDomain: Domain = {
  name: "registries",
  routes: [
    { method: "GET", path: "/v1/workspaces/:wid/registries", handler: listRegistries },
    {
      method: "POST",
      path: "/v1/workspaces/:wid/registries",
      handler: (ctx) => {
        const ws = workspace(ctx, REGISTRY_WRITE);
        return created(registryView(ctx.services, createRegistry(ctx, ws, parseWith(CreateRegistry, ctx.body))));
      },
    },
    {
      method: "GET",
      path: "/v1/workspaces/:wid/registries/:id",
      handler: (ctx) => ok(registryView(ctx.services, registry(ctx, REGISTRY_READ))),
    },
    {
      method: "PATCH",
      path: "/v1/workspaces/:wid/registries/:id",
      handler: (ctx) => {
        const row = registry(ctx, REGISTRY_WRITE);
        return ok(registryView(ctx.services, updateRegistry(ctx, row, parseWith(PatchRegistry, ctx.body))));
      },
    },
    {
      method: "DELETE",
      path: "/v1/workspaces/:wid/registries/:id",
      handler: (ctx) => {
        deleteRegistry(ctx, registry(ctx, REGISTRY_WRITE));
        return noContent();
      },
    },
    {
      method: "POST",
      path: "/v1/workspaces/:wid/registries/:id/test",
      handler: (ctx) => {
        // 204 while the live registry still accepts the stored credentials, else 400 with the reason.
        testRegistry(ctx.services, registry(ctx, REGISTRY_READ));
        return noContent();
      },
    },
  ],
  inventory: {
    registries: { workspaceOf: (row: RegistryRow) => row.workspaceId, label: (row: RegistryRow) => row.host },
  },
};
