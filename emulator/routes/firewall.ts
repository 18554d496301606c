/**
 * Part 3 Firewall rules (to be implemented).
 */
import type { Domain } from "../core/domain";

export const firewallDomain: Domain = {
  name: "firewall",
  routes: [],
};
