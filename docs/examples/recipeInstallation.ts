import * as svc from "pulumi-svc";

const web = new svc.Instance("web", { name: "web", planId: svc.getPlanOutput({ name: "lightning-2" }).id, region: "NA_01" });
const recipe = svc.getRecipeOutput({ name: "node-exporter" });

new svc.RecipeInstallation("web-exporter", { instanceId: web.id, recipeId: recipe.id, fields: { port: 9100 } });
