/** Generated from resources/floatingIp.ts by `npm run generate` (scripts/classes.ts): do not edit. */
import type * as pulumi from "@pulumi/pulumi";
import { CustomResource } from "@pulumi/pulumi/resource";
import { type ClassShape, type CommonArgs, type OutputProperties, superArgs } from "../../provider/dynamic/classSupport";

/** The arguments of a `FloatingIp`. */
export interface FloatingIpArgs extends CommonArgs {
  /** IPv4 or IPv6. Changing it replaces the resource. */
  family: pulumi.Input<"IPv4" | "IPv6">;
  /** DDoS-filtered address (default false; IPv4 only). Changing it replaces the resource. */
  ddos?: pulumi.Input<boolean>;
  /** Owning workspace; defaults to svc:workspaceId / SVC_WORKSPACE_ID. Changing it replaces the resource. */
  workspaceId?: pulumi.Input<string>;
}

/** What a `FloatingIp` records: its outputs, each also a typed property of the class. */
export interface FloatingIpOutputs extends Record<string, unknown> {
  /** Owning workspace; defaults to svc:workspaceId / SVC_WORKSPACE_ID. Changing it replaces the resource. */
  workspaceId: string;
  /** IPv4 or IPv6. Changing it replaces the resource. */
  family: "IPv4" | "IPv6";
  /** DDoS-filtered address (default false; IPv4 only). Changing it replaces the resource. */
  ddos: boolean;
  /** The allocated address. */
  address: string;
  /** Protected addresses cannot be released. */
  protected: boolean;
  /** Creation time (ISO 8601), as the API reports it. */
  createdAt: string;
}

const SHAPE: ClassShape = {
  kind: "FloatingIp",
  outputs: ["workspaceId", "family", "ddos", "address", "protected", "createdAt"],
  secretOutputs: [],
  secretInputs: [],
};

/** A public address owned by the stack, independent of any instance (it outlives instance replacements); attach it with a FloatingIpAttachment. Relies on endpoints the spec does not show (allocation at POST /v1/workspaces/{wid}/ips, GET and DELETE /v1/ips/{id}), as the emulator implements them. `pulumi destroy` detaches the address if something still holds it, then releases it. */
export class FloatingIp extends CustomResource {
  constructor(name: string, args: FloatingIpArgs, opts?: pulumi.CustomResourceOptions) {
    super(...superArgs(SHAPE, name, args, opts));
  }
}

/** Typed properties: one `Output` per field of `FloatingIpOutputs`. */
export interface FloatingIp extends OutputProperties<FloatingIpOutputs> {}
