/** Generated from resources/k3sCluster.ts by `npm run generate` (scripts/classes.ts): do not edit. */
import type * as pulumi from "@pulumi/pulumi";
import { CustomResource } from "@pulumi/pulumi/resource";
import { type ClassShape, type CommonArgs, type OutputProperties, superArgs } from "../../provider/dynamic/classSupport";

/** The arguments of a `K3sCluster`. */
export interface K3sClusterArgs extends CommonArgs {
  /** Owning workspace; defaults to svc:workspaceId / SVC_WORKSPACE_ID. Changing it replaces the resource. */
  workspaceId?: pulumi.Input<string>;
}

/** What a `K3sCluster` records: its outputs, each also a typed property of the class. */
export interface K3sClusterOutputs extends Record<string, unknown> {
  /** Owning workspace; defaults to svc:workspaceId / SVC_WORKSPACE_ID. Changing it replaces the resource. */
  workspaceId: string;
  /** The cluster namespace identifier. */
  name: string;
  /** PROVISIONING, ACTIVE, DEPROVISIONING or FAILED. */
  status: string;
}

const SHAPE: ClassShape = {
  kind: "K3sCluster",
  outputs: ["workspaceId", "name", "status"],
  secretOutputs: [],
  secretInputs: [],
};

/** The workspace's managed Kubernetes cluster (one per workspace). Nodes, services and secrets need it ACTIVE: declare them with `dependsOn: [cluster]`. Deleting the cluster removes every node, service and secret in it. */
export class K3sCluster extends CustomResource {
  constructor(name: string, args: K3sClusterArgs, opts?: pulumi.CustomResourceOptions) {
    super(...superArgs(SHAPE, name, args, opts));
  }
}

/** Typed properties: one `Output` per field of `K3sClusterOutputs`. */
export interface K3sCluster extends OutputProperties<K3sClusterOutputs> {}
