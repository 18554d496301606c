import * as svc from "pulumi-svc";

const recipe = svc.getRecipeOutput({ name: "node-exporter" });

export const recipeId = recipe.id;
