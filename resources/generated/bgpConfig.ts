/** Generated from resources/bgpConfig.ts by `npm run docs` (scripts/classes.ts): do not edit. */
import type * as pulumi from "@pulumi/pulumi";
import { Resource as DynamicResource } from "@pulumi/pulumi/dynamic";
import { type ClassShape, type OutputProperties, superArgs } from "../../provider/resource";
import type { BgpConfigArgs, BgpConfigOutputs } from "../bgpConfig";

const SHAPE: ClassShape = {
  kind: "BgpConfig",
  outputs: ["workspaceId", "asn", "password", "instanceId", "instanceName", "maxPrefixes"],
  secretOutputs: ["password"],
  secretInputs: ["password"],
};

/** The workspace's BGP configuration (at most one per workspace; every change needs the ADMINISTRATOR role). An existing configuration is never taken over silently: adopt it with `adoptId`. Destroying it removes all of the workspace's prefixes. */
export class BgpConfig extends DynamicResource {
  constructor(name: string, args: BgpConfigArgs, opts?: pulumi.CustomResourceOptions) {
    super(...superArgs(SHAPE, name, args, opts));
  }
}

/** Typed properties: one `Output` per field of `BgpConfigOutputs`. */
export interface BgpConfig extends OutputProperties<BgpConfigOutputs> {}
