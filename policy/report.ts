/**
 * A stack's cost from its resources' costs, and the words people read: one line per stack, a line
 * per priced resource, and the budget's verdict. Pure functions over micro-USD integers.
 */
import type { ResourceCost } from "./pricing";

export interface StackCost {
  hourly: number;
  monthly: number;
  /** Priced resources, most expensive first. */
  resources: ResourceCost[];
  /** Resources the API meters whose price is not known yet, with why. */
  unpriced: Array<{ name: string; reason: string }>;
}

export function stackCost(resources: ResourceCost[], unpriced: StackCost["unpriced"] = []): StackCost {
  const sorted = [...resources].sort((a, b) => b.monthly - a.monthly || a.name.localeCompare(b.name));
  return {
    hourly: sorted.reduce((n, r) => n + r.hourly, 0),
    monthly: sorted.reduce((n, r) => n + r.monthly, 0),
    resources: sorted,
    unpriced,
  };
}

/** Micro-USD as dollars and cents, e.g. 12345678 -> "$12.35" (sub-cent hourly rates keep 4 places). */
export function usd(micro: number, places = 2): string {
  const sign = micro < 0 ? "-" : "";
  return `${sign}$${(Math.abs(micro) / 1_000_000).toFixed(places)}`;
}

const signed = (micro: number) => (micro >= 0 ? `+${usd(micro)}` : usd(micro));

/** The change against the current state: its sign, and the current cost it is measured from. */
function changeText(proposed: StackCost, current: StackCost | string): string {
  if (typeof current === "string") return `change against current state unknown (${current})`;
  return `${signed(proposed.monthly - current.monthly)}/month against current state (${usd(current.monthly)}/month)`;
}

/** The one readable line of a stack. */
export function stackLine(stack: string, proposed: StackCost, current: StackCost | string): string {
  const unpriced = proposed.unpriced.length ? `; ${proposed.unpriced.length} not priced yet` : "";
  return `svc cost of stack ${stack}: ${usd(proposed.monthly)}/month (${usd(proposed.hourly, 4)}/hour), ${changeText(proposed, current)}${unpriced}`;
}

/** One line per resource: its total and what makes it up. */
export function breakdownLines(proposed: StackCost): string[] {
  return [
    ...proposed.resources.map(
      (r) => `  ${r.name} (${r.kind}): ${usd(r.monthly)}/month = ${r.lines.map((l) => `${l.label} ${usd(l.hourly, 4)}/h`).join(" + ")}`,
    ),
    ...proposed.unpriced.map((u) => `  ${u.name}: not priced (${u.reason})`),
  ];
}

/** The biggest contributors, for the budget's message. */
const biggest = (proposed: StackCost, n = 3): string =>
  proposed.resources
    .slice(0, n)
    .map((r) => `${r.name} ${usd(r.monthly)}`)
    .join(", ");

/** Undefined within the budget; otherwise the message naming the budget, the estimate and the biggest contributors. */
export function budgetExceeded(maxMonthly: number, proposed: StackCost): string | undefined {
  if (proposed.monthly <= maxMonthly) return undefined;
  return `estimated ${usd(proposed.monthly)}/month exceeds the budget maxMonthlyCost ${usd(maxMonthly)}/month; biggest contributors: ${biggest(proposed)}`;
}
