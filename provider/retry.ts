/**
 * When to retry a request, and how long to wait: pure functions, so the policy is a table that
 * can be read and tested on its own.
 *
 * - Reads and idempotent writes (GET, PUT, PATCH, DELETE) are retried on 429, 502, 503, 504 and
 *   network errors, with exponential backoff and jitter, honouring Retry-After when sent.
 * - A POST is never blindly resent: only when the server provably did not process it (429, which
 *   the API answers before doing anything; a connection that was never established). Any other
 *   failure of a POST is *ambiguous*: the caller decides (a create looks the resource up by its
 *   unique name and adopts it).
 */
export interface RetryPolicy {
  maxAttempts: number;
  baseDelayMs: number;
  /** Cap of the computed backoff. */
  maxDelayMs: number;
  /** Longest Retry-After honoured as sent (a sanity bound against absurd values). */
  maxRetryAfterMs?: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 6, baseDelayMs: 250, maxDelayMs: 8_000, maxRetryAfterMs: 60_000 };

/** Statuses that mean "try again later" (spec part 1, "Errors": 429 back off and retry). */
export const RETRYABLE_STATUSES = new Set([429, 502, 503, 504]);

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
}

export type Decision = { retry: true; delayMs: number } | { retry: false; ambiguous: boolean };

/** Exponential backoff with "equal jitter": half fixed, half random, capped. */
export function backoffDelay(attempt: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const exp = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(exp / 2 + random() * (exp / 2));
}

/** Retry-After in seconds or as an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, now: number = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

export function decide(a: Attempt, policy: RetryPolicy = DEFAULT_RETRY_POLICY, random: () => number = Math.random): Decision {
  const repeatable = a.repeatable || REPEATABLE_METHODS.has(a.method);
  const transient = (a.status !== undefined && RETRYABLE_STATUSES.has(a.status)) || a.network !== undefined;
  if (!transient) return { retry: false, ambiguous: false };
  const unprocessed = a.status === 429 || a.network?.notSent === true;
  if (!repeatable && !unprocessed) return { retry: false, ambiguous: true };
  if (a.attempt >= policy.maxAttempts) return { retry: false, ambiguous: !repeatable && !unprocessed };
  const delayMs = a.retryAfterMs !== undefined ? Math.min(policy.maxRetryAfterMs ?? 60_000, a.retryAfterMs) : backoffDelay(a.attempt, policy, random);
  return { retry: true, delayMs };
}
