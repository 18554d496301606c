/** Generated from resources/recipe.ts by `npm run generate` (scripts/classes.ts): do not edit. */
import type * as pulumi from "@pulumi/pulumi";
import { CustomResource } from "@pulumi/pulumi/resource";
import { type ClassShape, type CommonArgs, type OutputProperties, superArgs } from "../../provider/resource";

/** A script the recipe runs (as a program passes it). */
export interface RecipeCommandArgs {
  /** Absolute script path on the instance, at most 4096 characters (the emulator's limit). */
  path: pulumi.Input<string>;
  /** Arguments, at most 100 of at most 4096 characters each (the emulator's limits); typically reference a field's variable, e.g. "$SVC_FIELDS_DB_NAME". */
  args?: pulumi.Input<pulumi.Input<string>[]>;
}

/** A script the recipe runs (as recorded). */
export interface RecipeCommand {
  /** Absolute script path on the instance, at most 4096 characters (the emulator's limit). */
  path: string;
  /** Arguments, at most 100 of at most 4096 characters each (the emulator's limits); typically reference a field's variable, e.g. "$SVC_FIELDS_DB_NAME". */
  args: string[];
}

/** An input a recipe asks at install (as a program passes it). */
export interface RecipeFieldArgs {
  /** Letters, digits and _ (starting with a letter), at most 64 characters (the emulator's limit); its value is injected as SVC_FIELDS_<ID in upper case>. */
  id: pulumi.Input<string>;
  /** 1 to 100 characters (the emulator's limit). */
  label: pulumi.Input<string>;
  /** At most 1000 characters (the emulator's limit). */
  description?: pulumi.Input<string | null>;
  /** TEXT, PASSWORD, NUMBER, EMAIL or BOOLEAN. */
  type: pulumi.Input<"TEXT" | "PASSWORD" | "NUMBER" | "EMAIL" | "BOOLEAN">;
  /** Must be supplied at install (default false). */
  required?: pulumi.Input<boolean>;
}

/** An input a recipe asks at install (as recorded). */
export interface RecipeField {
  /** Letters, digits and _ (starting with a letter), at most 64 characters (the emulator's limit); its value is injected as SVC_FIELDS_<ID in upper case>. */
  id: string;
  /** 1 to 100 characters (the emulator's limit). */
  label: string;
  /** At most 1000 characters (the emulator's limit). */
  description: string | null;
  /** TEXT, PASSWORD, NUMBER, EMAIL or BOOLEAN. */
  type: "TEXT" | "PASSWORD" | "NUMBER" | "EMAIL" | "BOOLEAN";
  /** Must be supplied at install (default false). */
  required: boolean;
}

/** The arguments of a `Recipe`. */
export interface RecipeArgs extends CommonArgs {
  /** 1 to 100 characters (the emulator's limit). Changing it updates the resource in place. */
  name: pulumi.Input<string>;
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
  /** Markdown, at most 100,000 characters (the emulator's limit). Changing it updates the resource in place. */
  description: pulumi.Input<string>;
  /** Scripts run in order; at least one, at most 50 (the emulator's limit). Replaced as a whole. Changing it updates the resource in place. */
  commands: pulumi.Input<pulumi.Input<RecipeCommandArgs>[]>;
  /** Icon URL, at most 2048 characters (the emulator's limit); omit or null for none. Changing it updates the resource in place. */
  icon?: pulumi.Input<string | null>;
  /** Inputs asked at install, at most 50 (the emulator's limit). Replaced as a whole. Changing it updates the resource in place. */
  fields?: pulumi.Input<pulumi.Input<RecipeFieldArgs>[]>;
  /** Owning workspace; defaults to svc:workspaceId / SVC_WORKSPACE_ID. Changing it replaces the resource. */
  workspaceId?: pulumi.Input<string>;
}

/** What a `Recipe` records: its outputs, each also a typed property of the class. */
export interface RecipeOutputs extends Record<string, unknown> {
  /** Owning workspace; defaults to svc:workspaceId / SVC_WORKSPACE_ID. Changing it replaces the resource. */
  workspaceId: string;
  /** 1 to 100 characters (the emulator's limit). Changing it updates the resource in place. */
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
  /** Markdown, at most 100,000 characters (the emulator's limit). Changing it updates the resource in place. */
  description: string;
  /** Scripts run in order; at least one, at most 50 (the emulator's limit). Replaced as a whole. Changing it updates the resource in place. */
  commands: RecipeCommand[];
  /** Icon URL, at most 2048 characters (the emulator's limit); omit or null for none. Changing it updates the resource in place. */
  icon: string | null;
  /** Inputs asked at install, at most 50 (the emulator's limit). Replaced as a whole. Changing it updates the resource in place. */
  fields: RecipeField[];
  /** The variable each field's value is injected as, by field id. */
  variables: Record<string, string>;
}

const SHAPE: ClassShape = {
  kind: "Recipe",
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
