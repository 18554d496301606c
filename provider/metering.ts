/**
 * How a kind is priced: the types a definition's metering declares and the billing lookups share.
 * Apart from the definition because the lookups are public: their declarations must not reach zod's
 * types, which fail the stock `pulumi new typescript` tsconfig (tests/e2e/package.test.ts).
 */

/** A resource as the engine shows a policy: a change's inputs, or the recorded outputs. */
export type PricedProps = Record<string, unknown>;

/** One part of an estimate, discriminated by `type` (camelCase; sent as the API's snake_case). */
export type EstimatePart =
  | { type: "CPU"; cpu: number; serviceGroup?: string; cpuModel?: string }
  | { type: "MEMORY"; memoryBytes: number }
  | { type: "STORAGE"; storageBytes: number; storageBacking?: string }
  | { type: "BANDWIDTH"; direction: "UPLOAD" | "DOWNLOAD"; speedBytesSec: number }
  | { type: "FLOATING_IP"; family: "IPv4" | "IPv6"; ddos?: boolean };

/** What to ask the API for one resource: a plan's flat rate and/or parts priced in a region. */
export interface PriceRequest {
  region: string;
  parts: EstimatePart[];
  planId?: string;
}

/** How one resource is priced: a request to the API, free, or not known until apply (why). */
export type Pricing = { request: PriceRequest } | { free: true } | { unpriced: string };

/**
 * How a kind is priced by the policy pack (policy/pricing.ts, through the API's estimate: spec
 * part 3, Billing and usage), declared in the kind's definition so no kind is silently free: either
 * metered (the fields its price depends on, and the price request), or not metered, saying why.
 */
export type Metering =
  | {
      /** The properties the price depends on: while any is unknown (preview), the resource is unpriced. */
      needs(props: PricedProps): string[];
      price(props: PricedProps, standaloneIpRegion: string): Pricing;
    }
  | { notMetered: string };

/** The estimate parts of floating IPs (a DDoS flag only for IPv4: spec part 3, estimate part shapes). */
export const ipParts = (ips: Array<{ family: "IPv4" | "IPv6"; ddos?: boolean }>): EstimatePart[] =>
  ips.map((ip) => ({ type: "FLOATING_IP", family: ip.family, ...(ip.family === "IPv4" ? { ddos: ip.ddos ?? false } : {}) }));
