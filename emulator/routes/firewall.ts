/**
 * Part 3 firewall rules: network ACL entries in front of an instance.
 *
 * - POST /v1/instances/{id}/firewall-rules: 201 WorkflowWithResource; the rule is PENDING and
 *   becomes AVAILABLE (effective) when the workflow completes, FAILED if it fails.
 * - GET /v1/instances/{iid}/firewall-rules: paged, newest first; filters type, protocol, action.
 * - GET /v1/firewall-rules/{id}; DELETE /v1/firewall-rules/{id}: WorkflowData, gone at once.
 * - GET /v1/workspaces/{wid}/firewall-rules: per instance with rules: instance, name, rules.
 *
 * Access (not shown; chosen): reads need READ on INSTANCE, writes EDITOR and WRITE on INSTANCE;
 * a resource token bound to the instance reaches its rules.
 */
import { z } from "zod";
import type { Domain } from "../core/domain";
import type { Row } from "../core/store";
import type { AccessNeed } from "../core/auth";
import { badRequest, notFound } from "../core/errors";
import { created, ok, type RouteContext } from "../core/router";
import type { Services } from "../core/services";
import { paginate } from "../core/paging";
import { parseWith, pathId, queryEnum, zInt } from "../core/validation";
import { defineWorkflowEffect } from "../core/workflows";
import { onHook } from "../core/hooks";
import { workflowData, workflowWithResource } from "../core/choices";
import { formatCidr, parseCidr } from "../network";
import { loadInstance } from "../domain/instances";

const TYPES = ["IPv4", "IPv6"] as const;
const PROTOCOLS = ["TCP", "UDP", "ICMP"] as const;
const ACTIONS = ["ACCEPT", "DROP"] as const;
type RuleType = (typeof TYPES)[number];

export interface FirewallRuleRow extends Row {
  workspaceId: string;
  instanceId: string;
  type: RuleType;
  protocol: (typeof PROTOCOLS)[number];
  action: (typeof ACTIONS)[number];
  portStart: number | null;
  portEnd: number | null;
  /** Canonical CIDR text (network address and prefix). */
  remote: string;
  local: string | null;
  bpsLimit: number | null;
  ppsLimit: number | null;
  priority: number;
  description: string | null;
  state: "PENDING" | "AVAILABLE" | "FAILED";
  created: string;
}

declare module "../core/store" {
  interface Tables {
    firewallRules: FirewallRuleRow;
  }
}

const READ: AccessNeed = { grant: ["INSTANCE", "READ"] };
const WRITE: AccessNeed = { role: "EDITOR", grant: ["INSTANCE", "WRITE"] };

/** Default source per family (part 3, create body: remote). */
const ANY_REMOTE: Record<RuleType, string> = { IPv4: "0.0.0.0/0", IPv6: "::/0" };
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
type RuleInput = z.infer<typeof RuleInput>;

/**
 * Rule object (fields beyond the create body not shown). Chosen: the create fields (absent
 * ones null; remote/local in canonical CIDR form) plus id, instance_id, state, created.
 */
export function firewallRuleView(rule: FirewallRuleRow) {
  return {
    id: rule.id,
    instance_id: rule.instanceId,
    type: rule.type,
    protocol: rule.protocol,
    action: rule.action,
    port_start: rule.portStart,
    port_end: rule.portEnd,
    remote: rule.remote,
    local: rule.local,
    bps_limit: rule.bpsLimit,
    pps_limit: rule.ppsLimit,
    priority: rule.priority,
    description: rule.description,
    state: rule.state,
    created: rule.created,
  };
}

const canonicalCidr = (text: string) => formatCidr(parseCidr(text)!);

/**
 * Quota firewall_rules_per_ip (part 3). Chosen counting: every rule of a family applies to each
 * floating IP of that family on the instance, so the rules of one family on one instance (not
 * FAILED) may not exceed the quota. 400 when exceeded.
 */
function checkRuleQuota(ctx: RouteContext, instanceId: string, workspaceId: string, type: RuleType): void {
  const limit = ctx.store.t.workspaces.get(workspaceId)!.quota.firewall_rules_per_ip;
  const count = ctx.store.t.firewallRules.count((r) => r.instanceId === instanceId && r.type === type && r.state !== "FAILED");
  if (count >= limit) {
    throw badRequest(`Quota exceeded: at most ${limit} ${type} firewall rules per floating IP (firewall_rules_per_ip)`);
  }
}

function newRule(ctx: RouteContext, instanceId: string, workspaceId: string, b: RuleInput): FirewallRuleRow {
  return {
    id: ctx.store.newId(),
    workspaceId,
    instanceId,
    type: b.type,
    protocol: b.protocol,
    action: b.action,
    portStart: b.port_start ?? null,
    portEnd: b.port_end ?? null,
    remote: canonicalCidr(b.remote ?? ANY_REMOTE[b.type]),
    local: b.local == null ? null : canonicalCidr(b.local),
    // "Mutually exclusive", yet "pps_limit wins when both are sent": both are accepted, only pps is kept.
    bpsLimit: b.pps_limit != null ? null : (b.bps_limit ?? null),
    ppsLimit: b.pps_limit ?? null,
    priority: b.priority ?? 1,
    description: b.description ?? null,
    state: "PENDING",
    created: ctx.clock.iso(),
  };
}

const ACTIVATE_RULE = defineWorkflowEffect("firewall.rule.activate", (services, wf) => {
  const rule = services.store.t.firewallRules.get(wf.resource?.id);
  if (rule?.state === "PENDING") services.store.t.firewallRules.update(rule.id, { state: "AVAILABLE" });
});

function createRule(ctx: RouteContext) {
  const instance = loadInstance(ctx, pathId(ctx.params.id, "id"), WRITE);
  const body = parseWith(RuleInput, ctx.body);
  checkRuleQuota(ctx, instance.id, instance.workspaceId, body.type);
  const rule = ctx.store.t.firewallRules.insert(newRule(ctx, instance.id, instance.workspaceId, body));
  const wf = ctx.startWorkflow({
    name: "firewall-rule.create",
    workspaceId: instance.workspaceId,
    resource: { kind: "firewallRules", id: rule.id },
    onComplete: ACTIVATE_RULE,
  });
  return created(workflowWithResource(ctx.workflows.view(wf), firewallRuleView(rule)));
}

function listInstanceRules(ctx: RouteContext) {
  const instance = loadInstance(ctx, pathId(ctx.params.iid, "iid"), READ);
  const type = queryEnum(ctx.query.type, "type", TYPES);
  const protocol = queryEnum(ctx.query.protocol, "protocol", PROTOCOLS);
  const action = queryEnum(ctx.query.action, "action", ACTIONS);
  const rows = ctx.store.t.firewallRules.filter(
    (r) => r.instanceId === instance.id && (!type || r.type === type) && (!protocol || r.protocol === protocol) && (!action || r.action === action),
  );
  return ok(
    paginate(rows, ctx.query, firewallRuleView, {
      id: (r) => r.id,
      sortable: { created: (r) => r.created, priority: (r) => r.priority },
      defaultSort: { field: "created", dir: "desc" },
    }),
  );
}

function loadRule(ctx: RouteContext, need: AccessNeed): FirewallRuleRow {
  const rule = ctx.store.t.firewallRules.get(pathId(ctx.params.id, "id"));
  if (!rule) throw notFound("Firewall rule");
  ctx.access(rule.workspaceId, { ...need, resource: { kind: "INSTANCE", id: rule.instanceId } });
  return rule;
}

/**
 * DELETE takes effect immediately (the row is gone before the answer). WorkflowData chosen:
 * a workflow that only tracks the propagation (nothing waits on it) and, as data, the rule as
 * it was when deleted.
 */
function deleteRule(ctx: RouteContext) {
  const rule = loadRule(ctx, WRITE);
  ctx.store.t.firewallRules.delete(rule.id);
  const wf = ctx.startWorkflow({ name: "firewall-rule.delete", workspaceId: rule.workspaceId, resource: null });
  return ok(workflowData(ctx.workflows.view(wf), firewallRuleView(rule)));
}

/** Workspace overview: one entry per instance that has at least one rule (choice), paged. */
function listWorkspaceRules(ctx: RouteContext) {
  const wid = pathId(ctx.params.wid, "wid");
  ctx.access(wid, READ);
  const counts = new Map<string, number>();
  for (const r of ctx.store.t.firewallRules.filter((r) => r.workspaceId === wid)) counts.set(r.instanceId, (counts.get(r.instanceId) ?? 0) + 1);
  const entries = [...counts].flatMap(([instanceId, rules]) => {
    const instance = ctx.store.t.instances.get(instanceId);
    return instance ? [{ instance: instance.id, name: instance.name, rules }] : [];
  });
  return ok(paginate(entries, ctx.query, (e) => e, { id: (e) => e.instance, sortable: { name: (e) => e.name, rules: (e) => e.rules } }));
}

/** An instance that is deleted takes its rules with it (idempotent). */
function removeRulesOf(services: Services, event: { instanceId: string }): void {
  for (const rule of services.store.t.firewallRules.filter((r) => r.instanceId === event.instanceId)) services.store.t.firewallRules.delete(rule.id);
}
onHook("instance.deleted", removeRulesOf);

export const firewallDomain: Domain = {
  name: "firewall",
  routes: [
    { method: "POST", path: "/v1/instances/:id/firewall-rules", handler: createRule },
    { method: "GET", path: "/v1/instances/:iid/firewall-rules", handler: listInstanceRules },
    { method: "GET", path: "/v1/firewall-rules/:id", handler: (ctx) => ok(firewallRuleView(loadRule(ctx, READ))) },
    { method: "DELETE", path: "/v1/firewall-rules/:id", handler: deleteRule },
    { method: "GET", path: "/v1/workspaces/:wid/firewall-rules", handler: listWorkspaceRules },
  ],
  inventory: {
    firewallRules: {
      workspaceOf: (r: FirewallRuleRow) => r.workspaceId,
      label: (r: FirewallRuleRow) => `${r.type} ${r.protocol} ${r.action} ${r.remote}`,
    },
  },
};
