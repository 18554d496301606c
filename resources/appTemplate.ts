/**
 * AppTemplate — a staff-curated, reusable app definition (spec part 2, App template and App
 * templates). Writes are staff only: the stack's svc:token must be an operator (staff) token.
 *
 *   POST   /v1/app-templates        name (globally unique), description, image (with tag), category,
 *                                   environment (TemplateEnv[]), mounts, ports (TemplatePort[]) -> 201 detail
 *   GET    /v1/app-templates/{id}   full detail
 *   PATCH  /v1/app-templates/{id}   any field; lists replace; category null clears -> updated detail
 *   DELETE /v1/app-templates/{id}   204
 *
 * Also home of what templates and apps share: the image-reference check, the mount and port
 * shapes, and the placeholder language of environment values ({{host_port.<name>}},
 * {{container_port.<name>}}, {{instance.ip4}}, {{instance.ip6}}, {{random:<1-128>}}).
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import type { OperationContext } from "../provider/context";
import { ApiError, ifFound } from "../provider/errors";
import { listAll } from "../provider/paging";
import { type CommonArgs } from "../provider/resource";
import {
  emulatorLimit,
  exactly,
  hasTag,
  type InputsMatch,
  noDuplicates,
  trimmedLength,
  zAbsolutePath,
  zPort,
  zProtocol,
} from "../provider/schema";
import { idOf, numberOf } from "../provider/wire";
import { eachOf, type ResourceSpec, type Rule, updateRequest } from "../provider/spec";
import { RECIPE_CATEGORIES } from "./recipe";

const WHERE = "spec part 2, App template";
/** Limits the spec does not give (lengths, list sizes, the closed category list): the emulator's (emulator/routes/appTemplates.ts). */
const EMULATOR_LIMIT = emulatorLimit(WHERE);

// 1. Inputs and rules.
// Shared with apps

/** The part before the tag, as the emulator checks it: lower-case letters and digits, separated by ., _, -, / or :. */
const REPOSITORY = /^[a-z0-9]+(?:[._/:-]+[a-z0-9]+)*$/;

/** @internal */
export const zImage = (where: string) =>
  z
    .string({ error: `must be a container image with a tag (${where})` })
    .refine(hasTag, `must be a container image with a tag, such as nginx:1.27 or ghcr.io/org/app:v2 (${where}: image with tag)`)
    .refine(
      (image) => !hasTag(image) || REPOSITORY.test(image.slice(0, image.lastIndexOf(":"))),
      `must name the image in lower case: letters and digits separated by ., _, -, / or :, such as ghcr.io/org/app:v2 (${emulatorLimit(where)})`,
    )
    .max(255, `must be at most 255 characters (${emulatorLimit(where)})`);

/** Environment variable names, as the emulator checks them (the spec says only "variable name"). */
export const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_.-]{0,254}$/;
export const envNameRule = (where: string) =>
  `must start with a letter or _ and hold only letters, digits, _, . and -, at most 255 characters (${emulatorLimit(where)})`;

/** AppVolumeMount, camelCase. @internal */
export const zMount = (where: string) =>
  z.strictObject(
    {
      hostPath: zAbsolutePath(where, { what: "on the instance host", shape: "AppVolumeMount" }),
      containerPath: zAbsolutePath(where, { what: "inside the container", shape: "AppVolumeMount" }),
      readOnly: z.boolean().default(false),
    },
    exactly("hostPath, containerPath, readOnly"),
  );

export interface Mount {
  hostPath: string;
  containerPath: string;
  readOnly: boolean;
}

/** @internal */
export interface ApiMount {
  host_path: string;
  container_path: string;
  read_only?: boolean;
}

/** @internal */
export const mountToApi = (m: Mount): ApiMount => ({ host_path: m.hostPath, container_path: m.containerPath, read_only: m.readOnly });
/** @internal */
export const mountFromApi = (m: ApiMount): Mount => ({ hostPath: m.host_path, containerPath: m.container_path, readOnly: !!m.read_only });

// Placeholders (spec part 2, App template: resolved once at deploy and stored as final values).

/** @internal */
export const PLACEHOLDER = /\{\{([^{}]*)\}\}/g;
/** @internal */
export const RANDOM_MAX = 128;

/** @internal */
export type Placeholder =
  | { kind: "host_port"; port: string }
  | { kind: "container_port"; port: string }
  | { kind: "ip4" }
  | { kind: "ip6" }
  | { kind: "random"; length: number };

/** Parses the text inside `{{ }}`; a string is the reason it is not a valid placeholder. @internal */
export function parsePlaceholder(inner: string): Placeholder | string {
  const text = inner.trim();
  let m = /^(host_port|container_port)\.(.+)$/.exec(text);
  if (m) return m[1] === "host_port" ? { kind: "host_port", port: m[2] } : { kind: "container_port", port: m[2] };
  if (text === "instance.ip4") return { kind: "ip4" };
  if (text === "instance.ip6") return { kind: "ip6" };
  m = /^random:(\d+)$/.exec(text);
  if (m) {
    const length = Number(m[1]);
    return length >= 1 && length <= RANDOM_MAX ? { kind: "random", length } : `{{${inner}}}: random length must be 1 to ${RANDOM_MAX}`;
  }
  return `unknown placeholder {{${inner}}}: the placeholders are {{host_port.<name>}}, {{container_port.<name>}}, {{instance.ip4}}, {{instance.ip6}} and {{random:<length>}}`;
}

/** @internal */
export const hasPlaceholder = (value: string) => new RegExp(PLACEHOLDER.source).test(value);

/** The placeholders of a value, or the first reason one is invalid. @internal */
export function placeholdersOf(value: string): Placeholder[] | string {
  const out: Placeholder[] = [];
  for (const match of value.matchAll(new RegExp(PLACEHOLDER.source, "g"))) {
    const p = parsePlaceholder(match[1]);
    if (typeof p === "string") return p;
    out.push(p);
  }
  return out;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Whether `actual` is what `value` resolves to for some choice of its placeholders (a port is
 * digits, an address is address characters, {{random:n}} is n alphanumerics). This is how a
 * declared value with placeholders is compared with the final value the API stored.
 * @internal
 */
export function resolvesTo(value: string, actual: string): boolean {
  let pattern = "";
  let last = 0;
  for (const match of value.matchAll(new RegExp(PLACEHOLDER.source, "g"))) {
    pattern += escapeRegExp(value.slice(last, match.index));
    last = match.index! + match[0].length;
    const p = parsePlaceholder(match[1]);
    if (typeof p === "string") pattern += escapeRegExp(match[0]);
    else if (p.kind === "host_port" || p.kind === "container_port") pattern += "\\d{1,5}";
    else if (p.kind === "ip4") pattern += "[0-9.]+";
    else if (p.kind === "ip6") pattern += "[0-9A-Fa-f:.]+";
    else pattern += `[A-Za-z0-9]{${p.length}}`;
  }
  pattern += escapeRegExp(value.slice(last));
  return new RegExp(`^${pattern}$`).test(actual);
}

/** Template shapes as recorded, defaults filled in (the schemas below must produce exactly these). */
export interface TemplateEnv {
  key: string;
  value: string | null;
  description: string;
}
export interface TemplatePort {
  name: string;
  description: string;
  containerPort: number;
  protocol: "TCP" | "UDP";
  http: boolean;
}

const envEntry = z.strictObject(
  {
    key: z
      .string()
      .min(1, `must name an environment variable (${WHERE}: TemplateEnv key)`)
      .refine((key) => key === "" || ENV_NAME.test(key), envNameRule(WHERE)),
    /** null: the user must supply it when deploying. */
    value: z
      .string({ error: `must be a string or null (${WHERE}: TemplateEnv value)` })
      .max(65_536, `must be at most 65536 characters, 64 KiB (${EMULATOR_LIMIT})`)
      .nullable()
      .default(null),
    description: z.string().max(1000, `must be at most 1000 characters (${EMULATOR_LIMIT})`).default(""),
  },
  exactly("key, value, description"),
) satisfies z.ZodType<TemplateEnv>;

const portEntry = z.strictObject(
  {
    name: z
      .string()
      .regex(
        /^[a-z0-9]+(?:[-_][a-z0-9]+)*$/,
        `must be a slug: lower-case letters and digits, words joined by - or _ (${WHERE}: TemplatePort name is a slug)`,
      )
      .max(32, `must be at most 32 characters (${EMULATOR_LIMIT})`),
    description: z.string().max(1000, `must be at most 1000 characters (${EMULATOR_LIMIT})`).default(""),
    containerPort: zPort(WHERE),
    protocol: zProtocol(WHERE),
    http: z.boolean().default(false),
  },
  exactly("name, description, containerPort, protocol, http"),
) satisfies z.ZodType<TemplatePort>;

/**
 * The spec names AI, AUTOMATION, DEVOPS, GAMES, MEDIA, MONITORING, PRODUCTIVITY "and others"; the
 * emulator closes the list with the recipe categories (spec part 2, Recipe: category).
 */
const CATEGORIES: readonly string[] = RECIPE_CATEGORIES;

const inputs = z.object({
  name: z.string().min(1, `must not be empty (${WHERE}: name is required, globally unique)`).superRefine(trimmedLength(64, EMULATOR_LIMIT)),
  description: z
    .string()
    .min(1, `must not be empty (${WHERE}: description is required)`)
    .max(1000, `must be at most 1000 characters (${EMULATOR_LIMIT})`),
  image: zImage(WHERE),
  /** null (the default) means no category. */
  category: z
    .string()
    .refine(
      (c) => CATEGORIES.includes(c),
      `must be one of ${CATEGORIES.join(", ")} (the emulator's closed list: spec part 2, App templates names AI, AUTOMATION, DEVOPS, GAMES, MEDIA, MONITORING, PRODUCTIVITY "and others")`,
    )
    .nullable()
    .default(null),
  environment: z
    .array(envEntry)
    .max(200, `must have at most 200 entries (${EMULATOR_LIMIT})`)
    .superRefine(noDuplicates((e) => e.key, "environment key", WHERE))
    .default([]),
  mounts: z.array(zMount(WHERE)).max(50, `must have at most 50 mounts (${EMULATOR_LIMIT})`).default([]),
  ports: z
    .array(portEntry)
    .max(50, `must have at most 50 ports (${EMULATOR_LIMIT})`)
    .superRefine(noDuplicates((p) => p.name, "port name", `${WHERE}: TemplatePort name is unique within the template`))
    .default([]),
});
type Inputs = z.infer<typeof inputs>;
// The public AppTemplateArgs and the schema above declare the same fields (checked by the compiler).
const _fieldsMatch: InputsMatch<AppTemplateArgs, z.infer<typeof inputs>> = true;

const rules: Rule<Inputs>[] = [
  {
    fields: ["ports"],
    check: (i) =>
      (i.ports ?? []).filter((p) => p.http).length > 1
        ? `at most one port per template may have http true (${WHERE}: TemplatePort http)`
        : undefined,
  },
  {
    fields: ["environment", "ports"],
    property: "environment",
    check: (i) => {
      const slugs = new Set((i.ports ?? []).map((p) => p.name));
      for (const [index, e] of (i.environment ?? []).entries()) {
        if (e.value === null) continue;
        const found = placeholdersOf(e.value);
        if (typeof found === "string")
          return `environment[${index}] (${e.key}): ${found} (${WHERE}: unknown placeholders fail the request)`;
        for (const p of found) {
          if ((p.kind === "host_port" || p.kind === "container_port") && !slugs.has(p.port)) {
            return `environment[${index}] (${e.key}): {{${p.kind}.${p.port}}} names no port of this template (ports: ${[...slugs].join(", ") || "none"}) (${WHERE}: unresolvable references fail the request)`;
          }
        }
      }
      return undefined;
    },
  },
];

export interface AppTemplateOutputs extends Record<string, unknown> {
  name: string;
  description: string;
  image: string;
  category: string | null;
  environment: TemplateEnv[];
  mounts: Mount[];
  ports: TemplatePort[];
  createdAt: string;
  updatedAt: string;
}

// 2. API mapping.
/** @internal */
export interface ApiTemplatePort {
  name: string;
  description?: string;
  container_port: number;
  protocol: "TCP" | "UDP";
  http: boolean;
}

/** @internal */
export interface ApiTemplate {
  id: string;
  name: string;
  description: string;
  image: string;
  category: string | null;
  environment?: Array<{ key: string; value: string | null; description?: string }>;
  mounts?: ApiMount[];
  ports?: ApiTemplatePort[];
  created?: string;
  updated?: string;
}

const toOutputs = (t: ApiTemplate): AppTemplateOutputs => ({
  name: t.name,
  description: t.description,
  image: t.image,
  category: t.category ?? null,
  environment: (t.environment ?? []).map((e) => ({ key: e.key, value: e.value ?? null, description: e.description ?? "" })),
  mounts: (t.mounts ?? []).map(mountFromApi),
  ports: (t.ports ?? []).map((p) => ({
    name: p.name,
    description: p.description ?? "",
    containerPort: numberOf(p.container_port)!,
    protocol: p.protocol,
    http: !!p.http,
  })),
  createdAt: t.created ?? "",
  updatedAt: t.updated ?? "",
});

const FIELDS = ["name", "description", "image", "category", "environment", "mounts", "ports"] as const;

function toApi(i: Partial<Inputs>, fields: readonly string[]): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const f of fields) {
    if (f === "environment") body.environment = i.environment!.map((e) => ({ key: e.key, value: e.value, description: e.description }));
    else if (f === "mounts") body.mounts = i.mounts!.map(mountToApi);
    else if (f === "ports")
      body.ports = i.ports!.map((p) => ({
        name: p.name,
        description: p.description,
        container_port: p.containerPort,
        protocol: p.protocol,
        http: p.http,
      }));
    else body[f] = i[f as keyof Inputs];
  }
  return body;
}

/** Writes are staff only: a normal token gets 400 (administrator endpoint) or 403; say what to do. */
function staffOnly(ctx: OperationContext, err: unknown): never {
  if (err instanceof ApiError && (err.status === 403 || (err.status === 400 && /administrator|staff|operator/i.test(err.reason ?? "")))) {
    throw new Error(
      `${ctx.label}: app templates are staff-curated: creating, changing and deleting them needs an operator (staff) token (${err.message}). ` +
        `Set svc:token (pulumi config set --secret svc:token ...) to an operator token in the stack that declares AppTemplate resources.`,
    );
  }
  throw err;
}

async function templateByName(ctx: OperationContext, name: string): Promise<ApiTemplate | undefined> {
  return (await listAll<ApiTemplate>(ctx.client, "/v1/app-templates", { name })).find((t) => t.name === name);
}

/** @internal */
export async function fetchTemplate(ctx: OperationContext, id: string): Promise<ApiTemplate | undefined> {
  return ifFound(ctx.client.get<ApiTemplate>(`/v1/app-templates/${id}`));
}

// 3. The spec: what a change does (policies) and the API calls.
/** @internal */
export const appTemplateSpec: ResourceSpec<Inputs, AppTemplateOutputs> = {
  kind: "AppTemplate",
  doc: "A staff-curated app definition that Apps deploy from (`templateId`). Every change is made in place. Needs an operator (staff) token: set svc:token to one in the stack that declares it.",
  inputs,
  rules,
  // What a change does: PATCH takes every field (lists replace; category null clears).
  policies: eachOf(FIELDS, updateRequest),
  stableOutputs: ["createdAt"],
  pricing: { notMetered: "a definition apps deploy from: no rate card meters it" },
  api: {
    // The name is globally unique.
    async conflict(ctx, i) {
      const existing = await templateByName(ctx, i.name);
      return existing
        ? {
            id: String(existing.id),
            description: `an app template named "${i.name}" already exists (id ${existing.id})`,
            alternative: "choose another name",
          }
        : undefined;
    },
    async create(ctx, i) {
      try {
        const t = await ctx.client.post<ApiTemplate>("/v1/app-templates", toApi(i, FIELDS));
        return { id: idOf(t.id)! };
      } catch (err) {
        return staffOnly(ctx, err);
      }
    },
    // conflict showed the name was free before the POST, so a template found by name now is ours.
    async findExisting(ctx, i) {
      return idOf((await templateByName(ctx, i.name))?.id) ?? undefined;
    },
    async read(ctx, id) {
      const t = await fetchTemplate(ctx, id);
      return t && toOutputs(t);
    },
    update: {
      async updateRequest(ctx, id, _olds, news, changed) {
        try {
          await ctx.client.patch(`/v1/app-templates/${id}`, toApi(news, changed));
        } catch (err) {
          staffOnly(ctx, err);
        }
      },
    },
    // Answered 204 once deleted (spec part 2, DELETE /v1/app-templates/{id}).
    goneOnAnswer: true,
    async delete(ctx, id) {
      try {
        await ctx.client.delete(`/v1/app-templates/${id}`);
      } catch (err) {
        if (err instanceof ApiError && err.notFound) throw err;
        staffOnly(ctx, err);
      }
      return null;
    },
  },
};

// 4. The public Args: the class is generated from them and the spec (resources/generated/).
export interface TemplateEnvArgs {
  /** Variable name, unique within the template: a letter or _, then letters, digits, _, . and -, at most 255 characters (the emulator's limit). */
  key: pulumi.Input<string>;
  /**
   * Default value; may contain placeholders resolved at deploy ({{host_port.<port name>}},
   * {{container_port.<port name>}}, {{instance.ip4}}, {{instance.ip6}}, {{random:<1-128>}}).
   * null (the default): whoever deploys must supply it. At most 64 KiB (the emulator's limit).
   */
  value?: pulumi.Input<string | null>;
  /** At most 1000 characters (the emulator's limit). */
  description?: pulumi.Input<string>;
}

export interface TemplatePortArgs {
  /** Slug (lower-case letters, digits, - and _), at most 32 characters (the emulator's limit), unique within the template; placeholders reference it. */
  name: pulumi.Input<string>;
  /** At most 1000 characters (the emulator's limit). */
  description?: pulumi.Input<string>;
  /** Port the container listens on; the deployed app's host port defaults to it when free. */
  containerPort: pulumi.Input<number>;
  /** TCP (default) or UDP. */
  protocol?: pulumi.Input<"TCP" | "UDP">;
  /** Serves HTTP (eligible for a custom domain); at most one port per template. */
  http?: pulumi.Input<boolean>;
}

export interface AppMountArgs {
  /** Absolute path on the instance host, at most 4096 characters (the emulator's limit). */
  hostPath: pulumi.Input<string>;
  /** Absolute mount path inside the container, at most 4096 characters (the emulator's limit). */
  containerPath: pulumi.Input<string>;
  /** Mount read-only (default false). */
  readOnly?: pulumi.Input<boolean>;
}

export interface AppTemplateArgs extends CommonArgs {
  /** Globally unique name, 1 to 64 characters (the emulator's limit). Patched in place. */
  name: pulumi.Input<string>;
  /** 1 to 1000 characters (the emulator's limit). */
  description: pulumi.Input<string>;
  /** Container image with a tag, e.g. louislam/uptime-kuma:1.23.13; lower case before the tag, at most 255 characters (the emulator's limits). */
  image: pulumi.Input<string>;
  /**
   * Catalogue category, one of DEFAULT, GAMES, SOFTWARE, INFRASTRUCTURE, AI, MEDIA, TOOLS,
   * DATABASES, MONITORING, PRODUCTIVITY, DEVOPS, AUTOMATION, NETWORK (the spec names some "and
   * others"; this closed list is the emulator's); omit or null for none.
   */
  category?: pulumi.Input<string | null>;
  /** Default environment, at most 200 entries (the emulator's limit); replaced as a whole in place. */
  environment?: pulumi.Input<pulumi.Input<TemplateEnvArgs>[]>;
  /** Default mounts, at most 50 (the emulator's limit); replaced as a whole in place. */
  mounts?: pulumi.Input<pulumi.Input<AppMountArgs>[]>;
  /** Named ports, at most 50 (the emulator's limit; at most one with http true); replaced as a whole in place. */
  ports?: pulumi.Input<pulumi.Input<TemplatePortArgs>[]>;
}
