/** Generated from resources/netLoadBalancer.ts by `npm run docs` (scripts/classes.ts): do not edit. */
import type * as pulumi from "@pulumi/pulumi";
import { Resource as DynamicResource } from "@pulumi/pulumi/dynamic";
import { type ClassShape, type OutputProperties, superArgs } from "../../provider/resource";
import type { NetLoadBalancerArgs, NetLoadBalancerOutputs } from "../netLoadBalancer";

const SHAPE: ClassShape = {
  kind: "NetLoadBalancer",
  outputs: ["name", "address", "ownerWorkspaceId", "ownerWorkspaceName", "memberInstanceIds", "createdAt"],
  secretOutputs: [],
  secretInputs: [],
};

/** A network load balancer. Creating and deleting one is Administrator-only: run the stack with an operator (staff) token in svc:token. Add instances with NetLoadBalancerMember. */
export class NetLoadBalancer extends DynamicResource {
  constructor(name: string, args: NetLoadBalancerArgs, opts?: pulumi.CustomResourceOptions) {
    super(...superArgs(SHAPE, name, args, opts));
  }
}

/** Typed properties: one `Output` per field of `NetLoadBalancerOutputs`. */
export interface NetLoadBalancer extends OutputProperties<NetLoadBalancerOutputs> {}
