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
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { createdDuring, type OperationContext } from "../provider/context";
import { optionalWorkflowOf, resourceOf, workflowOf } from "../provider/envelope";
import { ifFound } from "../provider/errors";
import { listAll } from "../provider/paging";
import { type CommonArgs } from "../provider/resource";
import { type InputsMatch, zCidr, zId, zText } from "../provider/schema";
import { compact, idOf, numberOf } from "../provider/wire";
import { eachOf, replace, type ResourceSpec, type Rule } from "../provider/spec";

const WHERE = "spec part 3, Firewall rules";

// 1. Inputs and rules.
const port = z
  .number()
  .int(`must be a whole port number, 1 to 65535 (${WHERE})`)
  .min(1, `must be 1 to 65535 (${WHERE})`)
  .max(65535, `must be 1 to 65535 (${WHERE})`);
const limit = z
  .number()
  .int(`must be a whole number, 1 to 10,000,000,000 (${WHERE})`)
  .min(1, `must be 1 to 10,000,000,000 (${WHERE})`)
  .max(10_000_000_000, `must be 1 to 10,000,000,000 (${WHERE})`);

const inputs = z.object({
  instanceId: zId("instance id"),
  type: z.enum(["IPv4", "IPv6"], { error: `must be IPv4 or IPv6 (${WHERE})` }),
  protocol: z.enum(["TCP", "UDP", "ICMP"], { error: `must be TCP, UDP or ICMP (${WHERE})` }),
  action: z.enum(["ACCEPT", "DROP"], { error: `must be ACCEPT or DROP (${WHERE})` }),
  portStart: port.optional(),
  portEnd: port.optional(),
  /** Source CIDR; the API's default (0.0.0.0/0 or ::/0) is filled in at preview so diffs stay quiet. */
  remote: zCidr(WHERE).optional(),
  local: zCidr(WHERE).optional(),
  bpsLimit: limit.optional(),
  ppsLimit: limit.optional(),
  priority: z
    .number()
    .int(`must be a whole number, 1 to 100 (${WHERE})`)
    .min(1, `must be 1 to 100 (${WHERE})`)
    .max(100, `must be 1 to 100 (${WHERE})`)
    .default(1),
  description: zText(0, 255, WHERE).optional(),
});
type Inputs = z.infer<typeof inputs>;
// The public FirewallRuleArgs and the schema above declare the same fields (checked by the compiler).
const _fieldsMatch: InputsMatch<FirewallRuleArgs, z.infer<typeof inputs>> = true;

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

export interface FirewallRuleOutputs extends Record<string, unknown> {
  instanceId: string;
  type: string;
  protocol: string;
  action: string;
  portStart?: number;
  portEnd?: number;
  remote: string;
  local?: string;
  bpsLimit?: number;
  ppsLimit?: number;
  priority: number;
  description?: string;
  state: string;
  createdAt: string;
}

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

const orUndefined = <T>(v: T | null | undefined): T | undefined => (v === null ? undefined : v);

const toOutputs = (r: ApiRule): FirewallRuleOutputs =>
  compact({
    instanceId: idOf(r.instance_id)!,
    type: r.type,
    protocol: r.protocol,
    action: r.action,
    portStart: orUndefined(numberOf(r.port_start)),
    portEnd: orUndefined(numberOf(r.port_end)),
    remote: r.remote,
    local: orUndefined(r.local),
    bpsLimit: orUndefined(numberOf(r.bps_limit)),
    ppsLimit: orUndefined(numberOf(r.pps_limit)),
    priority: numberOf(r.priority)!,
    description: orUndefined(r.description),
    state: r.state,
    createdAt: r.created ?? "",
  });

function body(i: Inputs) {
  return compact({
    type: i.type,
    protocol: i.protocol,
    action: i.action,
    port_start: i.portStart,
    port_end: i.portEnd,
    remote: i.remote,
    local: i.local,
    bps_limit: i.bpsLimit,
    pps_limit: i.ppsLimit,
    priority: i.priority,
    description: i.description,
  });
}

async function read(ctx: OperationContext, id: string): Promise<FirewallRuleOutputs | undefined> {
  const found = await ifFound(ctx.client.get<ApiRule>(`/v1/firewall-rules/${id}`));
  return found && toOutputs(found);
}

const FIELDS = [
  "type",
  "protocol",
  "action",
  "portStart",
  "portEnd",
  "remote",
  "local",
  "bpsLimit",
  "ppsLimit",
  "priority",
  "description",
] as const;

// 3. The spec: what a change does (policies) and the API calls.
/** @internal */
export const firewallRuleSpec: ResourceSpec<Inputs, FirewallRuleOutputs> = {
  kind: "FirewallRule",
  doc: "A firewall rule on an instance. Every change replaces it (the API has no update).",
  inputs,
  defaults: (i) => (i.remote === undefined && i.type ? { remote: i.type === "IPv6" ? "::/0" : "0.0.0.0/0" } : {}),
  rules,
  // No update endpoint: every field replaces the rule.
  policies: eachOf(["instanceId", ...FIELDS], replace),
  stableOutputs: ["createdAt"],
  label: (i, id) =>
    `FirewallRule ${i.action ?? ""} ${i.protocol ?? ""}${i.portStart ? ` ${i.portStart}${i.portEnd ? `-${i.portEnd}` : ""}` : ""} on instance ${i.instanceId ?? id ?? "?"}`.replace(
      /\s+/g,
      " ",
    ),
  broken: (o) => o.state === "FAILED",
  pricing: { notMetered: "a rule on an instance: the instance's price covers it" },
  api: {
    async create(ctx, i) {
      const answer = await ctx.client.post(`/v1/instances/${i.instanceId}/firewall-rules`, body(i));
      return { id: String(resourceOf<ApiRule>(answer, ["rule"]).id), workflow: workflowOf(answer) };
    },
    // No unique name: a rule is the one with exactly these fields, created during this operation.
    async findExisting(ctx, i) {
      const found = await listAll<ApiRule>(ctx.client, `/v1/instances/${i.instanceId}/firewall-rules`, {
        type: i.type,
        protocol: i.protocol,
        action: i.action,
      });
      const wanted = { ...i, instanceId: String(i.instanceId) };
      return found.find((r) => createdDuring(ctx, r.created) && FIELDS.every((f) => toOutputs(r)[f] === wanted[f]))?.id;
    },
    read: (ctx, id) => read(ctx, id),
    settled: (r) => (r.state === "FAILED" ? "firewall rule is FAILED" : r.state !== "PENDING"),
    stateOf: (r) => r.state,
    async delete(ctx, id) {
      return optionalWorkflowOf(await ctx.client.delete(`/v1/firewall-rules/${id}`));
    },
  },
};

// 4. The public Args: the class is generated from them and the spec (resources/generated/).
export interface FirewallRuleArgs extends CommonArgs {
  /** Instance the rule protects. */
  instanceId: pulumi.Input<string>;
  /** IPv4 or IPv6. */
  type: pulumi.Input<"IPv4" | "IPv6">;
  protocol: pulumi.Input<"TCP" | "UDP" | "ICMP">;
  action: pulumi.Input<"ACCEPT" | "DROP">;
  /** 1 to 65535; TCP and UDP only; required when portEnd is set. */
  portStart?: pulumi.Input<number>;
  /** At least portStart; omit to match the single port portStart. */
  portEnd?: pulumi.Input<number>;
  /** Source CIDR of the rule's family; default 0.0.0.0/0 or ::/0. */
  remote?: pulumi.Input<string>;
  /** Destination CIDR inside the instance's address space; omit to match all. */
  local?: pulumi.Input<string>;
  /** Bits per second, 1 to 10,000,000,000; exclusive with ppsLimit. */
  bpsLimit?: pulumi.Input<number>;
  /** Packets per second, 1 to 10,000,000,000; exclusive with bpsLimit. */
  ppsLimit?: pulumi.Input<number>;
  /** 1 to 100, evaluated highest first; default 1. */
  priority?: pulumi.Input<number>;
  /** Up to 255 characters. */
  description?: pulumi.Input<string>;
}
