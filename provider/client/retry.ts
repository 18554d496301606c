/**
 * When to retry a request, and how long to wait: pure functions, so the rules is a table that
 * can be read and tested on its own.
 *
 * - Reads and idempotent writes (GET, PUT, PATCH, DELETE) are retried on 429, 500, 502, 503, 504
 *   and network errors, with exponential backoff and jitter, honouring Retry-After when sent, as
 *   long as the wait still ends before the operation's deadline. The API's PUTs replace the whole
 *   object, its PATCHes set fields and a repeated DELETE answers 404 (gone), which the lifecycle
 *   counts as done: repeating them converges to the same state (spec part 1, Errors; part 3, PUT
 *   services/secrets "full replacement").
 * - A POST is never blindly resent: only when the server provably did not process it (429, which
 *   the API answers before doing anything; a connection that was never established). Any other
 *   failure of a POST is *ambiguous*: the caller decides (a create looks the resource up by its
 *   unique name and adopts it).
 * - A 429 is retried for as long as the operation's deadline allows, not for a number of
 *   attempts: it means the API did nothing yet (spec part 1, Errors: "back off and retry"), so
 *   waiting is always safe, and several stacks sharing one token can be refused for minutes
 *   without anything being wrong. The pace of the whole process (limiter.ts) does the waiting.
 * - A request that never reached the server (connection refused, DNS failure) is tried only a few
 *   times (`maxNotSentAttempts`): an address nothing answers at rarely starts answering within
 *   seconds, and ten tries kept a person waiting 10-30 s before saying so. A short outage is still ridden out, and
 *   the lookups that decide whether a create happened keep trying until the deadline (keepTrying.ts).
 */
export interface RetryRules {
  maxAttempts: number;
  baseDelayMs: number;
  /** Cap of the computed backoff. */
  maxDelayMs: number;
  /** Longest Retry-After honoured as sent (a sanity bound against absurd values). */
  maxRetryAfterMs?: number;
  /** Attempts when the request never reached the server (refused, DNS); `maxAttempts` when unset. */
  maxNotSentAttempts?: number;
}

/**
 * Ten attempts: a request that fails a third of the time still gets through 99.998% of the time.
 * Four when nothing answers at the address: about 1-2 s of waiting, then the error names it.
 */
export const DEFAULT_RETRY_RULES: RetryRules = {
  maxAttempts: 10,
  baseDelayMs: 250,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
  maxNotSentAttempts: 4,
};

/**
 * Statuses that mean "try again later": 429 (spec part 1, "Errors": back off and retry) and the
 * server-side failures, 500 included (a fault of the server, not of the request).
 */
export const RETRYABLE_STATUSES = new Set([429, 500, 502, 503, 504]);

/** Methods safe to repeat: repeating them leaves the same result. */
const REPEATABLE_METHODS = new Set(["GET", "HEAD", "PUT", "PATCH", "DELETE"]);

export interface Attempt {
  method: string;
  /** 1-based number of the attempt that just failed. */
  attempt: number;
  status?: number;
  /** Network failure; `notSent` when the request never reached the server. */
  network?: { notSent: boolean };
  retryAfterMs?: number;
  /** The caller vouches that this POST may be repeated (e.g. a read-only estimate). */
  repeatable?: boolean;
  /** Time left before the operation's deadline (ms); no retry whose wait would outlive it. */
  remainingMs?: number;
}

export type Decision = { retry: true; delayMs: number } | { retry: false; ambiguous: boolean };

/** Exponential backoff with "equal jitter": half fixed, half random, capped. */
export function backoffDelay(attempt: number, rules: RetryRules, random: () => number = Math.random): number {
  const exp = Math.min(rules.maxDelayMs, rules.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(exp / 2 + random() * (exp / 2));
}

/** Retry-After in seconds or as an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, now: number = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** How many attempts a failure of this kind gets: a 429 with a deadline is bounded by the deadline alone. */
function attemptsFor(a: Attempt, rules: RetryRules): number {
  if (a.status === 429 && a.remainingMs !== undefined) return Infinity;
  if (a.network?.notSent) return Math.min(rules.maxAttempts, rules.maxNotSentAttempts ?? rules.maxAttempts);
  return rules.maxAttempts;
}

export function decide(a: Attempt, rules: RetryRules = DEFAULT_RETRY_RULES, random: () => number = Math.random): Decision {
  const repeatable = a.repeatable || REPEATABLE_METHODS.has(a.method);
  const transient = (a.status !== undefined && RETRYABLE_STATUSES.has(a.status)) || a.network !== undefined;
  if (!transient) return { retry: false, ambiguous: false };
  const unprocessed = a.status === 429 || a.network?.notSent === true;
  if (!repeatable && !unprocessed) return { retry: false, ambiguous: true };
  const limit = attemptsFor(a, rules);
  if (a.attempt >= limit) return { retry: false, ambiguous: !repeatable && !unprocessed };
  const delayMs =
    a.retryAfterMs !== undefined ? Math.min(rules.maxRetryAfterMs ?? 60_000, a.retryAfterMs) : backoffDelay(a.attempt, rules, random);
  if (a.remainingMs !== undefined && delayMs >= a.remainingMs) return { retry: false, ambiguous: !repeatable && !unprocessed };
  return { retry: true, delayMs };
}
