/** Generated from resources/vpcAttachment.ts by `npm run generate` (scripts/classes.ts): do not edit. */
import type * as pulumi from "@pulumi/pulumi";
import { CustomResource } from "@pulumi/pulumi/resource";
import { type ClassShape, type CommonArgs, type OutputProperties, superArgs } from "../../provider/dynamic/classSupport";

/** The arguments of a `VpcAttachment`. */
export interface VpcAttachmentArgs extends CommonArgs {
  /** The instance that joins the VPC (same workspace as the VPC). Changing it replaces the resource. */
  instanceId: pulumi.Input<string>;
  /** The VPC. Changing it replaces the resource. */
  vpcId: pulumi.Input<string>;
  /** Adopt an existing membership: `"<instanceId>:<vpcId>"` (a membership has no id of its own). */
  adoptId?: pulumi.Input<string>;
}

/** What a `VpcAttachment` records: its outputs, each also a typed property of the class. */
export interface VpcAttachmentOutputs extends Record<string, unknown> {
  /** The instance that joins the VPC (same workspace as the VPC). Changing it replaces the resource. */
  instanceId: string;
  /** The VPC. Changing it replaces the resource. */
  vpcId: string;
  /** Address allocated to the instance from the VPC's range. */
  privateIp: string;
}

const SHAPE: ClassShape = {
  kind: "VpcAttachment",
  outputs: ["instanceId", "vpcId", "privateIp"],
  secretOutputs: [],
  secretInputs: [],
};

/** Attaches an instance to a VPC: a NIC on the instance and a private address from the VPC's range. The id is `${instanceId}:${vpcId}`. Do not also list the VPC in the Instance's `vpcIds`: leave `vpcIds` unset on instances whose memberships are managed by attachments. */
export class VpcAttachment extends CustomResource {
  constructor(name: string, args: VpcAttachmentArgs, opts?: pulumi.CustomResourceOptions) {
    super(...superArgs(SHAPE, name, args, opts));
  }
}

/** Typed properties: one `Output` per field of `VpcAttachmentOutputs`. */
export interface VpcAttachment extends OutputProperties<VpcAttachmentOutputs> {}
