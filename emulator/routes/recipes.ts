/**
 * Part 2 Recipes (reusable install scripts) and the install-recipe instance command
 * (spec part 2, "Recipe", "Recipes", "Instance commands").
 *
 * - Platform recipes (owner null) are created by administrators and visible to everyone;
 *   workspace recipes belong to one workspace. Lists return summaries; the fetch adds commands
 *   and fields.
 * - Recipes are things run on instances, so they use the INSTANCE grant: READ to read, WRITE
 *   (and EDITOR) to write or install ("not shown"; chosen).
 * - PASSWORD field values are never stored or echoed: the install workflow records only which
 *   password fields were set, and the values are masked in the request body before the request
 *   log records it.
 */
import { z } from "zod";
import type { AccessNeed } from "../core/auth";
import type { Domain, SeedCatalog } from "../core/domain";
import { conflict, fieldError, notFound } from "../core/errors";
import { paginate } from "../core/paging";
import { accepted, created, ok, type RouteContext } from "../core/router";
import { audit, type Services } from "../core/services";
import type { Row } from "../core/store";
import { contains, parseWith, pathId, queryEnum, queryIds, zId } from "../core/validation";
import { defineWorkflowEffect } from "../core/workflows";

export const RECIPE_CATEGORIES = [
  "DEFAULT", "GAMES", "SOFTWARE", "INFRASTRUCTURE", "AI", "MEDIA", "TOOLS", "DATABASES",
  "MONITORING", "PRODUCTIVITY", "DEVOPS", "AUTOMATION", "NETWORK",
] as const;
export const FIELD_TYPES = ["TEXT", "PASSWORD", "NUMBER", "EMAIL", "BOOLEAN"] as const;
type FieldType = (typeof FIELD_TYPES)[number];

export interface RecipeCommand {
  path: string;
  args: string[];
}

export interface RecipeField {
  id: string;
  label: string;
  description: string | null;
  type: FieldType;
  required: boolean;
}

export interface RecipeRow extends Row {
  /** null: a platform-wide recipe. */
  workspaceId: string | null;
  name: string;
  category: (typeof RECIPE_CATEGORIES)[number];
  icon: string | null;
  description: string | null;
  commands: RecipeCommand[];
  fields: RecipeField[];
  created: string;
  updated: string;
}

declare module "../core/store" {
  interface Tables {
    recipes: RecipeRow;
  }
}

/** The variable a field's value is injected as when the recipe runs. */
export const fieldVariable = (fieldId: string) => `SVC_FIELDS_${fieldId.toUpperCase()}`;

const READ: AccessNeed = { grant: ["INSTANCE", "READ"] };
const WRITE: AccessNeed = { role: "EDITOR", grant: ["INSTANCE", "WRITE"] };

// ---------------------------------------------------------------------------------------------
// Schemas

const zCommand = z.object({
  path: z.string().max(4096).regex(/^\/\S*$/, "must be an absolute script path"),
  args: z.array(z.string().max(4096)).max(100).default([]),
});

const zField = z.object({
  id: z.string().regex(/^[A-Za-z][A-Za-z0-9_]{0,63}$/, "must start with a letter and hold only letters, digits and _ (it becomes SVC_FIELDS_<ID>)"),
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

/** Field ids must be unique; compared as their variable names, which is how they collide. */
function checkFieldIds(fields: RecipeField[]): void {
  const seen = new Set<string>();
  fields.forEach((f, i) => {
    const variable = fieldVariable(f.id);
    if (seen.has(variable)) throw fieldError(`fields[${i}].id`, `${f.id} is used twice (field ids are case-insensitive)`);
    seen.add(variable);
  });
}

// ---------------------------------------------------------------------------------------------
// Views

function ownerOf(services: Services, r: RecipeRow) {
  const ws = r.workspaceId ? services.store.t.workspaces.get(r.workspaceId) : undefined;
  return ws ? { id: ws.id, name: ws.name } : null;
}

export function recipeSummary(services: Services, r: RecipeRow) {
  return { id: r.id, name: r.name, category: r.category, icon: r.icon, description: r.description, owner: ownerOf(services, r) };
}

export function recipeDetail(services: Services, r: RecipeRow) {
  return { ...recipeSummary(services, r), commands: r.commands, fields: r.fields };
}

// ---------------------------------------------------------------------------------------------
// Loading and access

function loadRecipe(ctx: RouteContext): RecipeRow {
  const recipe = ctx.store.t.recipes.get(pathId(ctx.params.id, "id"));
  if (!recipe) throw notFound("Recipe");
  return recipe;
}

/** Reading: platform recipes are open to any valid token; workspace recipes need READ there. */
function loadReadable(ctx: RouteContext): RecipeRow {
  const recipe = loadRecipe(ctx);
  if (recipe.workspaceId) ctx.access(recipe.workspaceId, READ);
  return recipe;
}

/** Changing: platform recipes are administrator only; workspace recipes need EDITOR and WRITE. */
function loadWritable(ctx: RouteContext): RecipeRow {
  const recipe = loadRecipe(ctx);
  if (recipe.workspaceId) ctx.access(recipe.workspaceId, WRITE);
  else ctx.requireStaff();
  return recipe;
}

// ---------------------------------------------------------------------------------------------
// Handlers

function insertRecipe(ctx: RouteContext, workspaceId: string | null) {
  const input = parseWith(CreateRecipe, ctx.body);
  checkFieldIds(input.fields);
  const now = ctx.clock.iso();
  const row = ctx.store.t.recipes.insert({ id: ctx.store.newId(), workspaceId, ...input, created: now, updated: now });
  return created(recipeDetail(ctx, row));
}

function patchRecipe(ctx: RouteContext) {
  const recipe = loadWritable(ctx);
  const input = parseWith(PatchRecipe, ctx.body ?? {});
  if (input.fields) checkFieldIds(input.fields);
  const changes = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
  return ok(recipeDetail(ctx, ctx.store.t.recipes.update(recipe.id, { ...changes, updated: ctx.clock.iso() })));
}

function deleteRecipe(ctx: RouteContext) {
  const recipe = loadWritable(ctx);
  ctx.store.t.recipes.delete(recipe.id);
  return ok(audit(ctx, { workspaceId: recipe.workspaceId, actorId: ctx.principal.user.id, action: "recipe.delete", target: { kind: "RECIPE", id: recipe.id } }));
}

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
  return ok(paginate(filtered, q, (r) => recipeSummary(ctx, r), { id: (r) => r.id, sortable: { name: (r) => r.name.toLowerCase(), category: (r) => r.category } }));
}

function listAllRecipes(ctx: RouteContext) {
  ctx.requireStaff();
  return pageRecipes(ctx, ctx.store.t.recipes.all());
}

function listWorkspaceRecipes(ctx: RouteContext) {
  const wid = pathId(ctx.params.wid, "wid");
  ctx.access(wid, READ);
  return pageRecipes(ctx, ctx.store.t.recipes.filter((r) => r.workspaceId === null || r.workspaceId === wid));
}

function createPlatformRecipe(ctx: RouteContext) {
  ctx.requireStaff();
  return insertRecipe(ctx, null);
}

function createWorkspaceRecipe(ctx: RouteContext) {
  const wid = pathId(ctx.params.wid, "wid");
  ctx.access(wid, WRITE);
  return insertRecipe(ctx, wid);
}

// ---------------------------------------------------------------------------------------------
// install-recipe

const BOOLEAN_WORDS = new Map<string, boolean>([["true", true], ["false", false], ["1", true], ["0", false], ["yes", true], ["no", false], ["on", true], ["off", false]]);

/** One check per field type: the value as the script receives it, or why it is refused. */
const FIELD_CHECKS: Record<FieldType, (value: unknown) => { value: string } | { error: string }> = {
  TEXT: (v) => (typeof v === "string" ? { value: v } : { error: "must be a string" }),
  PASSWORD: (v) => (typeof v === "string" ? { value: v } : { error: "must be a string" }),
  NUMBER: (v) => {
    const n = typeof v === "number" ? v : typeof v === "bigint" ? Number(v) : typeof v === "string" && v.trim() !== "" ? Number(v) : NaN;
    return Number.isFinite(n) ? { value: String(v).trim() } : { error: "must be a number" };
  },
  EMAIL: (v) => (typeof v === "string" && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v) ? { value: v } : { error: "must be a valid email address" }),
  BOOLEAN: (v) => {
    const word = typeof v === "string" ? v.trim().toLowerCase() : typeof v === "boolean" || typeof v === "number" ? String(v) : "";
    const flag = BOOLEAN_WORDS.get(word);
    return flag === undefined ? { error: "must be a boolean (true/false, yes/no, 1/0, on/off)" } : { value: String(flag) };
  },
};

const isBlank = (v: unknown) => v === undefined || v === null || v === "";

/** Validates the supplied fields against the recipe; returns what may be recorded (passwords only as "set"). */
function checkInstallFields(recipe: RecipeRow, supplied: Record<string, unknown>): { values: Record<string, string>; passwordsSet: string[] } {
  const known = new Map(recipe.fields.map((f) => [f.id, f]));
  for (const id of Object.keys(supplied)) {
    if (!known.has(id)) throw fieldError(`fields.${id}`, "the recipe has no field with this id");
  }
  const values: Record<string, string> = {};
  const passwordsSet: string[] = [];
  for (const field of recipe.fields) {
    const raw = supplied[field.id];
    if (isBlank(raw)) {
      if (field.required) throw fieldError(`fields.${field.id}`, `${field.label} is required`);
      continue;
    }
    const checked = FIELD_CHECKS[field.type](raw);
    if ("error" in checked) throw fieldError(`fields.${field.id}`, checked.error);
    if (field.type === "PASSWORD") passwordsSet.push(field.id);
    else values[field.id] = checked.value;
  }
  return { values, passwordsSet };
}

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

/** A failed install leaves the instance as it was (the default would mark it FAILED). */
const RECIPE_INSTALL_FAILED = defineWorkflowEffect("recipe.install-failed", () => undefined);

function installRecipe(ctx: RouteContext) {
  try {
    const input = parseWith(InstallRecipe, ctx.body);
    const instance = ctx.store.t.instances.get(input.instance);
    if (!instance) throw notFound("Instance");
    ctx.access(instance.workspaceId, { ...WRITE, resource: { kind: "INSTANCE", id: instance.id } });
    const recipe = ctx.store.t.recipes.get(input.recipe);
    if (!recipe || (recipe.workspaceId !== null && recipe.workspaceId !== instance.workspaceId)) throw notFound("Recipe");
    const { values, passwordsSet } = checkInstallFields(recipe, input.fields);
    if (instance.state !== "AVAILABLE" || !instance.online) {
      throw conflict(`Instance must be online and AVAILABLE to install a recipe (it is ${instance.state}, ${instance.online ? "online" : "offline"})`);
    }
    const wf = ctx.startWorkflow({
      name: "install-recipe",
      workspaceId: instance.workspaceId,
      resource: { kind: "instances", id: instance.id },
      onFail: RECIPE_INSTALL_FAILED,
      args: { recipeId: recipe.id, fields: values, passwordsSet },
    });
    return accepted(ctx.workflows.view(wf));
  } finally {
    scrubPasswords(ctx.body, recipeNamedIn(ctx));
  }
}

// ---------------------------------------------------------------------------------------------
// Seed: platform recipes with fields of every type (required and optional), commands whose args
// name the SVC_FIELDS_<ID> variables, and one recipe without fields.

type SeedRecipe = Omit<RecipeRow, "id" | "seed" | "workspaceId" | "created" | "updated">;

const field = (id: string, label: string, type: FieldType, required: boolean, description: string | null = null): RecipeField => ({ id, label, description, type, required });
const command = (path: string, ...args: string[]): RecipeCommand => ({ path, args });
const v = (id: string) => `$${fieldVariable(id)}`;

export const SEED_RECIPES: SeedRecipe[] = [
  {
    name: "WordPress",
    category: "SOFTWARE",
    icon: "https://assets.svc.example/recipes/wordpress.svg",
    description: "Installs **WordPress** with Nginx, PHP-FPM and MariaDB.",
    fields: [
      field("SITE_TITLE", "Site title", "TEXT", true),
      field("ADMIN_EMAIL", "Administrator email", "EMAIL", true),
      field("ADMIN_PASSWORD", "Administrator password", "PASSWORD", true, "At least 12 characters"),
      field("ENABLE_SSL", "Request a Let's Encrypt certificate", "BOOLEAN", false),
    ],
    commands: [
      command("/opt/svc/recipes/wordpress/install.sh", "--title", v("SITE_TITLE"), "--admin-email", v("ADMIN_EMAIL"), "--admin-password", v("ADMIN_PASSWORD")),
      command("/opt/svc/recipes/wordpress/ssl.sh", "--enable", v("ENABLE_SSL"), "--email", v("ADMIN_EMAIL")),
    ],
  },
  {
    name: "Minecraft Paper Server",
    category: "GAMES",
    icon: "https://assets.svc.example/recipes/minecraft.svg",
    description: "A Paper Minecraft server managed by systemd.",
    fields: [
      field("MAX_PLAYERS", "Maximum players", "NUMBER", true),
      field("MOTD", "Message of the day", "TEXT", false),
      field("RCON_PASSWORD", "RCON password", "PASSWORD", false, "Leave empty to disable RCON"),
      field("ONLINE_MODE", "Verify players with Mojang", "BOOLEAN", false),
    ],
    commands: [command("/opt/svc/recipes/minecraft/install.sh", "--max-players", v("MAX_PLAYERS"), "--motd", v("MOTD"), "--rcon-password", v("RCON_PASSWORD"), "--online-mode", v("ONLINE_MODE"))],
  },
  {
    name: "PostgreSQL 16",
    category: "DATABASES",
    icon: null,
    description: "PostgreSQL 16 with a database and owner role.",
    fields: [
      field("DB_NAME", "Database name", "TEXT", true),
      field("DB_PASSWORD", "Owner password", "PASSWORD", true),
      field("PORT", "Listen port", "NUMBER", false, "Defaults to 5432"),
      field("ALERT_EMAIL", "Email for disk-space alerts", "EMAIL", false),
    ],
    commands: [
      command("/opt/svc/recipes/postgresql/install.sh", "--version", "16"),
      command("/opt/svc/recipes/postgresql/create-db.sh", v("DB_NAME"), v("DB_PASSWORD"), v("PORT"), v("ALERT_EMAIL")),
    ],
  },
  {
    name: "Docker Engine",
    category: "INFRASTRUCTURE",
    icon: "https://assets.svc.example/recipes/docker.svg",
    description: "Installs Docker Engine and the compose plugin from the official repository.",
    fields: [],
    commands: [command("/opt/svc/recipes/docker/install.sh"), command("/usr/bin/systemctl", "enable", "--now", "docker")],
  },
  {
    name: "Netdata Agent",
    category: "MONITORING",
    icon: null,
    description: "Real-time system monitoring; optionally connected to Netdata Cloud.",
    fields: [field("CLAIM_TOKEN", "Netdata Cloud claim token", "PASSWORD", false), field("STABLE_CHANNEL", "Use the stable release channel", "BOOLEAN", true)],
    commands: [command("/opt/svc/recipes/netdata/install.sh", "--claim-token", v("CLAIM_TOKEN"), "--stable", v("STABLE_CHANNEL"))],
  },
];

function seedRecipes(services: Services, _catalog: SeedCatalog): void {
  const now = services.clock.iso();
  for (const r of SEED_RECIPES) {
    services.store.t.recipes.insert({ id: services.store.newId(), seed: true, workspaceId: null, ...structuredClone(r), created: now, updated: now });
  }
}

export const recipesDomain: Domain = {
  name: "recipes",
  routes: [
    { method: "GET", path: "/v1/recipes", handler: listAllRecipes },
    { method: "POST", path: "/v1/recipes", handler: createPlatformRecipe },
    { method: "GET", path: "/v1/workspaces/:wid/recipes", handler: listWorkspaceRecipes },
    { method: "POST", path: "/v1/workspaces/:wid/recipes", handler: createWorkspaceRecipe },
    { method: "GET", path: "/v1/recipes/:id", handler: (ctx) => ok(recipeDetail(ctx, loadReadable(ctx))) },
    { method: "PATCH", path: "/v1/recipes/:id", handler: patchRecipe },
    { method: "DELETE", path: "/v1/recipes/:id", handler: deleteRecipe },
    { method: "POST", path: "/v1/commands/install-recipe", handler: installRecipe },
  ],
  inventory: {
    recipes: { workspaceOf: (row: RecipeRow) => row.workspaceId },
  },
  seed: seedRecipes,
};
