/**
 * Part 3 Billing and usage: estimates from the rate cards, usage statements from the billing
 * subjects the compute areas meter (pricing.ts), wallets with credit grants and movements,
 * coupons, and the effective-dated rate cards themselves. Money is integer micro-USD.
 *
 * A wallet belongs to a user and pays for the workspaces that user OWNS ("not shown", chosen).
 * Its balance is replayed from a ledger on every read (`replayLedger`): grants add credit when
 * they take effect, resource usage and debits (negative adjustments, refunds) draw it down,
 * coupon (expiring) credit burns before permanent credit, an expired grant's remainder is lost,
 * and spend beyond the grants is debt that later grants pay off first.
 */
import { z } from "zod";
import type { Domain } from "../core/domain";
import { badRequest, conflict, fieldError, forbidden, notFound } from "../core/errors";
import { paginate } from "../core/paging";
import { created, noContent, ok, type Reply, type RouteContext } from "../core/router";
import type { Services } from "../core/services";
import type { Row } from "../core/store";
import { parseWith, pathId } from "../core/validation";
import type { BillingSubjectRow, RateCardRow, RateType, UserRow, WorkspaceRow } from "../model";
import { HOURS_PER_MONTH, pricePart, type EstimatePart } from "../pricing";

// ---------------------------------------------------------------------------------------------
// Rows
// ---------------------------------------------------------------------------------------------

export type GrantType = "topup" | "coupon" | "adjustment";
export type MovementType = "COUPON" | "TOP_UP" | "ADJUSTMENT" | "REFUND";

/** Credit added to a user's wallet. */
export interface WalletGrantRow extends Row {
  userId: string;
  type: GrantType;
  amount: number;
  effectiveAt: number;
  /** Coupon credit expires; top-ups and adjustments do not. */
  expiresAt: number | null;
  code: string | null;
  paymentRef: string | null;
}

/** Every change an operator or a redemption makes to a wallet; debits carry no grant. */
export interface WalletMovementRow extends Row {
  userId: string;
  type: MovementType;
  /** Signed: positive adds credit, negative draws it down. */
  amount: number;
  memo: string | null;
  reference: string | null;
  createdAt: number;
  /** Insertion order, so movements made within the same millisecond still list newest first. */
  seq: number;
  grantId: string | null;
}

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
    walletGrants: WalletGrantRow;
    walletMovements: WalletMovementRow;
    coupons: CouponRow;
  }
}

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
/** Largest single amount an operator may move ("not shown", chosen): 1,000,000 USD. */
const MAX_AMOUNT = 1_000_000_000_000;

// ---------------------------------------------------------------------------------------------
// Metering: minutes and cap-aware cost of billing subjects
// ---------------------------------------------------------------------------------------------

const monthStart = (t: number): number => {
  const d = new Date(t);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
};
const nextMonth = (t: number): number => {
  const d = new Date(t);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
};

/** When a subject stops accruing, as seen at `now` (a running subject has accrued up to now). */
const subjectEnd = (s: BillingSubjectRow, now: number): number => s.endedAt ?? now;

/** Whole minutes a subject ran before `t`. */
function minutesBefore(s: BillingSubjectRow, t: number, now: number): number {
  const end = Math.min(t, subjectEnd(s, now));
  return end <= s.startedAt ? 0 : Math.floor((end - s.startedAt) / MINUTE_MS);
}

/**
 * Cost a subject accrued before `t`. Cap rule ("not shown", chosen): within each calendar month
 * (UTC) a subject costs minutes * hourly / 60, but never more than hourly * 672 (the monthly
 * price of part 3). Cumulative, so the cost of any window is costBefore(to) - costBefore(from).
 */
function costBefore(s: BillingSubjectRow, t: number, now: number): number {
  const end = Math.min(t, subjectEnd(s, now));
  let total = 0;
  for (let m = monthStart(s.startedAt); m < end; m = nextMonth(m)) {
    const minutes = minutesBefore(s, Math.min(nextMonth(m), end), now) - minutesBefore(s, Math.max(m, s.startedAt), now);
    total += Math.min(Math.floor((minutes * s.hourlyRate) / 60), s.hourlyRate * HOURS_PER_MONTH);
  }
  return total;
}

interface Window {
  from: number;
  to: number;
}

interface ResourceUsage {
  resource_id: string;
  resource_kind: string;
  resource_name: string;
  minutes: number;
  cost: number;
}

/** One resource's usage in a window, over all its billing segments (a rebill opens a new one). */
function resourceUsage(segments: BillingSubjectRow[], w: Window, now: number): ResourceUsage {
  const first = segments[0];
  let minutes = 0;
  let cost = 0;
  for (const s of segments) {
    minutes += minutesBefore(s, w.to, now) - minutesBefore(s, w.from, now);
    cost += costBefore(s, w.to, now) - costBefore(s, w.from, now);
  }
  return { resource_id: first.resourceId, resource_kind: first.resourceKind, resource_name: first.resourceName, minutes, cost };
}

/** Subjects grouped by resource, earliest segment first. */
function byResource(subjects: BillingSubjectRow[]): BillingSubjectRow[][] {
  const groups = new Map<string, BillingSubjectRow[]>();
  for (const s of [...subjects].sort((a, b) => a.startedAt - b.startedAt || (BigInt(a.id) < BigInt(b.id) ? -1 : 1))) {
    const list = groups.get(s.resourceId) ?? [];
    list.push(s);
    groups.set(s.resourceId, list);
  }
  return [...groups.values()];
}

const subjectsOf = (services: Services, workspaceIds: Set<string>) => services.store.t.billingSubjects.filter((s) => workspaceIds.has(s.workspaceId));

/** Usage of one workspace: resources that ran in the window, and totals. */
function workspaceUsage(services: Services, ws: WorkspaceRow, w: Window) {
  const now = services.clock.now();
  const resources = byResource(subjectsOf(services, new Set([ws.id])))
    .map((segments) => resourceUsage(segments, w, now))
    .filter((r) => r.minutes > 0 || r.cost > 0);
  return {
    workspace_id: ws.id,
    workspace_name: ws.name,
    total_minutes: resources.reduce((n, r) => n + r.minutes, 0),
    total_cost: resources.reduce((n, r) => n + r.cost, 0),
    resources,
  };
}

const ownedWorkspaces = (services: Services, userId: string): WorkspaceRow[] =>
  services.store.t.workspaces.filter((w) => w.ownerId === userId).sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1));

/** Cumulative resource spend of a user's owned workspaces before `t` (refunds are not spend). */
function spendBefore(subjects: BillingSubjectRow[], t: number, now: number): number {
  let total = 0;
  for (const s of subjects) if (s.startedAt < t) total += costBefore(s, t, now);
  return total;
}

const userSubjects = (services: Services, userId: string) => subjectsOf(services, new Set(ownedWorkspaces(services, userId).map((w) => w.id)));

// ---------------------------------------------------------------------------------------------
// The ledger: replaying grants, usage and debits
// ---------------------------------------------------------------------------------------------

interface LedgerSnapshot {
  balance: number;
  /** Spend not covered by any grant (what later grants pay off first). */
  debt: number;
  /** Remaining credit per grant that has taken effect; 0 once spent or expired. */
  grantBalances: Record<string, number>;
}

type LedgerEvent = { at: number; grant?: WalletGrantRow; debit?: number };

/** Coupon (expiring) credit burns first, soonest expiry first; then permanent credit, oldest first. */
function burnOrder(a: WalletGrantRow, b: WalletGrantRow): number {
  const ea = a.expiresAt ?? Infinity;
  const eb = b.expiresAt ?? Infinity;
  if (ea !== eb) return ea < eb ? -1 : 1;
  return a.effectiveAt - b.effectiveAt || (BigInt(a.id) < BigInt(b.id) ? -1 : 1);
}

class Ledger {
  readonly remaining = new Map<string, number>();
  private readonly live: WalletGrantRow[] = [];
  debt = 0;

  draw(amount: number): void {
    let left = amount;
    for (const g of this.live) {
      if (left <= 0) break;
      const take = Math.min(left, this.remaining.get(g.id) ?? 0);
      this.remaining.set(g.id, (this.remaining.get(g.id) ?? 0) - take);
      left -= take;
    }
    this.debt += left;
  }

  add(grant: WalletGrantRow): void {
    const payoff = Math.min(this.debt, grant.amount);
    this.debt -= payoff;
    this.remaining.set(grant.id, grant.amount - payoff);
    this.live.push(grant);
    this.live.sort(burnOrder);
  }

  /** Grants valid in [effective_at, expires_at): the unused remainder is lost at expiry. */
  expire(at: number): void {
    for (let i = this.live.length - 1; i >= 0; i--) {
      const g = this.live[i];
      if (g.expiresAt !== null && g.expiresAt <= at) {
        this.remaining.set(g.id, 0);
        this.live.splice(i, 1);
      }
    }
  }

  snapshot(): LedgerSnapshot {
    let credit = 0;
    for (const g of this.live) credit += this.remaining.get(g.id) ?? 0;
    return { balance: credit - this.debt, debt: this.debt, grantBalances: Object.fromEntries(this.remaining) };
  }
}

/**
 * The wallet's state at each checkpoint. At an instant: usage accrued up to it is drawn, grants
 * expiring at it lapse, the checkpoint is taken, then grants and debits dated at it apply (so a
 * checkpoint shows what happened strictly before it).
 */
function replayLedger(services: Services, userId: string, checkpoints: number[]): LedgerSnapshot[] {
  const { t } = services.store;
  const now = services.clock.now();
  const subjects = userSubjects(services, userId);
  const events: LedgerEvent[] = [
    ...t.walletGrants.filter((g) => g.userId === userId).map((g) => ({ at: g.effectiveAt, grant: g })),
    ...t.walletMovements.filter((m) => m.userId === userId && m.amount < 0).map((m) => ({ at: m.createdAt, debit: -m.amount })),
  ];
  const expiries = t.walletGrants.filter((g) => g.userId === userId && g.expiresAt !== null).map((g) => g.expiresAt!);
  const instants = [...new Set([...events.map((e) => e.at), ...expiries, ...checkpoints])].sort((a, b) => a - b);
  const eventsAt = new Map<number, LedgerEvent[]>();
  // Grants before debits at the same instant, so a debit can use credit added with it.
  for (const e of events.sort((a, b) => (a.grant ? 0 : 1) - (b.grant ? 0 : 1))) eventsAt.set(e.at, [...(eventsAt.get(e.at) ?? []), e]);
  const wanted = new Set(checkpoints);
  const ledger = new Ledger();
  const snapshots = new Map<number, LedgerSnapshot>();
  let spent = 0;
  for (const at of instants) {
    const spend = spendBefore(subjects, at, now);
    ledger.draw(spend - spent);
    spent = spend;
    ledger.expire(at);
    if (wanted.has(at)) snapshots.set(at, ledger.snapshot());
    for (const e of eventsAt.get(at) ?? []) {
      if (e.grant) ledger.add(e.grant);
      else ledger.draw(e.debit!);
    }
  }
  return checkpoints.map((c) => snapshots.get(c)!);
}

/** Wallet balance (part 3): grants minus usage; usage this calendar month (UTC); overage = debt. */
function walletView(services: Services, userId: string) {
  const now = services.clock.now();
  const [state] = replayLedger(services, userId, [now + 1]);
  const subjects = userSubjects(services, userId);
  return {
    balance: state.balance,
    usage: spendBefore(subjects, now + 1, now) - spendBefore(subjects, monthStart(now), now),
    overage: state.debt,
  };
}

// ---------------------------------------------------------------------------------------------
// Views
// ---------------------------------------------------------------------------------------------

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

const grantView = (g: WalletGrantRow) => ({
  id: g.id,
  type: g.type,
  amount: g.amount,
  effective_at: iso(g.effectiveAt),
  expires_at: iso(g.expiresAt),
  code: g.code,
  payment_ref: g.paymentRef,
});

const movementView = (m: WalletMovementRow) => ({ id: m.id, type: m.type, amount: m.amount, memo: m.memo, reference: m.reference, created_at: iso(m.createdAt) });

const couponView = (c: CouponRow) => ({
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

const RATE_TYPES = ["CPU", "MEMORY", "STORAGE", "BANDWIDTH", "IP"] as const satisfies readonly RateType[];

/** Rate view (part 3): every field always present; selectors of other types are null. */
function rateView(r: RateCardRow) {
  return {
    id: r.id,
    type: r.type,
    region: r.region,
    service_group: r.type === "CPU" ? r.serviceGroup : null,
    cpu_model: r.type === "CPU" ? r.cpuModel : null,
    storage_backing: r.type === "STORAGE" ? r.storageBacking : null,
    direction: r.type === "BANDWIDTH" ? r.direction : null,
    family: r.type === "IP" ? r.family : null,
    ddos: r.type === "IP" ? (r.ddos ?? false) : null,
    unit_rate: r.unitRate,
    effective_from: r.effectiveFrom,
  };
}

/** The selector tuple that identifies a rate card; its entries differ only by effective_from. */
function cardKey(r: RateCardRow): string {
  const v = rateView(r);
  return [RATE_TYPES.indexOf(r.type), v.region, v.service_group, v.cpu_model, v.storage_backing, v.direction, v.family, v.ddos].join("|");
}

// ---------------------------------------------------------------------------------------------
// Request parsing
// ---------------------------------------------------------------------------------------------

const zAmount = z.number().int().min(1).max(MAX_AMOUNT);
const zMemo = z.string().max(500);
const zReference = z.string().min(1).max(128);
const zExpiryDays = z.number().int().min(1).max(3650);
const COUPON_CODE = /^[A-Za-z0-9][A-Za-z0-9-]{2,31}$/;
const zCouponCode = z.string().regex(COUPON_CODE, "must be 3 to 32 letters, digits or '-'").transform((c) => c.toUpperCase());
const zFlag = z.string().regex(/^[A-Z][A-Z0-9_]{0,31}$/, "must be an uppercase workspace flag such as BETA_ACCESS");

const ISO_PREFIX = /^\d{4}-\d{2}-\d{2}/;

/** A required ISO 8601 query instant. */
function queryInstant(ctx: RouteContext, name: string): number {
  const raw = ctx.query[name];
  const at = typeof raw === "string" && ISO_PREFIX.test(raw) ? Date.parse(raw) : NaN;
  if (raw === undefined || raw === "") throw badRequest(`Invalid query: ${name} is required`, [{ field: name, message: "required (ISO 8601)" }]);
  if (Number.isNaN(at)) throw badRequest(`Invalid query: ${name} must be an ISO 8601 timestamp`, [{ field: name, message: "must be an ISO 8601 timestamp" }]);
  return at;
}

/** from (inclusive) and to (exclusive), both required, from before to. */
function queryWindow(ctx: RouteContext): Window {
  const from = queryInstant(ctx, "from");
  const to = queryInstant(ctx, "to");
  if (from >= to) throw badRequest("Invalid query: from must be before to", [{ field: "to", message: "must be after from" }]);
  return { from, to };
}

const windowEcho = (w: Window) => ({ from: iso(w.from), to: iso(w.to) });

/** History windows ("DAY, MONTH and similar": HOUR, DAY, WEEK, MONTH); each steps from `from`. */
const WINDOW_STEPS: Record<string, (t: number) => number> = {
  HOUR: (t) => t + 3_600_000,
  DAY: (t) => t + DAY_MS,
  WEEK: (t) => t + 7 * DAY_MS,
  MONTH: (t) => {
    const d = new Date(t);
    return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate(), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), d.getUTCMilliseconds());
  },
};
const MAX_SEGMENTS = 1000;

// ---------------------------------------------------------------------------------------------
// Whose wallet
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

// ---------------------------------------------------------------------------------------------
// Wallet bookkeeping
// ---------------------------------------------------------------------------------------------

const nextMovementSeq = (services: Services): number => services.store.t.walletMovements.count() + 1;

function addGrant(services: Services, g: Omit<WalletGrantRow, "id" | "effectiveAt">, movement: { type: MovementType; memo: string | null; reference: string | null }): WalletGrantRow {
  const { store, clock } = services;
  const now = clock.now();
  const grant = store.t.walletGrants.insert({ id: store.newId(), ...g, effectiveAt: now });
  store.t.walletMovements.insert({ id: store.newId(), userId: g.userId, type: movement.type, amount: g.amount, memo: movement.memo, reference: movement.reference, createdAt: now, seq: nextMovementSeq(services), grantId: grant.id });
  return grant;
}

function addDebit(services: Services, userId: string, type: MovementType, amount: number, memo: string | null, reference: string | null): void {
  const { store, clock } = services;
  store.t.walletMovements.insert({ id: store.newId(), userId, type, amount: -amount, memo, reference, createdAt: clock.now(), seq: nextMovementSeq(services), grantId: null });
}

const TopupBody = z.object({ amount: zAmount, payment_ref: zReference.optional() });
const AdjustBody = z.object({
  amount: z.number().int().min(-MAX_AMOUNT).max(MAX_AMOUNT).refine((n) => n !== 0, "must not be zero"),
  memo: zMemo.optional(),
});
const RefundBody = z.object({ amount: zAmount, reference: zReference.optional(), memo: zMemo.optional() });
const WalletCouponBody = z.object({ amount: zAmount, code: zCouponCode.optional(), expiry_days: zExpiryDays.default(30) });

/** The same payment_ref twice: the second call is a no-op returning the first grant (200, not 201). */
function topup(ctx: RouteContext): Reply {
  const user = writeWallet(ctx);
  const body = parseWith(TopupBody, ctx.body);
  if (body.payment_ref !== undefined) {
    const existing = ctx.store.t.walletGrants.find((g) => g.paymentRef === body.payment_ref);
    if (existing && existing.userId !== user.id) throw conflict("payment_ref was already used for another wallet");
    if (existing) return ok(grantView(existing));
  }
  const grant = addGrant(
    ctx,
    { userId: user.id, type: "topup", amount: body.amount, expiresAt: null, code: null, paymentRef: body.payment_ref ?? null },
    { type: "TOP_UP", memo: null, reference: body.payment_ref ?? null },
  );
  return created(grantView(grant));
}

function adjust(ctx: RouteContext): Reply {
  const user = writeWallet(ctx);
  const body = parseWith(AdjustBody, ctx.body);
  const memo = body.memo ?? null;
  if (body.amount > 0) {
    addGrant(ctx, { userId: user.id, type: "adjustment", amount: body.amount, expiresAt: null, code: null, paymentRef: null }, { type: "ADJUSTMENT", memo, reference: null });
  } else {
    addDebit(ctx, user.id, "ADJUSTMENT", -body.amount, memo, null);
  }
  return ok(walletView(ctx, user.id));
}

function refund(ctx: RouteContext): Reply {
  const user = writeWallet(ctx);
  const body = parseWith(RefundBody, ctx.body);
  addDebit(ctx, user.id, "REFUND", body.amount, body.memo ?? null, body.reference ?? null);
  return ok(walletView(ctx, user.id));
}

function walletCoupon(ctx: RouteContext): Reply {
  const user = writeWallet(ctx);
  const body = parseWith(WalletCouponBody, ctx.body);
  const code = body.code ?? null;
  const grant = addGrant(
    ctx,
    { userId: user.id, type: "coupon", amount: body.amount, expiresAt: ctx.clock.now() + body.expiry_days * DAY_MS, code, paymentRef: null },
    { type: "COUPON", memo: null, reference: code },
  );
  return created(grantView(grant));
}

function history(ctx: RouteContext): Reply {
  const user = readWallet(ctx);
  const w = queryWindow(ctx);
  const windowName = ctx.query.window === undefined || ctx.query.window === "" ? "DAY" : String(ctx.query.window).toUpperCase();
  const step = WINDOW_STEPS[windowName];
  if (!step) throw badRequest(`Invalid query: window must be one of ${Object.keys(WINDOW_STEPS).join(", ")}`, [{ field: "window", message: "unknown window" }]);
  const bounds = [w.from];
  while (bounds[bounds.length - 1] < w.to) {
    if (bounds.length > MAX_SEGMENTS) throw badRequest(`Invalid query: more than ${MAX_SEGMENTS} segments; use a larger window`, [{ field: "window", message: "too many segments" }]);
    bounds.push(Math.min(step(bounds[bounds.length - 1]), w.to));
  }
  const ends = bounds.slice(1);
  const states = replayLedger(ctx, user.id, ends);
  const subjects = userSubjects(ctx, user.id);
  const now = ctx.clock.now();
  const spend = bounds.map((b) => spendBefore(subjects, b, now));
  return ok(
    ends.map((to, i) => ({
      from: iso(bounds[i]),
      to: iso(to),
      usage: spend[i + 1] - spend[i],
      balance: states[i].balance,
      grant_balances: states[i].grantBalances,
    })),
  );
}

// ---------------------------------------------------------------------------------------------
// Coupons
// ---------------------------------------------------------------------------------------------

const CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/** XXXX-XXXX-XXXX from the seeded generator, unique among coupons. */
function newCouponCode(services: Services): string {
  for (;;) {
    const groups = Array.from({ length: 3 }, () => Array.from({ length: 4 }, () => CODE_ALPHABET[services.store.rng.int(0, CODE_ALPHABET.length - 1)]).join(""));
    const code = groups.join("-");
    if (!couponByCode(services, code)) return code;
  }
}

const couponByCode = (services: Services, code: string) => services.store.t.coupons.find((c) => c.code === code.toUpperCase());

const CouponBody = z.object({
  amount: zAmount,
  uses: z.number().int().min(1).max(1_000_000),
  code: zCouponCode.optional(),
  expiry_days: zExpiryDays.default(30),
  flags: z.array(zFlag).max(32).default([]),
  note: zMemo.optional(),
});

function createCoupon(ctx: RouteContext): Reply {
  ctx.requireStaff();
  const body = parseWith(CouponBody, ctx.body);
  if (body.code && couponByCode(ctx, body.code)) throw conflict(`A coupon with code ${body.code} already exists`);
  const coupon = ctx.store.t.coupons.insert({
    id: ctx.store.newId(),
    code: body.code ?? newCouponCode(ctx),
    amount: body.amount,
    expiryDays: body.expiry_days,
    flags: [...new Set(body.flags)],
    note: body.note ?? null,
    maxUses: body.uses,
    redeemedBy: [],
    created: ctx.clock.iso(),
  });
  return created(couponView(coupon));
}

function loadCoupon(ctx: RouteContext): CouponRow {
  ctx.requireStaff();
  const coupon = ctx.store.t.coupons.get(pathId(ctx.params.cid, "cid"));
  if (!coupon) throw notFound("Coupon");
  return coupon;
}

function deleteCoupon(ctx: RouteContext): Reply {
  const coupon = loadCoupon(ctx);
  if (coupon.redeemedBy.length >= coupon.maxUses) throw conflict("The coupon is fully redeemed and is kept for the record");
  ctx.store.t.coupons.delete(coupon.id);
  return noContent();
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
    { userId, type: "coupon", amount: coupon.amount, expiresAt: services.clock.now() + coupon.expiryDays * DAY_MS, code: coupon.code, paymentRef: null },
    { type: "COUPON", memo: coupon.note, reference: coupon.code },
  );
  const owned = coupon.flags.length ? ownedWorkspaces(services, userId) : [];
  for (const ws of owned) services.store.t.workspaces.update(ws.id, { flags: [...new Set([...ws.flags, ...coupon.flags])] });
  return { amount: coupon.amount, expires_at: iso(grant.expiresAt), flags: [...coupon.flags], workspaces: owned.length };
}

/** Any user-scoped token may redeem, login session or API token ("not shown", chosen). */
function redeem(ctx: RouteContext): Reply {
  requireUserToken(ctx);
  const body = parseWith(z.object({ code: z.string().min(1).max(64) }), ctx.body);
  return ok(redeemCoupon(ctx, ctx.principal.user.id, body.code));
}

// ---------------------------------------------------------------------------------------------
// Estimates and prices
// ---------------------------------------------------------------------------------------------

/** Regions are those of the seeded catalogue's nodes. */
const knownRegion = (services: Services, region: string): boolean => !!services.store.t.nodes.find((n) => n.region === region);

const zCount = z.number().int().min(1);
const EstimatePartBody = z.discriminatedUnion("type", [
  z.object({ type: z.literal("CPU"), cpu: zCount.max(4096), service_group: z.string().min(1).optional(), cpu_model: z.string().min(1).optional() }),
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

function estimate(ctx: RouteContext): Reply {
  const body = parseWith(EstimateBody, ctx.body);
  if (!knownRegion(ctx, body.region)) throw fieldError("region", `unknown region ${body.region}`);
  const at = ctx.clock.now();
  const parts = body.parts.map((part, i) => {
    if (part.type === "FLOATING_IP" && part.family === "IPv6" && part.ddos) throw fieldError(`parts[${i}].ddos`, "DDoS protection applies to IPv4 only");
    const priced = pricePart(ctx, body.region, normalisePart(part), at);
    if ("error" in priced) throw fieldError(`parts[${i}]`, priced.error);
    return priced;
  });
  const hourly = parts.reduce((n, p) => n + p.hourly_rate, 0);
  return ok({ hourly_rate: hourly, monthly_price: hourly * HOURS_PER_MONTH, parts });
}

/** Prices of a card: the entry in force now (latest effective_from on or before now), else its first future entry. */
function currentEntry(entries: RateCardRow[], now: number): RateCardRow {
  const sorted = [...entries].sort((a, b) => Date.parse(a.effectiveFrom) - Date.parse(b.effectiveFrom));
  const inForce = sorted.filter((r) => Date.parse(r.effectiveFrom) <= now);
  return inForce.length ? inForce[inForce.length - 1] : sorted[0];
}

function listPrices(ctx: RouteContext): Reply {
  ctx.requireStaff();
  const cards = new Map<string, RateCardRow[]>();
  for (const r of ctx.store.t.rateCards.all()) {
    const key = cardKey(r);
    cards.set(key, [...(cards.get(key) ?? []), r]);
  }
  const keys = [...cards.keys()].sort();
  return ok(keys.map((k) => rateView(currentEntry(cards.get(k)!, ctx.clock.now()))));
}

function listPricesOfType(ctx: RouteContext): Reply {
  ctx.requireStaff();
  const type = ctx.params.type as RateType;
  if (!RATE_TYPES.includes(type)) throw badRequest(`Invalid path: type must be one of ${RATE_TYPES.join(", ")}`, [{ field: "type", message: "unknown rate type" }]);
  const entries = ctx.store.t.rateCards
    .filter((r) => r.type === type)
    .sort((a, b) => Date.parse(b.effectiveFrom) - Date.parse(a.effectiveFrom) || cardKey(a).localeCompare(cardKey(b)));
  return ok(entries.map(rateView));
}

const zSelector = z.string().min(1).max(64);
const PriceCommon = {
  region: z.string().min(1),
  unit_rate: z.number().int().min(0).max(MAX_AMOUNT),
  effective_from: z.iso.datetime({ offset: true }).optional(),
};
/** POST /v1/prices body ("not shown", chosen): the rate view's selector fields for the type. */
const PriceBody = z.discriminatedUnion("type", [
  z.object({ type: z.literal("CPU"), ...PriceCommon, service_group: zSelector.nullable().optional(), cpu_model: zSelector.nullable().optional() }),
  z.object({ type: z.literal("MEMORY"), ...PriceCommon }),
  z.object({ type: z.literal("STORAGE"), ...PriceCommon, storage_backing: zSelector.nullable().optional() }),
  z.object({ type: z.literal("BANDWIDTH"), ...PriceCommon, direction: z.enum(["UPLOAD", "DOWNLOAD"]) }),
  z.object({ type: z.literal("IP"), ...PriceCommon, family: z.enum(["IPv4", "IPv6"]), ddos: z.boolean().optional() }),
]);
type PriceInput = z.infer<typeof PriceBody>;

/** New entries may not rewrite the past: effective_from defaults to now, and may lag it by 5 minutes at most. */
const BACKDATE_TOLERANCE_MS = 5 * MINUTE_MS;

function rateRowFrom(input: PriceInput, effectiveFrom: string): Omit<RateCardRow, "id"> {
  return {
    type: input.type,
    region: input.region,
    serviceGroup: input.type === "CPU" ? (input.service_group?.toUpperCase() ?? null) : null,
    cpuModel: input.type === "CPU" ? (input.cpu_model ?? null) : null,
    storageBacking: input.type === "STORAGE" ? (input.storage_backing?.toLowerCase() ?? null) : null,
    direction: input.type === "BANDWIDTH" ? input.direction : null,
    family: input.type === "IP" ? input.family : null,
    // IPv6 addresses have no DDoS variant (the seeded IPv6 cards carry null).
    ddos: input.type === "IP" ? (input.family === "IPv4" ? (input.ddos ?? false) : null) : null,
    unitRate: input.unit_rate,
    effectiveFrom,
  };
}

function createPrice(ctx: RouteContext): Reply {
  ctx.requireStaff();
  const input = parseWith(PriceBody, ctx.body);
  if (!knownRegion(ctx, input.region)) throw fieldError("region", `unknown region ${input.region}`);
  if (input.type === "IP" && input.family === "IPv6" && input.ddos) throw fieldError("ddos", "DDoS protection applies to IPv4 only");
  const now = ctx.clock.now();
  const from = input.effective_from === undefined ? now : Date.parse(input.effective_from);
  if (from < now - BACKDATE_TOLERANCE_MS) throw fieldError("effective_from", "must not be in the past");
  const row = rateRowFrom(input, new Date(from).toISOString());
  const key = cardKey({ ...row, id: "0" });
  if (ctx.store.t.rateCards.find((r) => cardKey(r) === key && r.effectiveFrom === row.effectiveFrom)) {
    throw conflict("This rate card already has an entry effective at that instant");
  }
  return created(rateView(ctx.store.t.rateCards.insert({ id: ctx.store.newId(), ...row })));
}

// ---------------------------------------------------------------------------------------------
// Usage statements
// ---------------------------------------------------------------------------------------------

function userUsage(ctx: RouteContext): Reply {
  const user = readWallet(ctx);
  const w = queryWindow(ctx);
  const workspaces = ownedWorkspaces(ctx, user.id).map((ws) => workspaceUsage(ctx, ws, w));
  return ok({
    ...windowEcho(w),
    total_minutes: workspaces.reduce((n, x) => n + x.total_minutes, 0),
    total_cost: workspaces.reduce((n, x) => n + x.total_cost, 0),
    workspaces,
  });
}

function readableWorkspace(ctx: RouteContext): WorkspaceRow {
  const ws = ctx.store.t.workspaces.get(pathId(ctx.params.wid, "wid"));
  if (!ws) throw notFound("Workspace");
  ctx.access(ws.id, { grant: ["WORKSPACE", "READ"] });
  return ws;
}

function workspaceUsageHandler(ctx: RouteContext): Reply {
  const ws = readableWorkspace(ctx);
  const w = queryWindow(ctx);
  const { workspace_id, workspace_name, ...rest } = workspaceUsage(ctx, ws, w);
  return ok({ workspace_id, workspace_name, ...windowEcho(w), ...rest });
}

function resourceUsageHandler(ctx: RouteContext): Reply {
  const ws = readableWorkspace(ctx);
  const rid = pathId(ctx.params.rid, "rid");
  const w = queryWindow(ctx);
  const segments = ctx.store.t.billingSubjects.filter((s) => s.workspaceId === ws.id && s.resourceId === rid);
  if (!segments.length) throw notFound("Billed resource");
  return ok(resourceUsage(byResource(segments)[0], w, ctx.clock.now()));
}

// ---------------------------------------------------------------------------------------------
// Routes
// ---------------------------------------------------------------------------------------------

export const billingDomain: Domain = {
  name: "billing",
  routes: [
    { method: "POST", path: "/v1/billing/estimate", handler: estimate },
    { method: "GET", path: "/v1/wallet/:uid/usage", handler: userUsage },
    { method: "GET", path: "/v1/workspaces/:wid/usage", handler: workspaceUsageHandler },
    { method: "GET", path: "/v1/workspaces/:wid/usage/:rid", handler: resourceUsageHandler },
    { method: "GET", path: "/v1/wallet/:uid", handler: (ctx) => ok(walletView(ctx, readWallet(ctx).id)) },
    {
      method: "GET",
      path: "/v1/wallet/:uid/grants",
      handler: (ctx) => {
        const user = readWallet(ctx);
        const grants = ctx.store.t.walletGrants.filter((g) => g.userId === user.id).sort((a, b) => a.effectiveAt - b.effectiveAt || (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
        return ok(grants.map(grantView));
      },
    },
    { method: "GET", path: "/v1/wallet/:uid/history", handler: history },
    {
      method: "GET",
      path: "/v1/wallet/:uid/movements",
      handler: (ctx) => {
        const user = readWallet(ctx);
        const rows = ctx.store.t.walletMovements.filter((m) => m.userId === user.id);
        return ok(paginate(rows, ctx.query, movementView, { id: (m) => m.id, sortable: { created_at: (m) => BigInt(m.createdAt) * 1_000_000_000n + BigInt(m.seq), amount: (m) => m.amount, type: (m) => m.type }, defaultSort: { field: "created_at", dir: "desc" } }));
      },
    },
    { method: "POST", path: "/v1/wallet/:uid/topup", handler: topup },
    { method: "POST", path: "/v1/wallet/:uid/adjust", handler: adjust },
    { method: "POST", path: "/v1/wallet/:uid/refund", handler: refund },
    { method: "POST", path: "/v1/wallet/:uid/coupon", handler: walletCoupon },
    { method: "POST", path: "/v1/coupons/redeem", handler: redeem },
    {
      method: "GET",
      path: "/v1/coupons",
      handler: (ctx) => {
        ctx.requireStaff();
        const rows = ctx.store.t.coupons.all();
        return ok(paginate(rows, ctx.query, couponView, { id: (c) => c.id, sortable: { created_at: (c) => c.created, code: (c) => c.code, amount: (c) => c.amount }, defaultSort: { field: "created_at", dir: "desc" } }));
      },
    },
    { method: "POST", path: "/v1/coupons", handler: createCoupon },
    { method: "GET", path: "/v1/coupons/:cid", handler: (ctx) => ok(couponView(loadCoupon(ctx))) },
    { method: "DELETE", path: "/v1/coupons/:cid", handler: deleteCoupon },
    { method: "GET", path: "/v1/prices", handler: listPrices },
    { method: "GET", path: "/v1/prices/:type", handler: listPricesOfType },
    { method: "POST", path: "/v1/prices", handler: createPrice },
  ],
  inventory: {
    coupons: { workspaceOf: () => null, label: (c: CouponRow) => c.code },
  },
};
