/**
 * App lookups: app templates (spec part 2, App templates: GET /v1/app-templates, any valid token)
 * and recipes (spec part 2, Recipes: GET /v1/workspaces/{wid}/recipes, platform-wide plus the
 * workspace's own). Lists carry summaries; the single-item lookups fetch the full detail.
 */
import type { Query } from "../../provider/client/client";
import { listAll } from "../../provider/client/paging";
import { idOf, numberOf } from "../../provider/client/wire";
import { lookupClient, workspaceOf } from "./common";
import type { Integer } from "../../provider/fields/integer";

// ---------------------------------------------------------------------------------------------
// App templates

export interface AppTemplateSummary {
  id: string;
  name: string;
  description: string;
  image: string;
  category: string | null;
}

export interface AppTemplateDetail extends AppTemplateSummary {
  environment: Array<{ key: string; value: string | null; description: string }>;
  mounts: Array<{ hostPath: string; containerPath: string; readOnly: boolean }>;
  ports: Array<{ name: string; description: string; containerPort: Integer; protocol: "TCP" | "UDP"; http: boolean }>;
  /** Environment keys whose template value is null: they must be supplied when deploying. */
  requiredEnvironment: string[];
}

export interface GetAppTemplatesArgs {
  /** Quick search (name, description, image or id). */
  q?: string;
  /** Name filter (the API matches substrings). */
  name?: string;
  /** Image filter (substring). */
  image?: string;
  /** AI, AUTOMATION, DEVOPS, GAMES, MEDIA, MONITORING, PRODUCTIVITY and others. */
  category?: string;
}

interface ApiTemplate {
  id: string;
  name: string;
  description: string;
  image: string;
  category: string | null;
  environment?: Array<{ key: string; value: string | null; description?: string }>;
  mounts?: Array<{ host_path: string; container_path: string; read_only?: boolean }>;
  ports?: Array<{ name: string; description?: string; container_port: number; protocol: "TCP" | "UDP"; http: boolean }>;
}

const toSummary = (t: ApiTemplate): AppTemplateSummary => ({
  id: idOf(t.id)!,
  name: t.name,
  description: t.description,
  image: t.image,
  category: t.category ?? null,
});

const toDetail = (t: ApiTemplate): AppTemplateDetail => {
  const environment = (t.environment ?? []).map((e) => ({ key: e.key, value: e.value ?? null, description: e.description ?? "" }));
  return {
    ...toSummary(t),
    environment,
    mounts: (t.mounts ?? []).map((m) => ({ hostPath: m.host_path, containerPath: m.container_path, readOnly: !!m.read_only })),
    ports: (t.ports ?? []).map((p) => ({
      name: p.name,
      description: p.description ?? "",
      containerPort: numberOf(p.container_port)!,
      protocol: p.protocol,
      http: !!p.http,
    })),
    requiredEnvironment: environment.filter((e) => e.value === null).map((e) => e.key),
  };
};

/** App templates (summaries), with the API's filters. */
export async function getAppTemplates(args: GetAppTemplatesArgs = {}): Promise<AppTemplateSummary[]> {
  const query: Query = { q: args.q, name: args.name, image: args.image, category: args.category };
  return (await listAll<ApiTemplate>(lookupClient().client, "/v1/app-templates", query)).map(toSummary);
}

/** One app template by its exact name (names are globally unique), with its full detail. */
export async function getAppTemplate(args: { name: string }): Promise<AppTemplateDetail> {
  const found = (await getAppTemplates({ name: args.name })).find((t) => t.name === args.name);
  if (!found) {
    const all = (await getAppTemplates()).map((t) => t.name);
    throw new Error(`no app template named "${args.name}"; templates: ${all.join(", ")}`);
  }
  return toDetail(await lookupClient().client.get<ApiTemplate>(`/v1/app-templates/${found.id}`));
}

// ---------------------------------------------------------------------------------------------
// Recipes

export interface RecipeSummary {
  id: string;
  name: string;
  category: string;
  icon: string | null;
  description: string | null;
  /** Owning workspace; null for a platform-wide recipe. */
  owner: { id: string; name: string } | null;
}

export interface RecipeDetail extends RecipeSummary {
  commands: Array<{ path: string; args: string[] }>;
  fields: Array<{
    id: string;
    label: string;
    description: string | null;
    type: "TEXT" | "PASSWORD" | "NUMBER" | "EMAIL" | "BOOLEAN";
    required: boolean;
  }>;
}

export interface GetRecipesArgs {
  /** Default: svc:workspaceId / SVC_WORKSPACE_ID. */
  workspaceId?: string;
  /** Quick search. */
  q?: string;
  /** Name filter (substring). */
  name?: string;
  /** Description filter (substring). */
  description?: string;
  /** DEFAULT, GAMES, SOFTWARE, INFRASTRUCTURE, AI, MEDIA, TOOLS, DATABASES, MONITORING, PRODUCTIVITY, DEVOPS, AUTOMATION or NETWORK. */
  category?: string;
  /** true: only platform-wide recipes; false: only the workspace's own; default both. */
  platform?: boolean;
}

interface ApiRecipe {
  id: string;
  name: string;
  category: string;
  icon: string | null;
  description: string | null;
  owner: { id: string; name: string } | null;
  commands?: Array<{ path: string; args?: string[] }>;
  fields?: Array<{
    id: string;
    label: string;
    description?: string | null;
    type: RecipeDetail["fields"][number]["type"];
    required?: boolean;
  }>;
}

const toRecipe = (r: ApiRecipe): RecipeSummary => ({
  id: idOf(r.id)!,
  name: r.name,
  category: r.category,
  icon: r.icon ?? null,
  description: r.description ?? null,
  owner: r.owner ? { id: idOf(r.owner.id)!, name: r.owner.name } : null,
});

/** Recipes usable in the workspace: platform-wide plus the workspace's own (summaries). */
export async function getRecipes(args: GetRecipesArgs = {}): Promise<RecipeSummary[]> {
  const query: Query = { q: args.q, name: args.name, description: args.description, category: args.category };
  const all = (await listAll<ApiRecipe>(lookupClient().client, `/v1/workspaces/${workspaceOf(args)}/recipes`, query)).map(toRecipe);
  return args.platform === undefined ? all : all.filter((r) => (r.owner === null) === args.platform);
}

/**
 * One recipe by its exact name, with its commands and fields. When the workspace has its own
 * recipe of that name as well as a platform-wide one, the workspace's is chosen.
 */
export async function getRecipe(args: { name: string; workspaceId?: string }): Promise<RecipeDetail> {
  const found = (await getRecipes({ name: args.name, workspaceId: args.workspaceId })).filter((r) => r.name === args.name);
  const own = found.filter((r) => r.owner !== null);
  const pick = own.length ? own : found;
  if (pick.length !== 1) {
    if (!pick.length) throw new Error(`no recipe named "${args.name}" is visible in workspace ${workspaceOf(args)}`);
    throw new Error(
      `${pick.length} recipes are named "${args.name}" (ids ${pick.map((r) => r.id).join(", ")}); use getRecipes and pick one by id`,
    );
  }
  const r = await lookupClient().client.get<ApiRecipe>(`/v1/recipes/${pick[0].id}`);
  return {
    ...toRecipe(r),
    commands: (r.commands ?? []).map((c) => ({ path: c.path, args: [...(c.args ?? [])] })),
    fields: (r.fields ?? []).map((f) => ({
      id: f.id,
      label: f.label,
      description: f.description ?? null,
      type: f.type,
      required: !!f.required,
    })),
  };
}
