/**
 * Part 3 Network commands (to be implemented).
 */
import type { Domain } from "../core/domain";

export const netCommandsDomain: Domain = {
  name: "netcommands",
  routes: [],
};
