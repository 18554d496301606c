/**
 * What a svc resource costs, from what the engine shows a policy: the kind (from either face's type
 * token) and its properties (inputs of a change in preview, recorded outputs otherwise), priced by
 * the API (spec part 3, Billing and usage: POST /v1/billing/estimate; part 2, Plans: `rate`).
 *
 * Only what the API meters costs money: instances (a plan's flat hourly rate, or the CPU and memory
 * of a CUSTOM size), their disks and floating IPs, standalone disks and floating IPs. Every other
 * kind is free here. All money is integer micro-USD.
 */
import type { BillingEstimate, EstimatePart, GetBillingEstimateArgs } from "../resources/lookups/billing";

export type Props = Record<string, unknown>;

/** What to ask the API for one resource: a plan's flat rate and/or parts priced in a region. */
export interface PriceRequest {
  region: string;
  parts: EstimatePart[];
  planId?: string;
}

export type Pricing = { request: PriceRequest } | { free: true } | { unpriced: string };

/** The two type tokens of one kind: the dynamic face's and the plugin's. */
const KIND_TOKENS = [/^pulumi-nodejs:dynamic\/svc:(\w+)$/, /^svc:index:(\w+)$/];

/** The svc kind of a resource type token, or undefined for anything that is not a svc resource. */
export function kindOf(type: string): string | undefined {
  for (const token of KIND_TOKENS) {
    const m = token.exec(type);
    if (m) return m[1];
  }
  return undefined;
}

/** Floating IPs of an instance that names none (spec part 2, Instances: "when omitted a plan grants one IPv4 and one IPv6"). */
const DEFAULT_INSTANCE_IPS = [
  { family: "IPv4", ddos: false },
  { family: "IPv6", ddos: false },
] as const;

/**
 * A floating IP allocated on its own has no region in the spec; the emulator prices it in NA_01
 * ("not shown", chosen there: STANDALONE_IP_PRICING_REGION); the policy config `standaloneIpRegion` changes it.
 */
export const STANDALONE_IP_REGION = "NA_01";

type IpLike = { family: "IPv4" | "IPv6"; ddos?: boolean };

const ipParts = (ips: IpLike[]): EstimatePart[] =>
  ips.map((ip) => ({ type: "FLOATING_IP", family: ip.family, ...(ip.family === "IPv4" ? { ddos: ip.ddos ?? false } : {}) }));

/** The instance's addresses: as declared, else as recorded (outputs), else the create default. */
function instanceIps(p: Props): IpLike[] {
  if (Array.isArray(p.ips)) return p.ips as IpLike[];
  if (Array.isArray(p.ipAddresses)) return p.ipAddresses as IpLike[];
  return [...DEFAULT_INSTANCE_IPS];
}

/**
 * An instance: a PLAN's flat rate (its boot disk is part of it), or a CUSTOM size's CPU (by service
 * group), memory and every storage entry (a CUSTOM boot disk is billed on its own); plus each
 * floating IP. Bandwidth caps are not metered (the API bills compute as CPU and memory).
 */
function instancePricing(p: Props): Pricing {
  if (typeof p.region !== "string") return { unpriced: p.nodeId ? "placed by nodeId: its region is known only after create" : "no region" };
  const type = p.type ?? (p.planId ? "PLAN" : "CUSTOM");
  const ips = ipParts(instanceIps(p));
  if (type === "PLAN") return { request: { region: p.region, planId: String(p.planId), parts: ips } };
  const storage = (p.storage as Array<{ sizeBytes: number; backing?: string }> | undefined) ?? [];
  const parts: EstimatePart[] = [
    { type: "CPU", cpu: p.cpu as number, serviceGroup: p.group as string },
    { type: "MEMORY", memoryBytes: p.memoryBytes as number },
    ...storage.map(
      (s): EstimatePart => ({ type: "STORAGE", storageBytes: s.sizeBytes, storageBacking: (s.backing ?? "LOCAL").toLowerCase() }),
    ),
    ...ips,
  ];
  return { request: { region: p.region, parts } };
}

/** A disk: its size in its region, at its backend's storage rate (rate cards name backings in lower case). */
const diskPricing = (p: Props): Pricing => ({
  request: {
    region: p.region as string,
    parts: [{ type: "STORAGE", storageBytes: p.size as number, storageBacking: String(p.backend).toLowerCase() }],
  },
});

const floatingIpPricing = (p: Props, standaloneIpRegion: string): Pricing => ({
  request: { region: standaloneIpRegion, parts: ipParts([{ family: p.family as IpLike["family"], ddos: p.ddos as boolean | undefined }]) },
});

/** The kinds the API meters; every other kind costs nothing. */
const PRICERS: Record<string, (p: Props, standaloneIpRegion: string) => Pricing> = {
  Instance: instancePricing,
  Disk: diskPricing,
  FloatingIp: floatingIpPricing,
};

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

/** The fields a kind's price depends on (the rest of its properties do not matter here). */
const NEEDS: Record<string, (p: Props) => string[]> = {
  Instance: (p) => ((p.type ?? (p.planId ? "PLAN" : "CUSTOM")) === "PLAN" ? ["planId"] : ["cpu", "memoryBytes", "group"]),
  Disk: () => ["size", "backend", "region"],
  FloatingIp: () => ["family"],
};

/**
 * How to price a resource of this kind with these properties. A field the price depends on that
 * the engine does not know yet (preview of something built from another resource's output) leaves
 * the resource unpriced, named.
 */
export function pricingOf(kind: string, props: Props, standaloneIpRegion = STANDALONE_IP_REGION): Pricing {
  const pricer = PRICERS[kind];
  if (!pricer) return { free: true };
  const plain = plainProps(props) as Props;
  const missing = NEEDS[kind](plain).filter((field) => plain[field] === undefined || plain[field] === null);
  if (missing.length) return { unpriced: `${missing.join(", ")} not known until apply` };
  return pricer(plain, standaloneIpRegion);
}

/** One priced line of a resource: the plan or an estimate part. */
export interface CostLine {
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
