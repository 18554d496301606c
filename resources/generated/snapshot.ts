/** Generated from resources/snapshot.ts by `npm run docs` (scripts/classes.ts): do not edit. */
import type * as pulumi from "@pulumi/pulumi";
import { Resource as DynamicResource } from "@pulumi/pulumi/dynamic";
import { type ClassShape, type OutputProperties, superArgs } from "../../provider/resource";
import type { SnapshotArgs, SnapshotOutputs } from "../snapshot";

const SHAPE: ClassShape = {
  kind: "Snapshot",
  outputs: ["workspaceId", "instanceId", "diskId", "name", "size", "state", "createdAt"],
  secretOutputs: [],
  secretInputs: [],
};

/** A point-in-time copy of an instance disk (restore it with the restore-snapshot command). Relies on the snapshot endpoints the spec does not show (see the module comment). */
export class Snapshot extends DynamicResource {
  constructor(name: string, args: SnapshotArgs, opts?: pulumi.CustomResourceOptions) {
    super(...superArgs(SHAPE, name, args, opts));
  }
}

/** Typed properties: one `Output` per field of `SnapshotOutputs`. */
export interface Snapshot extends OutputProperties<SnapshotOutputs> {}
