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
import { z } from "../provider/fields/zod";
import { autonamed, computed, fieldSet, fromFields, input, type InputsOf, type OutputsOf, createdAt } from "../provider/fields/declare";
import { member, type Nested, nested } from "../provider/fields/objectInputs";
import { outputsFromAnswer, toWire } from "../provider/fields/convert";
import type { OperationContext } from "../provider/context";
import { ApiError, ifFound } from "../provider/errors";
import { listAll } from "../provider/client/paging";
import { exactly, hasTag, noDuplicates, zAbsolutePath, zPort, zProtocol } from "../provider/fields/constraints";
import { idOf, numberOf } from "../provider/client/wire";
import { type ResourceDefinition, type Rule } from "../provider/definition";
import type {
  AppMountArgs,
  AppTemplateArgs,
  AppTemplateOutputs,
  Mount,
  TemplateEnv,
  TemplateEnvArgs,
  TemplatePort,
  TemplatePortArgs,
} from "./generated/appTemplate";
import { updateRequest } from "../provider/fields/changeEffects";

const WHERE = "spec part 2, App template";
// Shared with apps; this kind's own inputs are section 1.

/** @internal */
export const zImage = (where: string) =>
  z
    .string({ error: `must be a container image with a tag (${where})` })
    .refine(hasTag, `must be a container image with a tag, such as nginx:1.27 or ghcr.io/org/app:v2 (${where}: image with tag)`);

/**
 * AppVolumeMount, camelCase: a volume mount of a template or an app (`where`: whose limits the
 * messages cite; `from`: the module that declares its interfaces, for a kind that takes them from
 * this one). @internal
 */
export const mountSet = (where: string, from?: string) =>
  nested(
    { doc: "A volume mount (AppVolumeMount)", args: "AppMountArgs", outputs: "Mount", inputMembers: true, from },
    {
      hostPath: member(zAbsolutePath(where, { what: "on the instance host", shape: "AppVolumeMount" }), {
        doc: "Absolute path on the instance host.",
        wire: "host_path",
      }),
      containerPath: member(zAbsolutePath(where, { what: "inside the container", shape: "AppVolumeMount" }), {
        doc: "Absolute mount path inside the container.",
        wire: "container_path",
      }),
      readOnly: member(z.boolean().default(false), { doc: "Mount read-only (default false).", wire: "read_only" }),
    },
    (shape) => z.strictObject(shape, exactly("hostPath, containerPath, readOnly")),
  );

type MountValue = ReturnType<typeof mountSet>["__output"];

/** @internal */
export interface ApiMount {
  host_path: string;
  container_path: string;
  read_only?: boolean;
}

/** @internal */
export const mountToApi = (m: MountValue): ApiMount => ({ host_path: m.hostPath, container_path: m.containerPath, read_only: m.readOnly });
/** @internal */
export const mountFromApi = (m: ApiMount): MountValue => ({
  hostPath: m.host_path,
  containerPath: m.container_path,
  readOnly: !!m.read_only,
});

// Placeholders (spec part 2, App template: resolved once at deploy and stored as final values).

/** @internal */
export const PLACEHOLDER = /\{\{([^{}]*)\}\}/g;
/** @internal */
const RANDOM_MAX = 128;

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

// 1. Inputs and outputs, each field declared once: type and limits, doc, what a change does, how it is read (provider/fields/declare.ts).
/** @internal A default environment variable of the template (the API's TemplateEnv). */
export const templateEnv = nested(
  {
    doc: "A default environment variable of an app template (TemplateEnv)",
    args: "TemplateEnvArgs",
    outputs: "TemplateEnv",
    inputMembers: true,
  },
  {
    key: member(z.string().min(1, `must name an environment variable (${WHERE}: TemplateEnv key)`), {
      doc: "Variable name, unique within the template.",
    }),
    value: member(
      z
        .string({ error: `must be a string or null (${WHERE}: TemplateEnv value)` })
        .nullable()
        .default(null),
      {
        doc: "Default value; may contain placeholders resolved at deploy ({{host_port.<port name>}}, {{container_port.<port name>}}, {{instance.ip4}}, {{instance.ip6}}, {{random:<1-128>}}). null (the default): whoever deploys must supply it.",
      },
    ),
    description: member(z.string().default(""), { doc: "What the variable is for." }),
  },
  (shape) => z.strictObject(shape, exactly("key, value, description")),
);

/** @internal A named port of the template (the API's TemplatePort). */
export const templatePort = nested(
  { doc: "A named port of an app template (TemplatePort)", args: "TemplatePortArgs", outputs: "TemplatePort", inputMembers: true },
  {
    name: member(
      z
        .string()
        .regex(
          /^[a-z0-9]+(?:[-_][a-z0-9]+)*$/,
          `must be a slug: lower-case letters and digits, words joined by - or _ (${WHERE}: TemplatePort name is a slug)`,
        ),
      { doc: "Slug (lower-case letters, digits, - and _), unique within the template; placeholders reference it." },
    ),
    description: member(z.string().default(""), { doc: "What the port serves." }),
    containerPort: member(zPort(WHERE), {
      doc: "Port the container listens on; the deployed app's host port defaults to it when free.",
      wire: "container_port",
    }),
    protocol: member(zProtocol(WHERE), { doc: "TCP (default) or UDP." }),
    http: member(z.boolean().default(false), { doc: "Serves HTTP (eligible for a custom domain); at most one port per template." }),
  },
  (shape) => z.strictObject(shape, exactly("name, description, containerPort, protocol, http")),
);

/** @internal A default volume mount of the template. */
export const templateMount = mountSet(WHERE);

/** @internal */
export const appTemplateFields = fieldSet({
  name: autonamed(
    input(z.string().min(1, `must not be empty (${WHERE}: name is required, globally unique)`), {
      doc: "Globally unique name (required).",
      onChange: updateRequest,
    }),
  ),
  description: input(z.string().min(1, `must not be empty (${WHERE}: description is required)`), {
    doc: "What the app does (required).",
    onChange: updateRequest,
  }),
  image: input(zImage(WHERE), {
    doc: "Container image with a tag, e.g. louislam/uptime-kuma:1.23.13.",
    onChange: updateRequest,
  }),
  category: input(z.string().nullable().default(null), {
    doc: "Catalogue category, such as AI, AUTOMATION, DEVOPS, GAMES, MEDIA, MONITORING or PRODUCTIVITY (the spec's examples; the API decides which it accepts); omit or null for none.",
    onChange: updateRequest,
    fromAnswer: (t: ApiTemplate) => t.category ?? null,
  }),
  environment: input(
    z
      .array(templateEnv.schema)
      .superRefine(noDuplicates((e) => e.key, "environment key", WHERE))
      .default([]),
    {
      doc: "Default environment; replaced as a whole.",
      onChange: updateRequest,
      fromAnswer: (t: ApiTemplate) =>
        (t.environment ?? []).map((e) => ({ key: e.key, value: e.value ?? null, description: e.description ?? "" })),
    },
  ),
  mounts: input(z.array(templateMount.schema).default([]), {
    doc: "Default mounts; replaced as a whole.",
    onChange: updateRequest,
    fromAnswer: (t: ApiTemplate) => (t.mounts ?? []).map(mountFromApi),
  }),
  ports: input(
    z
      .array(templatePort.schema)
      .superRefine(noDuplicates((p) => p.name, "port name", `${WHERE}: TemplatePort name is unique within the template`))
      .default([]),
    {
      doc: "Named ports (at most one with http true); replaced as a whole.",
      onChange: updateRequest,
      fromAnswer: (t: ApiTemplate) =>
        (t.ports ?? []).map((p) => ({
          name: p.name,
          description: p.description ?? "",
          containerPort: numberOf(p.container_port)!,
          protocol: p.protocol,
          http: !!p.http,
        })),
    },
  ),
  createdAt,
  updatedAt: computed<string>({ doc: "Last change (ISO 8601), as the API reports it.", fromAnswer: (t: ApiTemplate) => t.updated ?? "" }),
});
type Inputs = InputsOf<typeof appTemplateFields>;
type Outputs = OutputsOf<typeof appTemplateFields>;

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

// 2. API mapping.
/** @internal */
interface ApiTemplatePort {
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

const toOutputs = (t: ApiTemplate): Outputs => outputsFromAnswer(appTemplateFields, t);

/** A request body of `fields` in the API's names, each nested entry too. */
function toApi(i: Partial<Inputs>, fields: readonly string[]): Record<string, unknown> {
  const nestedOf: Record<string, Nested | undefined> = { environment: templateEnv, mounts: templateMount, ports: templatePort };
  return Object.fromEntries(
    fields.map((f) => {
      const set = nestedOf[f];
      const value = i[f as keyof Inputs];
      return [f, set ? (value as object[]).map((e) => toWire(set, e)) : value];
    }),
  );
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

// 3. The definition: what a change does (its effects) and the API calls.
/** @internal */
export const appTemplateDefinition: ResourceDefinition<Inputs, Outputs> = {
  kind: "AppTemplate",
  doc: "A staff-curated app definition that Apps deploy from (`templateId`). Every change is made in place. Needs an operator (staff) token: set svc:token to one in the stack that declares it.",
  // What a change does: PATCH takes every field (lists replace; category null clears).
  ...fromFields(appTemplateFields),
  rules,
  // Names are unique (conflict): a replacement that keeps its name deletes the old one first.
  uniqueKey: ["name"],
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
        const t = await ctx.client.post<ApiTemplate>(
          "/v1/app-templates",
          toApi(
            i,
            Object.keys(appTemplateFields).filter((f) => appTemplateFields[f as keyof typeof appTemplateFields].role === "input"),
          ),
        );
        return { id: idOf(t.id)! };
      } catch (err) {
        return staffOnly(ctx, err);
      }
    },
    // conflict showed the name was free before the POST, so a template found by name now is ours.
    async findExisting(ctx, i) {
      return idOf((await templateByName(ctx, i.name))?.id) ?? undefined;
    },
    async get(ctx, id) {
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

// 4. The public Args: generated from the fields, with the class (resources/generated/appTemplate.ts).
export type { AppTemplateArgs, AppTemplateOutputs, TemplateEnvArgs, TemplateEnv, TemplatePortArgs, TemplatePort, AppMountArgs, Mount };
