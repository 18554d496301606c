/**
 * Part 3 firewall rules, the HTTP side: the create schema, lists and the route table. The rules
 * are the area's domain (domain/firewall.ts).
 *
 * - POST /v1/instances/{id}/firewall-rules: 201 WorkflowWithResource.
 * - GET /v1/instances/{iid}/firewall-rules: paged, newest first; filters type, protocol, action.
 * - GET /v1/firewall-rules/{id}; DELETE /v1/firewall-rules/{id}: WorkflowData, gone at once.
 * - GET /v1/workspaces/{wid}/firewall-rules: per instance with rules: instance, name, rules.
 */
import { z } from "zod";
import type { Domain } from "../core/domain";
import { created, ok, type RouteContext } from "../core/router";
import { paginate } from "../core/paging";
import { parseWith, pathId, queryEnum, zInt } from "../core/validation";
import { workflowData, workflowWithResource } from "../core/choices";
import { parseCidr } from "../network";
import { loadInstance } from "../domain/instances";
import {
  createRule,
  deleteRule,
  firewallRuleView,
  loadRule,
  ACTIONS,
  FIREWALL_READ,
  FIREWALL_WRITE,
  PROTOCOLS,
  TYPES,
  type FirewallRuleRow,
  type RuleRequest,
} from "../domain/firewall";

const PORTED_PROTOCOLS = new Set(["TCP", "UDP"]);

const Port = zInt.pipe(z.number().min(1, "must be from 1 to 65535").max(65535, "must be from 1 to 65535"));
const Limit = zInt.pipe(z.number().min(1, "must be from 1 to 10000000000").max(10_000_000_000, "must be from 1 to 10000000000"));

/** Create body (part 3, Firewall rules); optional fields also accept null, meaning absent. */
const RuleInput = z
  .object({
    type: z.enum(TYPES),
    protocol: z.enum(PROTOCOLS),
    action: z.enum(ACTIONS),
    port_start: Port.nullish(),
    port_end: Port.nullish(),
    remote: z.string().nullish(),
    local: z.string().nullish(),
    bps_limit: Limit.nullish(),
    pps_limit: Limit.nullish(),
    priority: zInt.pipe(z.number().min(1, "must be from 1 to 100").max(100, "must be from 1 to 100")).nullish(),
    description: z.string().max(255, "must be at most 255 characters").nullish(),
  })
  .superRefine((b, issues) => {
    const fail = (field: string, message: string) => issues.addIssue({ code: "custom", path: [field], message });
    if (b.port_start != null && !PORTED_PROTOCOLS.has(b.protocol)) fail("port_start", "ports apply to TCP and UDP rules only");
    if (b.port_end != null && b.port_start == null) fail("port_end", "needs port_start");
    if (b.port_end != null && b.port_start != null && b.port_end < b.port_start) fail("port_end", "must be at least port_start");
    for (const field of ["remote", "local"] as const) {
      const text = b[field];
      if (text == null) continue;
      const cidr = parseCidr(text);
      if (!cidr || cidr.family !== b.type) fail(field, `must be an ${b.type} CIDR`);
    }
  });

function listInstanceRules(ctx: RouteContext) {
  const instance = loadInstance(ctx, pathId(ctx.params.iid, "iid"), FIREWALL_READ);
  const type = queryEnum(ctx.query.type, "type", TYPES);
  const protocol = queryEnum(ctx.query.protocol, "protocol", PROTOCOLS);
  const action = queryEnum(ctx.query.action, "action", ACTIONS);
  const rows = ctx.store.t.firewallRules.filter(
    (r) =>
      r.instanceId === instance.id &&
      (!type || r.type === type) &&
      (!protocol || r.protocol === protocol) &&
      (!action || r.action === action),
  );
  return ok(
    paginate(rows, ctx.query, firewallRuleView, {
      id: (r) => r.id,
      sortable: { created: (r) => r.created, priority: (r) => r.priority },
      defaultSort: { field: "created", dir: "desc" },
    }),
  );
}

/** Workspace overview: one entry per instance that has at least one rule (choice), paged. */
function listWorkspaceRules(ctx: RouteContext) {
  const wid = pathId(ctx.params.wid, "wid");
  ctx.access(wid, FIREWALL_READ);
  const counts = new Map<string, number>();
  for (const r of ctx.store.t.firewallRules.filter((r) => r.workspaceId === wid))
    counts.set(r.instanceId, (counts.get(r.instanceId) ?? 0) + 1);
  const entries = [...counts].flatMap(([instanceId, rules]) => {
    const instance = ctx.store.t.instances.get(instanceId);
    return instance ? [{ instance: instance.id, name: instance.name, rules }] : [];
  });
  return ok(paginate(entries, ctx.query, (e) => e, { id: (e) => e.instance, sortable: { name: (e) => e.name, rules: (e) => e.rules } }));
}

const rule = (ctx: RouteContext, need: typeof FIREWALL_READ) => loadRule(ctx, pathId(ctx.params.id, "id"), need);

export const firewallDomain: Domain = {
  name: "firewall",
  routes: [
    {
      method: "POST",
      path: "/v1/instances/:id/firewall-rules",
      handler: (ctx) => {
        const instance = loadInstance(ctx, pathId(ctx.params.id, "id"), FIREWALL_WRITE);
        const body: RuleRequest = parseWith(RuleInput, ctx.body);
        const { rule: added, workflow } = createRule(ctx, instance, body);
        return created(workflowWithResource(workflow, firewallRuleView(added)));
      },
    },
    { method: "GET", path: "/v1/instances/:iid/firewall-rules", handler: listInstanceRules },
    { method: "GET", path: "/v1/firewall-rules/:id", handler: (ctx) => ok(firewallRuleView(rule(ctx, FIREWALL_READ))) },
    {
      method: "DELETE",
      path: "/v1/firewall-rules/:id",
      handler: (ctx) => {
        const gone = rule(ctx, FIREWALL_WRITE);
        return ok(workflowData(deleteRule(ctx, gone), firewallRuleView(gone)));
      },
    },
    { method: "GET", path: "/v1/workspaces/:wid/firewall-rules", handler: listWorkspaceRules },
  ],
  inventory: {
    firewallRules: {
      workspaceOf: (r: FirewallRuleRow) => r.workspaceId,
      label: (r: FirewallRuleRow) => `${r.type} ${r.protocol} ${r.action} ${r.remote}`,
    },
  },
};
