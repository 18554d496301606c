/**
 * Part 1 Registry credentials (to be implemented).
 */
import type { Domain } from "../core/domain";

export const registriesDomain: Domain = {
  name: "registries",
  routes: [],
};
