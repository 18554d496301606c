/**
 * Part 2 Recipes and the install-recipe instance command, the HTTP side: request schemas, lists,
 * the password masking of the logged request body, and the route table. The rules and the
 * seeded recipes are the area's domain (domain/recipes.ts).

 */
import { z } from "zod";
import type { Domain } from "../core/domain";
import { paginate } from "../core/paging";
import { accepted, created, ok, type RouteContext } from "../core/router";
import { contains, parseWith, pathId, queryEnum, queryIds, zId } from "../core/validation";
import {
  createRecipe,
  deleteRecipe,
  installRecipe,
  loadReadable,
  loadWritable,
  recipeDetail,
  recipeSummary,
  seedRecipes,
  updateRecipe,
  FIELD_TYPES,
  RECIPE_CATEGORIES,
  RECIPE_READ,
  RECIPE_WRITE,
  type RecipeRow,
} from "../domain/recipes";

// ---------------------------------------------------------------------------------------------
// Schemas

const zCommand = z.object({
  path: z
    .string()
    .max(4096)
    .regex(/^\/\S*$/, "must be an absolute script path"),
  args: z.array(z.string().max(4096)).max(100).default([]),
});

const zField = z.object({
  id: z
    .string()
    .regex(/^[A-Za-z][A-Za-z0-9_]{0,63}$/, "must start with a letter and hold only letters, digits and _ (it becomes SVC_FIELDS_<ID>)"),
  label: z.string().min(1).max(100),
  description: z.string().max(1000).nullable().default(null),
  type: z.enum(FIELD_TYPES),
  required: z.boolean().default(false),
});

const recipeFields = {
  name: z.string().trim().min(1).max(100),
  category: z.enum(RECIPE_CATEGORIES),
  description: z.string().max(100_000),
  commands: z.array(zCommand).min(1).max(50),
  icon: z.string().url().max(2048),
  fields: z.array(zField).max(50),
};

const CreateRecipe = z.object({
  ...recipeFields,
  icon: recipeFields.icon.nullable().default(null),
  fields: recipeFields.fields.default([]),
});

const PatchRecipe = z.object({
  name: recipeFields.name.optional(),
  category: recipeFields.category.optional(),
  description: recipeFields.description.nullable().optional(),
  commands: recipeFields.commands.optional(),
  icon: recipeFields.icon.nullable().optional(),
  fields: recipeFields.fields.optional(),
});

const InstallRecipe = z.object({
  instance: zId,
  recipe: zId,
  /** Field id -> value; {} when the recipe has no fields. */
  fields: z.record(z.string(), z.unknown()),
});

// ---------------------------------------------------------------------------------------------
// Lists

function pageRecipes(ctx: RouteContext, rows: RecipeRow[]) {
  const q = ctx.query;
  const ids = new Set(queryIds(q.id, "id"));
  const owners = new Set(queryIds(q.owner, "owner"));
  const category = queryEnum(q.category, "category", RECIPE_CATEGORIES);
  const filtered = rows.filter(
    (r) =>
      (!q.q || contains(r.name, q.q) || contains(r.description, q.q) || r.id === String(q.q)) &&
      (ids.size === 0 || ids.has(r.id)) &&
      (owners.size === 0 || owners.has(r.workspaceId ?? "")) &&
      contains(r.name, q.name) &&
      contains(r.description, q.description) &&
      (!category || r.category === category),
  );
  return ok(
    paginate(filtered, q, (r) => recipeSummary(ctx.services, r), {
      id: (r) => r.id,
      sortable: { name: (r) => r.name.toLowerCase(), category: (r) => r.category },
    }),
  );
}

function listAllRecipes(ctx: RouteContext) {
  ctx.requireStaff();
  return pageRecipes(ctx, ctx.store.t.recipes.all());
}

function listWorkspaceRecipes(ctx: RouteContext) {
  const wid = pathId(ctx.params.wid, "wid");
  ctx.access(wid, RECIPE_READ);
  return pageRecipes(
    ctx,
    ctx.store.t.recipes.filter((r) => r.workspaceId === null || r.workspaceId === wid),
  );
}

// ---------------------------------------------------------------------------------------------
// install-recipe: no plaintext password outlives the request

/**
 * Masks password values in the parsed request body (the object the request log records), so
 * no plaintext password outlives the request. Without a known recipe every field value is masked.
 */
function scrubPasswords(body: unknown, recipe: RecipeRow | undefined): void {
  const fields = (body as { fields?: unknown } | undefined)?.fields;
  if (!fields || typeof fields !== "object" || Array.isArray(fields)) return;
  const secret = new Set(recipe ? recipe.fields.filter((f) => f.type === "PASSWORD").map((f) => f.id) : Object.keys(fields));
  for (const key of Object.keys(fields)) {
    if (secret.has(key) && (fields as Record<string, unknown>)[key] !== null) (fields as Record<string, unknown>)[key] = "[masked]";
  }
}

function recipeNamedIn(ctx: RouteContext): RecipeRow | undefined {
  const raw = (ctx.body as { recipe?: unknown } | undefined)?.recipe;
  return typeof raw === "number" || typeof raw === "bigint" ? ctx.store.t.recipes.get(BigInt(raw).toString()) : undefined;
}

// ---------------------------------------------------------------------------------------------
// Routes

const recipeId = (ctx: RouteContext) => pathId(ctx.params.id, "id");

export const recipesDomain: Domain = {
  name: "recipes",
  routes: [
    { method: "GET", path: "/v1/recipes", handler: listAllRecipes },
    {
      method: "POST",
      path: "/v1/recipes",
      handler: (ctx) => {
        ctx.requireStaff();
        return created(recipeDetail(ctx.services, createRecipe(ctx.services, null, parseWith(CreateRecipe, ctx.body))));
      },
    },
    { method: "GET", path: "/v1/workspaces/:wid/recipes", handler: listWorkspaceRecipes },
    {
      method: "POST",
      path: "/v1/workspaces/:wid/recipes",
      handler: (ctx) => {
        const wid = pathId(ctx.params.wid, "wid");
        ctx.access(wid, RECIPE_WRITE);
        return created(recipeDetail(ctx.services, createRecipe(ctx.services, wid, parseWith(CreateRecipe, ctx.body))));
      },
    },
    { method: "GET", path: "/v1/recipes/:id", handler: (ctx) => ok(recipeDetail(ctx.services, loadReadable(ctx, recipeId(ctx)))) },
    {
      method: "PATCH",
      path: "/v1/recipes/:id",
      handler: (ctx) => {
        const recipe = loadWritable(ctx, recipeId(ctx));
        return ok(recipeDetail(ctx.services, updateRecipe(ctx.services, recipe, parseWith(PatchRecipe, ctx.body ?? {}))));
      },
    },
    { method: "DELETE", path: "/v1/recipes/:id", handler: (ctx) => ok(deleteRecipe(ctx, loadWritable(ctx, recipeId(ctx)))) },
    {
      method: "POST",
      path: "/v1/commands/install-recipe",
      handler: (ctx) => {
        try {
          return accepted(installRecipe(ctx, parseWith(InstallRecipe, ctx.body)));
        } finally {
          scrubPasswords(ctx.body, recipeNamedIn(ctx));
        }
      },
    },
  ],
  inventory: {
    recipes: { workspaceOf: (row: RecipeRow) => row.workspaceId },
  },
  seed: seedRecipes,
};
