/** Generated from resources/recipe.ts by `npm run generate` (scripts/classes.ts): do not edit. */
import type * as pulumi from "@pulumi/pulumi";
import { CustomResource } from "@pulumi/pulumi/resource";
import { type ClassShape, type CommonArgs, type OutputProperties, superArgs } from "../../provider/dynamic/classSupport";

/** A script the recipe runs (as a program passes it). */
export interface RecipeCommandArgs {
  /** Absolute script path on the instance. */
  path: pulumi.Input<string>;
  /** Arguments; typically reference a field's variable, e.g. "$SVC_FIELDS_DB_NAME". */
  args?: pulumi.Input<pulumi.Input<string>[]>;
}

/** A script the recipe runs (as recorded). */
export interface RecipeCommand {
  /** Absolute script path on the instance. */
  path: string;
  /** Arguments; typically reference a field's variable, e.g. "$SVC_FIELDS_DB_NAME". */
  args: string[];
}

/** An input a recipe asks at install (as a program passes it). */
export interface RecipeFieldArgs {
  /** Letters, digits and _ (starting with a letter); its value is injected as SVC_FIELDS_<ID in upper case>. */
  id: pulumi.Input<string>;
  /** What the install asks for (required). */
  label: pulumi.Input<string>;
  /** Help text shown with the field; null for none. */
  description?: pulumi.Input<string | null>;
  /** TEXT, PASSWORD, NUMBER, EMAIL or BOOLEAN. */
  type: pulumi.Input<"TEXT" | "PASSWORD" | "NUMBER" | "EMAIL" | "BOOLEAN">;
  /** Must be supplied at install (default false). */
  required?: pulumi.Input<boolean>;
}

/** An input a recipe asks at install (as recorded). */
export interface RecipeField {
  /** Letters, digits and _ (starting with a letter); its value is injected as SVC_FIELDS_<ID in upper case>. */
  id: string;
  /** What the install asks for (required). */
  label: string;
  /** Help text shown with the field; null for none. */
  description: string | null;
  /** TEXT, PASSWORD, NUMBER, EMAIL or BOOLEAN. */
  type: "TEXT" | "PASSWORD" | "NUMBER" | "EMAIL" | "BOOLEAN";
  /** Must be supplied at install (default false). */
  required: boolean;
}

/** The arguments of a `Recipe`. */
export interface RecipeArgs extends CommonArgs {
  /** Display name (required). Left out, it is the logical name and a dash and seven random hex digits, cut to fit, kept for the resource's life; `pulumi:autonaming` can change that. Changing it updates the resource in place. */
  name?: pulumi.Input<string>;
  /** DEFAULT, GAMES, SOFTWARE, INFRASTRUCTURE, AI, MEDIA, TOOLS, DATABASES, MONITORING, PRODUCTIVITY, DEVOPS, AUTOMATION or NETWORK. Changing it updates the resource in place. */
  category: pulumi.Input<
    | "DEFAULT"
    | "GAMES"
    | "SOFTWARE"
    | "INFRASTRUCTURE"
    | "AI"
    | "MEDIA"
    | "TOOLS"
    | "DATABASES"
    | "MONITORING"
    | "PRODUCTIVITY"
    | "DEVOPS"
    | "AUTOMATION"
    | "NETWORK"
  >;
  /** Markdown (required). Changing it updates the resource in place. */
  description: pulumi.Input<string>;
  /** Scripts run in order; at least one. Replaced as a whole. Changing it updates the resource in place. */
  commands: pulumi.Input<pulumi.Input<RecipeCommandArgs>[]>;
  /** Icon URL; omit or null for none. Changing it updates the resource in place. */
  icon?: pulumi.Input<string | null>;
  /** Inputs asked at install. Replaced as a whole. Changing it updates the resource in place. */
  fields?: pulumi.Input<pulumi.Input<RecipeFieldArgs>[]>;
  /** Owning workspace; defaults to svc:workspaceId / SVC_WORKSPACE_ID. Changing it replaces the resource. */
  workspaceId?: pulumi.Input<string>;
}

/** What a `Recipe` records: its outputs, each also a typed property of the class. */
export interface RecipeOutputs extends Record<string, unknown> {
  /** Owning workspace; defaults to svc:workspaceId / SVC_WORKSPACE_ID. Changing it replaces the resource. */
  workspaceId: string;
  /** Display name (required). Left out, it is the logical name and a dash and seven random hex digits, cut to fit, kept for the resource's life; `pulumi:autonaming` can change that. Changing it updates the resource in place. */
  name: string;
  /** DEFAULT, GAMES, SOFTWARE, INFRASTRUCTURE, AI, MEDIA, TOOLS, DATABASES, MONITORING, PRODUCTIVITY, DEVOPS, AUTOMATION or NETWORK. Changing it updates the resource in place. */
  category:
    | "DEFAULT"
    | "GAMES"
    | "SOFTWARE"
    | "INFRASTRUCTURE"
    | "AI"
    | "MEDIA"
    | "TOOLS"
    | "DATABASES"
    | "MONITORING"
    | "PRODUCTIVITY"
    | "DEVOPS"
    | "AUTOMATION"
    | "NETWORK";
  /** Markdown (required). Changing it updates the resource in place. */
  description: string;
  /** Scripts run in order; at least one. Replaced as a whole. Changing it updates the resource in place. */
  commands: RecipeCommand[];
  /** Icon URL; omit or null for none. Changing it updates the resource in place. */
  icon: string | null;
  /** Inputs asked at install. Replaced as a whole. Changing it updates the resource in place. */
  fields: RecipeField[];
  /** The variable each field's value is injected as, by field id. */
  variables: Record<string, string>;
}

const SHAPE: ClassShape = {
  kind: "Recipe",
  autonamed: true,
  outputs: ["workspaceId", "name", "category", "description", "commands", "icon", "fields", "variables"],
  secretOutputs: [],
  secretInputs: [],
};

/** A workspace-owned install script; every change is made in place. */
export class Recipe extends CustomResource {
  constructor(name: string, args: RecipeArgs, opts?: pulumi.CustomResourceOptions) {
    super(...superArgs(SHAPE, name, args, opts));
  }
}

/** Typed properties: one `Output` per field of `RecipeOutputs`. */
export interface Recipe extends OutputProperties<RecipeOutputs> {}
