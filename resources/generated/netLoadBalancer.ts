/** Generated from resources/netLoadBalancer.ts by `npm run generate` (scripts/classes.ts): do not edit. */
import type * as pulumi from "@pulumi/pulumi";
import { CustomResource } from "@pulumi/pulumi/resource";
import { type ClassShape, type CommonArgs, type OutputProperties, superArgs } from "../../provider/dynamic/classSupport";

/** The arguments of a `NetLoadBalancer`. */
export interface NetLoadBalancerArgs extends CommonArgs {
  /** Display name (required). Left out, it is the logical name and a dash and seven random hex digits, cut to fit, kept for the resource's life; `pulumi:autonaming` can change that. Changing it updates the resource in place. */
  name?: pulumi.Input<string>;
  /** The balanced IP address (IPv4 or IPv6; normalised). Changing it updates the resource in place. */
  address: pulumi.Input<string>;
  /** Owning workspace. Default: the provider's workspace (svc:workspaceId) at creation, and then not managed. A change moves the balancer (PATCH owner); the API drops members whose instance is not in the new workspace. Changing it updates the resource in place. */
  ownerWorkspaceId?: pulumi.Input<string>;
}

/** What a `NetLoadBalancer` records: its outputs, each also a typed property of the class. */
export interface NetLoadBalancerOutputs extends Record<string, unknown> {
  /** Display name (required). Left out, it is the logical name and a dash and seven random hex digits, cut to fit, kept for the resource's life; `pulumi:autonaming` can change that. Changing it updates the resource in place. */
  name: string;
  /** The balanced IP address (IPv4 or IPv6; normalised). Changing it updates the resource in place. */
  address: string;
  /** Owning workspace. Default: the provider's workspace (svc:workspaceId) at creation, and then not managed. A change moves the balancer (PATCH owner); the API drops members whose instance is not in the new workspace. Changing it updates the resource in place. */
  ownerWorkspaceId: string;
  /** Creation time (ISO 8601), as the API reports it. */
  createdAt: string;
}

const SHAPE: ClassShape = {
  kind: "NetLoadBalancer",
  autonamed: true,
  outputs: ["name", "address", "ownerWorkspaceId", "createdAt"],
  secretOutputs: [],
  secretInputs: [],
};

/** A network load balancer. Creating and deleting one is Administrator-only: run the stack with an operator (staff) token in svc:token. Add instances with NetLoadBalancerMember. */
export class NetLoadBalancer extends CustomResource {
  constructor(name: string, args: NetLoadBalancerArgs, opts?: pulumi.CustomResourceOptions) {
    super(...superArgs(SHAPE, name, args, opts));
  }
}

/** Typed properties: one `Output` per field of `NetLoadBalancerOutputs`. */
export interface NetLoadBalancer extends OutputProperties<NetLoadBalancerOutputs> {}
