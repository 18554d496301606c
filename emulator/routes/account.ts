/**
 * Part 1 Account and sign-in, users, TOTP (to be implemented).
 */
import type { Domain } from "../core/domain";

export const accountDomain: Domain = {
  name: "account",
  routes: [],
};
