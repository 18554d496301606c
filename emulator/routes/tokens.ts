/**
 * Part 1 Tokens (to be implemented).
 */
import type { Domain } from "../core/domain";

export const tokensDomain: Domain = {
  name: "tokens",
  routes: [],
};
