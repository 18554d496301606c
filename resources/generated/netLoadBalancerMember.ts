/** Generated from resources/netLoadBalancerMember.ts by `npm run docs` (scripts/classes.ts): do not edit. */
import type * as pulumi from "@pulumi/pulumi";
import { Resource as DynamicResource } from "@pulumi/pulumi/dynamic";
import { type ClassShape, type OutputProperties, superArgs } from "../../provider/resource";
import type { NetLoadBalancerMemberArgs, NetLoadBalancerMemberOutputs } from "../netLoadBalancerMember";

const SHAPE: ClassShape = {
  kind: "NetLoadBalancerMember",
  outputs: ["workspaceId", "loadBalancerId", "instanceId", "instanceName", "state"],
  secretOutputs: [],
  secretInputs: [],
};

/** An instance behind a network load balancer. The id is `${loadBalancerId}:${instanceId}`; `pulumi up` waits until the instance is listed as a member, destroy until it no longer is. */
export class NetLoadBalancerMember extends DynamicResource {
  constructor(name: string, args: NetLoadBalancerMemberArgs, opts?: pulumi.CustomResourceOptions) {
    super(...superArgs(SHAPE, name, args, opts));
  }
}

/** Typed properties: one `Output` per field of `NetLoadBalancerMemberOutputs`. */
export interface NetLoadBalancerMember extends OutputProperties<NetLoadBalancerMemberOutputs> {}
