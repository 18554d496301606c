/**
 * Coupon — a code users redeem for wallet credit and workspace flags (spec part 3, Billing and
 * usage; Billing objects: Coupon). Operator only.
 *
 *   POST   /v1/coupons          amount, uses, code (auto-generated when omitted), expiry_days
 *                               (default 30), flags, note -> full coupon
 *   GET    /v1/coupons/{cid}    full coupon: id, code, amount, expiry_days, flags, note,
 *                               max_uses, uses_remaining, created_at
 *   GET    /v1/coupons          paged coupons
 *   DELETE /v1/coupons/{cid}    204; only unredeemed coupons or those with uses remaining
 *
 * Every endpoint needs an operator (staff or system) session: a stack declaring coupons must use
 * an operator token as svc:token (a normal workspace or user token is refused: 400 for a
 * user-scoped token, 403 for a workspace token). There is no update endpoint: every field
 * replaces the coupon. A fully redeemed coupon cannot be deleted (the API keeps it for the
 * record): destroy then fails with a message saying how to let go of it.
 */
import * as pulumi from "@pulumi/pulumi";
import { isEqual } from "lodash";
import { z } from "zod";
import { createdDuring, type OperationContext } from "../provider/context";
import { ApiError, ifFound } from "../provider/errors";
import { listAll } from "../provider/paging";
import { MODULE, providerFor, withOutputs, withSecretOutputs, type CommonArgs } from "../provider/resource";
import { compact, numberOf } from "../provider/schema";
import { replace, type ResourceSpec } from "../provider/spec";

const WHERE = "spec part 3, Billing and usage: POST /v1/coupons";
const positive = (what: string) => z.number().int(`must be a whole number (${WHERE}: ${what})`).min(1, `must be at least 1 (${WHERE}: ${what})`);

// 1. Inputs.
const inputs = z.object({
  /** Credit, micro-USD. */
  amount: positive("amount is an integer number of micro-USD"),
  /** Distinct users who may redeem it. */
  uses: positive("uses is the number of distinct users who may redeem"),
  code: z.string().min(1, `must not be empty; omit it to have one generated (${WHERE}: code)`).optional(),
  expiryDays: positive("expiry_days is the number of days until the unused credit expires").default(30),
  /** Workspace flags applied on redemption; duplicates dropped as the API does. */
  flags: z
    .array(z.string().min(1, `flags must not be empty strings (${WHERE}: flags)`))
    .transform((f) => [...new Set(f)])
    .default([]),
  note: z.string().optional(),
});
type Inputs = z.infer<typeof inputs>;

export interface CouponOutputs extends Record<string, unknown> {
  amount: number;
  /** Echo of max_uses. */
  uses: number;
  code: string;
  expiryDays: number;
  flags: string[];
  note?: string;
  maxUses: number;
  usesRemaining: number;
  createdAt: string;
}

// 3. API mapping.
interface ApiCoupon {
  id: string;
  code: string;
  amount: number;
  expiry_days: number;
  flags: string[];
  note: string | null;
  max_uses: number;
  uses_remaining: number;
  created_at: string;
}

function toOutputs(c: ApiCoupon, prior: Partial<Inputs>): CouponOutputs {
  // Codes are matched without regard to case: keep the declared spelling of the same code.
  const code = prior.code && prior.code.toUpperCase() === c.code.toUpperCase() ? prior.code : c.code;
  return compact({
    amount: numberOf(c.amount)!,
    uses: numberOf(c.max_uses)!,
    code,
    expiryDays: numberOf(c.expiry_days)!,
    flags: [...(c.flags ?? [])],
    note: c.note ?? undefined,
    maxUses: numberOf(c.max_uses)!,
    usesRemaining: numberOf(c.uses_remaining)!,
    createdAt: c.created_at,
  });
}

async function read(ctx: OperationContext, id: string, prior: Partial<Inputs>): Promise<CouponOutputs | undefined> {
  const found = await ifFound(ctx.client.get<ApiCoupon>(`/v1/coupons/${id}`));
  return found && toOutputs(found, prior);
}

/** Operator-only endpoints refuse other tokens with 400 (user-scoped) or 403. */
function operatorOnly(ctx: OperationContext, err: unknown): unknown {
  if (err instanceof ApiError && (err.status === 403 || (err.status === 400 && /staff|administrator|operator/i.test(err.reason ?? "")))) {
    return new Error(`${ctx.label}: coupons are operator only (${WHERE}): the API refused this token (${err.reason ?? err.status}). Set svc:token to an operator (staff or system) token for the stack that declares coupons.`);
  }
  return err;
}

export const couponSpec: ResourceSpec<Inputs, CouponOutputs> = {
  kind: "Coupon",
  inputs,
  // 2. No update endpoint: every field replaces the coupon.
  policies: { amount: replace, uses: replace, code: replace, expiryDays: replace, flags: replace, note: replace },
  stableOutputs: ["createdAt", "maxUses"],
  // Codes are unique: a replacement that keeps the code deletes the old coupon first.
  uniqueKey: ["code"],
  label: (i, id) => `Coupon ${i.code ?? id ?? ""}`.trim(),
  api: {
    async create(ctx, i) {
      try {
        const c = await ctx.client.post<ApiCoupon>(`/v1/coupons`, compact({ amount: i.amount, uses: i.uses, code: i.code, expiry_days: i.expiryDays, flags: i.flags, note: i.note }));
        return { id: String(c.id) };
      } catch (err) {
        throw operatorOnly(ctx, err);
      }
    },
    // By code when declared (unique); otherwise the unredeemed coupon with these fields created now.
    async findExisting(ctx, i) {
      const all = await listAll<ApiCoupon>(ctx.client, `/v1/coupons`);
      const found = all.find((c) =>
        i.code
          ? c.code.toUpperCase() === i.code.toUpperCase()
          : createdDuring(ctx, c.created_at) &&
            numberOf(c.amount) === i.amount &&
            numberOf(c.max_uses) === i.uses &&
            numberOf(c.uses_remaining) === i.uses &&
            numberOf(c.expiry_days) === i.expiryDays &&
            (c.note ?? undefined) === i.note &&
            isEqual([...c.flags].sort(), [...i.flags].sort()),
      );
      return found?.id;
    },
    read: (ctx, id, prior) => read(ctx, id, prior),
    async delete(ctx, id, olds) {
      try {
        await ctx.client.delete(`/v1/coupons/${id}`);
      } catch (err) {
        if (err instanceof ApiError && err.status === 409) {
          throw new Error(
            `${ctx.label}: the API refuses to delete coupon ${id} (409: ${err.reason ?? "no uses remain"}): only unredeemed coupons or those with uses remaining can be deleted (${WHERE.replace(": POST /v1/coupons", "")}: DELETE /v1/coupons/{cid}). ` +
              `${olds.maxUses ? `All ${olds.maxUses} uses are redeemed; ` : ""}the API keeps it for the record. To let go of it, set the retainOnDelete resource option on it and run pulumi up, then remove it from the program (or pulumi state delete its URN).`,
          );
        }
        throw operatorOnly(ctx, err);
      }
      return null;
    },
  },
};

// 4. The class.
export interface CouponArgs extends CommonArgs {
  /** Credit added to the redeemer's wallet, micro-USD (1 USD = 1,000,000). Replaces. */
  amount: pulumi.Input<number>;
  /** Number of distinct users who may redeem it (max_uses). Replaces. */
  uses: pulumi.Input<number>;
  /** The code users type; generated by the API when omitted (see the `code` output). Replaces. */
  code?: pulumi.Input<string>;
  /** Days until the unused remainder of a redemption's credit expires; default 30. Replaces. */
  expiryDays?: pulumi.Input<number>;
  /** Workspace flags applied to the redeemer's owned workspaces. Replaces. */
  flags?: pulumi.Input<pulumi.Input<string>[]>;
  /** Operator memo. Replaces. */
  note?: pulumi.Input<string>;
}

const OUTPUTS = ["amount", "uses", "code", "expiryDays", "flags", "note", "maxUses", "usesRemaining", "createdAt"] as const;

/**
 * A redeemable coupon. Operator only: the stack's svc:token must be an operator (staff or
 * system) token. Every change replaces it; a fully redeemed coupon cannot be deleted.
 */
export class Coupon extends pulumi.dynamic.Resource {
  declare readonly amount: pulumi.Output<number>;
  declare readonly uses: pulumi.Output<number>;
  /** The declared or generated code. */
  declare readonly code: pulumi.Output<string>;
  declare readonly expiryDays: pulumi.Output<number>;
  declare readonly flags: pulumi.Output<string[]>;
  declare readonly note: pulumi.Output<string | undefined>;
  declare readonly maxUses: pulumi.Output<number>;
  /** Uses left as of the last create or refresh. */
  declare readonly usesRemaining: pulumi.Output<number>;
  declare readonly createdAt: pulumi.Output<string>;

  constructor(name: string, args: CouponArgs, opts?: pulumi.CustomResourceOptions) {
    super(providerFor("Coupon"), name, withOutputs(args, OUTPUTS), withSecretOutputs(opts, []), MODULE, "Coupon");
  }
}
