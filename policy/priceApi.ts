/**
 * The API the cost pack prices through (pricing.ts `PriceApi`), with the stack's own settings:
 * the estimate (POST /v1/billing/estimate) and the plans (GET /v1/plans), each distinct question
 * asked once per process. Shared by the pack (pack.ts) and the report over a stack's state where
 * the CLI cannot run the pack (analyze/).
 */
import { getBillingEstimate, type GetBillingEstimateArgs } from "../resources/lookups/billing";
import { getPlans } from "../resources/lookups/catalog";
import type { PriceApi } from "./pricing";

/** One answer per distinct question within a process: both policies and both states share them. */
export function memo<A, R>(fn: (a: A) => Promise<R>): (a: A) => Promise<R> {
  const seen = new Map<string, Promise<R>>();
  return (a) => {
    const key = JSON.stringify(a);
    if (!seen.has(key)) seen.set(key, fn(a));
    return seen.get(key)!;
  };
}

let plans: Promise<Map<string, { name: string; rate: number }>> | undefined;
/** Every plan, disabled ones too (a recorded instance may use one), asked once. */
const plansById = () => (plans ??= getPlans({ includeDisabled: true }).then((all) => new Map(all.map((p) => [p.id, p]))));

export const priceApi: PriceApi = {
  estimate: memo((args: GetBillingEstimateArgs) => getBillingEstimate(args)),
  async plan(id) {
    const plan = (await plansById()).get(id);
    if (!plan) throw new Error(`no plan with id ${id}`);
    return plan;
  },
};
