/** Generated from resources/k3sSecret.ts by `npm run docs` (scripts/classes.ts): do not edit. */
import type * as pulumi from "@pulumi/pulumi";
import { Resource as DynamicResource } from "@pulumi/pulumi/dynamic";
import { type ClassShape, type OutputProperties, superArgs } from "../../provider/resource";
import type { K3sSecretArgs, K3sSecretOutputs } from "../k3sSecret";

const SHAPE: ClassShape = {
  kind: "K3sSecret",
  outputs: ["workspaceId", "name", "data", "keys"],
  secretOutputs: ["data"],
  secretInputs: ["data"],
};

/** Key-value pairs for K3sServices (through their secretRefs); the values stay secret in state. */
export class K3sSecret extends DynamicResource {
  constructor(name: string, args: K3sSecretArgs, opts?: pulumi.CustomResourceOptions) {
    super(...superArgs(SHAPE, name, args, opts));
  }
}

/** Typed properties: one `Output` per field of `K3sSecretOutputs`. */
export interface K3sSecret extends OutputProperties<K3sSecretOutputs> {}
