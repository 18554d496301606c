/**
 * Part 1 Workspaces, quota, topology (to be implemented).
 */
import type { Domain } from "../core/domain";

export const workspacesDomain: Domain = {
  name: "workspaces",
  routes: [],
};
