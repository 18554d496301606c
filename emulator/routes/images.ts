/**
 * Part 2 Images and ISO upload (to be implemented).
 */
import type { Domain } from "../core/domain";

export const imagesDomain: Domain = {
  name: "images",
  routes: [],
};
