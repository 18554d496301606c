/**
 * Billing usage (spec part 3, "Billing and usage"): minutes and cap-aware cost of the billing
 * subjects the compute areas meter (pricing.ts), per resource, per workspace and per user.
 * Money is integer micro-USD. A user's usage is that of the workspaces the user OWNS ("not
 * shown", chosen).
 */
import { notFound } from "../core/errors";
import type { Services } from "../core/services";
import type { BillingSubjectRow, WorkspaceRow } from "../model";
import { HOURS_PER_MONTH } from "../pricing";

export const MINUTE_MS = 60_000;

/** Instants in responses: ISO 8601, or null. */
export const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

export const monthStart = (t: number): number => {
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

export interface UsageWindow {
  from: number;
  to: number;
}

export interface ResourceUsage {
  resource_id: string;
  resource_kind: string;
  resource_name: string;
  minutes: number;
  cost: number;
}

/** One resource's usage in a window, over all its billing segments (a rebill opens a new one). */
export function resourceUsage(segments: BillingSubjectRow[], w: UsageWindow, now: number): ResourceUsage {
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
export function byResource(subjects: BillingSubjectRow[]): BillingSubjectRow[][] {
  const groups = new Map<string, BillingSubjectRow[]>();
  for (const s of [...subjects].sort((a, b) => a.startedAt - b.startedAt || (BigInt(a.id) < BigInt(b.id) ? -1 : 1))) {
    const list = groups.get(s.resourceId) ?? [];
    list.push(s);
    groups.set(s.resourceId, list);
  }
  return [...groups.values()];
}

export const subjectsOf = (services: Services, workspaceIds: Set<string>) =>
  services.store.t.billingSubjects.filter((s) => workspaceIds.has(s.workspaceId));

/** Usage of one workspace: resources that ran in the window, and totals. */
export function workspaceUsage(services: Services, ws: WorkspaceRow, w: UsageWindow) {
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

export const ownedWorkspaces = (services: Services, userId: string): WorkspaceRow[] =>
  services.store.t.workspaces.filter((w) => w.ownerId === userId).sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1));

/** Cumulative resource spend of a user's owned workspaces before `t` (refunds are not spend). */
export function spendBefore(subjects: BillingSubjectRow[], t: number, now: number): number {
  let total = 0;
  for (const s of subjects) if (s.startedAt < t) total += costBefore(s, t, now);
  return total;
}

export const userSubjects = (services: Services, userId: string) =>
  subjectsOf(services, new Set(ownedWorkspaces(services, userId).map((w) => w.id)));

/** Usage of one resource a workspace billed (404 when it never billed it; zeros outside the window). */
export function billedResourceUsage(services: Services, ws: WorkspaceRow, resourceId: string, w: UsageWindow): ResourceUsage {
  const segments = services.store.t.billingSubjects.filter((s) => s.workspaceId === ws.id && s.resourceId === resourceId);
  if (!segments.length) throw notFound("Billed resource");
  return resourceUsage(byResource(segments)[0], w, services.clock.now());
}

/** Usage of every workspace a user owns, with totals. */
export function userUsage(services: Services, userId: string, w: UsageWindow) {
  const workspaces = ownedWorkspaces(services, userId).map((ws) => workspaceUsage(services, ws, w));
  return {
    total_minutes: workspaces.reduce((n, x) => n + x.total_minutes, 0),
    total_cost: workspaces.reduce((n, x) => n + x.total_cost, 0),
    workspaces,
  };
}
