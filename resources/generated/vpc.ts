/** Generated from resources/vpc.ts by `npm run generate` (scripts/classes.ts): do not edit. */
import type * as pulumi from "@pulumi/pulumi";
import { CustomResource } from "@pulumi/pulumi/resource";
import { type ClassShape, type CommonArgs, type OutputProperties, superArgs } from "../../provider/dynamic/classSupport";
import type { Integer } from "../../provider/fields/integer";

/** The arguments of a `Vpc`. */
export interface VpcArgs extends CommonArgs {
  /** Display name, 4 to 32 characters. Left out, it is the logical name and a dash and seven random hex digits, cut to fit, kept for the resource's life; `pulumi:autonaming` can change that. Changing it updates the resource in place. */
  name?: pulumi.Input<string>;
  /** Up to 240 characters. Changing it updates the resource in place. */
  description: pulumi.Input<string>;
  /** RFC 1918 private CIDR; normalised to the network address (10.1.2.3/16 -> 10.1.0.0/16). Changing it replaces the resource. */
  range: pulumi.Input<string>;
  /** Owning workspace; defaults to svc:workspaceId / SVC_WORKSPACE_ID. Changing it replaces the resource. */
  workspaceId?: pulumi.Input<string>;
}

/** What a `Vpc` records: its outputs, each also a typed property of the class. */
export interface VpcOutputs extends Record<string, unknown> {
  /** Owning workspace; defaults to svc:workspaceId / SVC_WORKSPACE_ID. Changing it replaces the resource. */
  workspaceId: string;
  /** Display name, 4 to 32 characters. Left out, it is the logical name and a dash and seven random hex digits, cut to fit, kept for the resource's life; `pulumi:autonaming` can change that. Changing it updates the resource in place. */
  name: string;
  /** Up to 240 characters. Changing it updates the resource in place. */
  description: string;
  /** RFC 1918 private CIDR; normalised to the network address (10.1.2.3/16 -> 10.1.0.0/16). Changing it replaces the resource. */
  range: string;
  /** VLAN tag the API assigned. */
  vlan: Integer;
  /** Creation time (ISO 8601), as the API reports it. */
  createdAt: string;
}

const SHAPE: ClassShape = {
  kind: "Vpc",
  autonamed: true,
  outputs: ["workspaceId", "name", "description", "range", "vlan", "createdAt"],
  secretOutputs: [],
  secretInputs: [],
};

/** A private layer-2 network; instances join it through their `vpcIds` or a `VpcAttachment`. */
export class Vpc extends CustomResource {
  constructor(name: string, args: VpcArgs, opts?: pulumi.CustomResourceOptions) {
    super(...superArgs(SHAPE, name, args, opts));
  }
}

/** Typed properties: one `Output` per field of `VpcOutputs`. */
export interface Vpc extends OutputProperties<VpcOutputs> {}
