/**
 * Part 3 VPCs (to be implemented).
 */
import type { Domain } from "../core/domain";

export const vpcsDomain: Domain = {
  name: "vpcs",
  routes: [],
};
