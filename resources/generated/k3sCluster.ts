/** Generated from resources/k3sCluster.ts by `npm run docs` (scripts/classes.ts): do not edit. */
import type * as pulumi from "@pulumi/pulumi";
import { Resource as DynamicResource } from "@pulumi/pulumi/dynamic";
import { type ClassShape, type OutputProperties, superArgs } from "../../provider/resource";
import type { K3sClusterArgs, K3sClusterOutputs } from "../k3sCluster";

const SHAPE: ClassShape = {
  kind: "K3sCluster",
  outputs: ["workspaceId", "name", "status"],
  secretOutputs: [],
  secretInputs: [],
};

/** The workspace's managed Kubernetes cluster (one per workspace). Nodes, services and secrets need it ACTIVE: declare them with `dependsOn: [cluster]`. Deleting the cluster removes every node, service and secret in it. */
export class K3sCluster extends DynamicResource {
  constructor(name: string, args: K3sClusterArgs, opts?: pulumi.CustomResourceOptions) {
    super(...superArgs(SHAPE, name, args, opts));
  }
}

/** Typed properties: one `Output` per field of `K3sClusterOutputs`. */
export interface K3sCluster extends OutputProperties<K3sClusterOutputs> {}
