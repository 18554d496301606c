/**
 * Wallets (spec part 3, "Billing and usage"): a wallet belongs to a user and pays for the
 * workspaces that user OWNS ("not shown", chosen). Its balance is replayed from a ledger on
 * every read (`replayLedger`): grants add credit when they take effect, resource usage and
 * debits (negative adjustments, refunds) draw it down, coupon (expiring) credit burns before
 * permanent credit, an expired grant's remainder is lost, and spend beyond the grants is debt
 * that later grants pay off first. Money is integer micro-USD.
 */
import { badRequest, conflict } from "../core/errors";
import type { Services } from "../core/services";
import type { Row } from "../core/store";
import { iso, monthStart, spendBefore, userSubjects, type UsageWindow } from "./billingUsage";

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

declare module "../core/store" {
  interface Tables {
    walletGrants: WalletGrantRow;
    walletMovements: WalletMovementRow;
  }
}

export const DAY_MS = 86_400_000;
/** Largest single amount an operator may move ("not shown", chosen): 1,000,000 USD. */
export const MAX_AMOUNT = 1_000_000_000_000;

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
  // Ties keep the store's order, which is the order the grants were made (sort is stable); ids
  // are random, so ordering by id would let two grants of the same millisecond swap.
  return a.effectiveAt - b.effectiveAt;
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
export function walletView(services: Services, userId: string) {
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

export const grantView = (g: WalletGrantRow) => ({
  id: g.id,
  type: g.type,
  amount: g.amount,
  effective_at: iso(g.effectiveAt),
  expires_at: iso(g.expiresAt),
  code: g.code,
  payment_ref: g.paymentRef,
});

export const movementView = (m: WalletMovementRow) => ({
  id: m.id,
  type: m.type,
  amount: m.amount,
  memo: m.memo,
  reference: m.reference,
  created_at: iso(m.createdAt),
});

// ---------------------------------------------------------------------------------------------
// Bookkeeping and operator writes
// ---------------------------------------------------------------------------------------------

const nextMovementSeq = (services: Services): number => services.store.t.walletMovements.count() + 1;

export function addGrant(
  services: Services,
  g: Omit<WalletGrantRow, "id" | "effectiveAt">,
  movement: { type: MovementType; memo: string | null; reference: string | null },
): WalletGrantRow {
  const { store, clock } = services;
  const now = clock.now();
  const grant = store.t.walletGrants.insert({ id: store.newId(), ...g, effectiveAt: now });
  store.t.walletMovements.insert({
    id: store.newId(),
    userId: g.userId,
    type: movement.type,
    amount: g.amount,
    memo: movement.memo,
    reference: movement.reference,
    createdAt: now,
    seq: nextMovementSeq(services),
    grantId: grant.id,
  });
  return grant;
}

function addDebit(
  services: Services,
  userId: string,
  type: MovementType,
  amount: number,
  memo: string | null,
  reference: string | null,
): void {
  const { store, clock } = services;
  store.t.walletMovements.insert({
    id: store.newId(),
    userId,
    type,
    amount: -amount,
    memo,
    reference,
    createdAt: clock.now(),
    seq: nextMovementSeq(services),
    grantId: null,
  });
}

/** The same payment_ref twice: the second call is a no-op returning the first grant (200, not 201). */
export function topup(
  services: Services,
  userId: string,
  amount: number,
  paymentRef: string | undefined,
): { grant: WalletGrantRow; created: boolean } {
  if (paymentRef !== undefined) {
    const existing = services.store.t.walletGrants.find((g) => g.paymentRef === paymentRef);
    if (existing && existing.userId !== userId) throw conflict("payment_ref was already used for another wallet");
    if (existing) return { grant: existing, created: false };
  }
  const grant = addGrant(
    services,
    { userId, type: "topup", amount, expiresAt: null, code: null, paymentRef: paymentRef ?? null },
    { type: "TOP_UP", memo: null, reference: paymentRef ?? null },
  );
  return { grant, created: true };
}

/** A positive adjustment is a grant; a negative one a debit. */
export function adjust(services: Services, userId: string, amount: number, memo: string | null): void {
  if (amount > 0) {
    addGrant(
      services,
      { userId, type: "adjustment", amount, expiresAt: null, code: null, paymentRef: null },
      { type: "ADJUSTMENT", memo, reference: null },
    );
  } else {
    addDebit(services, userId, "ADJUSTMENT", -amount, memo, null);
  }
}

export function refund(services: Services, userId: string, amount: number, memo: string | null, reference: string | null): void {
  addDebit(services, userId, "REFUND", amount, memo, reference);
}

/** Coupon credit granted directly by an operator (no coupon row): expires after expiry_days. */
export function grantCouponCredit(
  services: Services,
  userId: string,
  amount: number,
  code: string | null,
  expiryDays: number,
): WalletGrantRow {
  return addGrant(
    services,
    { userId, type: "coupon", amount, expiresAt: services.clock.now() + expiryDays * DAY_MS, code, paymentRef: null },
    { type: "COUPON", memo: null, reference: code },
  );
}

/** Grants in the order they took effect; those of the same millisecond in the order they were made. */
export function grantsOf(services: Services, userId: string): WalletGrantRow[] {
  return services.store.t.walletGrants.filter((g) => g.userId === userId).sort((a, b) => a.effectiveAt - b.effectiveAt);
}

/** The wallet by segment of `window` (HOUR, DAY, WEEK, MONTH; case-insensitive, default DAY) from `from` to `to`. */
export function walletHistory(services: Services, userId: string, w: UsageWindow, window: string) {
  const step = WINDOW_STEPS[window.toUpperCase()];
  if (!step)
    throw badRequest(`Invalid query: window must be one of ${Object.keys(WINDOW_STEPS).join(", ")}`, [
      { field: "window", message: "unknown window" },
    ]);
  const bounds = [w.from];
  while (bounds[bounds.length - 1] < w.to) {
    if (bounds.length > MAX_SEGMENTS)
      throw badRequest(`Invalid query: more than ${MAX_SEGMENTS} segments; use a larger window`, [
        { field: "window", message: "too many segments" },
      ]);
    bounds.push(Math.min(step(bounds[bounds.length - 1]), w.to));
  }
  const ends = bounds.slice(1);
  const states = replayLedger(services, userId, ends);
  const subjects = userSubjects(services, userId);
  const now = services.clock.now();
  const spend = bounds.map((b) => spendBefore(subjects, b, now));
  return ends.map((to, i) => ({
    from: iso(bounds[i]),
    to: iso(to),
    usage: spend[i + 1] - spend[i],
    balance: states[i].balance,
    grant_balances: states[i].grantBalances,
  }));
}

/** History windows ("DAY, MONTH and similar": HOUR, DAY, WEEK, MONTH); each steps from `from`. */
const WINDOW_STEPS: Record<string, (t: number) => number> = {
  HOUR: (t) => t + 3_600_000,
  DAY: (t) => t + DAY_MS,
  WEEK: (t) => t + 7 * DAY_MS,
  MONTH: (t) => {
    const d = new Date(t);
    return Date.UTC(
      d.getUTCFullYear(),
      d.getUTCMonth() + 1,
      d.getUTCDate(),
      d.getUTCHours(),
      d.getUTCMinutes(),
      d.getUTCSeconds(),
      d.getUTCMilliseconds(),
    );
  },
};
const MAX_SEGMENTS = 1000;
