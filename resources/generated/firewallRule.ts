/** Generated from resources/firewallRule.ts by `npm run docs` (scripts/classes.ts): do not edit. */
import type * as pulumi from "@pulumi/pulumi";
import { Resource as DynamicResource } from "@pulumi/pulumi/dynamic";
import { type ClassShape, type OutputProperties, superArgs } from "../../provider/resource";
import type { FirewallRuleArgs, FirewallRuleOutputs } from "../firewallRule";

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
export class FirewallRule extends DynamicResource {
  constructor(name: string, args: FirewallRuleArgs, opts?: pulumi.CustomResourceOptions) {
    super(...superArgs(SHAPE, name, args, opts));
  }
}

/** Typed properties: one `Output` per field of `FirewallRuleOutputs`. */
export interface FirewallRule extends OutputProperties<FirewallRuleOutputs> {}
