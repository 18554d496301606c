/**
 * Part 1 Invites (to be implemented).
 */
import type { Domain } from "../core/domain";

export const invitesDomain: Domain = {
  name: "invites",
  routes: [],
};
