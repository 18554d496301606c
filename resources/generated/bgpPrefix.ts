/** Generated from resources/bgpPrefix.ts by `npm run docs` (scripts/classes.ts): do not edit. */
import type * as pulumi from "@pulumi/pulumi";
import { Resource as DynamicResource } from "@pulumi/pulumi/dynamic";
import { type ClassShape, type OutputProperties, superArgs } from "../../provider/resource";
import type { BgpPrefixArgs, BgpPrefixOutputs } from "../bgpPrefix";

const SHAPE: ClassShape = {
  kind: "BgpPrefix",
  outputs: ["workspaceId", "prefix", "source", "enabled", "community", "configId"],
  secretOutputs: [],
  secretInputs: [],
};

/** A prefix announced over the workspace's BGP session. The id is the entry's integer id, as its exact decimal digits. Destroy waits until the withdrawal has completed. */
export class BgpPrefix extends DynamicResource {
  constructor(name: string, args: BgpPrefixArgs, opts?: pulumi.CustomResourceOptions) {
    super(...superArgs(SHAPE, name, args, opts));
  }
}

/** Typed properties: one `Output` per field of `BgpPrefixOutputs`. */
export interface BgpPrefix extends OutputProperties<BgpPrefixOutputs> {}
