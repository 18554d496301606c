/** Generated from resources/disk.ts by `npm run generate` (scripts/classes.ts): do not edit. */
import type * as pulumi from "@pulumi/pulumi";
import { CustomResource } from "@pulumi/pulumi/resource";
import { type ClassShape, type CommonArgs, type OutputProperties, superArgs } from "../../provider/dynamic/classSupport";
import type { WideInteger } from "../../provider/fields/integer";

/** The arguments of a `Disk`. */
export interface DiskArgs extends CommonArgs {
  /** Display name (required). Left out, it is the logical name and a dash and seven random hex digits, cut to fit, kept for the resource's life; `pulumi:autonaming` can change that. Changing it updates the resource in place. */
  name?: pulumi.Input<string>;
  /** Size in bytes. A disk only grows: a smaller size than the recorded one is rejected at preview. Changing it updates the resource in place (resize). */
  size: pulumi.Input<WideInteger>;
  /** LOCAL or CEPH (CEPH needs a Ceph node in the region). Changing it replaces the resource. */
  backend: pulumi.Input<"LOCAL" | "CEPH">;
  /** Region, for example NA_01. Changing it replaces the resource. */
  region: pulumi.Input<string>;
  /** Instance to attach to (same workspace and region); omit or null to keep the disk detached. Changing it updates the resource in place (attach). */
  instanceId?: pulumi.Input<string | null>;
  /** Owning workspace; defaults to svc:workspaceId / SVC_WORKSPACE_ID. Changing it replaces the resource. */
  workspaceId?: pulumi.Input<string>;
}

/** What a `Disk` records: its outputs, each also a typed property of the class. */
export interface DiskOutputs extends Record<string, unknown> {
  /** Owning workspace; defaults to svc:workspaceId / SVC_WORKSPACE_ID. Changing it replaces the resource. */
  workspaceId: string;
  /** Display name (required). Left out, it is the logical name and a dash and seven random hex digits, cut to fit, kept for the resource's life; `pulumi:autonaming` can change that. Changing it updates the resource in place. */
  name: string;
  /** Size in bytes. A disk only grows: a smaller size than the recorded one is rejected at preview. Changing it updates the resource in place (resize). */
  size: WideInteger;
  /** LOCAL or CEPH (CEPH needs a Ceph node in the region). Changing it replaces the resource. */
  backend: "LOCAL" | "CEPH";
  /** Region, for example NA_01. Changing it replaces the resource. */
  region: string;
  /** Instance to attach to (same workspace and region); omit or null to keep the disk detached. Changing it updates the resource in place (attach). */
  instanceId: string | null;
  /** Whether this is an instance's boot disk. */
  boot: boolean;
  /** Resource state: PENDING, AVAILABLE, FAILED... */
  state: string;
  /** Filesystem usage reported by the API while attached, else null. */
  usagePct: number | null;
  /** Creation time (ISO 8601), as the API reports it. */
  createdAt: string;
}

const SHAPE: ClassShape = {
  kind: "Disk",
  autonamed: true,
  outputs: ["workspaceId", "name", "size", "backend", "region", "instanceId", "boot", "state", "usagePct", "createdAt"],
  secretOutputs: [],
  secretInputs: [],
};

/** A standalone block volume, optionally attached to an instance. */
export class Disk extends CustomResource {
  constructor(name: string, args: DiskArgs, opts?: pulumi.CustomResourceOptions) {
    super(...superArgs(SHAPE, name, args, opts));
  }
}

/** Typed properties: one `Output` per field of `DiskOutputs`. */
export interface Disk extends OutputProperties<DiskOutputs> {}
