/** Generated from resources/k3sNode.ts by `npm run generate` (scripts/classes.ts): do not edit. */
import type * as pulumi from "@pulumi/pulumi";
import { CustomResource } from "@pulumi/pulumi/resource";
import { type ClassShape, type CommonArgs, type OutputProperties, superArgs } from "../../provider/dynamic/classSupport";

/** The arguments of a `K3sNode`. */
export interface K3sNodeArgs extends CommonArgs {
  /** The instance that joins the cluster: running (online and AVAILABLE) and in the same workspace. Declare the node with `dependsOn: [cluster]`. A replaced node drains first (its pods are rescheduled). Changing it replaces the resource. */
  instanceId: pulumi.Input<string>;
  /** Owning workspace; defaults to svc:workspaceId / SVC_WORKSPACE_ID. Changing it replaces the resource. */
  workspaceId?: pulumi.Input<string>;
}

/** What a `K3sNode` records: its outputs, each also a typed property of the class. */
export interface K3sNodeOutputs extends Record<string, unknown> {
  /** Owning workspace; defaults to svc:workspaceId / SVC_WORKSPACE_ID. Changing it replaces the resource. */
  workspaceId: string;
  /** The instance that joins the cluster: running (online and AVAILABLE) and in the same workspace. Declare the node with `dependsOn: [cluster]`. A replaced node drains first (its pods are rescheduled). Changing it replaces the resource. */
  instanceId: string;
  /** Name inside the cluster. */
  nodeName: string;
  /** JOINING, READY, DRAINING or FAILED. */
  status: string;
  /** Ready in the cluster; false while the control plane is unreachable (live is null). */
  ready: boolean;
  /** Allocatable resources (cpu, memory, pods...); null while the control plane is unreachable. */
  allocatable: Record<string, string> | null;
  /** Condition name to status; null while the control plane is unreachable. */
  conditions: Record<string, string> | null;
}

const SHAPE: ClassShape = {
  kind: "K3sNode",
  outputs: ["workspaceId", "instanceId", "nodeName", "status", "ready", "allocatable", "conditions"],
  secretOutputs: [],
  secretInputs: [],
};

/** An instance enrolled as a worker node of the workspace's Kubernetes cluster. */
export class K3sNode extends CustomResource {
  constructor(name: string, args: K3sNodeArgs, opts?: pulumi.CustomResourceOptions) {
    super(...superArgs(SHAPE, name, args, opts));
  }
}

/** Typed properties: one `Output` per field of `K3sNodeOutputs`. */
export interface K3sNode extends OutputProperties<K3sNodeOutputs> {}
