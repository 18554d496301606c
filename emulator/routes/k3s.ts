/**
 * Part 3 Managed Kubernetes (to be implemented).
 */
import type { Domain } from "../core/domain";

export const k3sDomain: Domain = {
  name: "k3s",
  routes: [],
};
