/** Generated from resources/floatingIpAttachment.ts by `npm run docs` (scripts/classes.ts): do not edit. */
import type * as pulumi from "@pulumi/pulumi";
import { Resource as DynamicResource } from "@pulumi/pulumi/dynamic";
import { type ClassShape, type OutputProperties, superArgs } from "../../provider/resource";
import type { FloatingIpAttachmentArgs, FloatingIpAttachmentOutputs } from "../floatingIpAttachment";

const SHAPE: ClassShape = {
  kind: "FloatingIpAttachment",
  outputs: ["ipId", "instanceId", "address", "family"],
  secretOutputs: [],
  secretInputs: [],
};

/** Attaches a floating IP to an instance. The id is the floating IP's id. Detached outside Pulumi, it is attached again by the next `pulumi up`; destroy detaches it (only from the instance it manages). */
export class FloatingIpAttachment extends DynamicResource {
  constructor(name: string, args: FloatingIpAttachmentArgs, opts?: pulumi.CustomResourceOptions) {
    super(...superArgs(SHAPE, name, args, opts));
  }
}

/** Typed properties: one `Output` per field of `FloatingIpAttachmentOutputs`. */
export interface FloatingIpAttachment extends OutputProperties<FloatingIpAttachmentOutputs> {}
