/**
 * Part 2 Apps (to be implemented).
 */
import type { Domain } from "../core/domain";

export const appsDomain: Domain = {
  name: "apps",
  routes: [],
};
