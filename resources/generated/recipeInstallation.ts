/** Generated from resources/recipeInstallation.ts by `npm run docs` (scripts/classes.ts): do not edit. */
import type * as pulumi from "@pulumi/pulumi";
import { Resource as DynamicResource } from "@pulumi/pulumi/dynamic";
import { type ClassShape, type OutputProperties, superArgs } from "../../provider/resource";
import type { RecipeInstallationArgs, RecipeInstallationOutputs } from "../recipeInstallation";

const SHAPE: ClassShape = {
  kind: "RecipeInstallation",
  outputs: ["instanceId", "recipeId", "fields", "recipeName", "workflowId", "installState"],
  secretOutputs: ["fields"],
  secretInputs: ["fields"],
};

/** A recipe installed on an instance. The API has no uninstall: destroy only forgets it; any change re-installs (a new installation replaces the recorded one). */
export class RecipeInstallation extends DynamicResource {
  constructor(name: string, args: RecipeInstallationArgs, opts?: pulumi.CustomResourceOptions) {
    super(...superArgs(SHAPE, name, args, opts));
  }
}

/** Typed properties: one `Output` per field of `RecipeInstallationOutputs`. */
export interface RecipeInstallation extends OutputProperties<RecipeInstallationOutputs> {}
