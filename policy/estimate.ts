/**
 * A stack's cost from the resources the engine shows a policy: each svc resource priced
 * (pricing.ts), every other resource skipped, summed (report.ts).
 */
import { kindOf } from "../provider/typeTokens";
import { priceResource, pricingOf, STANDALONE_IP_REGION, type PriceApi, type Props, type ResourceCost } from "./pricing";
import { stackCost, type StackCost } from "./report";

export interface Priceable {
  name: string;
  type: string;
  props: Props;
}

/** The stack's cost: svc resources priced, other resources skipped. */
export async function costOf(resources: Priceable[], prices: PriceApi, standaloneIpRegion = STANDALONE_IP_REGION): Promise<StackCost> {
  const priced: Array<Promise<ResourceCost>> = [];
  const unpriced: StackCost["unpriced"] = [];
  for (const r of resources) {
    const kind = kindOf(r.type);
    if (!kind) continue;
    const pricing = pricingOf(kind, r.props, standaloneIpRegion);
    if ("request" in pricing) priced.push(priceResource(r.name, kind, pricing.request, prices));
    else if ("unpriced" in pricing) unpriced.push({ name: r.name, reason: pricing.unpriced });
  }
  return stackCost(await Promise.all(priced), unpriced);
}
