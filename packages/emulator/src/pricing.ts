/**
 * Prices from effective-dated rate cards (spec part 3, Billing): the resolver picks, for each
 * part, the entry with the latest effective_from on or before the billing instant.
 *
 * Units ("not shown", chosen here): CPU per core, MEMORY per GiB, STORAGE per GiB, BANDWIDTH per
 * 1,000,000 bytes/sec of cap, IP per address. Rates are integer micro-USD per unit per hour;
 * part totals are rounded to whole micro-USD. monthly_price = hourly_rate * 672.
 */
import type { Services } from "./core/services";
import type { RateCardRow, RateType } from "./model";

export const HOURS_PER_MONTH = 672;
const GIB = 1024 ** 3;

export type EstimatePart =
  | { type: "CPU"; cpu: number; service_group?: string; cpu_model?: string }
  | { type: "MEMORY"; memory_bytes: number }
  | { type: "STORAGE"; storage_bytes: number; storage_backing?: string }
  | { type: "BANDWIDTH"; direction: "UPLOAD" | "DOWNLOAD"; speed_bytes_sec: number }
  | { type: "FLOATING_IP"; family: "IPv4" | "IPv6"; ddos?: boolean };

export interface PricedPart {
  type: string;
  quantity: number;
  unit_rate: number;
  hourly_rate: number;
  monthly_price: number;
}

/** Which rate-card type and selectors a part needs, and how many units it is. */
function selectorOf(part: EstimatePart): {
  type: RateType;
  quantity: number;
  match: (r: RateCardRow) => boolean;
  specificity: (r: RateCardRow) => number;
} {
  switch (part.type) {
    case "CPU":
      return {
        type: "CPU",
        quantity: part.cpu,
        // An omitted selector ("omit for any") takes the unscoped card, never an arbitrary scoped one.
        match: (r) =>
          (r.serviceGroup === null || r.serviceGroup === part.service_group) && (r.cpuModel === null || r.cpuModel === part.cpu_model),
        specificity: (r) => (r.serviceGroup ? 2 : 0) + (r.cpuModel ? 1 : 0),
      };
    case "MEMORY":
      return { type: "MEMORY", quantity: part.memory_bytes / GIB, match: () => true, specificity: () => 0 };
    case "STORAGE":
      return {
        type: "STORAGE",
        quantity: part.storage_bytes / GIB,
        match: (r) => r.storageBacking === null || r.storageBacking === part.storage_backing?.toLowerCase(),
        specificity: (r) => (r.storageBacking ? 1 : 0),
      };
    case "BANDWIDTH":
      return {
        type: "BANDWIDTH",
        quantity: part.speed_bytes_sec / 1_000_000,
        match: (r) => r.direction === part.direction,
        specificity: () => 0,
      };
    case "FLOATING_IP":
      return {
        type: "IP",
        quantity: 1,
        match: (r) => r.family === part.family && (part.family === "IPv6" || (r.ddos ?? false) === (part.ddos ?? false)),
        specificity: () => 0,
      };
  }
}

/** The rate-card entry in force at `at` for a part, most specific first; undefined if none. */
export function resolveRate(services: Services, region: string, part: EstimatePart, at: number): RateCardRow | undefined {
  const sel = selectorOf(part);
  const candidates = services.store.t.rateCards.filter(
    (r) => r.type === sel.type && r.region === region && Date.parse(r.effectiveFrom) <= at && sel.match(r),
  );
  candidates.sort((a, b) => sel.specificity(b) - sel.specificity(a) || Date.parse(b.effectiveFrom) - Date.parse(a.effectiveFrom));
  return candidates[0];
}

export function pricePart(services: Services, region: string, part: EstimatePart, at: number): PricedPart | { error: string } {
  const rate = resolveRate(services, region, part, at);
  if (!rate) return { error: `no ${selectorOf(part).type} rate in region ${region}` };
  const quantity = selectorOf(part).quantity;
  const hourly = Math.round(quantity * rate.unitRate);
  return { type: part.type, quantity, unit_rate: rate.unitRate, hourly_rate: hourly, monthly_price: hourly * HOURS_PER_MONTH };
}

/** Hourly rate of a custom-sized instance (CUSTOM instances are priced from the rate cards). */
export function customInstanceHourlyRate(
  services: Services,
  spec: { region: string; group: string; cpu: number; memoryBytes: number; storage: { size_bytes: number; backing?: string }[] },
): number {
  const at = services.clock.now();
  const parts: EstimatePart[] = [
    { type: "CPU", cpu: spec.cpu, service_group: spec.group },
    { type: "MEMORY", memory_bytes: spec.memoryBytes },
    ...spec.storage.map((s): EstimatePart => ({ type: "STORAGE", storage_bytes: s.size_bytes, storage_backing: s.backing })),
  ];
  let total = 0;
  for (const part of parts) {
    const priced = pricePart(services, spec.region, part, at);
    if ("hourly_rate" in priced) total += priced.hourly_rate;
  }
  return total;
}

/** Starts metering a resource for usage reports. */
export function startBilling(
  services: Services,
  s: { workspaceId: string; resourceId: string; resourceKind: string; resourceName: string; hourlyRate: number },
): void {
  const { store, clock } = services;
  store.t.billingSubjects.insert({ id: store.newId(), ...s, startedAt: clock.now(), endedAt: null });
}

/** Stops metering (the resource is gone); usage keeps the minutes it ran. */
export function stopBilling(services: Services, resourceId: string): void {
  const { store, clock } = services;
  for (const s of store.t.billingSubjects.filter((b) => b.resourceId === resourceId && b.endedAt === null)) {
    store.t.billingSubjects.update(s.id, { endedAt: clock.now() });
  }
}

/** Changes the metered rate from now on (an upgrade): closes the current segment, opens a new one. */
export function rebill(services: Services, resourceId: string, hourlyRate: number): void {
  const current = services.store.t.billingSubjects.find((b) => b.resourceId === resourceId && b.endedAt === null);
  if (!current || current.hourlyRate === hourlyRate) return;
  stopBilling(services, resourceId);
  startBilling(services, {
    workspaceId: current.workspaceId,
    resourceId,
    resourceKind: current.resourceKind,
    resourceName: current.resourceName,
    hourlyRate,
  });
}
