/**
 * FirewallRule — one stateless ACL entry in front of an instance (spec part 3, Firewall rules).
 *
 *   POST   /v1/instances/{id}/firewall-rules   -> 201 WorkflowWithResource; effective when the workflow completes
 *   GET    /v1/firewall-rules/{id}
 *   DELETE /v1/firewall-rules/{id}             -> WorkflowData; takes effect immediately
 *
 * There is no update endpoint, so every field replaces the rule. Rules are enforced only while
 * the instance's firewallEnabled is true.
 */
import { z } from "../provider/fields/zod";
import { createdDuring, type OperationContext } from "../provider/context";
import { optionalWorkflowOf, resourceOf, workflowOf } from "../provider/client/envelope";
import { ifFound } from "../provider/errors";
import { computed, fieldSet, fromFields, input, type InputsOf, type OutputsOf, createdAt } from "../provider/fields/declare";
import { createBody, outputsFromAnswer } from "../provider/fields/convert";
import { listAll } from "../provider/client/paging";
import { zCidr, zId, zInteger, zText, zWideInteger } from "../provider/fields/constraints";
import { compact, idOf, numberOf } from "../provider/client/wire";
import { type ResourceDefinition, type Rule } from "../provider/definition";
import type { FirewallRuleArgs, FirewallRuleOutputs } from "./generated/firewallRule";
import { replace } from "../provider/fields/changeEffects";

const WHERE = "spec part 3, Firewall rules";

// 1. Inputs and outputs, each field declared once (provider/fields/declare.ts), documented from the spec's
// create body (part 3, Firewall rules). No update endpoint: every field replaces the rule.
const port = zInteger(`must be a whole port number, 1 to 65535 (${WHERE})`)
  .min(1, `must be 1 to 65535 (${WHERE})`)
  .max(65535, `must be 1 to 65535 (${WHERE})`);
const limit = zWideInteger(`must be a whole number, 1 to 10,000,000,000 (${WHERE})`)
  .min(1, `must be 1 to 10,000,000,000 (${WHERE})`)
  .max(10_000_000_000, `must be 1 to 10,000,000,000 (${WHERE})`);
/** An optional field the API answers as null: left out of the outputs, as it was of the inputs. */
const orUndefined = <T>(v: T | null | undefined): T | undefined => (v === null ? undefined : v);
const optionalNumber = (v: unknown) => orUndefined(numberOf(v));

/** @internal */
export const firewallRuleFields = fieldSet({
  instanceId: input(zId("instance id"), {
    doc: "Instance the rule protects. Its rules are enforced only while its firewallEnabled is true (stored but not enforced otherwise).",
    onChange: replace,
    // In the create request's path, not its body.
    create: false,
    fromAnswer: (r: ApiRule) => idOf(r.instance_id)!,
  }),
  type: input(z.enum(["IPv4", "IPv6"], { error: `must be IPv4 or IPv6 (${WHERE})` }), {
    doc: "Address family, IPv4 or IPv6: remote and local must be CIDRs of this family.",
    onChange: replace,
  }),
  protocol: input(z.enum(["TCP", "UDP", "ICMP"], { error: `must be TCP, UDP or ICMP (${WHERE})` }), {
    // Its values are said by the schema's note (One of: ...), as for every string-literal union.
    doc: "Protocol matched; ports apply to TCP and UDP only.",
    onChange: replace,
  }),
  action: input(z.enum(["ACCEPT", "DROP"], { error: `must be ACCEPT or DROP (${WHERE})` }), {
    doc: "ACCEPT or DROP the matching traffic. Once an instance has any rule, traffic that no ACCEPT rule matches is dropped.",
    onChange: replace,
  }),
  portStart: input(port.optional(), {
    doc: "First port matched, 1 to 65535; TCP and UDP only; required when portEnd is set.",
    onChange: replace,
    wire: "port_start",
    fromAnswer: (r: ApiRule) => optionalNumber(r.port_start),
  }),
  portEnd: input(port.optional(), {
    doc: "Last port matched, 1 to 65535 and at least portStart; omit to match the single port portStart.",
    onChange: replace,
    wire: "port_end",
    fromAnswer: (r: ApiRule) => optionalNumber(r.port_end),
  }),
  remote: input(zCidr(WHERE).optional(), {
    doc: "Source CIDR, of the rule's family; default 0.0.0.0/0 (IPv4) or ::/0 (IPv6), filled in at preview so diffs stay quiet.",
    onChange: replace,
    fromAnswer: (r: ApiRule) => r.remote,
  }),
  local: input(zCidr(WHERE).optional(), {
    doc: "Destination CIDR inside the instance's address space, of the rule's family; omit to match all.",
    onChange: replace,
    fromAnswer: (r: ApiRule) => orUndefined(r.local),
  }),
  bpsLimit: input(limit.optional(), {
    doc: "Rate limit in bits per second, 1 to 10,000,000,000; exclusive with ppsLimit.",
    onChange: replace,
    wire: "bps_limit",
    fromAnswer: (r: ApiRule) => optionalNumber(r.bps_limit),
  }),
  ppsLimit: input(limit.optional(), {
    doc: "Rate limit in packets per second, 1 to 10,000,000,000; exclusive with bpsLimit.",
    onChange: replace,
    wire: "pps_limit",
    fromAnswer: (r: ApiRule) => optionalNumber(r.pps_limit),
  }),
  priority: input(
    zInteger(`must be a whole number, 1 to 100 (${WHERE})`)
      .min(1, `must be 1 to 100 (${WHERE})`)
      .max(100, `must be 1 to 100 (${WHERE})`)
      .default(1),
    {
      doc: "1 to 100; an instance's rules are evaluated highest first; default 1.",
      onChange: replace,
      fromAnswer: (r: ApiRule) => numberOf(r.priority)!,
    },
  ),
  description: input(zText(0, 255, WHERE).optional(), {
    doc: "Up to 255 characters.",
    onChange: replace,
    fromAnswer: (r: ApiRule) => orUndefined(r.description),
  }),
  state: computed<string>({
    doc: "Resource state: PENDING until the create workflow completes (the rule is effective then), FAILED if it failed.",
  }),
  createdAt,
});
type Inputs = InputsOf<typeof firewallRuleFields>;
type Outputs = OutputsOf<typeof firewallRuleFields>;

/** The inputs the create request sends: a rule found after a lost create answer must match each. */
const SENT = Object.entries(firewallRuleFields).flatMap(([k, f]) => (f.role === "input" && f.create ? [k as keyof Inputs] : []));

const familyOf = (cidr: string) => (cidr.includes(":") ? "IPv6" : "IPv4");

const rules: Rule<Inputs>[] = [
  {
    fields: ["protocol", "portStart", "portEnd"],
    property: "portStart",
    check: (i) =>
      i.protocol === "ICMP" && (i.portStart !== undefined || i.portEnd !== undefined)
        ? `ports apply only to TCP and UDP, not ICMP (${WHERE})`
        : undefined,
  },
  {
    fields: ["portStart", "portEnd"],
    property: "portEnd",
    check: (i) =>
      i.portEnd !== undefined && i.portStart === undefined
        ? `portEnd needs portStart (port_start is required when port_end is set; ${WHERE})`
        : undefined,
  },
  {
    fields: ["portStart", "portEnd"],
    property: "portEnd",
    check: (i) =>
      i.portEnd !== undefined && i.portStart !== undefined && i.portEnd < i.portStart
        ? `portEnd (${i.portEnd}) must be at least portStart (${i.portStart}) (${WHERE})`
        : undefined,
  },
  {
    fields: ["bpsLimit", "ppsLimit"],
    property: "bpsLimit",
    check: (i) =>
      i.bpsLimit !== undefined && i.ppsLimit !== undefined ? `bpsLimit and ppsLimit are mutually exclusive; set one (${WHERE})` : undefined,
  },
  ...(["remote", "local"] as const).map(
    (field): Rule<Inputs> => ({
      fields: ["type", field],
      check: (i) =>
        i[field] !== undefined && i.type && familyOf(i[field]!) !== i.type
          ? `${field} ${i[field]} is not an ${i.type} CIDR; a ${i.type} rule needs ${i.type} CIDRs (${WHERE})`
          : undefined,
    }),
  ),
];

// 2. API mapping.
interface ApiRule {
  id: string;
  instance_id: string;
  type: string;
  protocol: string;
  action: string;
  port_start: number | null;
  port_end: number | null;
  remote: string;
  local: string | null;
  bps_limit: number | null;
  pps_limit: number | null;
  priority: number;
  description: string | null;
  state: string;
  created?: string;
}

const toOutputs = (r: ApiRule): Outputs => outputsFromAnswer(firewallRuleFields, r);

async function get(ctx: OperationContext, id: string): Promise<Outputs | undefined> {
  const found = await ifFound(ctx.client.get<ApiRule>(`/v1/firewall-rules/${id}`));
  return found && toOutputs(found);
}

// 3. The definition: what a change does (its effects) and the API calls.
/** @internal */
export const firewallRuleDefinition: ResourceDefinition<Inputs, Outputs> = {
  kind: "FirewallRule",
  doc: "A firewall rule on an instance. Every change replaces it (the API has no update).",
  ...fromFields(firewallRuleFields),
  defaults: (i) => (i.remote === undefined && i.type ? { remote: i.type === "IPv6" ? "::/0" : "0.0.0.0/0" } : {}),
  rules,
  label: (i, id) =>
    `FirewallRule ${i.action ?? ""} ${i.protocol ?? ""}${i.portStart ? ` ${i.portStart}${i.portEnd ? `-${i.portEnd}` : ""}` : ""} on instance ${i.instanceId ?? id ?? "?"}`.replace(
      /\s+/g,
      " ",
    ),
  broken: (o) => o.state === "FAILED",
  pricing: { notMetered: "a rule on an instance: the instance's price covers it" },
  api: {
    async create(ctx, i) {
      const answer = await ctx.client.post(`/v1/instances/${i.instanceId}/firewall-rules`, compact(createBody(firewallRuleFields, i)));
      return { id: String(resourceOf<ApiRule>(answer, ["rule"]).id), workflow: workflowOf(answer) };
    },
    // The workspace's overview names each instance that has rules (spec part 3); their lists hold the rules.
    async list(ctx, workspaceId) {
      const holders = await listAll<{ instance: string }>(ctx.client, `/v1/workspaces/${workspaceId}/firewall-rules`);
      const rules = await Promise.all(
        holders.map((h) => listAll<ApiRule>(ctx.client, `/v1/instances/${idOf(h.instance)}/firewall-rules`, { sort: "id" })),
      );
      return rules.flat().map((r) => ({ id: String(r.id) }));
    },
    // No unique name: a rule is the one with exactly these fields, created during this operation.
    async findExisting(ctx, i) {
      const found = await listAll<ApiRule>(ctx.client, `/v1/instances/${i.instanceId}/firewall-rules`, {
        type: i.type,
        protocol: i.protocol,
        action: i.action,
      });
      const wanted = { ...i, instanceId: String(i.instanceId) };
      return found.find((r) => createdDuring(ctx, r.created) && SENT.every((f) => toOutputs(r)[f] === wanted[f]))?.id;
    },
    get: (ctx, id) => get(ctx, id),
    settled: (r) => (r.state === "FAILED" ? "firewall rule is FAILED" : r.state !== "PENDING"),
    stateOf: (r) => r.state,
    async delete(ctx, id) {
      return optionalWorkflowOf(await ctx.client.delete(`/v1/firewall-rules/${id}`));
    },
  },
};

// 4. The public Args: generated from the fields, with the class (resources/generated/firewallRule.ts).
export type { FirewallRuleArgs, FirewallRuleOutputs };
