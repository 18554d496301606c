/** Generated from resources/netLoadBalancerMember.ts by `npm run generate` (scripts/classes.ts): do not edit. */
import type * as pulumi from "@pulumi/pulumi";
import { CustomResource } from "@pulumi/pulumi/resource";
import { type ClassShape, type CommonArgs, type OutputProperties, superArgs } from "../../provider/dynamic/classSupport";

/** The arguments of a `NetLoadBalancerMember`. */
export interface NetLoadBalancerMemberArgs extends CommonArgs {
  /** The balancer (a NetLoadBalancer's id), owned by this resource's workspace. Changing it replaces the resource. */
  loadBalancerId: pulumi.Input<string>;
  /** The instance; it must be in the balancer's workspace. Changing it replaces the resource. */
  instanceId: pulumi.Input<string>;
  /** Adopt an existing membership: `"<loadBalancerId>:<instanceId>"` (a membership has no id of its own). */
  adoptId?: pulumi.Input<string>;
  /** Owning workspace; defaults to svc:workspaceId / SVC_WORKSPACE_ID. Changing it replaces the resource. */
  workspaceId?: pulumi.Input<string>;
}

/** What a `NetLoadBalancerMember` records: its outputs, each also a typed property of the class. */
export interface NetLoadBalancerMemberOutputs extends Record<string, unknown> {
  /** Owning workspace; defaults to svc:workspaceId / SVC_WORKSPACE_ID. Changing it replaces the resource. */
  workspaceId: string;
  /** The balancer (a NetLoadBalancer's id), owned by this resource's workspace. Changing it replaces the resource. */
  loadBalancerId: string;
  /** The instance; it must be in the balancer's workspace. Changing it replaces the resource. */
  instanceId: string;
  /** ACTIVE once listed as a member; JOINING while the addition has not applied yet. */
  state: "ACTIVE" | "JOINING";
}

const SHAPE: ClassShape = {
  kind: "NetLoadBalancerMember",
  outputs: ["workspaceId", "loadBalancerId", "instanceId", "state"],
  secretOutputs: [],
  secretInputs: [],
};

/** An instance behind a network load balancer. The id is `${loadBalancerId}:${instanceId}`; `pulumi up` waits until the instance is listed as a member, destroy until it no longer is. */
export class NetLoadBalancerMember extends CustomResource {
  constructor(name: string, args: NetLoadBalancerMemberArgs, opts?: pulumi.CustomResourceOptions) {
    super(...superArgs(SHAPE, name, args, opts));
  }
}

/** Typed properties: one `Output` per field of `NetLoadBalancerMemberOutputs`. */
export interface NetLoadBalancerMember extends OutputProperties<NetLoadBalancerMemberOutputs> {}
