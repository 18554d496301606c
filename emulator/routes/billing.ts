/**
 * Part 3 Billing and usage (to be implemented).
 */
import type { Domain } from "../core/domain";

export const billingDomain: Domain = {
  name: "billing",
  routes: [],
};
