/**
 * Part 2 Plans and nodes (to be implemented).
 */
import type { Domain } from "../core/domain";

export const catalogDomain: Domain = {
  name: "catalog",
  routes: [],
};
