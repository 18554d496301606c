/**
 * Firewall rules' domain (spec part 3, "Firewall rules"): network ACL entries in front of an
 * instance. A new rule is PENDING and becomes AVAILABLE (effective) when its workflow
 * completes, FAILED if it fails; a deleted rule is gone at once. remote/local are stored in
 * canonical CIDR form; remote defaults to 0.0.0.0/0 or ::/0. Quota firewall_rules_per_ip.
 *
 * Access (not shown; chosen): reads need READ on INSTANCE, writes EDITOR and WRITE on INSTANCE;
 * a resource token bound to the instance reaches its rules. A deleted instance takes its rules.
 */
import type { AccessNeed } from "../core/auth";
import type { WorkflowView } from "../core/choices";
import { badRequest, notFound } from "../core/errors";
import { onHook } from "../core/hooks";
import type { RouteContext } from "../core/router";
import type { Services } from "../core/services";
import type { Row } from "../core/store";
import { defineWorkflowEffect } from "../core/workflowEffects";
import type { InstanceRow } from "../model";
import { formatCidr, parseCidr } from "../network";

export const TYPES = ["IPv4", "IPv6"] as const;
export const PROTOCOLS = ["TCP", "UDP", "ICMP"] as const;
export const ACTIONS = ["ACCEPT", "DROP"] as const;
export type RuleType = (typeof TYPES)[number];

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

export const FIREWALL_READ: AccessNeed = { grant: ["INSTANCE", "READ"] };
export const FIREWALL_WRITE: AccessNeed = { role: "EDITOR", grant: ["INSTANCE", "WRITE"] };

/** Default source per family (part 3, create body: remote). */
const ANY_REMOTE: Record<RuleType, string> = { IPv4: "0.0.0.0/0", IPv6: "::/0" };

/** A create request as the route has validated it (optional fields null or absent). */
export interface RuleRequest {
  type: RuleType;
  protocol: (typeof PROTOCOLS)[number];
  action: (typeof ACTIONS)[number];
  port_start?: number | null;
  port_end?: number | null;
  remote?: string | null;
  local?: string | null;
  bps_limit?: number | null;
  pps_limit?: number | null;
  priority?: number | null;
  description?: string | null;
}

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

function newRule(ctx: RouteContext, instanceId: string, workspaceId: string, b: RuleRequest): FirewallRuleRow {
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

export function createRule(ctx: RouteContext, instance: InstanceRow, body: RuleRequest): { rule: FirewallRuleRow; workflow: WorkflowView } {
  checkRuleQuota(ctx, instance.id, instance.workspaceId, body.type);
  const rule = ctx.store.t.firewallRules.insert(newRule(ctx, instance.id, instance.workspaceId, body));
  const wf = ctx.startWorkflow({
    name: "firewall-rule.create",
    workspaceId: instance.workspaceId,
    resource: { kind: "firewallRules", id: rule.id },
    onComplete: ACTIVATE_RULE,
  });
  return { rule, workflow: ctx.workflows.view(wf) };
}

/** Loads a rule and checks the caller may act on its instance; missing and invisible both answer 404. */
export function loadRule(ctx: RouteContext, id: string, need: AccessNeed): FirewallRuleRow {
  const rule = ctx.store.t.firewallRules.get(id);
  if (!rule) throw notFound("Firewall rule");
  ctx.access(rule.workspaceId, { ...need, resource: { kind: "INSTANCE", id: rule.instanceId } });
  return rule;
}

/**
 * DELETE takes effect immediately (the row is gone before the answer). WorkflowData chosen:
 * a workflow that only tracks the propagation (nothing waits on it) and, as data, the rule as
 * it was when deleted.
 */
export function deleteRule(ctx: RouteContext, rule: FirewallRuleRow): WorkflowView {
  ctx.store.t.firewallRules.delete(rule.id);
  const wf = ctx.startWorkflow({ name: "firewall-rule.delete", workspaceId: rule.workspaceId, resource: null });
  return ctx.workflows.view(wf);
}

/** An instance that is deleted takes its rules with it (idempotent). */
function removeRulesOf(services: Services, event: { instanceId: string }): void {
  for (const rule of services.store.t.firewallRules.filter((r) => r.instanceId === event.instanceId))
    services.store.t.firewallRules.delete(rule.id);
}
onHook("instance.deleted", removeRulesOf);
