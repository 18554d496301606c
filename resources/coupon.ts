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
import type * as pulumi from "@pulumi/pulumi";
import { isEqual } from "lodash";
import { z } from "zod";
import { createdDuring, type OperationContext } from "../provider/context";
import { ApiError, ifFound } from "../provider/errors";
import { listAll } from "../provider/paging";
import { type CommonArgs } from "../provider/resource";
import { emulatorLimit, type InputsMatch } from "../provider/schema";
import { compact, numberOf } from "../provider/wire";
import { replace, type ResourceSpec } from "../provider/spec";

const WHERE = "spec part 3, Billing and usage: POST /v1/coupons";
/** Limits the spec does not give (maxima, the code and flag patterns, note length): the emulator's (emulator/README.md, Billing: Coupons). */
const EMULATOR_LIMIT = emulatorLimit(WHERE);

// 1. Inputs.
/** Workspace flags as the emulator checks them: upper-case identifiers. */
const FLAG = /^[A-Z][A-Z0-9_]{0,31}$/;
const positive = (what: string) =>
  z.number().int(`must be a whole number (${WHERE}: ${what})`).min(1, `must be at least 1 (${WHERE}: ${what})`);

const inputs = z.object({
  /** Credit, micro-USD. */
  amount: positive("amount is an integer number of micro-USD").max(
    1_000_000_000_000,
    `must be at most 1,000,000,000,000 micro-USD, 1,000,000 USD (${EMULATOR_LIMIT})`,
  ),
  /** Distinct users who may redeem it. */
  uses: positive("uses is the number of distinct users who may redeem").max(1_000_000, `must be at most 1,000,000 (${EMULATOR_LIMIT})`),
  code: z
    .string()
    .min(1, `must not be empty; omit it to have one generated (${WHERE}: code)`)
    .refine(
      (c) => c === "" || /^[A-Za-z0-9][A-Za-z0-9-]{2,31}$/.test(c),
      `must be 3 to 32 letters, digits or -, not starting with - (${EMULATOR_LIMIT})`,
    )
    .optional(),
  expiryDays: positive("expiry_days is the number of days until the unused credit expires")
    .max(3650, `must be at most 3650 days (${EMULATOR_LIMIT})`)
    .default(30),
  /** Workspace flags applied on redemption; duplicates dropped as the API does. */
  flags: z
    .array(
      z
        .string()
        .min(1, `flags must not be empty strings (${WHERE}: flags)`)
        .refine(
          (f) => f === "" || FLAG.test(f),
          `flags must be upper-case identifiers such as BETA_ACCESS: a letter, then letters, digits or _, at most 32 characters (${EMULATOR_LIMIT})`,
        ),
    )
    .transform((f) => [...new Set(f)])
    .refine((f) => f.length <= 32, `must list at most 32 distinct flags (${EMULATOR_LIMIT})`)
    .default([]),
  note: z.string().max(500, `must be at most 500 characters (${EMULATOR_LIMIT})`).optional(),
});
type Inputs = z.infer<typeof inputs>;
// The public CouponArgs and the schema above declare the same fields (checked by the compiler).
const _fieldsMatch: InputsMatch<CouponArgs, z.infer<typeof inputs>> = true;

export interface CouponOutputs extends Record<string, unknown> {
  amount: number;
  /** Echo of max_uses. */
  uses: number;
  /** The declared or generated code. */
  code: string;
  expiryDays: number;
  flags: string[];
  note?: string;
  maxUses: number;
  /** Uses left as of the last create or refresh. */
  usesRemaining: number;
  createdAt: string;
}

// 2. API mapping.
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
    return new Error(
      `${ctx.label}: coupons are operator only (${WHERE}): the API refused this token (${err.reason ?? err.status}). Set svc:token to an operator (staff or system) token for the stack that declares coupons.`,
    );
  }
  return err;
}

// 3. The spec: what a change does (policies) and the API calls.
/** @internal */
export const couponSpec: ResourceSpec<Inputs, CouponOutputs> = {
  kind: "Coupon",
  doc: "A redeemable coupon. Operator only: the stack's svc:token must be an operator (staff or system) token. Every change replaces it; a fully redeemed coupon cannot be deleted.",
  inputs,
  // No update endpoint: every field replaces the coupon.
  policies: { amount: replace, uses: replace, code: replace, expiryDays: replace, flags: replace, note: replace },
  stableOutputs: ["createdAt", "maxUses"],
  // Codes are unique: a replacement that keeps the code deletes the old coupon first.
  uniqueKey: ["code"],
  label: (i, id) => `Coupon ${i.code ?? id ?? ""}`.trim(),
  pricing: { notMetered: "credit, not a cost" },
  api: {
    async create(ctx, i) {
      try {
        const c = await ctx.client.post<ApiCoupon>(
          `/v1/coupons`,
          compact({ amount: i.amount, uses: i.uses, code: i.code, expiry_days: i.expiryDays, flags: i.flags, note: i.note }),
        );
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
    // Answered 204 once deleted (spec part 3, DELETE /v1/coupons/{cid}).
    goneOnAnswer: true,
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

// 4. The public Args: the class is generated from them and the spec (resources/generated/).
export interface CouponArgs extends CommonArgs {
  /** Credit added to the redeemer's wallet, micro-USD (1 USD = 1,000,000), at most 10^12 (the emulator's limit). Replaces. */
  amount: pulumi.Input<number>;
  /** Number of distinct users who may redeem it (max_uses), 1 to 1,000,000 (the emulator's limit). Replaces. */
  uses: pulumi.Input<number>;
  /**
   * The code users type: 3 to 32 letters, digits or '-', not starting with '-' (the emulator's
   * limit; matched without regard to case). Generated by the API when omitted (see the `code`
   * output). Replaces.
   */
  code?: pulumi.Input<string>;
  /** Days until the unused remainder of a redemption's credit expires, 1 to 3650 (the emulator's limit); default 30. Replaces. */
  expiryDays?: pulumi.Input<number>;
  /** Workspace flags applied to the redeemer's owned workspaces: at most 32, each upper case such as BETA_ACCESS (the emulator's limits). Replaces. */
  flags?: pulumi.Input<pulumi.Input<string>[]>;
  /** Operator memo, at most 500 characters (the emulator's limit). Replaces. */
  note?: pulumi.Input<string>;
}
