/**
 * Billing lookups: cost estimates, wallet balance and usage statements (spec part 3, Billing and
 * usage; Billing objects). All money is integer micro-USD (1 USD = 1,000,000).
 */
import type { EstimatePart } from "../../provider/metering";
import { idOf, numberOf } from "../../provider/client/wire";
import { lookupClient, workspaceOf } from "./common";
import type { Integer, WideInteger } from "../../provider/fields/integer";

// ---------------------------------------------------------------------------------------------
// Estimate (POST /v1/billing/estimate: read-only, nothing is created)

// One part of an estimate: declared with the kinds' pricing, which the lookups' users take from here.
export type { EstimatePart };

export interface GetBillingEstimateArgs {
  /** Region, for example NA_01. */
  region: string;
  /** At least one part. */
  parts: EstimatePart[];
}

export interface PricedPart {
  type: string;
  quantity: number;
  /** Micro-USD per unit per hour. */
  unitRate: WideInteger;
  /** Micro-USD per hour. */
  hourlyRate: WideInteger;
  /** Micro-USD per month (hourlyRate x 672). */
  monthlyPrice: WideInteger;
}

export interface BillingEstimate {
  /** Micro-USD per hour. */
  hourlyRate: WideInteger;
  /** Micro-USD per month: hourlyRate x 672. */
  monthlyPrice: WideInteger;
  parts: PricedPart[];
}

const WHERE = "spec part 3, Billing and usage: estimate part shapes";

/** The API's snake_case part; an unknown type or a missing field is reported before any request. */
export function estimatePartBody(part: EstimatePart, index: number): Record<string, unknown> {
  const need = (field: string, value: unknown) => {
    if (value === undefined || value === null)
      throw new Error(`getBillingEstimate: parts[${index}].${field} is required for a ${part.type} part (${WHERE})`);
    return value;
  };
  const drop = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
  switch (part?.type) {
    case "CPU":
      return drop({ type: "CPU", cpu: need("cpu", part.cpu), service_group: part.serviceGroup, cpu_model: part.cpuModel });
    case "MEMORY":
      return { type: "MEMORY", memory_bytes: need("memoryBytes", part.memoryBytes) };
    case "STORAGE":
      return drop({ type: "STORAGE", storage_bytes: need("storageBytes", part.storageBytes), storage_backing: part.storageBacking });
    case "BANDWIDTH":
      return {
        type: "BANDWIDTH",
        direction: need("direction", part.direction),
        speed_bytes_sec: need("speedBytesSec", part.speedBytesSec),
      };
    case "FLOATING_IP":
      if (part.family === "IPv6" && part.ddos) throw new Error(`getBillingEstimate: parts[${index}].ddos applies to IPv4 only (${WHERE})`);
      return drop({ type: "FLOATING_IP", family: need("family", part.family), ddos: part.ddos });
    default:
      throw new Error(`getBillingEstimate: parts[${index}].type must be CPU, MEMORY, STORAGE, BANDWIDTH or FLOATING_IP (${WHERE})`);
  }
}

interface ApiPricedPart {
  type: string;
  quantity: number;
  unit_rate: number;
  hourly_rate: number;
  monthly_price: number;
}

/** What a set of resources would cost (POST /v1/billing/estimate: read-only, nothing is created): a plan's flat rate and/or parts priced in a region, in micro-USD. */
export async function getBillingEstimate(args: GetBillingEstimateArgs): Promise<BillingEstimate> {
  if (!args.parts?.length)
    throw new Error(`getBillingEstimate: parts must list at least one part (spec part 3, Billing and usage: parts is required)`);
  const body = { region: args.region, parts: args.parts.map(estimatePartBody) };
  // Read-only: safe to repeat after an ambiguous failure.
  const r = await lookupClient().client.post<{ hourly_rate: number; monthly_price: number; parts: ApiPricedPart[] }>(
    `/v1/billing/estimate`,
    body,
    { repeatable: true },
  );
  return {
    hourlyRate: numberOf(r.hourly_rate)!,
    monthlyPrice: numberOf(r.monthly_price)!,
    parts: (r.parts ?? []).map((p) => ({
      type: p.type,
      quantity: numberOf(p.quantity)!,
      unitRate: numberOf(p.unit_rate)!,
      hourlyRate: numberOf(p.hourly_rate)!,
      monthlyPrice: numberOf(p.monthly_price)!,
    })),
  };
}

// ---------------------------------------------------------------------------------------------
// Wallet (GET /v1/wallet/{uid})

export interface Wallet {
  /** Grants minus usage; negative when overdrawn. */
  balance: WideInteger;
  /** Spend this billing period. */
  usage: WideInteger;
  /** Spend beyond available grants. */
  overage: WideInteger;
}

export interface GetWalletArgs {
  /** A user id (operators may read any wallet) or "@me" (default): the token's user. Needs a user-scoped token. */
  userId?: string;
}

const userPath = (userId: string | undefined) => (userId === undefined || userId === "@me" ? "@me" : userId);

/** A user's wallet (GET /v1/wallet/{uid}): balance, usage this billing period and overage, in micro-USD. Needs a user-scoped token. */
export async function getWallet(args: GetWalletArgs = {}): Promise<Wallet> {
  const w = await lookupClient().client.get<{ balance: number; usage: number; overage: number }>(`/v1/wallet/${userPath(args.userId)}`);
  return { balance: numberOf(w.balance)!, usage: numberOf(w.usage)!, overage: numberOf(w.overage)! };
}

// ---------------------------------------------------------------------------------------------
// Usage statements

export interface ResourceUsage {
  resourceId: string;
  /** For example INSTANCE. */
  resourceKind: string;
  /** Name snapshot from when the billing subject was created. */
  resourceName: string;
  minutes: Integer;
  /** Micro-USD, cap-aware. */
  cost: WideInteger;
}

export interface WorkspaceUsage {
  workspaceId: string;
  workspaceName: string;
  from: string;
  to: string;
  totalMinutes: Integer;
  totalCost: WideInteger;
  resources: ResourceUsage[];
}

export interface UserUsage {
  from: string;
  to: string;
  totalMinutes: Integer;
  /** Micro-USD, cap-aware. */
  totalCost: WideInteger;
  workspaces: Array<Omit<WorkspaceUsage, "from" | "to">>;
}

interface Period {
  /** ISO 8601, inclusive. */
  from: string;
  /** ISO 8601, exclusive. */
  to: string;
}

export interface GetUsageArgs extends Period {
  /** A user id (operators may read any user's usage) or "@me" (default). Needs a user-scoped token. */
  userId?: string;
}

export interface GetWorkspaceUsageArgs extends Period {
  /** Default: svc:workspaceId / SVC_WORKSPACE_ID. */
  workspaceId?: string;
}

export interface GetResourceUsageArgs extends GetWorkspaceUsageArgs {
  /** The billed resource's id (an instance id, for example). */
  resourceId: string;
}

interface ApiResourceUsage {
  resource_id: string;
  resource_kind: string;
  resource_name: string;
  minutes: number;
  cost: number;
}

interface ApiWorkspaceUsage {
  workspace_id: string;
  workspace_name: string;
  from?: string;
  to?: string;
  total_minutes: number;
  total_cost: number;
  resources: ApiResourceUsage[];
}

const toResourceUsage = (r: ApiResourceUsage): ResourceUsage => ({
  resourceId: idOf(r.resource_id)!,
  resourceKind: r.resource_kind,
  resourceName: r.resource_name,
  minutes: numberOf(r.minutes)!,
  cost: numberOf(r.cost)!,
});

const toWorkspaceTotals = (w: ApiWorkspaceUsage) => ({
  workspaceId: idOf(w.workspace_id)!,
  workspaceName: w.workspace_name,
  totalMinutes: numberOf(w.total_minutes)!,
  totalCost: numberOf(w.total_cost)!,
  resources: (w.resources ?? []).map(toResourceUsage),
});

function period(args: Period, fn: string): { from: string; to: string } {
  for (const key of ["from", "to"] as const) {
    const v = args[key];
    if (typeof v !== "string" || !/^\d{4}-\d{2}-\d{2}/.test(v) || Number.isNaN(Date.parse(v))) {
      throw new Error(
        `${fn}: ${key} must be an ISO 8601 timestamp (spec part 3, Billing and usage: from and to are required; from inclusive, to exclusive)`,
      );
    }
  }
  if (Date.parse(args.from) >= Date.parse(args.to)) throw new Error(`${fn}: from must be before to`);
  return { from: args.from, to: args.to };
}

/** A user's usage over a period, across the workspaces the wallet pays for (GET /v1/wallet/{uid}/usage). */
export async function getUsage(args: GetUsageArgs): Promise<UserUsage> {
  const query = period(args, "getUsage");
  const u = await lookupClient().client.get<{
    from: string;
    to: string;
    total_minutes: number;
    total_cost: number;
    workspaces: ApiWorkspaceUsage[];
  }>(`/v1/wallet/${userPath(args.userId)}/usage`, query);
  return {
    from: u.from,
    to: u.to,
    totalMinutes: numberOf(u.total_minutes)!,
    totalCost: numberOf(u.total_cost)!,
    workspaces: (u.workspaces ?? []).map(toWorkspaceTotals),
  };
}

/** One workspace's usage over a period (GET /v1/workspaces/{wid}/usage; needs Read on the workspace). */
export async function getWorkspaceUsage(args: GetWorkspaceUsageArgs): Promise<WorkspaceUsage> {
  const query = period(args, "getWorkspaceUsage");
  const w = await lookupClient().client.get<ApiWorkspaceUsage>(`/v1/workspaces/${workspaceOf(args)}/usage`, query);
  return { ...toWorkspaceTotals(w), from: w.from ?? query.from, to: w.to ?? query.to };
}

/** One billed resource's usage over a period (GET /v1/workspaces/{wid}/usage/{rid}). */
export async function getResourceUsage(args: GetResourceUsageArgs): Promise<ResourceUsage> {
  const query = period(args, "getResourceUsage");
  if (!/^\d+$/.test(String(args.resourceId))) throw new Error("getResourceUsage: resourceId must be a resource id (digits)");
  return toResourceUsage(
    await lookupClient().client.get<ApiResourceUsage>(`/v1/workspaces/${workspaceOf(args)}/usage/${args.resourceId}`, query),
  );
}
