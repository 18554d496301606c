/**
 * Part 2 Instance commands and snapshots (to be implemented).
 */
import type { Domain } from "../core/domain";

export const commandsDomain: Domain = {
  name: "commands",
  routes: [],
};
