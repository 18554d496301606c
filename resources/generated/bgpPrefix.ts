/** Generated from resources/bgpPrefix.ts by `npm run generate` (scripts/classes.ts): do not edit. */
import type * as pulumi from "@pulumi/pulumi";
import { CustomResource } from "@pulumi/pulumi/resource";
import { type ClassShape, type CommonArgs, type OutputProperties, superArgs } from "../../provider/dynamic/classSupport";

/** The arguments of a `BgpPrefix`. */
export interface BgpPrefixArgs extends CommonArgs {
  /** The announced CIDR, with its length (normalised to the network address). Changing it updates the resource in place. */
  prefix: pulumi.Input<string>;
  /** Announce it (default true). Changing it updates the resource in place. */
  enabled?: pulumi.Input<boolean>;
  /** DEFAULT or PROTECTED (default DEFAULT). Changing it updates the resource in place. */
  community?: pulumi.Input<"DEFAULT" | "PROTECTED">;
  /** The workspace's BgpConfig id. Optional, but passing it creates the prefix after the configuration, and replaces the prefix when the configuration is replaced (its prefixes go with it). Changing it replaces the resource. */
  configId?: pulumi.Input<string>;
  /** Owning workspace; defaults to svc:workspaceId / SVC_WORKSPACE_ID. Changing it replaces the resource. */
  workspaceId?: pulumi.Input<string>;
}

/** What a `BgpPrefix` records: its outputs, each also a typed property of the class. */
export interface BgpPrefixOutputs extends Record<string, unknown> {
  /** Owning workspace; defaults to svc:workspaceId / SVC_WORKSPACE_ID. Changing it replaces the resource. */
  workspaceId: string;
  /** The announced CIDR, with its length (normalised to the network address). Changing it updates the resource in place. */
  prefix: string;
  /** Always MANUAL (the only source defined). */
  source: string;
  /** Announce it (default true). Changing it updates the resource in place. */
  enabled: boolean;
  /** DEFAULT or PROTECTED (default DEFAULT). Changing it updates the resource in place. */
  community: "DEFAULT" | "PROTECTED";
  /** The workspace's BgpConfig id. Optional, but passing it creates the prefix after the configuration, and replaces the prefix when the configuration is replaced (its prefixes go with it). Changing it replaces the resource. */
  configId?: string;
}

const SHAPE: ClassShape = {
  kind: "BgpPrefix",
  outputs: ["workspaceId", "prefix", "source", "enabled", "community", "configId"],
  secretOutputs: [],
  secretInputs: [],
};

/** A prefix announced over the workspace's BGP session. The id is the entry's integer id, as its exact decimal digits. Destroy waits until the withdrawal has completed. */
export class BgpPrefix extends CustomResource {
  constructor(name: string, args: BgpPrefixArgs, opts?: pulumi.CustomResourceOptions) {
    super(...superArgs(SHAPE, name, args, opts));
  }
}

/** Typed properties: one `Output` per field of `BgpPrefixOutputs`. */
export interface BgpPrefix extends OutputProperties<BgpPrefixOutputs> {}
