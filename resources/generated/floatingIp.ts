/** Generated from resources/floatingIp.ts by `npm run docs` (scripts/classes.ts): do not edit. */
import type * as pulumi from "@pulumi/pulumi";
import { Resource as DynamicResource } from "@pulumi/pulumi/dynamic";
import { type ClassShape, type OutputProperties, superArgs } from "../../provider/resource";
import type { FloatingIpArgs, FloatingIpOutputs } from "../floatingIp";

const SHAPE: ClassShape = {
  kind: "FloatingIp",
  outputs: ["workspaceId", "family", "ddos", "address", "instanceId", "protected", "createdAt"],
  secretOutputs: [],
  secretInputs: [],
};

/** A public address owned by the stack, independent of any instance (it outlives instance replacements); attach it with a FloatingIpAttachment. Relies on endpoints the spec does not show (allocation at POST /v1/workspaces/{wid}/ips, GET and DELETE /v1/ips/{id}), as the emulator implements them. `pulumi destroy` detaches the address if something still holds it, then releases it. */
export class FloatingIp extends DynamicResource {
  constructor(name: string, args: FloatingIpArgs, opts?: pulumi.CustomResourceOptions) {
    super(...superArgs(SHAPE, name, args, opts));
  }
}

/** Typed properties: one `Output` per field of `FloatingIpOutputs`. */
export interface FloatingIp extends OutputProperties<FloatingIpOutputs> {}
