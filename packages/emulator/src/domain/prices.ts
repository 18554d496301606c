/**
 * Prices (spec part 3, "Billing and usage"): effective-dated rate cards, their views, the
 * operator's new entries and estimates. Rate resolution itself is shared with the compute areas
 * (pricing.ts).
 */
import { conflict, fieldError } from "../core/errors";
import type { Services } from "../core/services";
import type { RateCardRow, RateType } from "../model";
import { HOURS_PER_MONTH, pricePart, type EstimatePart } from "../pricing";
import { MINUTE_MS } from "./billingUsage";

export const RATE_TYPES = ["CPU", "MEMORY", "STORAGE", "BANDWIDTH", "IP"] as const satisfies readonly RateType[];

/** Rate view (part 3): every field always present; selectors of other types are null. */
export function rateView(r: RateCardRow) {
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

/** Regions are those of the seeded catalogue's nodes. */
const knownRegion = (services: Services, region: string): boolean => !!services.store.t.nodes.find((n) => n.region === region);

/** An estimate of parts in a region (the route has normalised each part's selectors). */
export function estimate(services: Services, region: string, parts: EstimatePart[]) {
  if (!knownRegion(services, region)) throw fieldError("region", `unknown region ${region}`);
  const at = services.clock.now();
  const priced = parts.map((part, i) => {
    if (part.type === "FLOATING_IP" && part.family === "IPv6" && part.ddos)
      throw fieldError(`parts[${i}].ddos`, "DDoS protection applies to IPv4 only");
    const result = pricePart(services, region, part, at);
    if ("error" in result) throw fieldError(`parts[${i}]`, result.error);
    return result;
  });
  const hourly = priced.reduce((n, p) => n + p.hourly_rate, 0);
  return { hourly_rate: hourly, monthly_price: hourly * HOURS_PER_MONTH, parts: priced };
}

/** Prices of a card: the entry in force now (latest effective_from on or before now), else its first future entry. */
function currentEntry(entries: RateCardRow[], now: number): RateCardRow {
  const sorted = [...entries].sort((a, b) => Date.parse(a.effectiveFrom) - Date.parse(b.effectiveFrom));
  const inForce = sorted.filter((r) => Date.parse(r.effectiveFrom) <= now);
  return inForce.length ? inForce[inForce.length - 1] : sorted[0];
}

/** One entry per rate card: the one in force now, or its first future entry. */
export function currentPrices(services: Services): RateCardRow[] {
  const cards = new Map<string, RateCardRow[]>();
  for (const r of services.store.t.rateCards.all()) {
    const key = cardKey(r);
    cards.set(key, [...(cards.get(key) ?? []), r]);
  }
  const keys = [...cards.keys()].sort();
  return keys.map((k) => currentEntry(cards.get(k)!, services.clock.now()));
}

/** Every entry of a type, latest effective_from first. */
export function pricesOfType(services: Services, type: RateType): RateCardRow[] {
  return services.store.t.rateCards
    .filter((r) => r.type === type)
    .sort((a, b) => Date.parse(b.effectiveFrom) - Date.parse(a.effectiveFrom) || cardKey(a).localeCompare(cardKey(b)));
}

/** A new rate card entry as the route has validated it. */
export type PriceInput = { region: string; unit_rate: number; effective_from?: string } & (
  | { type: "CPU"; service_group?: string | null; cpu_model?: string | null }
  | { type: "MEMORY" }
  | { type: "STORAGE"; storage_backing?: string | null }
  | { type: "BANDWIDTH"; direction: "UPLOAD" | "DOWNLOAD" }
  | { type: "IP"; family: "IPv4" | "IPv6"; ddos?: boolean }
);

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

export function createPrice(services: Services, input: PriceInput): RateCardRow {
  if (!knownRegion(services, input.region)) throw fieldError("region", `unknown region ${input.region}`);
  if (input.type === "IP" && input.family === "IPv6" && input.ddos) throw fieldError("ddos", "DDoS protection applies to IPv4 only");
  const now = services.clock.now();
  const from = input.effective_from === undefined ? now : Date.parse(input.effective_from);
  if (from < now - BACKDATE_TOLERANCE_MS) throw fieldError("effective_from", "must not be in the past");
  const row = rateRowFrom(input, new Date(from).toISOString());
  const key = cardKey({ ...row, id: "0" });
  if (services.store.t.rateCards.find((r) => cardKey(r) === key && r.effectiveFrom === row.effectiveFrom)) {
    throw conflict("This rate card already has an entry effective at that instant");
  }
  return services.store.t.rateCards.insert({ id: services.store.newId(), ...row });
}
