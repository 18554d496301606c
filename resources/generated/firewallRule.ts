/** Generated from resources/firewallRule.ts by `npm run generate` (scripts/classes.ts): do not edit. */
import type * as pulumi from "@pulumi/pulumi";
import { CustomResource } from "@pulumi/pulumi/resource";
import { type ClassShape, type CommonArgs, type OutputProperties, superArgs } from "../../provider/dynamic/classSupport";
import type { Integer, WideInteger } from "../../provider/fields/integer";

/** The arguments of a `FirewallRule`. */
export interface FirewallRuleArgs extends CommonArgs {
  /** Instance the rule protects. Its rules are enforced only while its firewallEnabled is true (stored but not enforced otherwise). Changing it replaces the resource. */
  instanceId: pulumi.Input<string>;
  /** Address family, IPv4 or IPv6: remote and local must be CIDRs of this family. Changing it replaces the resource. */
  type: pulumi.Input<"IPv4" | "IPv6">;
  /** Protocol matched; ports apply to TCP and UDP only. Changing it replaces the resource. */
  protocol: pulumi.Input<"TCP" | "UDP" | "ICMP">;
  /** ACCEPT or DROP the matching traffic. Once an instance has any rule, traffic that no ACCEPT rule matches is dropped. Changing it replaces the resource. */
  action: pulumi.Input<"ACCEPT" | "DROP">;
  /** First port matched, 1 to 65535; TCP and UDP only; required when portEnd is set. Changing it replaces the resource. */
  portStart?: pulumi.Input<Integer>;
  /** Last port matched, 1 to 65535 and at least portStart; omit to match the single port portStart. Changing it replaces the resource. */
  portEnd?: pulumi.Input<Integer>;
  /** Source CIDR, of the rule's family; default 0.0.0.0/0 (IPv4) or ::/0 (IPv6), filled in at preview so diffs stay quiet. Changing it replaces the resource. */
  remote?: pulumi.Input<string>;
  /** Destination CIDR inside the instance's address space, of the rule's family; omit to match all. Changing it replaces the resource. */
  local?: pulumi.Input<string>;
  /** Rate limit in bits per second, 1 to 10,000,000,000; exclusive with ppsLimit. Changing it replaces the resource. */
  bpsLimit?: pulumi.Input<WideInteger>;
  /** Rate limit in packets per second, 1 to 10,000,000,000; exclusive with bpsLimit. Changing it replaces the resource. */
  ppsLimit?: pulumi.Input<WideInteger>;
  /** 1 to 100; an instance's rules are evaluated highest first; default 1. Changing it replaces the resource. */
  priority?: pulumi.Input<Integer>;
  /** Up to 255 characters. Changing it replaces the resource. */
  description?: pulumi.Input<string>;
}

/** What a `FirewallRule` records: its outputs, each also a typed property of the class. */
export interface FirewallRuleOutputs extends Record<string, unknown> {
  /** Instance the rule protects. Its rules are enforced only while its firewallEnabled is true (stored but not enforced otherwise). Changing it replaces the resource. */
  instanceId: string;
  /** Address family, IPv4 or IPv6: remote and local must be CIDRs of this family. Changing it replaces the resource. */
  type: "IPv4" | "IPv6";
  /** Protocol matched; ports apply to TCP and UDP only. Changing it replaces the resource. */
  protocol: "TCP" | "UDP" | "ICMP";
  /** ACCEPT or DROP the matching traffic. Once an instance has any rule, traffic that no ACCEPT rule matches is dropped. Changing it replaces the resource. */
  action: "ACCEPT" | "DROP";
  /** First port matched, 1 to 65535; TCP and UDP only; required when portEnd is set. Changing it replaces the resource. */
  portStart?: Integer;
  /** Last port matched, 1 to 65535 and at least portStart; omit to match the single port portStart. Changing it replaces the resource. */
  portEnd?: Integer;
  /** Source CIDR, of the rule's family; default 0.0.0.0/0 (IPv4) or ::/0 (IPv6), filled in at preview so diffs stay quiet. Changing it replaces the resource. */
  remote: string;
  /** Destination CIDR inside the instance's address space, of the rule's family; omit to match all. Changing it replaces the resource. */
  local?: string;
  /** Rate limit in bits per second, 1 to 10,000,000,000; exclusive with ppsLimit. Changing it replaces the resource. */
  bpsLimit?: WideInteger;
  /** Rate limit in packets per second, 1 to 10,000,000,000; exclusive with bpsLimit. Changing it replaces the resource. */
  ppsLimit?: WideInteger;
  /** 1 to 100; an instance's rules are evaluated highest first; default 1. Changing it replaces the resource. */
  priority: Integer;
  /** Up to 255 characters. Changing it replaces the resource. */
  description?: string;
  /** Resource state: PENDING until the create workflow completes (the rule is effective then), FAILED if it failed. */
  state: string;
  /** Creation time (ISO 8601), as the API reports it. */
  createdAt: string;
}

const SHAPE: ClassShape = {
  kind: "FirewallRule",
  outputs: [
    "instanceId",
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
    "state",
    "createdAt",
  ],
  secretOutputs: [],
  secretInputs: [],
};

/** A firewall rule on an instance. Every change replaces it (the API has no update). */
export class FirewallRule extends CustomResource {
  constructor(name: string, args: FirewallRuleArgs, opts?: pulumi.CustomResourceOptions) {
    super(...superArgs(SHAPE, name, args, opts));
  }
}

/** Typed properties: one `Output` per field of `FirewallRuleOutputs`. */
export interface FirewallRule extends OutputProperties<FirewallRuleOutputs> {}
