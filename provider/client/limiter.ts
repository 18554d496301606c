/**
 * One limiter per process and token: every request a process sends to one API with one token
 * waits here for its slot (pace.ts decides the slots), so the dynamic-provider host (all svc
 * resources of a stack), each plugin provider, the program's lookups and the policy pack each send
 * at one pace, whatever number of resources are busy at once.
 *
 * Changes go first: when requests wait, a create, update or delete takes the next slot before a
 * read (workflow polls, read-backs, lookups), which wait for the slots changes leave. Reads are
 * also what the waiting in workflows.ts stretches when the pace is tight.
 *
 * The pace itself lives in a `PaceStore`: in this process (tests, simulations), or shared with
 * every process on this machine that sends to the same API with the same token, so
 * the stacks of several CI jobs on one runner learn the token's limit together instead of each
 * probing it on its own (paceStore.ts says why).
 *
 * The limiter counts what a person is told at the end (requests sent, answered 429, time spent
 * with requests waiting): `summary()`.
 */
import { createHash } from "node:crypto";
import { DeadlineError } from "../errors";
import { isPaced, onAnswer, PACE_SETTINGS, takeSlot } from "./pace";
import { memoryPace, sharedPace, type PaceStore } from "./paceStore";

/** Which requests go first when they wait: changes, then reads. */
export type Priority = "change" | "read";

/** GET only reads; every other method changes something (or, as a POST estimate, is treated as one). */
export const priorityOf = (method: string): Priority => (method === "GET" || method === "HEAD" ? "read" : "change");

const ORDER: Priority[] = ["change", "read"];

/** How far ahead a process may hold a slot: room for sixteen processes' slots at 3 requests/s. */
const RESERVE_AHEAD_MS = 5_000;

/** What a request learns when it may go. */
export interface Ticket {
  sentAt: number;
  /** Time it waited for its slot (ms). */
  waitedMs: number;
  /** Whether the pace held it (it would have gone sooner otherwise). */
  waited: boolean;
}

interface Waiter {
  since: number;
  deadline: number;
  resolve(t: Ticket): void;
  reject(e: Error): void;
}

export interface LimiterClock {
  now(): number;
  after(ms: number, fn: () => void): () => void;
}

const realClock: LimiterClock = {
  now: () => Date.now(),
  after(ms, fn) {
    const t = setTimeout(fn, ms);
    return () => clearTimeout(t);
  },
};

export interface LimiterStats {
  sent: number;
  rateLimited: number;
  /** Wall time during which at least one request waited for its slot (ms). */
  waitingMs: number;
}

export class Limiter {
  private readonly queues: Record<Priority, Waiter[]> = { change: [], read: [] };
  private cancelTimer: (() => void) | undefined;
  private waitingSince: number | undefined;
  /** The slot this process holds for the head of its queue (ms since epoch). */
  private reserved: number | undefined;
  private readonly totals: LimiterStats = { sent: 0, rateLimited: 0, waitingMs: 0 };

  constructor(
    cap: number | null = null,
    private readonly clock: LimiterClock = realClock,
    private readonly random: () => number = Math.random,
    private readonly pace: PaceStore = memoryPace(cap),
  ) {}

  /** Resolves when a request of this priority may be sent; rejects once `deadline` passes first. */
  admit(priority: Priority, deadline = Infinity): Promise<Ticket> {
    const now = this.clock.now();
    // The common case costs nothing: unpaced, nobody waiting, no pause.
    const state = this.pace.read(now);
    if (!this.busy() && !isPaced(state) && now >= state.pausedUntil) {
      this.totals.sent++;
      return Promise.resolve({ sentAt: now, waitedMs: 0, waited: false });
    }
    return new Promise<Ticket>((resolve, reject) => {
      if (this.waitingSince === undefined) this.waitingSince = now;
      this.queues[priority].push({ since: now, deadline, resolve, reject });
      this.dispatch();
    });
  }

  /** Tells the pace how a request was answered (status undefined: no answer). */
  answered(ticket: Ticket, status: number | undefined, retryAfterMs?: number): void {
    if (status === 429) this.totals.rateLimited++;
    const answer = { status, sentAt: ticket.sentAt, waited: ticket.waited, retryAfterMs };
    const now = this.clock.now();
    this.pace.update(now, (s) => onAnswer(s, answer, now, PACE_SETTINGS, this.random));
    if (this.busy()) this.dispatch();
  }

  /** Whether requests are spaced (a 429 was seen, or a cap is set): waiting should spare the budget. */
  paced(): boolean {
    return isPaced(this.pace.read(this.clock.now()));
  }

  /** The current pace (requests/s), Infinity when unpaced. */
  rate(): number {
    const state = this.pace.read(this.clock.now());
    return Math.min(state.rate ?? Infinity, state.cap ?? Infinity);
  }

  stats(): LimiterStats {
    const open = this.waitingSince === undefined ? 0 : this.clock.now() - this.waitingSince;
    return { ...this.totals, waitingMs: this.totals.waitingMs + open };
  }

  private busy(): boolean {
    return this.queues.change.length > 0 || this.queues.read.length > 0;
  }

  private dispatch(): void {
    this.cancelTimer?.();
    this.cancelTimer = undefined;
    for (;;) {
      const now = this.clock.now();
      this.expire(now);
      const queue = ORDER.map((p) => this.queues[p]).find((q) => q.length > 0);
      if (!queue) {
        if (this.waitingSince !== undefined) this.totals.waitingMs += now - this.waitingSince;
        this.waitingSince = undefined;
        return;
      }
      // A process alone takes the slot free when it looks, at the pace as it is then. Processes
      // sharing a pace each hold the next free slot from the moment their first request waits, so
      // they take slots in the order they asked. (Racing for each slot as it came, a process whose
      // timers fired late lost again and again and finished a minute after the rest.) A pause
      // begun since (a 429) voids the slot held: a new one comes after it, spaced, not all at once.
      if (this.reserved !== undefined && this.pace.read(now).pausedUntil > this.reserved) this.reserved = undefined;
      const at = this.reserved ?? this.take(now, this.pace.shared ? RESERVE_AHEAD_MS : 0);
      if (at > now) {
        this.cancelTimer = this.clock.after(at - now, () => this.dispatch());
        return;
      }
      this.reserved = undefined;
      const waiter = queue.shift()!;
      this.totals.sent++;
      waiter.resolve({ sentAt: now, waitedMs: now - waiter.since, waited: true });
    }
  }

  /**
   * Takes the pace's next free slot if it is at most `aheadMs` away (held until then without
   * asking again) and says when it is; otherwise takes none and says when to ask again. A process
   * alone asks with 0 (the slot free when it looks); processes sharing a pace hold theirs up to
   * `RESERVE_AHEAD_MS` ahead, no further: a slot is spaced at the pace when it is taken, and a pace
   * just cut low (to 0.1/s) would otherwise hold slots minutes ahead after it has grown back.
   */
  private take(now: number, aheadMs: number): number {
    let at = now;
    this.pace.update(now, (s) => {
      const slot = takeSlot(s, now);
      at = slot.at;
      return at - now > aheadMs ? s : slot.state;
    });
    if (at - now > aheadMs) return at - aheadMs;
    return (this.reserved = at);
  }

  private expire(now: number): void {
    for (const p of ORDER) {
      const late = this.queues[p].filter((w) => w.deadline <= now);
      if (!late.length) continue;
      this.queues[p] = this.queues[p].filter((w) => w.deadline > now);
      for (const w of late)
        w.reject(
          new DeadlineError(
            `waited ${Math.round((now - w.since) / 1000)}s on the API's rate limit until the operation's deadline; raise timeouts (or customTimeouts), or lower the requests other stacks send with this token`,
          ),
        );
    }
  }
}

/** The limiters of this process, one per API address, token and cap. */
const limiters = new Map<string, Limiter>();

/** The process's limiter for this API and token (the token is kept only as a hash). */
export function limiterFor(baseUrl: string, token: string, cap: number | null): Limiter {
  const key = `${baseUrl}\n${createHash("sha256").update(token).digest("hex")}\n${cap ?? ""}`;
  let limiter = limiters.get(key);
  if (!limiter) limiters.set(key, (limiter = new Limiter(cap, realClock, Math.random, sharedPace(key, cap) ?? memoryPace(cap))));
  return limiter;
}

/** Every limiter of this process (the summary adds them up). */
export const allLimiters = (): Limiter[] => [...limiters.values()];
