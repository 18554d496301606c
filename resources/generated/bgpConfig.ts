/** Generated from resources/bgpConfig.ts by `npm run generate` (scripts/classes.ts): do not edit. */
import type * as pulumi from "@pulumi/pulumi";
import { CustomResource } from "@pulumi/pulumi/resource";
import { type ClassShape, type CommonArgs, type OutputProperties, superArgs } from "../../provider/dynamic/classSupport";
import type { Integer, WideInteger } from "../../provider/fields/integer";

/** The arguments of a `BgpConfig`. */
export interface BgpConfigArgs extends CommonArgs {
  /** The workspace's autonomous system number (32-bit). Changing it updates the resource in place. */
  asn: pulumi.Input<WideInteger>;
  /** BGP session password; always stored as a Pulumi secret. The API returns it decrypted (live.password), so a change made outside Pulumi is detected. Changing it updates the resource in place. */
  password?: pulumi.Input<string>;
  /** Instance acting as the BGP endpoint (same workspace); null or omitted for none. Changing it updates the resource in place. */
  instanceId?: pulumi.Input<string | null>;
  /** Maximum prefixes on the session (the API's default when omitted). Changing it updates the resource in place. */
  maxPrefixes?: pulumi.Input<Integer>;
  /** Owning workspace; defaults to svc:workspaceId / SVC_WORKSPACE_ID. Changing it replaces the resource. */
  workspaceId?: pulumi.Input<string>;
}

/** What a `BgpConfig` records: its outputs, each also a typed property of the class. */
export interface BgpConfigOutputs extends Record<string, unknown> {
  /** Owning workspace; defaults to svc:workspaceId / SVC_WORKSPACE_ID. Changing it replaces the resource. */
  workspaceId: string;
  /** The workspace's autonomous system number (32-bit). Changing it updates the resource in place. */
  asn: WideInteger | null;
  /** BGP session password; always stored as a Pulumi secret. The API returns it decrypted (live.password), so a change made outside Pulumi is detected. Changing it updates the resource in place. */
  password: string | null;
  /** Instance acting as the BGP endpoint (same workspace); null or omitted for none. Changing it updates the resource in place. */
  instanceId: string | null;
  /** Maximum prefixes on the session (the API's default when omitted). Changing it updates the resource in place. */
  maxPrefixes: Integer;
}

const SHAPE: ClassShape = {
  kind: "BgpConfig",
  outputs: ["workspaceId", "asn", "password", "instanceId", "maxPrefixes"],
  secretOutputs: ["password"],
  secretInputs: ["password"],
};

/** The workspace's BGP configuration (at most one per workspace; every change needs the ADMINISTRATOR role). An existing configuration is never taken over silently: adopt it with `adoptId`. Destroying it removes all of the workspace's prefixes. */
export class BgpConfig extends CustomResource {
  constructor(name: string, args: BgpConfigArgs, opts?: pulumi.CustomResourceOptions) {
    super(...superArgs(SHAPE, name, args, opts));
  }
}

/** Typed properties: one `Output` per field of `BgpConfigOutputs`. */
export interface BgpConfig extends OutputProperties<BgpConfigOutputs> {}
