/**
 * Part 3 Network load balancers (to be implemented).
 */
import type { Domain } from "../core/domain";

export const netLbsDomain: Domain = {
  name: "netlbs",
  routes: [],
};
