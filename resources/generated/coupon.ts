/** Generated from resources/coupon.ts by `npm run docs` (scripts/classes.ts): do not edit. */
import type * as pulumi from "@pulumi/pulumi";
import { Resource as DynamicResource } from "@pulumi/pulumi/dynamic";
import { type ClassShape, type OutputProperties, superArgs } from "../../provider/resource";
import type { CouponArgs, CouponOutputs } from "../coupon";

const SHAPE: ClassShape = {
  kind: "Coupon",
  outputs: ["amount", "uses", "code", "expiryDays", "flags", "note", "maxUses", "usesRemaining", "createdAt"],
  secretOutputs: [],
  secretInputs: [],
};

/** A redeemable coupon. Operator only: the stack's svc:token must be an operator (staff or system) token. Every change replaces it; a fully redeemed coupon cannot be deleted. */
export class Coupon extends DynamicResource {
  constructor(name: string, args: CouponArgs, opts?: pulumi.CustomResourceOptions) {
    super(...superArgs(SHAPE, name, args, opts));
  }
}

/** Typed properties: one `Output` per field of `CouponOutputs`. */
export interface Coupon extends OutputProperties<CouponOutputs> {}
