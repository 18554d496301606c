/**
 * What a svc resource costs, from what the engine shows a policy: the kind (from either face's type
 * token) and its properties (inputs of a change in preview, recorded outputs otherwise), priced by
 * the API (spec part 3, Billing and usage: POST /v1/billing/estimate; part 2, Plans: `rate`).
 *
 * How a kind is priced is part of its spec (`pricing`: metered, or not metered and why; the compiler
 * refuses a spec that says neither), so this file holds no table of kinds. A kind's spec is loaded
 * from resources/kinds.ts on first use, as the provider process does: the pack loads nothing more at
 * start. All money is integer micro-USD.
 */
import type { BillingEstimate, EstimatePart, GetBillingEstimateArgs } from "../resources/lookups/billing";
import { moduleOf, definitionOf } from "../resources/kinds";
import type { PriceRequest, PricedProps, Pricing } from "../provider/metering";

export type { PriceRequest, Pricing };
export type Props = PricedProps;

/**
 * A floating IP allocated on its own has no region in the spec; the emulator prices it in NA_01
 * ("not shown", chosen there: STANDALONE_IP_PRICING_REGION); the policy config `standaloneIpRegion` changes it.
 */
export const STANDALONE_IP_REGION = "NA_01";

/**
 * Properties as plain data. @pulumi/policy hands a policy proxies that throw on a value unknown
 * during preview (and break array methods); an unknown value is left out here, so a pricer that
 * needs it reports it by name.
 */
export function plainProps(value: unknown): unknown {
  if (value === null || typeof value !== "object") return value;
  const read = (key: string | number) => {
    try {
      return plainProps((value as Record<string | number, unknown>)[key]);
    } catch {
      return undefined;
    }
  };
  if (Array.isArray(value)) return Array.from({ length: value.length }, (_, i) => read(i));
  return Object.fromEntries(Object.keys(value).map((k) => [k, read(k)]));
}

/**
 * How to price a resource of this kind with these properties. A field the price depends on that
 * the engine does not know yet (preview of something built from another resource's output) leaves
 * the resource unpriced, named.
 */
export function pricingOf(kind: string, props: Props, standaloneIpRegion = STANDALONE_IP_REGION): Pricing {
  // A kind this version does not know (state written by another version) is not priced here.
  const metering = moduleOf(kind) ? definitionOf(kind).pricing : undefined;
  if (!metering || "notMetered" in metering) return { free: true };
  const plain = plainProps(props) as Props;
  const missing = metering.needs(plain).filter((field) => plain[field] === undefined || plain[field] === null);
  if (missing.length) return { unpriced: `${missing.join(", ")} not known until apply` };
  return metering.price(plain, standaloneIpRegion);
}

/** One priced line of a resource: the plan or an estimate part. */
interface CostLine {
  label: string;
  hourly: number;
}

export interface ResourceCost {
  name: string;
  kind: string;
  hourly: number;
  monthly: number;
  lines: CostLine[];
}

/** What pricing needs from the API: the estimate endpoint and the plans' flat rates. */
export interface PriceApi {
  estimate(args: GetBillingEstimateArgs): Promise<BillingEstimate>;
  plan(id: string): Promise<{ name: string; rate: number }>;
}

/** Spec part 3: monthly_price equals hourly_rate multiplied by 672. */
export const HOURS_PER_MONTH = 672;

const partLabel = (part: EstimatePart): string => {
  switch (part.type) {
    case "CPU":
      return `${part.cpu} CPU${part.serviceGroup ? ` ${part.serviceGroup}` : ""}`;
    case "MEMORY":
      return `${part.memoryBytes / 1024 ** 3} GiB memory`;
    case "STORAGE":
      return `${part.storageBytes / 1024 ** 3} GiB ${part.storageBacking ?? ""} storage`.replace("  ", " ");
    case "BANDWIDTH":
      return `${part.direction} bandwidth`;
    case "FLOATING_IP":
      return `${part.family}${part.ddos ? " DDoS-protected" : ""} address`;
  }
};

/** Prices one resource: the plan's flat rate and the API's estimate of its parts. */
export async function priceResource(name: string, kind: string, request: PriceRequest, api: PriceApi): Promise<ResourceCost> {
  const lines: CostLine[] = [];
  if (request.planId !== undefined) {
    const plan = await api.plan(request.planId);
    lines.push({ label: `plan ${plan.name}`, hourly: plan.rate });
  }
  if (request.parts.length) {
    const estimate = await api.estimate({ region: request.region, parts: request.parts });
    estimate.parts.forEach((priced, i) => lines.push({ label: partLabel(request.parts[i]), hourly: priced.hourlyRate }));
  }
  const hourly = lines.reduce((n, l) => n + l.hourly, 0);
  return { name, kind, hourly, monthly: hourly * HOURS_PER_MONTH, lines };
}
