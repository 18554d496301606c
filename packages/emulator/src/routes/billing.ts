/**
 * Part 3 Billing and usage, the HTTP side: request schemas, query windows, whose wallet a path
 * names, and the route table. The rules are the area's domain: domain/billingUsage.ts (metering
 * and usage statements), domain/wallet.ts (the ledger, grants, movements, history),
 * domain/coupons.ts and domain/prices.ts (rate cards and estimates).
 */
import { z } from "zod";
import type { Domain } from "../core/domain";
import { badRequest, forbidden, notFound } from "../core/errors";
import { paginate } from "../core/paging";
import { created, noContent, ok, type RouteContext } from "../core/router";
import { parseWith, pathId } from "../core/validation";
import type { RateType, UserRow, WorkspaceRow } from "../model";
import type { EstimatePart } from "../pricing";
import { billedResourceUsage, iso, userUsage, workspaceUsage, type UsageWindow } from "../domain/billingUsage";
import {
  adjust,
  grantCouponCredit,
  grantsOf,
  grantView,
  MAX_AMOUNT,
  movementView,
  refund,
  topup,
  walletHistory,
  walletView,
} from "../domain/wallet";
import { couponView, createCoupon, deleteCoupon, loadCoupon, redeemCoupon, type CouponRow } from "../domain/coupons";
import { createPrice, currentPrices, estimate, pricesOfType, rateView, RATE_TYPES } from "../domain/prices";

// ---------------------------------------------------------------------------------------------
// Requests
// ---------------------------------------------------------------------------------------------

const zAmount = z.number().int().min(1).max(MAX_AMOUNT);
const zMemo = z.string().max(500);
const zReference = z.string().min(1).max(128);
const zExpiryDays = z.number().int().min(1).max(3650);
const COUPON_CODE = /^[A-Za-z0-9][A-Za-z0-9-]{2,31}$/;
const zCouponCode = z
  .string()
  .regex(COUPON_CODE, "must be 3 to 32 letters, digits or '-'")
  .transform((c) => c.toUpperCase());
const zFlag = z.string().regex(/^[A-Z][A-Z0-9_]{0,31}$/, "must be an uppercase workspace flag such as BETA_ACCESS");

const ISO_PREFIX = /^\d{4}-\d{2}-\d{2}/;

/** A required ISO 8601 query instant. */
function queryInstant(ctx: RouteContext, name: string): number {
  const raw = ctx.query[name];
  const at = typeof raw === "string" && ISO_PREFIX.test(raw) ? Date.parse(raw) : NaN;
  if (raw === undefined || raw === "")
    throw badRequest(`Invalid query: ${name} is required`, [{ field: name, message: "required (ISO 8601)" }]);
  if (Number.isNaN(at))
    throw badRequest(`Invalid query: ${name} must be an ISO 8601 timestamp`, [{ field: name, message: "must be an ISO 8601 timestamp" }]);
  return at;
}

/** from (inclusive) and to (exclusive), both required, from before to. */
function queryWindow(ctx: RouteContext): UsageWindow {
  const from = queryInstant(ctx, "from");
  const to = queryInstant(ctx, "to");
  if (from >= to) throw badRequest("Invalid query: from must be before to", [{ field: "to", message: "must be after from" }]);
  return { from, to };
}

const windowEcho = (w: UsageWindow) => ({ from: iso(w.from), to: iso(w.to) });

const TopupBody = z.object({ amount: zAmount, payment_ref: zReference.optional() });
const AdjustBody = z.object({
  amount: z
    .number()
    .int()
    .min(-MAX_AMOUNT)
    .max(MAX_AMOUNT)
    .refine((n) => n !== 0, "must not be zero"),
  memo: zMemo.optional(),
});
const RefundBody = z.object({ amount: zAmount, reference: zReference.optional(), memo: zMemo.optional() });
const WalletCouponBody = z.object({ amount: zAmount, code: zCouponCode.optional(), expiry_days: zExpiryDays.default(30) });
const CouponBody = z.object({
  amount: zAmount,
  uses: z.number().int().min(1).max(1_000_000),
  code: zCouponCode.optional(),
  expiry_days: zExpiryDays.default(30),
  flags: z.array(zFlag).max(32).default([]),
  note: zMemo.optional(),
});
const RedeemBody = z.object({ code: z.string().min(1).max(64) });

const zCount = z.number().int().min(1);
const EstimatePartBody = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("CPU"),
    cpu: zCount.max(4096),
    service_group: z.string().min(1).optional(),
    cpu_model: z.string().min(1).optional(),
  }),
  z.object({ type: z.literal("MEMORY"), memory_bytes: zCount }),
  z.object({ type: z.literal("STORAGE"), storage_bytes: zCount, storage_backing: z.string().min(1).optional() }),
  z.object({ type: z.literal("BANDWIDTH"), direction: z.enum(["UPLOAD", "DOWNLOAD"]), speed_bytes_sec: zCount }),
  z.object({ type: z.literal("FLOATING_IP"), family: z.enum(["IPv4", "IPv6"]), ddos: z.boolean().optional() }),
]);
const EstimateBody = z.object({ region: z.string().min(1), parts: z.array(EstimatePartBody).min(1).max(100) });

/** Rate cards name service groups in upper case (LIGHTNING) and storage backings in lower case. */
function normalisePart(part: z.infer<typeof EstimatePartBody>): EstimatePart {
  return part.type === "CPU" ? { ...part, service_group: part.service_group?.toUpperCase() } : part;
}

const zSelector = z.string().min(1).max(64);
const PriceCommon = {
  region: z.string().min(1),
  unit_rate: z.number().int().min(0).max(MAX_AMOUNT),
  effective_from: z.iso.datetime({ offset: true }).optional(),
};
/** POST /v1/prices body ("not shown", chosen): the rate view's selector fields for the type. */
const PriceBody = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("CPU"),
    ...PriceCommon,
    service_group: zSelector.nullable().optional(),
    cpu_model: zSelector.nullable().optional(),
  }),
  z.object({ type: z.literal("MEMORY"), ...PriceCommon }),
  z.object({ type: z.literal("STORAGE"), ...PriceCommon, storage_backing: zSelector.nullable().optional() }),
  z.object({ type: z.literal("BANDWIDTH"), ...PriceCommon, direction: z.enum(["UPLOAD", "DOWNLOAD"]) }),
  z.object({ type: z.literal("IP"), ...PriceCommon, family: z.enum(["IPv4", "IPv6"]), ddos: z.boolean().optional() }),
]);

// ---------------------------------------------------------------------------------------------
// Whose wallet, which workspace
// ---------------------------------------------------------------------------------------------

/** Wallets belong to users: workspace and resource tokens have none ("not shown", chosen: 403). */
function requireUserToken(ctx: RouteContext): void {
  if (ctx.principal.token.subject !== "USER") throw forbidden("Wallets belong to users; use a user-scoped token");
}

/**
 * The path user: @me, or a numeric id. Operators reach any wallet; others only their own, so a
 * numeric id of someone else is 404 ("numeric IDs for staff").
 */
function walletOwner(ctx: RouteContext): UserRow {
  const raw = ctx.params.uid;
  if (raw === "@me") return ctx.principal.user;
  const id = pathId(raw, "uid");
  if (!ctx.principal.staff && id !== ctx.principal.user.id) throw notFound("Wallet");
  const user = ctx.store.t.users.get(id);
  if (!user) throw notFound("User");
  return user;
}

function readWallet(ctx: RouteContext): UserRow {
  requireUserToken(ctx);
  return walletOwner(ctx);
}

/** Wallet writes need an operator session (user-scoped token: 400, per part 1 "Errors"). */
function writeWallet(ctx: RouteContext): UserRow {
  ctx.requireStaff();
  return walletOwner(ctx);
}

function readableWorkspace(ctx: RouteContext): WorkspaceRow {
  const ws = ctx.store.t.workspaces.get(pathId(ctx.params.wid, "wid"));
  if (!ws) throw notFound("Workspace");
  ctx.access(ws.id, { grant: ["WORKSPACE", "READ"] });
  return ws;
}

// ---------------------------------------------------------------------------------------------
// Routes
// ---------------------------------------------------------------------------------------------

export const billingDomain: Domain = {
  name: "billing",
  routes: [
    {
      method: "POST",
      path: "/v1/billing/estimate",
      handler: (ctx) => {
        const body = parseWith(EstimateBody, ctx.body);
        return ok(estimate(ctx.services, body.region, body.parts.map(normalisePart)));
      },
    },
    {
      method: "GET",
      path: "/v1/wallet/:uid/usage",
      handler: (ctx) => {
        const user = readWallet(ctx);
        const w = queryWindow(ctx);
        const { total_minutes, total_cost, workspaces } = userUsage(ctx.services, user.id, w);
        return ok({ ...windowEcho(w), total_minutes, total_cost, workspaces });
      },
    },
    {
      method: "GET",
      path: "/v1/workspaces/:wid/usage",
      handler: (ctx) => {
        const ws = readableWorkspace(ctx);
        const w = queryWindow(ctx);
        const { workspace_id, workspace_name, ...rest } = workspaceUsage(ctx.services, ws, w);
        return ok({ workspace_id, workspace_name, ...windowEcho(w), ...rest });
      },
    },
    {
      method: "GET",
      path: "/v1/workspaces/:wid/usage/:rid",
      handler: (ctx) => {
        const ws = readableWorkspace(ctx);
        const rid = pathId(ctx.params.rid, "rid");
        return ok(billedResourceUsage(ctx.services, ws, rid, queryWindow(ctx)));
      },
    },
    { method: "GET", path: "/v1/wallet/:uid", handler: (ctx) => ok(walletView(ctx.services, readWallet(ctx).id)) },
    { method: "GET", path: "/v1/wallet/:uid/grants", handler: (ctx) => ok(grantsOf(ctx.services, readWallet(ctx).id).map(grantView)) },
    {
      method: "GET",
      path: "/v1/wallet/:uid/history",
      handler: (ctx) => {
        const user = readWallet(ctx);
        const w = queryWindow(ctx);
        const window = ctx.query.window === undefined || ctx.query.window === "" ? "DAY" : String(ctx.query.window);
        return ok(walletHistory(ctx.services, user.id, w, window));
      },
    },
    {
      method: "GET",
      path: "/v1/wallet/:uid/movements",
      handler: (ctx) => {
        const user = readWallet(ctx);
        const rows = ctx.store.t.walletMovements.filter((m) => m.userId === user.id);
        return ok(
          paginate(rows, ctx.query, movementView, {
            id: (m) => m.id,
            sortable: {
              created_at: (m) => BigInt(m.createdAt) * 1_000_000_000n + BigInt(m.seq),
              amount: (m) => m.amount,
              type: (m) => m.type,
            },
            defaultSort: { field: "created_at", dir: "desc" },
          }),
        );
      },
    },
    {
      method: "POST",
      path: "/v1/wallet/:uid/topup",
      handler: (ctx) => {
        const user = writeWallet(ctx);
        const body = parseWith(TopupBody, ctx.body);
        const result = topup(ctx.services, user.id, body.amount, body.payment_ref);
        return result.created ? created(grantView(result.grant)) : ok(grantView(result.grant));
      },
    },
    {
      method: "POST",
      path: "/v1/wallet/:uid/adjust",
      handler: (ctx) => {
        const user = writeWallet(ctx);
        const body = parseWith(AdjustBody, ctx.body);
        adjust(ctx.services, user.id, body.amount, body.memo ?? null);
        return ok(walletView(ctx.services, user.id));
      },
    },
    {
      method: "POST",
      path: "/v1/wallet/:uid/refund",
      handler: (ctx) => {
        const user = writeWallet(ctx);
        const body = parseWith(RefundBody, ctx.body);
        refund(ctx.services, user.id, body.amount, body.memo ?? null, body.reference ?? null);
        return ok(walletView(ctx.services, user.id));
      },
    },
    {
      method: "POST",
      path: "/v1/wallet/:uid/coupon",
      handler: (ctx) => {
        const user = writeWallet(ctx);
        const body = parseWith(WalletCouponBody, ctx.body);
        return created(grantView(grantCouponCredit(ctx.services, user.id, body.amount, body.code ?? null, body.expiry_days)));
      },
    },
    {
      method: "POST",
      path: "/v1/coupons/redeem",
      handler: (ctx) => {
        // Any user-scoped token may redeem, login session or API token ("not shown", chosen).
        requireUserToken(ctx);
        const body = parseWith(RedeemBody, ctx.body);
        return ok(redeemCoupon(ctx.services, ctx.principal.user.id, body.code));
      },
    },
    {
      method: "GET",
      path: "/v1/coupons",
      handler: (ctx) => {
        ctx.requireStaff();
        const rows = ctx.store.t.coupons.all();
        return ok(
          paginate(rows, ctx.query, couponView, {
            id: (c) => c.id,
            sortable: { created_at: (c) => c.created, code: (c) => c.code, amount: (c) => c.amount },
            defaultSort: { field: "created_at", dir: "desc" },
          }),
        );
      },
    },
    {
      method: "POST",
      path: "/v1/coupons",
      handler: (ctx) => {
        ctx.requireStaff();
        return created(couponView(createCoupon(ctx.services, parseWith(CouponBody, ctx.body))));
      },
    },
    {
      method: "GET",
      path: "/v1/coupons/:cid",
      handler: (ctx) => {
        ctx.requireStaff();
        return ok(couponView(loadCoupon(ctx.services, pathId(ctx.params.cid, "cid"))));
      },
    },
    {
      method: "DELETE",
      path: "/v1/coupons/:cid",
      handler: (ctx) => {
        ctx.requireStaff();
        deleteCoupon(ctx.services, loadCoupon(ctx.services, pathId(ctx.params.cid, "cid")));
        return noContent();
      },
    },
    {
      method: "GET",
      path: "/v1/prices",
      handler: (ctx) => {
        ctx.requireStaff();
        return ok(currentPrices(ctx.services).map(rateView));
      },
    },
    {
      method: "GET",
      path: "/v1/prices/:type",
      handler: (ctx) => {
        ctx.requireStaff();
        const type = ctx.params.type as RateType;
        if (!RATE_TYPES.includes(type))
          throw badRequest(`Invalid path: type must be one of ${RATE_TYPES.join(", ")}`, [{ field: "type", message: "unknown rate type" }]);
        return ok(pricesOfType(ctx.services, type).map(rateView));
      },
    },
    {
      method: "POST",
      path: "/v1/prices",
      handler: (ctx) => {
        ctx.requireStaff();
        return created(rateView(createPrice(ctx.services, parseWith(PriceBody, ctx.body))));
      },
    },
  ],
  inventory: {
    coupons: { workspaceOf: () => null, label: (c: CouponRow) => c.code },
  },
};
