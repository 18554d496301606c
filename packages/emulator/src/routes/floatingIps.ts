/**
 * Floating IPs (part 3 names them, their endpoints are "not shown"; a documented choice):
 * allocate, list, fetch and release. The rules are the area's domain (domain/floatingIps.ts);
 * attaching and detaching are network commands (routes/netcommands.ts).
 */
import { z } from "zod";
import type { Domain } from "../core/domain";
import { paginate } from "../core/paging";
import { created, noContent, ok, type RouteContext } from "../core/router";
import { contains, parseWith, pathId, queryBool, queryEnumList, queryIds } from "../core/validation";
import type { AccessNeed } from "../core/auth";
import type { FloatingIpRow } from "../model";
import { allocateStandaloneIp, floatingIpView, loadFloatingIp, releaseStandaloneIp, IP_ADMIN, IP_READ } from "../domain/floatingIps";

const AllocateIp = z
  .object({ family: z.enum(["IPv4", "IPv6"]), ddos: z.boolean().default(false) })
  .refine((b) => !(b.ddos && b.family === "IPv6"), { message: "DDoS protection is offered for IPv4 addresses only", path: ["ddos"] });

function filterIps(ctx: RouteContext, rows: FloatingIpRow[]): FloatingIpRow[] {
  const q = ctx.query;
  const ids = queryIds(q.id, "id");
  const instances = queryIds(q.instance, "instance");
  const ddos = queryBool(q.ddos, "ddos");
  const families = queryEnumList(q.family, "family", ["IPv4", "IPv6"] as const);
  return rows.filter(
    (ip) =>
      (!ids.length || ids.includes(ip.id)) &&
      (!instances.length || (ip.instanceId !== null && instances.includes(ip.instanceId))) &&
      (!families.length || families.includes(ip.family)) &&
      (ddos === undefined || ip.ddos === ddos) &&
      contains(ip.address, q.address) &&
      (!q.q || ip.id === String(q.q) || contains(ip.address, q.q)),
  );
}

const IP_SORTS = {
  created: (ip: FloatingIpRow) => ip.created,
  address: (ip: FloatingIpRow) => ip.address,
  family: (ip: FloatingIpRow) => ip.family,
};

const ip = (ctx: RouteContext, need: AccessNeed) => loadFloatingIp(ctx, pathId(ctx.params.id, "id"), need);

export const floatingIpsDomain: Domain = {
  name: "floatingIps",
  inventory: {
    floatingIps: { workspaceOf: (row: FloatingIpRow) => row.workspaceId, label: (row: FloatingIpRow) => row.address },
  },
  routes: [
    {
      method: "POST",
      path: "/v1/workspaces/:wid/ips",
      handler: (ctx) => {
        const wid = pathId(ctx.params.wid, "wid");
        ctx.access(wid, IP_ADMIN);
        return created(floatingIpView(ctx.services, allocateStandaloneIp(ctx.services, wid, parseWith(AllocateIp, ctx.body))));
      },
    },
    {
      method: "GET",
      path: "/v1/workspaces/:wid/ips",
      handler: (ctx) => {
        const wid = pathId(ctx.params.wid, "wid");
        ctx.access(wid, IP_READ);
        const rows = filterIps(
          ctx,
          ctx.store.t.floatingIps.filter((row) => row.workspaceId === wid),
        );
        return ok(
          paginate(rows, ctx.query, (row) => floatingIpView(ctx.services, row), {
            id: (row) => row.id,
            sortable: IP_SORTS,
            defaultSort: { field: "created", dir: "desc" },
          }),
        );
      },
    },
    { method: "GET", path: "/v1/ips/:id", handler: (ctx) => ok(floatingIpView(ctx.services, ip(ctx, IP_READ))) },
    {
      method: "DELETE",
      path: "/v1/ips/:id",
      handler: (ctx) => {
        releaseStandaloneIp(ctx.services, ip(ctx, IP_ADMIN));
        return noContent();
      },
    },
  ],
};
