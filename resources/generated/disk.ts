/** Generated from resources/disk.ts by `npm run docs` (scripts/classes.ts): do not edit. */
import type * as pulumi from "@pulumi/pulumi";
import { Resource as DynamicResource } from "@pulumi/pulumi/dynamic";
import { type ClassShape, type OutputProperties, superArgs } from "../../provider/resource";
import type { DiskArgs, DiskOutputs } from "../disk";

const SHAPE: ClassShape = {
  kind: "Disk",
  outputs: ["workspaceId", "name", "size", "backend", "region", "instanceId", "boot", "state", "usagePct", "createdAt"],
  secretOutputs: [],
  secretInputs: [],
};

/** A standalone block volume, optionally attached to an instance. */
export class Disk extends DynamicResource {
  constructor(name: string, args: DiskArgs, opts?: pulumi.CustomResourceOptions) {
    super(...superArgs(SHAPE, name, args, opts));
  }
}

/** Typed properties: one `Output` per field of `DiskOutputs`. */
export interface Disk extends OutputProperties<DiskOutputs> {}
