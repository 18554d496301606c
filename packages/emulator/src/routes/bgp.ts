/**
 * Part 3 BGP, the HTTP side: request schemas, the prefix list and the route table. The rules
 * (one configuration per workspace, prefixes, the encrypted session password, access) are the
 * area's domain (domain/bgp.ts).
 *
 * - GET /v1/workspaces/{wid}/bgp: `{ data: {id, asn, instance, max_prefixes}, live: {password} }`,
 *   404 until a configuration exists; PATCH creates it when missing; DELETE removes it and every
 *   prefix (200, no body).
 * - Prefixes: list (ADMINISTRATOR), POST (all four fields), PUT (replaces), DELETE (200, no
 *   body; the withdrawal is asynchronous: the entry stays listed until its workflow completes).
 */
import { z } from "zod";
import type { Domain } from "../core/domain";
import type { AccessNeed } from "../core/auth";
import { created, ok, okEmpty, type RouteContext } from "../core/router";
import { paginate } from "../core/paging";
import { contains, parseWith, pathId, queryBool, queryEnum, queryIds, zId, zInt } from "../core/validation";
import { parseCidr } from "../network";
import {
  configView,
  createPrefix,
  deleteConfig,
  loadPrefix,
  prefixView,
  replacePrefix,
  requireConfig,
  updateConfig,
  withdrawPrefix,
  BGP_ADMIN_READ,
  BGP_ADMIN_WRITE,
  BGP_READ,
  COMMUNITIES,
  SOURCES,
  type BgpConfigRow,
  type BgpPrefixRow,
} from "../domain/bgp";

const UpdateConfig = z.object({
  asn: zInt.pipe(z.number().min(1, "must be from 1 to 4294967295").max(4294967295, "must be from 1 to 4294967295")).optional(),
  password: z.string().optional(),
  instance_id: zId.nullable().optional(),
  max_prefixes: zInt.pipe(z.number().min(1, "must be at least 1")).optional(),
});

const PrefixInput = z.object({
  prefix: z.string().refine((v) => v.includes("/") && parseCidr(v) !== null, "must be a CIDR such as 203.0.113.0/24 or 2001:db8::/48"),
  source: z.enum(SOURCES),
  enabled: z.boolean(),
  community: z.enum(COMMUNITIES),
});

function workspaceParam(ctx: RouteContext, need: AccessNeed): string {
  const wid = pathId(ctx.params.wid, "wid");
  ctx.access(wid, need);
  return wid;
}

function listPrefixes(ctx: RouteContext) {
  const wid = workspaceParam(ctx, BGP_ADMIN_READ);
  const ids = new Set(queryIds(ctx.query.id, "id"));
  const source = queryEnum(ctx.query.source, "source", SOURCES);
  const enabled = queryBool(ctx.query.enabled, "enabled");
  const rows = ctx.store.t.bgpPrefixes.filter(
    (p) =>
      p.workspaceId === wid &&
      (!ids.size || ids.has(p.id)) &&
      contains(p.prefix, ctx.query.prefix) &&
      (!source || p.source === source) &&
      (enabled === undefined || p.enabled === enabled),
  );
  return ok(paginate(rows, ctx.query, prefixView, { id: (p) => p.id, sortable: { prefix: (p) => p.prefix, created: (p) => p.created } }));
}

export const bgpDomain: Domain = {
  name: "bgp",
  routes: [
    {
      method: "GET",
      path: "/v1/workspaces/:wid/bgp",
      handler: (ctx) => ok(configView(ctx.services, requireConfig(ctx.services, workspaceParam(ctx, BGP_READ)))),
    },
    {
      method: "PATCH",
      path: "/v1/workspaces/:wid/bgp",
      handler: (ctx) => {
        const wid = workspaceParam(ctx, BGP_ADMIN_WRITE);
        return ok(configView(ctx.services, updateConfig(ctx, wid, parseWith(UpdateConfig, ctx.body ?? {}))));
      },
    },
    {
      method: "DELETE",
      path: "/v1/workspaces/:wid/bgp",
      handler: (ctx) => {
        deleteConfig(ctx, workspaceParam(ctx, BGP_ADMIN_WRITE));
        return okEmpty();
      },
    },
    { method: "GET", path: "/v1/workspaces/:wid/bgp/prefixes", handler: listPrefixes },
    {
      method: "POST",
      path: "/v1/workspaces/:wid/bgp/prefixes",
      handler: (ctx) => {
        const wid = workspaceParam(ctx, BGP_ADMIN_WRITE);
        return created(prefixView(createPrefix(ctx, wid, parseWith(PrefixInput, ctx.body))));
      },
    },
    {
      method: "PUT",
      path: "/v1/workspaces/:wid/bgp/prefixes/:id",
      handler: (ctx) => {
        const wid = workspaceParam(ctx, BGP_ADMIN_WRITE);
        const body = parseWith(PrefixInput, ctx.body);
        return ok(prefixView(replacePrefix(ctx, loadPrefix(ctx.services, wid, pathId(ctx.params.id, "id")), body)));
      },
    },
    {
      method: "DELETE",
      path: "/v1/workspaces/:wid/bgp/prefixes/:id",
      handler: (ctx) => {
        // 200, no body.
        const wid = workspaceParam(ctx, BGP_ADMIN_WRITE);
        withdrawPrefix(ctx, loadPrefix(ctx.services, wid, pathId(ctx.params.id, "id")));
        return okEmpty();
      },
    },
  ],
  inventory: {
    bgpConfigs: { workspaceOf: (c: BgpConfigRow) => c.workspaceId, label: (c: BgpConfigRow) => `AS${c.asn ?? "?"}` },
    bgpPrefixes: { workspaceOf: (p: BgpPrefixRow) => p.workspaceId, label: (p: BgpPrefixRow) => p.prefix },
  },
};
