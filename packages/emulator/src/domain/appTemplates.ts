/**
 * App templates' domain (spec part 2, "App template"): staff-curated app definitions, their
 * rules across fields, and the seeded catalogue. Also home of what templates and apps share:
 * the image-reference, mount, environment-key and port value rules, and the placeholder
 * language of environment values ({{host_port.<name>}}, ...), which apps resolve at deploy time
 * (domain/appFromTemplate.ts).
 */
import { z } from "zod";
import type { SeedCatalog } from "../core/domain";
import { conflict, fieldError, notFound } from "../core/errors";
import type { Services } from "../core/services";
import type { Row } from "../core/store";
import { RECIPE_CATEGORIES } from "./recipes";

// ---------------------------------------------------------------------------------------------
// Shared with apps

/** Categories of templates: the spec names AI, AUTOMATION, ... "and others"; chosen: the recipe category list. */
export const APP_CATEGORIES = RECIPE_CATEGORIES;

const TAG = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$/;
const REPOSITORY = /^[a-z0-9]+(?:[._/:-]+[a-z0-9]+)*$/;

/** "image (required, with tag)": repository[:port registry]/name:tag; the tag follows the last slash. */
export function isTaggedImage(ref: string): boolean {
  const lastSlash = ref.lastIndexOf("/");
  const colon = ref.lastIndexOf(":");
  if (colon <= lastSlash) return false;
  return REPOSITORY.test(ref.slice(0, colon)) && TAG.test(ref.slice(colon + 1));
}

export const zImageRef = z
  .string()
  .max(255)
  .refine(isTaggedImage, { message: "must be a container image reference with a tag, e.g. nginx:1.27" });

const zAbsolutePath = z
  .string()
  .max(4096)
  .regex(/^\/\S*$/, "must be an absolute path");

/** AppVolumeMount (part 2). */
export const zMount = z.object({
  host_path: zAbsolutePath,
  container_path: zAbsolutePath,
  read_only: z.boolean().default(false),
});
export type Mount = z.infer<typeof zMount>;

/** Environment variable names: letters, digits, underscore, dot and dash; not starting with a digit. */
export const zEnvKey = z.string().regex(/^[A-Za-z_][A-Za-z0-9_.-]{0,254}$/, "must be an environment variable name");

export const zPortNumber = z.number().int().min(1).max(65535);
export const zProtocol = z.enum(["TCP", "UDP"]);

// ---------------------------------------------------------------------------------------------
// Placeholders (part 2, "App template": resolved once at deploy, stored as final values)

export interface PlaceholderResolver {
  hostPort(name: string): number | null;
  containerPort(name: string): number | null;
  ip4(): string | null;
  ip6(): string | null;
  random(length: number): string;
}

const PLACEHOLDER = /\{\{([^{}]*)\}\}/g;
export const RANDOM_MAX = 128;

type Resolution = { value: string } | { error: string };

/** One rule per placeholder kind: its pattern and how it resolves. */
const PLACEHOLDER_RULES: Array<{ pattern: RegExp; resolve(match: RegExpExecArray, r: PlaceholderResolver): Resolution }> = [
  {
    pattern: /^host_port\.(.+)$/,
    resolve: ([, name], r) => orUnresolvable(r.hostPort(name), `no template port named ${name}`),
  },
  {
    pattern: /^container_port\.(.+)$/,
    resolve: ([, name], r) => orUnresolvable(r.containerPort(name), `no template port named ${name}`),
  },
  { pattern: /^instance\.ip4$/, resolve: (_m, r) => orUnresolvable(r.ip4(), "the instance has no IPv4 address") },
  { pattern: /^instance\.ip6$/, resolve: (_m, r) => orUnresolvable(r.ip6(), "the instance has no IPv6 address") },
  {
    pattern: /^random:(\d+)$/,
    resolve: ([, digits], r) => {
      const length = Number(digits);
      if (!Number.isInteger(length) || length < 1 || length > RANDOM_MAX) return { error: `random length must be 1 to ${RANDOM_MAX}` };
      return { value: r.random(length) };
    },
  },
];

function orUnresolvable(value: string | number | null, why: string): Resolution {
  return value === null ? { error: why } : { value: String(value) };
}

/** Replaces every placeholder of a value; the first unknown or unresolvable one is an error. */
export function expandPlaceholders(value: string, resolver: PlaceholderResolver): Resolution {
  let error: string | null = null;
  const out = value.replace(PLACEHOLDER, (whole, inner: string) => {
    if (error) return whole;
    const text = inner.trim();
    for (const rule of PLACEHOLDER_RULES) {
      const match = rule.pattern.exec(text);
      if (!match) continue;
      const result = rule.resolve(match, resolver);
      if ("error" in result) {
        error = `unresolvable placeholder ${whole}: ${result.error}`;
        return whole;
      }
      return result.value;
    }
    error = `unknown placeholder ${whole}`;
    return whole;
  });
  return error ? { error } : { value: out };
}

/** A resolver that only checks references against the template's own ports (template writes). */
function syntaxResolver(ports: TemplatePort[]): PlaceholderResolver {
  const port = (name: string) => ports.find((p) => p.name === name)?.container_port ?? null;
  return { hostPort: port, containerPort: port, ip4: () => "0.0.0.0", ip6: () => "::", random: () => "" };
}

// ---------------------------------------------------------------------------------------------
// Rows

export interface TemplateEnv {
  key: string;
  /** null: the user must supply it at deploy time. May contain placeholders. */
  value: string | null;
  description: string;
}

export interface TemplatePort {
  name: string;
  description: string;
  container_port: number;
  protocol: "TCP" | "UDP";
  http: boolean;
}

export interface AppTemplateRow extends Row {
  name: string;
  description: string;
  image: string;
  category: string | null;
  environment: TemplateEnv[];
  mounts: Mount[];
  ports: TemplatePort[];
  created: string;
  updated: string;
}

declare module "../core/store" {
  interface Tables {
    appTemplates: AppTemplateRow;
  }
}

// ---------------------------------------------------------------------------------------------
// Rules across fields

type TemplateContent = Pick<AppTemplateRow, "environment" | "ports">;

/** Rules across fields: unique port slugs and env keys, at most one http port, placeholders that resolve. */
export function checkTemplateContent(t: TemplateContent): void {
  const seenPorts = new Set<string>();
  t.ports.forEach((p, i) => {
    if (seenPorts.has(p.name))
      throw fieldError(`ports[${i}].name`, `port name ${p.name} is used twice; names must be unique within the template`);
    seenPorts.add(p.name);
  });
  if (t.ports.filter((p) => p.http).length > 1) throw fieldError("ports", "at most one port per template may have http true");
  const seenKeys = new Set<string>();
  t.environment.forEach((e, i) => {
    if (seenKeys.has(e.key)) throw fieldError(`environment[${i}].key`, `${e.key} is defined twice`);
    seenKeys.add(e.key);
    if (e.value === null) return;
    const result = expandPlaceholders(e.value, syntaxResolver(t.ports));
    if ("error" in result) throw fieldError(`environment[${i}].value`, result.error);
  });
}

function assertNameFree(services: Services, name: string, exceptId?: string): void {
  const clash = services.store.t.appTemplates.find((t) => t.name === name && t.id !== exceptId);
  if (clash) throw conflict(`An app template named ${name} already exists`);
}

// ---------------------------------------------------------------------------------------------
// Views

export function templateSummary(t: AppTemplateRow) {
  return { id: t.id, name: t.name, description: t.description, image: t.image, category: t.category };
}

export function templateDetail(t: AppTemplateRow) {
  return { ...templateSummary(t), environment: t.environment, mounts: t.mounts, ports: t.ports, created: t.created, updated: t.updated };
}

export function loadTemplate(services: Services, id: string): AppTemplateRow {
  const row = services.store.t.appTemplates.get(id);
  if (!row) throw notFound("App template");
  return row;
}

// ---------------------------------------------------------------------------------------------
// Changes (staff only; the routes check)

export function createTemplate(services: Services, input: Omit<AppTemplateRow, "id" | "seed" | "created" | "updated">): AppTemplateRow {
  checkTemplateContent(input);
  assertNameFree(services, input.name);
  const now = services.clock.iso();
  return services.store.t.appTemplates.insert({ id: services.store.newId(), ...input, created: now, updated: now });
}

/** PATCH: the given fields replace the template's, and the result must still hold together. */
export function updateTemplate(
  services: Services,
  row: AppTemplateRow,
  changes: Partial<Omit<AppTemplateRow, "id" | "seed" | "created" | "updated">>,
): AppTemplateRow {
  const merged = { ...row, ...Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)) } as AppTemplateRow;
  checkTemplateContent(merged);
  if (changes.name !== undefined) assertNameFree(services, changes.name, row.id);
  const { id: _id, seed: _seed, ...fields } = merged;
  return services.store.t.appTemplates.update(row.id, { ...fields, updated: services.clock.iso() });
}

export function deleteTemplate(services: Services, row: AppTemplateRow): void {
  services.store.t.appTemplates.delete(row.id);
}

// ---------------------------------------------------------------------------------------------
// Seed: staff-curated templates that together use every placeholder kind, a value the user must
// supply, mounts, several ports (at most one http each) and several categories.

type SeedTemplate = Omit<AppTemplateRow, "id" | "seed" | "created" | "updated">;

const env = (key: string, value: string | null, description: string): TemplateEnv => ({ key, value, description });
const port = (name: string, container_port: number, protocol: "TCP" | "UDP", http: boolean, description: string): TemplatePort => ({
  name,
  description,
  container_port,
  protocol,
  http,
});
const mount = (host_path: string, container_path: string, read_only = false): Mount => ({ host_path, container_path, read_only });

export const SEED_TEMPLATES: SeedTemplate[] = [
  {
    name: "Uptime Kuma",
    description: "Self-hosted uptime monitoring with status pages and notifications.",
    image: "louislam/uptime-kuma:1.23.13",
    category: "MONITORING",
    environment: [
      env("UPTIME_KUMA_PORT", "{{container_port.web}}", "Port the dashboard listens on inside the container"),
      env("PUBLIC_URL", "http://{{instance.ip4}}:{{host_port.web}}", "Address the dashboard is reached at"),
    ],
    mounts: [mount("/opt/uptime-kuma/data", "/app/data")],
    ports: [port("web", 3001, "TCP", true, "Dashboard")],
  },
  {
    name: "n8n",
    description: "Workflow automation with a visual editor and hundreds of integrations.",
    image: "n8nio/n8n:1.64.0",
    category: "AUTOMATION",
    environment: [
      env("N8N_ENCRYPTION_KEY", "{{random:32}}", "Key that encrypts stored credentials"),
      env("WEBHOOK_URL", "http://{{instance.ip4}}:{{host_port.editor}}/", "Public base URL of webhooks"),
      env("N8N_BASIC_AUTH_USER", null, "Login name for the editor (you must supply it)"),
      env("GENERIC_TIMEZONE", "UTC", "Timezone of schedules"),
    ],
    mounts: [mount("/opt/n8n", "/home/node/.n8n")],
    ports: [port("editor", 5678, "TCP", true, "Editor and webhooks")],
  },
  {
    name: "Minecraft Server",
    description: "Java Edition server with RCON and the query protocol.",
    image: "itzg/minecraft-server:2024.10.0",
    category: "GAMES",
    environment: [
      env("EULA", "TRUE", "Accept the Minecraft EULA"),
      env("MOTD", null, "Message of the day shown in the server list (you must supply it)"),
      env("RCON_PASSWORD", "{{random:24}}", "Password of the remote console"),
      env("RCON_PORT", "{{container_port.rcon}}", "Remote console port inside the container"),
      env("SERVER_ADDRESS", "{{instance.ip4}}:{{host_port.game}}", "Address players connect to"),
    ],
    mounts: [mount("/opt/minecraft", "/data")],
    ports: [
      port("game", 25565, "TCP", false, "Game traffic"),
      port("query", 25565, "UDP", false, "Server list query"),
      port("rcon", 25575, "TCP", false, "Remote console"),
    ],
  },
  {
    name: "Ollama",
    description: "Run large language models locally behind an HTTP API.",
    image: "ollama/ollama:0.3.14",
    category: "AI",
    environment: [
      env("OLLAMA_HOST", "0.0.0.0:{{container_port.api}}", "Listen address inside the container"),
      env(
        "OLLAMA_ORIGINS",
        "http://[{{instance.ip6}}]:{{host_port.api}},http://{{instance.ip4}}:{{host_port.api}}",
        "Allowed browser origins",
      ),
    ],
    mounts: [mount("/opt/ollama", "/root/.ollama")],
    ports: [port("api", 11434, "TCP", true, "HTTP API")],
  },
  {
    name: "Jellyfin",
    description: "Media server for films, series and music, with DLNA and client discovery.",
    image: "jellyfin/jellyfin:10.9.11",
    category: "MEDIA",
    environment: [env("JELLYFIN_PublishedServerUrl", "http://{{instance.ip4}}:{{host_port.web}}", "URL announced to clients")],
    mounts: [mount("/opt/jellyfin/config", "/config"), mount("/opt/jellyfin/cache", "/cache"), mount("/srv/media", "/media", true)],
    ports: [
      port("web", 8096, "TCP", true, "Web interface"),
      port("discovery", 7359, "UDP", false, "Client discovery"),
      port("dlna", 1900, "UDP", false, "DLNA"),
    ],
  },
  {
    name: "Gitea",
    description: "Lightweight self-hosted Git service with issues and pull requests.",
    image: "gitea/gitea:1.22.3",
    category: "DEVOPS",
    environment: [
      env("GITEA__server__DOMAIN", null, "Domain name of the instance (you must supply it)"),
      env("GITEA__server__SSH_PORT", "{{host_port.ssh}}", "SSH port shown in clone URLs"),
      env("GITEA__security__SECRET_KEY", "{{random:64}}", "Secret key for cookies and tokens"),
    ],
    mounts: [mount("/opt/gitea", "/data")],
    ports: [port("web", 3000, "TCP", true, "Web interface"), port("ssh", 22, "TCP", false, "Git over SSH")],
  },
  {
    name: "Vaultwarden",
    description: "Bitwarden-compatible password manager server.",
    image: "vaultwarden/server:1.32.1",
    category: "PRODUCTIVITY",
    environment: [
      env("ADMIN_TOKEN", "{{random:48}}", "Token of the admin page"),
      env("DOMAIN", null, "Public URL of the vault, e.g. https://vault.example.com (you must supply it)"),
    ],
    mounts: [mount("/opt/vaultwarden", "/data")],
    ports: [port("web", 80, "TCP", true, "Web vault and API")],
  },
  {
    name: "Whoami",
    description: "Tiny web server that echoes request details; handy for testing routing.",
    image: "traefik/whoami:v1.10.3",
    category: null,
    environment: [],
    mounts: [],
    ports: [port("web", 80, "TCP", true, "HTTP")],
  },
];

export function seedTemplates(services: Services, _catalog: SeedCatalog): void {
  const now = services.clock.iso();
  for (const t of SEED_TEMPLATES) {
    checkTemplateContent(t);
    services.store.t.appTemplates.insert({ id: services.store.newId(), seed: true, ...structuredClone(t), created: now, updated: now });
  }
}
