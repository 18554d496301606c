/**
 * Recipe — a reusable install script owned by the workspace (spec part 2, Recipe, Recipes).
 *
 *   POST   /v1/workspaces/{wid}/recipes   name, category, description (markdown), commands (all required),
 *                                         icon, fields -> 201 recipe owned by the workspace
 *   GET    /v1/recipes/{id}               full recipe with commands and fields
 *   PATCH  /v1/recipes/{id}               any field (lists replace) -> updated recipe
 *   DELETE /v1/recipes/{id}               synchronous; audit log entry
 *
 * Each field's value reaches the commands as the environment variable SVC_FIELDS_<ID>. Install a
 * recipe on an instance with a RecipeInstallation.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import type { OperationContext } from "../provider/context";
import { ifFound } from "../provider/errors";
import { listAll } from "../provider/paging";
import { type WorkspaceScopedArgs } from "../provider/resource";
import { emulatorLimit, exactly, type InputsMatch, noDuplicates, trimmedLength } from "../provider/schema";
import { idOf } from "../provider/wire";
import { eachOf, type ResourceSpec, updateRequest } from "../provider/spec";

const WHERE = "spec part 2, Recipe";
/** Limits the spec does not give (lengths and list sizes): the emulator's (emulator/routes/recipes.ts). */
const EMULATOR_LIMIT = emulatorLimit(WHERE);

// 1. Inputs.
export const RECIPE_CATEGORIES = [
  "DEFAULT",
  "GAMES",
  "SOFTWARE",
  "INFRASTRUCTURE",
  "AI",
  "MEDIA",
  "TOOLS",
  "DATABASES",
  "MONITORING",
  "PRODUCTIVITY",
  "DEVOPS",
  "AUTOMATION",
  "NETWORK",
] as const;
export const FIELD_TYPES = ["TEXT", "PASSWORD", "NUMBER", "EMAIL", "BOOLEAN"] as const;
export type RecipeCategory = (typeof RECIPE_CATEGORIES)[number];
export type FieldType = (typeof FIELD_TYPES)[number];

/** A recipe field as recorded, defaults filled in (the schema below must produce exactly this). */
export interface RecipeField {
  id: string;
  label: string;
  description: string | null;
  type: FieldType;
  required: boolean;
}
export interface RecipeCommand {
  path: string;
  args: string[];
}

const commandEntry = z.strictObject(
  {
    path: z
      .string({ error: `must be an absolute script path (${WHERE}: commands path)` })
      .regex(/^\/\S*$/, `must be an absolute script path on the instance, starting with / (${WHERE}: commands path)`)
      .max(4096, `must be at most 4096 characters (${EMULATOR_LIMIT})`),
    args: z
      .array(
        z
          .string({ error: `args must be strings (${WHERE}: commands args is string[])` })
          .max(4096, `args must be at most 4096 characters each (${EMULATOR_LIMIT})`),
      )
      .max(100, `must have at most 100 args (${EMULATOR_LIMIT})`)
      .default([]),
  },
  exactly("path, args"),
) satisfies z.ZodType<RecipeCommand>;

const fieldEntry = z.strictObject(
  {
    id: z
      .string()
      .regex(
        /^[A-Za-z][A-Za-z0-9_]*$/,
        `must start with a letter and hold only letters, digits and _, since it becomes the variable SVC_FIELDS_<ID> (${WHERE}: fields id)`,
      )
      .max(64, `must be at most 64 characters (${EMULATOR_LIMIT})`),
    label: z.string().min(1, `must not be empty (${WHERE}: fields label)`).max(100, `must be at most 100 characters (${EMULATOR_LIMIT})`),
    description: z.string().max(1000, `must be at most 1000 characters (${EMULATOR_LIMIT})`).nullable().default(null),
    type: z.enum(FIELD_TYPES, { error: `must be TEXT, PASSWORD, NUMBER, EMAIL or BOOLEAN (${WHERE}: fields type)` }),
    required: z.boolean().default(false),
  },
  exactly("id, label, description, type, required"),
) satisfies z.ZodType<RecipeField>;

const inputs = z.object({
  name: z.string().min(1, `must not be empty (${WHERE}: name)`).superRefine(trimmedLength(100, EMULATOR_LIMIT)),
  category: z.enum(RECIPE_CATEGORIES, { error: `must be one of ${RECIPE_CATEGORIES.join(", ")} (${WHERE}: category)` }),
  /** Markdown. */
  description: z
    .string({ error: `must be a markdown string (${WHERE}: description is required)` })
    .max(100_000, `must be at most 100000 characters (${EMULATOR_LIMIT})`),
  commands: z
    .array(commandEntry)
    .min(1, `must list at least one command (${WHERE}: commands are required)`)
    .max(50, `must list at most 50 commands (${EMULATOR_LIMIT})`),
  /** Icon URL; null (the default) for none. */
  icon: z
    .string()
    .url(`must be a URL (${WHERE}: icon)`)
    .max(2048, `must be at most 2048 characters (${EMULATOR_LIMIT})`)
    .nullable()
    .default(null),
  fields: z
    .array(fieldEntry)
    .max(50, `must have at most 50 fields (${EMULATOR_LIMIT})`)
    // Ids build variable names in upper case, so they collide case-insensitively.
    .superRefine(noDuplicates((f) => f.id.toUpperCase(), "field id (compared as SVC_FIELDS_<ID>)", WHERE))
    .default([]),
});
type Inputs = z.infer<typeof inputs> & { workspaceId: string };
// The public RecipeArgs and the schema above declare the same fields (checked by the compiler).
const _fieldsMatch: InputsMatch<RecipeArgs, z.infer<typeof inputs>> = true;

export interface RecipeOutputs extends Record<string, unknown> {
  workspaceId: string;
  name: string;
  category: string;
  description: string | null;
  commands: RecipeCommand[];
  icon: string | null;
  fields: RecipeField[];
  /** The variable each field's value is injected as, by field id. */
  variables: Record<string, string>;
}

// 2. API mapping.
/** @internal */
export interface ApiRecipe {
  id: string;
  name: string;
  category: string;
  icon: string | null;
  description: string | null;
  owner: { id: string; name?: string } | null;
  commands?: Array<{ path: string; args?: string[] }>;
  fields?: Array<{ id: string; label: string; description?: string | null; type: FieldType; required?: boolean }>;
}

/** @internal */
export const fieldsFromApi = (r: ApiRecipe): RecipeField[] =>
  (r.fields ?? []).map((f) => ({ id: f.id, label: f.label, description: f.description ?? null, type: f.type, required: !!f.required }));

const toOutputs = (r: ApiRecipe, workspaceId: string): RecipeOutputs => {
  const fields = fieldsFromApi(r);
  return {
    workspaceId: idOf(r.owner) ?? workspaceId,
    name: r.name,
    category: r.category,
    description: r.description ?? null,
    commands: (r.commands ?? []).map((c) => ({ path: c.path, args: [...(c.args ?? [])] })),
    icon: r.icon ?? null,
    fields,
    variables: Object.fromEntries(fields.map((f) => [f.id, `SVC_FIELDS_${f.id.toUpperCase()}`])),
  };
};

const FIELDS = ["name", "category", "description", "commands", "icon", "fields"] as const;

const toApi = (i: Inputs, fields: readonly string[]) => Object.fromEntries(fields.map((f) => [f, i[f as keyof Inputs]]));

/** @internal */
export async function fetchRecipe(ctx: OperationContext, id: string): Promise<ApiRecipe | undefined> {
  return ifFound(ctx.client.get<ApiRecipe>(`/v1/recipes/${id}`));
}

/** The workspace's own recipes with exactly this name. */
async function ownByName(ctx: OperationContext, workspaceId: string, name: string): Promise<ApiRecipe[]> {
  const found = await listAll<ApiRecipe>(ctx.client, `/v1/workspaces/${workspaceId}/recipes`, { name });
  return found.filter((r) => r.name === name && idOf(r.owner) === workspaceId);
}

/** Ids of same-named recipes that existed just before the create request, per operation. */
const seenBefore = new WeakMap<OperationContext, Set<string>>();

// 3. The spec: what a change does (policies) and the API calls.
/** @internal */
export const recipeSpec: ResourceSpec<Inputs, RecipeOutputs> = {
  kind: "Recipe",
  doc: "A workspace-owned install script; every change is made in place.",
  workspaceScoped: true,
  inputs,
  // What a change does: PATCH takes every field; lists replace.
  policies: eachOf(FIELDS, updateRequest),
  pricing: { notMetered: "a script: no rate card meters it" },
  api: {
    async create(ctx, i) {
      // Names are not unique: remember the same-named recipes that already exist, so a lost answer finds only ours.
      seenBefore.set(ctx, new Set((await ownByName(ctx, i.workspaceId, i.name)).map((r) => idOf(r.id)!)));
      const r = await ctx.client.post<ApiRecipe>(`/v1/workspaces/${i.workspaceId}/recipes`, toApi(i, FIELDS));
      return { id: idOf(r.id)! };
    },
    async findExisting(ctx, i) {
      const before = seenBefore.get(ctx) ?? new Set<string>();
      const fresh = (await ownByName(ctx, i.workspaceId, i.name)).filter((r) => !before.has(idOf(r.id)!) && r.category === i.category);
      return fresh.length === 1 ? idOf(fresh[0].id)! : undefined;
    },
    async read(ctx, id, prior) {
      const r = await fetchRecipe(ctx, id);
      return r && toOutputs(r, prior.workspaceId ?? "");
    },
    update: {
      async updateRequest(ctx, id, _olds, news, changed) {
        await ctx.client.patch(`/v1/recipes/${id}`, toApi(news, changed));
      },
    },
    // Synchronous (spec part 2, DELETE /v1/recipes/{id}).
    goneOnAnswer: true,
    async delete(ctx, id) {
      await ctx.client.delete(`/v1/recipes/${id}`);
      return null;
    },
  },
};

// 4. The public Args: the class is generated from them and the spec (resources/generated/).
export interface RecipeCommandArgs {
  /** Absolute script path on the instance, at most 4096 characters (the emulator's limit). */
  path: pulumi.Input<string>;
  /** Arguments, at most 100 of at most 4096 characters each (the emulator's limits); typically reference a field's variable, e.g. "$SVC_FIELDS_DB_NAME". */
  args?: pulumi.Input<pulumi.Input<string>[]>;
}

export interface RecipeFieldArgs {
  /** Letters, digits and _ (starting with a letter), at most 64 characters (the emulator's limit); its value is injected as SVC_FIELDS_<ID in upper case>. */
  id: pulumi.Input<string>;
  /** 1 to 100 characters (the emulator's limit). */
  label: pulumi.Input<string>;
  /** At most 1000 characters (the emulator's limit). */
  description?: pulumi.Input<string | null>;
  /** TEXT, PASSWORD, NUMBER, EMAIL or BOOLEAN. */
  type: pulumi.Input<FieldType>;
  /** Must be supplied at install (default false). */
  required?: pulumi.Input<boolean>;
}

export interface RecipeArgs extends WorkspaceScopedArgs {
  /** 1 to 100 characters (the emulator's limit). */
  name: pulumi.Input<string>;
  /** DEFAULT, GAMES, SOFTWARE, INFRASTRUCTURE, AI, MEDIA, TOOLS, DATABASES, MONITORING, PRODUCTIVITY, DEVOPS, AUTOMATION or NETWORK. */
  category: pulumi.Input<RecipeCategory>;
  /** Markdown, at most 100,000 characters (the emulator's limit). */
  description: pulumi.Input<string>;
  /** Scripts run in order; at least one, at most 50 (the emulator's limit). Replaced as a whole in place. */
  commands: pulumi.Input<pulumi.Input<RecipeCommandArgs>[]>;
  /** Icon URL, at most 2048 characters (the emulator's limit); omit or null for none. */
  icon?: pulumi.Input<string | null>;
  /** Inputs asked at install, at most 50 (the emulator's limit). Replaced as a whole in place. */
  fields?: pulumi.Input<pulumi.Input<RecipeFieldArgs>[]>;
}
