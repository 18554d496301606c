/**
 * Coupons (spec part 3, "Billing and usage"): operator-made codes worth credit for a number of
 * days, redeemable once per user up to their uses; a redemption grants expiring credit and adds
 * the coupon's flags to every workspace the user owns. Registration (part 1) redeems through
 * `redeemCoupon` too.
 */
import { conflict, notFound } from "../core/errors";
import type { Services } from "../core/services";
import type { Row } from "../core/store";
import { iso, ownedWorkspaces } from "./billingUsage";
import { addGrant, DAY_MS } from "./wallet";

export interface CouponRow extends Row {
  code: string;
  amount: number;
  expiryDays: number;
  flags: string[];
  note: string | null;
  maxUses: number;
  /** Users who redeemed it, in order (a user redeems a code once). */
  redeemedBy: string[];
  created: string;
}

declare module "../core/store" {
  interface Tables {
    coupons: CouponRow;
  }
}

export const couponView = (c: CouponRow) => ({
  id: c.id,
  code: c.code,
  amount: c.amount,
  expiry_days: c.expiryDays,
  flags: [...c.flags],
  note: c.note,
  max_uses: c.maxUses,
  uses_remaining: Math.max(0, c.maxUses - c.redeemedBy.length),
  created_at: c.created,
});

const CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/** XXXX-XXXX-XXXX from the seeded generator, unique among coupons. */
function newCouponCode(services: Services): string {
  for (;;) {
    const groups = Array.from({ length: 3 }, () =>
      Array.from({ length: 4 }, () => CODE_ALPHABET[services.store.rng.int(0, CODE_ALPHABET.length - 1)]).join(""),
    );
    const code = groups.join("-");
    if (!couponByCode(services, code)) return code;
  }
}

const couponByCode = (services: Services, code: string) => services.store.t.coupons.find((c) => c.code === code.toUpperCase());

export function createCoupon(
  services: Services,
  input: { amount: number; uses: number; code?: string; expiry_days: number; flags: string[]; note?: string },
): CouponRow {
  if (input.code && couponByCode(services, input.code)) throw conflict(`A coupon with code ${input.code} already exists`);
  return services.store.t.coupons.insert({
    id: services.store.newId(),
    code: input.code ?? newCouponCode(services),
    amount: input.amount,
    expiryDays: input.expiry_days,
    flags: [...new Set(input.flags)],
    note: input.note ?? null,
    maxUses: input.uses,
    redeemedBy: [],
    created: services.clock.iso(),
  });
}

export function loadCoupon(services: Services, id: string): CouponRow {
  const coupon = services.store.t.coupons.get(id);
  if (!coupon) throw notFound("Coupon");
  return coupon;
}

export function deleteCoupon(services: Services, coupon: CouponRow): void {
  if (coupon.redeemedBy.length >= coupon.maxUses) throw conflict("The coupon is fully redeemed and is kept for the record");
  services.store.t.coupons.delete(coupon.id);
}

export interface RedemptionResult {
  amount: number;
  expires_at: string | null;
  flags: string[];
  workspaces: number;
}

/**
 * Redeems a coupon for a user: a coupon grant (expiring after expiry_days) and a COUPON movement,
 * and the coupon's flags added to every workspace the user owns. Exported for the registration
 * flow (part 1: "optional coupon redemption"). Throws 404 (unknown code) or 409 (already
 * redeemed by this user, or no uses left).
 */
export function redeemCoupon(services: Services, userId: string, code: string): RedemptionResult {
  const coupon = couponByCode(services, code);
  if (!coupon) throw notFound("Coupon");
  if (coupon.redeemedBy.includes(userId)) throw conflict("You have already redeemed this coupon");
  if (coupon.redeemedBy.length >= coupon.maxUses) throw conflict("The coupon has no uses left");
  services.store.t.coupons.update(coupon.id, { redeemedBy: [...coupon.redeemedBy, userId] });
  const grant = addGrant(
    services,
    {
      userId,
      type: "coupon",
      amount: coupon.amount,
      expiresAt: services.clock.now() + coupon.expiryDays * DAY_MS,
      code: coupon.code,
      paymentRef: null,
    },
    { type: "COUPON", memo: coupon.note, reference: coupon.code },
  );
  const owned = coupon.flags.length ? ownedWorkspaces(services, userId) : [];
  for (const ws of owned) services.store.t.workspaces.update(ws.id, { flags: [...new Set([...ws.flags, ...coupon.flags])] });
  return { amount: coupon.amount, expires_at: iso(grant.expiresAt), flags: [...coupon.flags], workspaces: owned.length };
}
