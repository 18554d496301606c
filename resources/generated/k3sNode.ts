/** Generated from resources/k3sNode.ts by `npm run docs` (scripts/classes.ts): do not edit. */
import type * as pulumi from "@pulumi/pulumi";
import { Resource as DynamicResource } from "@pulumi/pulumi/dynamic";
import { type ClassShape, type OutputProperties, superArgs } from "../../provider/resource";
import type { K3sNodeArgs, K3sNodeOutputs } from "../k3sNode";

const SHAPE: ClassShape = {
  kind: "K3sNode",
  outputs: ["workspaceId", "instanceId", "nodeName", "status", "ready", "allocatable", "conditions"],
  secretOutputs: [],
  secretInputs: [],
};

/** An instance enrolled as a worker node of the workspace's Kubernetes cluster. */
export class K3sNode extends DynamicResource {
  constructor(name: string, args: K3sNodeArgs, opts?: pulumi.CustomResourceOptions) {
    super(...superArgs(SHAPE, name, args, opts));
  }
}

/** Typed properties: one `Output` per field of `K3sNodeOutputs`. */
export interface K3sNode extends OutputProperties<K3sNodeOutputs> {}
