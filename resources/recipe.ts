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
import { z } from "../provider/fields/zod";
import type { OperationContext } from "../provider/context";
import { ifFound } from "../provider/errors";
import { listAll } from "../provider/client/paging";
import {
  autonamed,
  computed,
  fieldSet,
  fromFields,
  input,
  type InputsOf,
  type OutputsOf,
  owningWorkspace,
} from "../provider/fields/declare";
import { member, nested } from "../provider/fields/objectInputs";
import { createBody, outputsFromAnswer, updateBody } from "../provider/fields/convert";
import { exactly, noDuplicates } from "../provider/fields/constraints";
import { idOf } from "../provider/client/wire";
import { type ResourceDefinition } from "../provider/definition";
import type { RecipeArgs, RecipeCommand, RecipeCommandArgs, RecipeField, RecipeFieldArgs, RecipeOutputs } from "./generated/recipe";
import { updateRequest } from "../provider/fields/changeEffects";

const WHERE = "spec part 2, Recipe";

// 1. Inputs.
const RECIPE_CATEGORIES = [
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
const FIELD_TYPES = ["TEXT", "PASSWORD", "NUMBER", "EMAIL", "BOOLEAN"] as const;
type RecipeCategory = (typeof RECIPE_CATEGORIES)[number];
type FieldType = (typeof FIELD_TYPES)[number];

/** @internal A script the recipe runs (the API's commands entry). */
export const recipeCommand = nested(
  { doc: "A script the recipe runs", args: "RecipeCommandArgs", outputs: "RecipeCommand", inputMembers: true },
  {
    path: member(
      z
        .string({ error: `must be an absolute script path (${WHERE}: commands path)` })
        .regex(/^\/\S*$/, `must be an absolute script path on the instance, starting with / (${WHERE}: commands path)`),
      { doc: "Absolute script path on the instance." },
    ),
    args: member(z.array(z.string({ error: `args must be strings (${WHERE}: commands args is string[])` })).default([]), {
      doc: 'Arguments; typically reference a field\'s variable, e.g. "$SVC_FIELDS_DB_NAME".',
    }),
  },
  (shape) => z.strictObject(shape, exactly("path, args")),
);

/** @internal An input the recipe asks at install (the API's fields entry). */
export const recipeField = nested(
  { doc: "An input a recipe asks at install", args: "RecipeFieldArgs", outputs: "RecipeField", inputMembers: true },
  {
    id: member(
      z
        .string()
        .regex(
          /^[A-Za-z][A-Za-z0-9_]*$/,
          `must start with a letter and hold only letters, digits and _, since it becomes the variable SVC_FIELDS_<ID> (${WHERE}: fields id)`,
        ),
      {
        doc: "Letters, digits and _ (starting with a letter); its value is injected as SVC_FIELDS_<ID in upper case>.",
      },
    ),
    label: member(z.string().min(1, `must not be empty (${WHERE}: fields label)`), { doc: "What the install asks for (required)." }),
    description: member(z.string().nullable().default(null), { doc: "Help text shown with the field; null for none." }),
    type: member(z.enum(FIELD_TYPES, { error: `must be TEXT, PASSWORD, NUMBER, EMAIL or BOOLEAN (${WHERE}: fields type)` }), {
      doc: "TEXT, PASSWORD, NUMBER, EMAIL or BOOLEAN.",
    }),
    required: member(z.boolean().default(false), { doc: "Must be supplied at install (default false)." }),
  },
  (shape) => z.strictObject(shape, exactly("id, label, description, type, required")),
);
type Field = (typeof recipeField)["__output"];

/** @internal */
export const recipeFields = fieldSet({
  // A recipe answers its owner, not a workspace.
  workspaceId: {
    ...owningWorkspace,
    fromAnswer: (r: ApiRecipe, prior: Record<string, unknown>) => idOf(r.owner) ?? (prior.workspaceId as string),
  },
  name: autonamed(
    input(z.string().min(1, `must not be empty (${WHERE}: name)`), {
      doc: "Display name (required).",
      onChange: updateRequest,
    }),
  ),
  category: input(z.enum(RECIPE_CATEGORIES, { error: `must be one of ${RECIPE_CATEGORIES.join(", ")} (${WHERE}: category)` }), {
    doc: "DEFAULT, GAMES, SOFTWARE, INFRASTRUCTURE, AI, MEDIA, TOOLS, DATABASES, MONITORING, PRODUCTIVITY, DEVOPS, AUTOMATION or NETWORK.",
    onChange: updateRequest,
    fromAnswer: (r: ApiRecipe) => r.category,
  }),
  description: input(z.string({ error: `must be a markdown string (${WHERE}: description is required)` }), {
    doc: "Markdown (required).",
    onChange: updateRequest,
    // Required at create (spec part 2, Recipes), so always answered.
    fromAnswer: (r: ApiRecipe) => r.description ?? "",
  }),
  commands: input(z.array(recipeCommand.schema).min(1, `must list at least one command (${WHERE}: commands are required)`), {
    doc: "Scripts run in order; at least one. Replaced as a whole.",
    onChange: updateRequest,
    fromAnswer: (r: ApiRecipe) => (r.commands ?? []).map((c) => ({ path: c.path, args: [...(c.args ?? [])] })),
  }),
  icon: input(z.string().url(`must be a URL (${WHERE}: icon)`).nullable().default(null), {
    doc: "Icon URL; omit or null for none.",
    onChange: updateRequest,
    fromAnswer: (r: ApiRecipe) => r.icon ?? null,
  }),
  fields: input(
    z
      .array(recipeField.schema)
      // Ids build variable names in upper case, so they collide case-insensitively.
      .superRefine(noDuplicates((f) => f.id.toUpperCase(), "field id (compared as SVC_FIELDS_<ID>)", WHERE))
      .default([]),
    {
      doc: "Inputs asked at install. Replaced as a whole.",
      onChange: updateRequest,
      fromAnswer: (r: ApiRecipe) => fieldsFromApi(r),
    },
  ),
  variables: computed<Record<string, string>>({
    doc: "The variable each field's value is injected as, by field id.",
    fromAnswer: (r: ApiRecipe) => Object.fromEntries(fieldsFromApi(r).map((f) => [f.id, `SVC_FIELDS_${f.id.toUpperCase()}`])),
  }),
});
type Inputs = InputsOf<typeof recipeFields>;
type Outputs = OutputsOf<typeof recipeFields>;

// 2. API mapping.
/** @internal */
export interface ApiRecipe {
  id: string;
  name: string;
  category: RecipeCategory;
  icon: string | null;
  description: string | null;
  owner: { id: string; name?: string } | null;
  commands?: Array<{ path: string; args?: string[] }>;
  fields?: Array<{ id: string; label: string; description?: string | null; type: FieldType; required?: boolean }>;
}

/** @internal */
export const fieldsFromApi = (r: ApiRecipe): Field[] =>
  (r.fields ?? []).map((f) => ({ id: f.id, label: f.label, description: f.description ?? null, type: f.type, required: !!f.required }));

const toOutputs = (r: ApiRecipe, workspaceId: string): Outputs => outputsFromAnswer(recipeFields, r, { workspaceId });

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

// 3. The definition: what a change does (its effects) and the API calls.
/** @internal */
export const recipeDefinition: ResourceDefinition<Inputs, Outputs> = {
  kind: "Recipe",
  doc: "A workspace-owned install script; every change is made in place.",
  // What a change does: PATCH takes every field; lists replace.
  ...fromFields(recipeFields),
  pricing: { notMetered: "a script: no rate card meters it" },
  api: {
    async create(ctx, i) {
      // Names are not unique: remember the same-named recipes that already exist, so a lost answer finds only ours.
      seenBefore.set(ctx, new Set((await ownByName(ctx, i.workspaceId, i.name)).map((r) => idOf(r.id)!)));
      const r = await ctx.client.post<ApiRecipe>(`/v1/workspaces/${i.workspaceId}/recipes`, createBody(recipeFields, i));
      return { id: idOf(r.id)! };
    },
    // The workspace's own recipes (the list also holds the platform's, which no workspace declares).
    async list(ctx, workspaceId) {
      const found = await listAll<ApiRecipe>(ctx.client, `/v1/workspaces/${workspaceId}/recipes`);
      return found.filter((r) => idOf(r.owner) === workspaceId).map((r) => ({ id: idOf(r.id)!, name: r.name }));
    },
    async findExisting(ctx, i) {
      const before = seenBefore.get(ctx) ?? new Set<string>();
      const fresh = (await ownByName(ctx, i.workspaceId, i.name)).filter((r) => !before.has(idOf(r.id)!) && r.category === i.category);
      return fresh.length === 1 ? idOf(fresh[0].id)! : undefined;
    },
    async get(ctx, id, prior) {
      const r = await fetchRecipe(ctx, id);
      return r && toOutputs(r, prior.workspaceId ?? "");
    },
    update: {
      async updateRequest(ctx, id, _olds, news, changed) {
        await ctx.client.patch(`/v1/recipes/${id}`, updateBody(recipeFields, news, changed));
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

// 4. The public Args: generated from the fields, with the class (resources/generated/recipe.ts).
export type { RecipeArgs, RecipeOutputs, RecipeCommandArgs, RecipeCommand, RecipeFieldArgs, RecipeField };
