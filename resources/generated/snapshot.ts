/** Generated from resources/snapshot.ts by `npm run generate` (scripts/classes.ts): do not edit. */
import type * as pulumi from "@pulumi/pulumi";
import { CustomResource } from "@pulumi/pulumi/resource";
import { type ClassShape, type CommonArgs, type OutputProperties, superArgs } from "../../provider/dynamic/classSupport";
import type { WideInteger } from "../../provider/fields/integer";

/** The arguments of a `Snapshot`. */
export interface SnapshotArgs extends CommonArgs {
  /** Instance whose disk is copied (AVAILABLE and not locked). Changing it replaces the resource. */
  instanceId: pulumi.Input<string>;
  /** Disk to copy; default the instance's boot disk (the copied disk is recorded either way). Changing it replaces the resource. */
  diskId?: pulumi.Input<string>;
}

/** What a `Snapshot` records: its outputs, each also a typed property of the class. */
export interface SnapshotOutputs extends Record<string, unknown> {
  /** The workspace of the instance. */
  workspaceId: string;
  /** Instance whose disk is copied (AVAILABLE and not locked). Changing it replaces the resource. */
  instanceId: string;
  /** Disk to copy; default the instance's boot disk (the copied disk is recorded either way). Changing it replaces the resource. */
  diskId: string;
  /** Name the API gave it. */
  name: string;
  /** Bytes. */
  size: WideInteger;
  /** PENDING, AVAILABLE, FAILED, DELETING. */
  state: string;
  /** Creation time (ISO 8601), as the API reports it. */
  createdAt: string;
}

const SHAPE: ClassShape = {
  kind: "Snapshot",
  outputs: ["workspaceId", "instanceId", "diskId", "name", "size", "state", "createdAt"],
  secretOutputs: [],
  secretInputs: [],
};

/** A point-in-time copy of an instance disk (restore it with the restore-snapshot command). Relies on the snapshot endpoints the spec does not show (see the module comment). */
export class Snapshot extends CustomResource {
  constructor(name: string, args: SnapshotArgs, opts?: pulumi.CustomResourceOptions) {
    super(...superArgs(SHAPE, name, args, opts));
  }
}

/** Typed properties: one `Output` per field of `SnapshotOutputs`. */
export interface Snapshot extends OutputProperties<SnapshotOutputs> {}
