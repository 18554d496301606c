/**
 * Part 2 Instances, power, metrics, floating IP allocation (to be implemented).
 */
import type { Domain } from "../core/domain";

export const instancesDomain: Domain = {
  name: "instances",
  routes: [],
};
