/**
 * Part 2 Recipes and install-recipe (to be implemented).
 */
import type { Domain } from "../core/domain";

export const recipesDomain: Domain = {
  name: "recipes",
  routes: [],
};
