/** Generated from resources/recipe.ts by `npm run docs` (scripts/classes.ts): do not edit. */
import type * as pulumi from "@pulumi/pulumi";
import { Resource as DynamicResource } from "@pulumi/pulumi/dynamic";
import { type ClassShape, type OutputProperties, superArgs } from "../../provider/resource";
import type { RecipeArgs, RecipeOutputs } from "../recipe";

const SHAPE: ClassShape = {
  kind: "Recipe",
  outputs: ["workspaceId", "name", "category", "description", "commands", "icon", "fields", "variables"],
  secretOutputs: [],
  secretInputs: [],
};

/** A workspace-owned install script; every change is made in place. */
export class Recipe extends DynamicResource {
  constructor(name: string, args: RecipeArgs, opts?: pulumi.CustomResourceOptions) {
    super(...superArgs(SHAPE, name, args, opts));
  }
}

/** Typed properties: one `Output` per field of `RecipeOutputs`. */
export interface Recipe extends OutputProperties<RecipeOutputs> {}
