/** Generated from resources/k3sService.ts by `npm run docs` (scripts/classes.ts): do not edit. */
import type * as pulumi from "@pulumi/pulumi";
import { Resource as DynamicResource } from "@pulumi/pulumi/dynamic";
import { type ClassShape, type OutputProperties, superArgs } from "../../provider/resource";
import type { K3sServiceArgs, K3sServiceOutputs } from "../k3sService";

const SHAPE: ClassShape = {
  kind: "K3sService",
  outputs: [
    "workspaceId",
    "name",
    "mode",
    "image",
    "targetInstanceIds",
    "replicas",
    "ports",
    "volumes",
    "environment",
    "secretRefs",
    "updateStrategy",
    "status",
    "desiredReplicas",
    "availableReplicas",
    "updatedReplicas",
    "updating",
    "pods",
  ],
  secretOutputs: [],
  secretInputs: [],
};

/** A containerised service on the workspace's Kubernetes cluster. Declare it with `dependsOn` on the nodes of its target instances (and reference secrets through their `name` output). */
export class K3sService extends DynamicResource {
  constructor(name: string, args: K3sServiceArgs, opts?: pulumi.CustomResourceOptions) {
    super(...superArgs(SHAPE, name, args, opts));
  }
}

/** Typed properties: one `Output` per field of `K3sServiceOutputs`. */
export interface K3sService extends OutputProperties<K3sServiceOutputs> {}
