/**
 * Per-operation deadlines. Every resource accepts `timeouts: { create?, update?, delete? }`
 * with durations such as "20m", "1h30m", "45s" or "500ms"; it never causes a diff.
 */
export interface Timeouts {
  create?: string;
  update?: string;
  delete?: string;
}

export type Operation = keyof Timeouts;

export const DEFAULT_TIMEOUT_MS: Record<Operation, number> = { create: 20 * 60_000, update: 20 * 60_000, delete: 20 * 60_000 };

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
const DURATION = /^(?:\d+(?:\.\d+)?(?:ms|s|m|h))+$/;

/** Milliseconds in a duration string, or an error message. */
export function parseDuration(text: string): number | string {
  const t = text.trim();
  if (!DURATION.test(t)) return `"${text}" is not a duration; use forms like "90s", "20m" or "1h30m"`;
  let total = 0;
  for (const [, n, unit] of t.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)) total += Number(n) * UNIT_MS[unit];
  if (total <= 0) return `"${text}" must be longer than zero`;
  return Math.round(total);
}

export function deadlineFor(op: Operation, timeouts: Timeouts | undefined, now: number = Date.now()): number {
  const raw = timeouts?.[op];
  const ms = raw === undefined ? DEFAULT_TIMEOUT_MS[op] : parseDuration(raw);
  return now + (typeof ms === "number" ? ms : DEFAULT_TIMEOUT_MS[op]);
}
