/**
 * Part 3 BGP (to be implemented).
 */
import type { Domain } from "../core/domain";

export const bgpDomain: Domain = {
  name: "bgp",
  routes: [],
};
