/** Generated from resources/vpcAttachment.ts by `npm run docs` (scripts/classes.ts): do not edit. */
import type * as pulumi from "@pulumi/pulumi";
import { Resource as DynamicResource } from "@pulumi/pulumi/dynamic";
import { type ClassShape, type OutputProperties, superArgs } from "../../provider/resource";
import type { VpcAttachmentArgs, VpcAttachmentOutputs } from "../vpcAttachment";

const SHAPE: ClassShape = {
  kind: "VpcAttachment",
  outputs: ["instanceId", "vpcId", "privateIp", "instanceName"],
  secretOutputs: [],
  secretInputs: [],
};

/** Attaches an instance to a VPC: a NIC on the instance and a private address from the VPC's range. The id is `${instanceId}:${vpcId}`. Do not also list the VPC in the Instance's `vpcIds`: leave `vpcIds` unset on instances whose memberships are managed by attachments. */
export class VpcAttachment extends DynamicResource {
  constructor(name: string, args: VpcAttachmentArgs, opts?: pulumi.CustomResourceOptions) {
    super(...superArgs(SHAPE, name, args, opts));
  }
}

/** Typed properties: one `Output` per field of `VpcAttachmentOutputs`. */
export interface VpcAttachment extends OutputProperties<VpcAttachmentOutputs> {}
