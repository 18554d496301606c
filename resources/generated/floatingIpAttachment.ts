/** Generated from resources/floatingIpAttachment.ts by `npm run generate` (scripts/classes.ts): do not edit. */
import type * as pulumi from "@pulumi/pulumi";
import { CustomResource } from "@pulumi/pulumi/resource";
import { type ClassShape, type CommonArgs, type OutputProperties, superArgs } from "../../provider/dynamic/classSupport";

/** The arguments of a `FloatingIpAttachment`. */
export interface FloatingIpAttachmentArgs extends CommonArgs {
  /** The floating IP (a FloatingIp's id). Changing it replaces the resource. */
  ipId: pulumi.Input<string>;
  /** The instance to attach to (same workspace): a move detaches, then attaches. Recorded as null when the IP was detached outside Pulumi (the next up attaches it again). Changing it updates the resource in place (move). */
  instanceId: pulumi.Input<string>;
  /** Adopt the existing attachment of a floating IP: its id (the same as `ipId`). */
  adoptId?: pulumi.Input<string>;
}

/** What a `FloatingIpAttachment` records: its outputs, each also a typed property of the class. */
export interface FloatingIpAttachmentOutputs extends Record<string, unknown> {
  /** The floating IP (a FloatingIp's id). Changing it replaces the resource. */
  ipId: string;
  /** The instance to attach to (same workspace): a move detaches, then attaches. Recorded as null when the IP was detached outside Pulumi (the next up attaches it again). Changing it updates the resource in place (move). */
  instanceId: string | null;
  /** The floating IP's address. */
  address: string;
  /** The floating IP's family: IPv4 or IPv6. */
  family: string;
}

const SHAPE: ClassShape = {
  kind: "FloatingIpAttachment",
  outputs: ["ipId", "instanceId", "address", "family"],
  secretOutputs: [],
  secretInputs: [],
};

/** Attaches a floating IP to an instance. The id is the floating IP's id. Detached outside Pulumi, it is attached again by the next `pulumi up`; destroy detaches it (only from the instance it manages). */
export class FloatingIpAttachment extends CustomResource {
  constructor(name: string, args: FloatingIpAttachmentArgs, opts?: pulumi.CustomResourceOptions) {
    super(...superArgs(SHAPE, name, args, opts));
  }
}

/** Typed properties: one `Output` per field of `FloatingIpAttachmentOutputs`. */
export interface FloatingIpAttachment extends OutputProperties<FloatingIpAttachmentOutputs> {}
