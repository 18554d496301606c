/**
 * Part 1 SSH keys (to be implemented).
 */
import type { Domain } from "../core/domain";

export const sshDomain: Domain = {
  name: "ssh",
  routes: [],
};
