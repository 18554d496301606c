/**
 * Part 2 Disks (to be implemented).
 */
import type { Domain } from "../core/domain";

export const disksDomain: Domain = {
  name: "disks",
  routes: [],
};
