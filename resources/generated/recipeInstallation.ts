/** Generated from resources/recipeInstallation.ts by `npm run generate` (scripts/classes.ts): do not edit. */
import type * as pulumi from "@pulumi/pulumi";
import { CustomResource } from "@pulumi/pulumi/resource";
import { type ClassShape, type CommonArgs, type OutputProperties, superArgs } from "../../provider/dynamic/classSupport";

/** The arguments of a `RecipeInstallation`. */
export interface RecipeInstallationArgs extends CommonArgs {
  /** Instance to install on (online and AVAILABLE). Changing it replaces the resource. */
  instanceId: pulumi.Input<string>;
  /** Recipe to run (platform-wide or the instance's workspace's). Changing it replaces the resource. */
  recipeId: pulumi.Input<string>;
  /** Recipe field id -> value; omit (or {}) when the recipe has no fields. Checked against the recipe's fields (required, type) when installing. Stored as a Pulumi secret (PASSWORD fields). Changing it replaces the resource. */
  fields?: pulumi.Input<Record<string, pulumi.Input<string | number | boolean>>>;
}

/** What a `RecipeInstallation` records: its outputs, each also a typed property of the class. */
export interface RecipeInstallationOutputs extends Record<string, unknown> {
  /** Instance to install on (online and AVAILABLE). Changing it replaces the resource. */
  instanceId: string;
  /** Recipe to run (platform-wide or the instance's workspace's). Changing it replaces the resource. */
  recipeId: string;
  /** Recipe field id -> value; omit (or {}) when the recipe has no fields. Checked against the recipe's fields (required, type) when installing. Stored as a Pulumi secret (PASSWORD fields). Changing it replaces the resource. */
  fields?: Record<string, string | number | boolean>;
  /** The recipe's name. */
  recipeName: string;
  /** The install-recipe workflow. */
  workflowId: string;
  /** The install workflow's state: QUEUED, RUNNING, COMPLETED, FAILED, ABORTED or TIMED_OUT (UNKNOWN once the API forgets it). */
  installState: string;
}

const SHAPE: ClassShape = {
  kind: "RecipeInstallation",
  outputs: ["instanceId", "recipeId", "fields", "recipeName", "workflowId", "installState"],
  secretOutputs: ["fields"],
  secretInputs: ["fields"],
};

/** A recipe installed on an instance. The API has no uninstall: destroy only forgets it; any change re-installs (a new installation replaces the recorded one). */
export class RecipeInstallation extends CustomResource {
  constructor(name: string, args: RecipeInstallationArgs, opts?: pulumi.CustomResourceOptions) {
    super(...superArgs(SHAPE, name, args, opts));
  }
}

/** Typed properties: one `Output` per field of `RecipeInstallationOutputs`. */
export interface RecipeInstallation extends OutputProperties<RecipeInstallationOutputs> {}
