/** Generated from resources/vpc.ts by `npm run docs` (scripts/classes.ts): do not edit. */
import type * as pulumi from "@pulumi/pulumi";
import { Resource as DynamicResource } from "@pulumi/pulumi/dynamic";
import { type ClassShape, type OutputProperties, superArgs } from "../../provider/resource";
import type { VpcArgs, VpcOutputs } from "../vpc";

const SHAPE: ClassShape = {
  kind: "Vpc",
  outputs: ["workspaceId", "name", "description", "range", "vlan", "createdAt"],
  secretOutputs: [],
  secretInputs: [],
};

/** A private layer-2 network; instances join it through their `vpcIds` or a `VpcAttachment`. */
export class Vpc extends DynamicResource {
  constructor(name: string, args: VpcArgs, opts?: pulumi.CustomResourceOptions) {
    super(...superArgs(SHAPE, name, args, opts));
  }
}

/** Typed properties: one `Output` per field of `VpcOutputs`. */
export interface Vpc extends OutputProperties<VpcOutputs> {}
