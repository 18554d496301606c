import * as svc from "pulumi-svc";

// Only the workspace's own recipes.
const recipes = svc.getRecipesOutput({ platform: false });

export const recipeNames = recipes.apply((list) => list.map((r) => r.name));
