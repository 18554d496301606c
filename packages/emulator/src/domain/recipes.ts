/**
 * Recipes' domain (spec part 2, "Recipe", "Recipes", "Instance commands"): reusable install
 * scripts and the install-recipe instance command.
 *
 * - Platform recipes (owner null) are created by administrators and visible to everyone;
 *   workspace recipes belong to one workspace. Lists return summaries; the fetch adds commands
 *   and fields.
 * - Recipes are things run on instances, so they use the INSTANCE grant: READ to read, WRITE
 *   (and EDITOR) to write or install ("not shown"; chosen).
 * - PASSWORD field values are never stored or echoed: the install workflow records only which
 *   password fields were set, and the route masks the values in the request body before the
 *   request log records it.
 */
import type { AccessNeed } from "../core/auth";
import type { AuditEntryView, WorkflowView } from "../core/choices";
import type { SeedCatalog } from "../core/domain";
import { conflict, fieldError, notFound } from "../core/errors";
import type { RouteContext } from "../core/router";
import { audit, type Services } from "../core/services";
import type { Row } from "../core/store";
import { defineWorkflowEffect } from "../core/workflowEffects";

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
export type FieldType = (typeof FIELD_TYPES)[number];

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

export const RECIPE_READ: AccessNeed = { grant: ["INSTANCE", "READ"] };
export const RECIPE_WRITE: AccessNeed = { role: "EDITOR", grant: ["INSTANCE", "WRITE"] };

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

function loadRecipe(ctx: RouteContext, id: string): RecipeRow {
  const recipe = ctx.store.t.recipes.get(id);
  if (!recipe) throw notFound("Recipe");
  return recipe;
}

/** Reading: platform recipes are open to any valid token; workspace recipes need READ there. */
export function loadReadable(ctx: RouteContext, id: string): RecipeRow {
  const recipe = loadRecipe(ctx, id);
  if (recipe.workspaceId) ctx.access(recipe.workspaceId, RECIPE_READ);
  return recipe;
}

/** Changing: platform recipes are administrator only; workspace recipes need EDITOR and WRITE. */
export function loadWritable(ctx: RouteContext, id: string): RecipeRow {
  const recipe = loadRecipe(ctx, id);
  if (recipe.workspaceId) ctx.access(recipe.workspaceId, RECIPE_WRITE);
  else ctx.requireStaff();
  return recipe;
}

// ---------------------------------------------------------------------------------------------
// Changes

export type RecipeContent = Pick<RecipeRow, "name" | "category" | "icon" | "description" | "commands" | "fields">;

export function createRecipe(services: Services, workspaceId: string | null, input: RecipeContent): RecipeRow {
  checkFieldIds(input.fields);
  const now = services.clock.iso();
  return services.store.t.recipes.insert({ id: services.store.newId(), workspaceId, ...input, created: now, updated: now });
}

export function updateRecipe(services: Services, recipe: RecipeRow, input: Partial<RecipeContent>): RecipeRow {
  if (input.fields) checkFieldIds(input.fields);
  const changes = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
  return services.store.t.recipes.update(recipe.id, { ...changes, updated: services.clock.iso() });
}

export function deleteRecipe(ctx: RouteContext, recipe: RecipeRow): AuditEntryView {
  ctx.store.t.recipes.delete(recipe.id);
  return audit(ctx.services, {
    workspaceId: recipe.workspaceId,
    actorId: ctx.principal.user.id,
    action: "recipe.delete",
    target: { kind: "RECIPE", id: recipe.id },
  });
}

// ---------------------------------------------------------------------------------------------
// install-recipe

const BOOLEAN_WORDS = new Map<string, boolean>([
  ["true", true],
  ["false", false],
  ["1", true],
  ["0", false],
  ["yes", true],
  ["no", false],
  ["on", true],
  ["off", false],
]);

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
function checkInstallFields(
  recipe: RecipeRow,
  supplied: Record<string, unknown>,
): { values: Record<string, string>; passwordsSet: string[] } {
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

/** A failed install leaves the instance as it was (the default would mark it FAILED). */
const RECIPE_INSTALL_FAILED = defineWorkflowEffect("recipe.install-failed", () => undefined);

/** install-recipe: the instance must be online and AVAILABLE; PASSWORD values are recorded only as set. */
export function installRecipe(
  ctx: RouteContext,
  input: { instance: string; recipe: string; fields: Record<string, unknown> },
): WorkflowView {
  const instance = ctx.store.t.instances.get(input.instance);
  if (!instance) throw notFound("Instance");
  ctx.access(instance.workspaceId, { ...RECIPE_WRITE, resource: { kind: "INSTANCE", id: instance.id } });
  const recipe = ctx.store.t.recipes.get(input.recipe);
  if (!recipe || (recipe.workspaceId !== null && recipe.workspaceId !== instance.workspaceId)) throw notFound("Recipe");
  const { values, passwordsSet } = checkInstallFields(recipe, input.fields);
  if (instance.state !== "AVAILABLE" || !instance.online) {
    throw conflict(
      `Instance must be online and AVAILABLE to install a recipe (it is ${instance.state}, ${instance.online ? "online" : "offline"})`,
    );
  }
  const wf = ctx.startWorkflow({
    name: "install-recipe",
    workspaceId: instance.workspaceId,
    resource: { kind: "instances", id: instance.id },
    onFail: RECIPE_INSTALL_FAILED,
    args: { recipeId: recipe.id, fields: values, passwordsSet },
  });
  return ctx.workflows.view(wf);
}

// ---------------------------------------------------------------------------------------------
// Seed: platform recipes with fields of every type (required and optional), commands whose args
// name the SVC_FIELDS_<ID> variables, and one recipe without fields.

type SeedRecipe = Omit<RecipeRow, "id" | "seed" | "workspaceId" | "created" | "updated">;

const field = (id: string, label: string, type: FieldType, required: boolean, description: string | null = null): RecipeField => ({
  id,
  label,
  description,
  type,
  required,
});
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
      command(
        "/opt/svc/recipes/wordpress/install.sh",
        "--title",
        v("SITE_TITLE"),
        "--admin-email",
        v("ADMIN_EMAIL"),
        "--admin-password",
        v("ADMIN_PASSWORD"),
      ),
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
    commands: [
      command(
        "/opt/svc/recipes/minecraft/install.sh",
        "--max-players",
        v("MAX_PLAYERS"),
        "--motd",
        v("MOTD"),
        "--rcon-password",
        v("RCON_PASSWORD"),
        "--online-mode",
        v("ONLINE_MODE"),
      ),
    ],
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
    fields: [
      field("CLAIM_TOKEN", "Netdata Cloud claim token", "PASSWORD", false),
      field("STABLE_CHANNEL", "Use the stable release channel", "BOOLEAN", true),
    ],
    commands: [command("/opt/svc/recipes/netdata/install.sh", "--claim-token", v("CLAIM_TOKEN"), "--stable", v("STABLE_CHANNEL"))],
  },
];

export function seedRecipes(services: Services, _catalog: SeedCatalog): void {
  const now = services.clock.iso();
  for (const r of SEED_RECIPES) {
    services.store.t.recipes.insert({
      id: services.store.newId(),
      seed: true,
      workspaceId: null,
      ...structuredClone(r),
      created: now,
      updated: now,
    });
  }
}
