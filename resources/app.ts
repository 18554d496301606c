/**
 * App — a container deployed on an instance, from a custom image or from an app template
 * (spec part 2, App, Apps, App templates: deploy rules and placeholders).
 *
 *   POST   /v1/instances/{iid}/apps                 name, image (with tag), environment, mounts, ports, domain -> 201 workflow and app
 *   POST   /v1/instances/{iid}/apps/from-template   template_id (a string), name, environment overrides (string
 *                                                   overrides, null removes), mounts (replace the template's), domain
 *   GET    /v1/apps/{id}                            detail with live port allocations and statistics
 *   PATCH  /v1/apps/{id}                            image, environment, mounts, ports (each replaces) -> workflow; redeploys
 *   POST   /v1/apps/{id}/start | stop               workflow
 *   DELETE /v1/apps/{id}                            workflow; stops and removes the container, port allocations and app
 *
 * Two modes: `image` (a custom image, with `ports`) or `templateId` (image and ports come from
 * the template; host ports are allocated at deploy). For a template app `environment` holds the
 * overrides: a string replaces the template's default, null removes it; the API resolves
 * placeholders once and stores the final values, exposed (secret) as `resolvedEnvironment`.
 * Changing an override later is a PATCH of the whole environment computed from the stored
 * values; placeholders in a new value are resolved the way the API resolves them at deploy.
 */
import { randomInt } from "node:crypto";
import type * as pulumi from "@pulumi/pulumi";
import { isEqual } from "lodash";
import { z } from "zod";
import { createdDuring, type OperationContext } from "../provider/context";
import { resourceOf, workflowOf } from "../provider/envelope";
import { ifFound } from "../provider/errors";
import { listAll } from "../provider/paging";
import { type CommonArgs } from "../provider/resource";
import {
  emulatorLimit,
  exactly,
  type InputsMatch,
  keysMatching,
  noDuplicates,
  trimmedLength,
  zId,
  zPort,
  zProtocol,
} from "../provider/schema";
import { compact, idOf, numberOf } from "../provider/wire";
import { command, replace, type ResourceSpec, type Rule, updateRequest } from "../provider/spec";
import {
  ENV_NAME,
  envNameRule,
  fetchTemplate,
  hasPlaceholder,
  mountFromApi,
  mountToApi,
  parsePlaceholder,
  PLACEHOLDER,
  placeholdersOf,
  resolvesTo,
  zImage,
  zMount,
  type ApiMount,
  type ApiTemplate,
  type AppMountArgs,
  type Mount,
} from "./appTemplate";

const WHERE = "spec part 2, Apps";
/** Limits the spec does not give (name length, environment names and sizes, list sizes): the emulator's (emulator/README.md, Apps). */
const EMULATOR_LIMIT = emulatorLimit(WHERE);

// 1. Inputs and rules.
/** A port as recorded: protocol and http filled in (the schema below must produce exactly this). */
export interface AppPort {
  hostPort: number;
  containerPort: number;
  protocol: "TCP" | "UDP";
  http: boolean;
}

const portMapping = z.strictObject(
  {
    hostPort: zPort(WHERE),
    containerPort: zPort(WHERE),
    protocol: zProtocol(WHERE),
    /** Serves HTTP traffic eligible for a custom domain. */
    http: z.boolean().default(false),
  },
  exactly("hostPort, containerPort, protocol, http"),
) satisfies z.ZodType<AppPort>;

const inputs = z.object({
  instanceId: zId("instance id"),
  name: z
    .string()
    .min(1, `must not be empty (${WHERE}: name is required, unique within the workspace)`)
    .superRefine(trimmedLength(64, EMULATOR_LIMIT)),
  image: zImage(WHERE).optional(),
  templateId: zId("app template id").optional(),
  environment: z
    .record(
      // Names are checked by keysMatching below, on the key itself (zod's key check loses the message).
      z.string(),
      z
        .string({ error: `environment values must be strings (or null, for a template app, to remove a template default) (${WHERE})` })
        .max(65_536, `environment values must be at most 65536 characters, 64 KiB (${EMULATOR_LIMIT})`)
        .nullable(),
    )
    .superRefine(keysMatching(ENV_NAME, `environment names ${envNameRule(WHERE)}`))
    .optional(),
  mounts: z.array(zMount(WHERE)).max(50, `must have at most 50 mounts (${EMULATOR_LIMIT})`).optional(),
  ports: z
    .array(portMapping)
    .max(50, `must have at most 50 ports (${EMULATOR_LIMIT})`)
    .superRefine(noDuplicates((p) => `${p.hostPort}/${p.protocol}`, "host port and protocol", WHERE))
    .optional(),
  domain: z
    .string()
    .regex(
      /^(?=.{1,253}$)(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\.)+[a-zA-Z]{2,63}$/,
      `must be a domain name such as app.example.com (${WHERE})`,
    )
    .optional(),
  running: z.boolean().default(true),
});
type Inputs = z.infer<typeof inputs>;
// The public AppArgs and the schema above declare the same fields (checked by the compiler).
const _fieldsMatch: InputsMatch<AppArgs, z.infer<typeof inputs>> = true;

const rules: Rule<Inputs>[] = [
  {
    fields: ["image", "templateId"],
    property: "image",
    check: (i) =>
      i.image === undefined && i.templateId === undefined
        ? `set image (a custom container image with a tag) or templateId (deploy from an app template) (${WHERE}: POST apps or apps/from-template)`
        : i.image !== undefined && i.templateId !== undefined
          ? `set either image or templateId, not both: a template app takes its image from the template (${WHERE})`
          : undefined,
  },
  {
    fields: ["templateId", "ports"],
    property: "ports",
    check: (i) =>
      i.templateId !== undefined && i.ports !== undefined
        ? `a template app takes its ports from the template (host ports are allocated at deploy); ports are for custom-image apps (${WHERE}: from-template)`
        : undefined,
  },
  {
    fields: ["templateId", "environment"],
    property: "environment",
    check: (i) => {
      const nulls = Object.entries(i.environment ?? {})
        .filter(([, v]) => v === null)
        .map(([k]) => k);
      if (i.templateId === undefined && nulls.length)
        return `null removes a template default, so it is only for template apps; give ${nulls.join(", ")} a string value or drop it (${WHERE})`;
      if (i.templateId === undefined) return undefined;
      for (const [key, value] of Object.entries(i.environment ?? {})) {
        if (value === null) continue;
        const found = placeholdersOf(value);
        if (typeof found === "string")
          return `environment.${key}: ${found} (spec part 2, App template: unknown placeholders fail the request)`;
      }
      return undefined;
    },
  },
  {
    fields: ["domain", "ports", "templateId"],
    property: "domain",
    check: (i) =>
      i.domain !== undefined && i.templateId === undefined && !(i.ports ?? []).some((p) => p.http)
        ? `a domain needs at least one port with http true (${WHERE}: domain needs at least one port with http true)`
        : undefined,
  },
];

export interface AppOutputs extends Record<string, unknown> {
  workspaceId: string;
  instanceId: string;
  name: string;
  image: string;
  templateId?: string;
  /** The declared environment as the API holds it (secret). */
  environment?: Record<string, string | null>;
  /** The final values the API stores (template placeholders resolved; secret). */
  resolvedEnvironment: Record<string, string>;
  mounts: Mount[];
  ports: AppPort[];
  domain?: string;
  running: boolean;
  /** Resource state: PENDING, AVAILABLE, FAILED, DELETING... */
  state: string;
  /** Container id of the current deploy (null before the first deploy completes). */
  containerId: string | null;
  /** Live port allocations. */
  portAllocations: AppPort[];
  createdAt: string;
}

// 2. API mapping.
interface ApiPort {
  host_port: number;
  container_port: number;
  protocol: "TCP" | "UDP";
  http: boolean;
}

interface ApiApp {
  id: string;
  name: string;
  owner?: { id: string } | null;
  instance: { id: string } | string;
  image: string;
  environment?: Record<string, string>;
  mounts?: ApiMount[];
  ports?: ApiPort[];
  domain?: string | null;
  template_id?: string | null;
  state: string;
  running?: boolean;
  live?: { container_id?: string | null; ports?: ApiPort[]; statistics?: unknown } | null;
  created?: string;
}

const portFromApi = (p: ApiPort): AppPort => ({
  hostPort: numberOf(p.host_port)!,
  containerPort: numberOf(p.container_port)!,
  protocol: p.protocol,
  http: !!p.http,
});
const portToApi = (p: AppPort): ApiPort => ({ host_port: p.hostPort, container_port: p.containerPort, protocol: p.protocol, http: p.http });

/**
 * The declared environment as the API holds it. A custom app's environment is the API's. For a
 * template app each declared override is compared with the stored final value: null matches an
 * absent variable, a value with placeholders matches what it could resolve to.
 */
function environmentEcho(
  api: Record<string, string>,
  templateApp: boolean,
  declared: Record<string, string | null> | undefined,
): Record<string, string | null> {
  if (!templateApp) return { ...api };
  const echo: Record<string, string | null> = {};
  for (const [key, value] of Object.entries(declared ?? {})) {
    const actual = Object.prototype.hasOwnProperty.call(api, key) ? api[key] : null;
    if (value === null) echo[key] = actual;
    else echo[key] = actual !== null && (actual === value || (hasPlaceholder(value) && resolvesTo(value, actual))) ? value : actual;
  }
  return echo;
}

function toOutputs(a: ApiApp, prior: Partial<Inputs>): AppOutputs {
  const env = a.environment ?? {};
  const templateId = idOf(a.template_id) ?? undefined;
  const live = a.live ?? null;
  return compact({
    workspaceId: idOf(a.owner) ?? "",
    instanceId: idOf(a.instance)!,
    name: a.name,
    image: a.image,
    templateId,
    environment: environmentEcho(env, templateId !== undefined, prior.environment),
    resolvedEnvironment: { ...env },
    mounts: (a.mounts ?? []).map(mountFromApi),
    ports: (a.ports ?? []).map(portFromApi),
    domain: a.domain ?? undefined,
    // `running` is the emulator's member; without it, live statistics mean a running container.
    running: a.running ?? !!live?.statistics,
    state: a.state,
    containerId: live?.container_id ?? null,
    portAllocations: (live?.ports ?? a.ports ?? []).map(portFromApi),
    createdAt: a.created ?? "",
  }) as AppOutputs;
}

async function fetchApp(ctx: OperationContext, id: string): Promise<ApiApp | undefined> {
  return ifFound(ctx.client.get<ApiApp>(`/v1/apps/${id}`));
}

const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/**
 * Resolves placeholders the way the API does at deploy (spec part 2, App template): ports by the
 * template port's slug (its host port is the app's mapping of that container port and protocol),
 * addresses from the instance, random values from a CSPRNG.
 */
async function resolvePlaceholders(
  ctx: OperationContext,
  value: string,
  key: string,
  app: ApiApp,
  template: ApiTemplate | undefined,
): Promise<string> {
  let instance: { ips?: Array<{ address: string; family: string }> } | undefined;
  const address = async (family: "IPv4" | "IPv6") => {
    instance ??= await ctx.client.get(`/v1/instances/${idOf(app.instance)}`);
    const found = instance?.ips?.find((ip) => ip.family === family)?.address;
    if (!found)
      throw new Error(
        `${ctx.label}: environment.${key}: {{instance.${family === "IPv4" ? "ip4" : "ip6"}}}: instance ${idOf(app.instance)} has no ${family} address`,
      );
    return found;
  };
  let out = "";
  let last = 0;
  for (const match of value.matchAll(new RegExp(PLACEHOLDER.source, "g"))) {
    out += value.slice(last, match.index);
    last = match.index! + match[0].length;
    const p = parsePlaceholder(match[1]);
    if (typeof p === "string") throw new Error(`${ctx.label}: environment.${key}: ${p}`);
    if (p.kind === "random") out += Array.from({ length: p.length }, () => ALNUM[randomInt(ALNUM.length)]).join("");
    else if (p.kind === "ip4") out += await address("IPv4");
    else if (p.kind === "ip6") out += await address("IPv6");
    else {
      const port = template?.ports?.find((tp) => tp.name === p.port);
      if (!port)
        throw new Error(
          `${ctx.label}: environment.${key}: {{${p.kind}.${p.port}}}: ${template ? `the template has no port named ${p.port}` : "the app's template no longer exists"}`,
        );
      if (p.kind === "container_port") out += String(numberOf(port.container_port));
      else {
        const mapped = (app.ports ?? []).find(
          (m) => numberOf(m.container_port) === numberOf(port.container_port) && m.protocol === port.protocol,
        );
        if (!mapped)
          throw new Error(
            `${ctx.label}: environment.${key}: {{host_port.${p.port}}}: the app maps no host port to container port ${port.container_port}/${port.protocol}`,
          );
        out += String(numberOf(mapped.host_port));
      }
    }
  }
  return out + value.slice(last);
}

/**
 * The full environment a PATCH sends for a template app: the stored values, with the changed
 * overrides applied (a string sets, null removes, a dropped override restores the template's
 * default).
 */
async function templateEnvironment(ctx: OperationContext, id: string, olds: AppOutputs, news: Inputs): Promise<Record<string, string>> {
  const app = await fetchApp(ctx, id);
  if (!app) throw new Error(`${ctx.label}: app ${id} disappeared`);
  const env: Record<string, string> = { ...(app.environment ?? {}) };
  const before = olds.environment ?? {};
  const after = news.environment ?? {};
  let template: ApiTemplate | undefined | null = null;
  const templateOnce = async () => (template === null ? (template = await fetchTemplate(ctx, news.templateId!)) : template);
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (key in after) {
      const value = after[key];
      if (isEqual(before[key], value)) continue;
      if (value === null) delete env[key];
      else env[key] = hasPlaceholder(value) ? await resolvePlaceholders(ctx, value, key, app, await templateOnce()) : value;
      continue;
    }
    // No longer overridden: back to the template's default.
    const t = await templateOnce();
    if (!t)
      throw new Error(
        `${ctx.label}: environment.${key} is no longer declared, but template ${news.templateId} no longer exists to restore its default; declare ${key} explicitly (or null to remove it)`,
      );
    const entry = t.environment?.find((e) => e.key === key);
    if (!entry) delete env[key];
    else if (entry.value === null)
      throw new Error(
        `${ctx.label}: environment.${key}: the template leaves ${key} for you to supply (its default is null); keep a value for it`,
      );
    else env[key] = await resolvePlaceholders(ctx, entry.value, key, app, t);
  }
  return env;
}

async function runWorkflow(ctx: OperationContext, answer: unknown, step: string): Promise<void> {
  await ctx.waitForWorkflow(workflowOf(answer), step);
}

// 3. The spec: what a change does (policies) and the API calls.
/** @internal */
export const appSpec: ResourceSpec<Inputs, AppOutputs> = {
  kind: "App",
  doc: "A container app on an instance, from a custom image or an app template.",
  inputs,
  rules,
  // What a change does.
  policies: {
    instanceId: replace,
    name: replace,
    templateId: replace,
    domain: replace,
    image: updateRequest,
    environment: updateRequest,
    mounts: updateRequest,
    ports: updateRequest,
    running: command("power"),
  },
  // Names are unique in the workspace and host ports on the instance: a replacement created
  // while the old app still exists would collide on one or the other.
  deleteFirst: true,
  stableOutputs: ["createdAt", "workspaceId"],
  secretOutputs: ["environment", "resolvedEnvironment"],
  broken: (o) => o.state === "FAILED",
  pricing: { notMetered: "runs on its instance, which is priced as an Instance" },
  api: {
    async create(ctx, i) {
      let answer: unknown;
      if (i.templateId !== undefined) {
        const template = await fetchTemplate(ctx, i.templateId);
        if (!template) throw new Error(`${ctx.label}: templateId ${i.templateId}: no such app template`);
        if (i.domain !== undefined && !(template.ports ?? []).some((p) => p.http)) {
          throw new Error(
            `${ctx.label}: domain: template "${template.name}" has no http port, so the app cannot take a domain (spec part 2, from-template: domain only when the template has an http port)`,
          );
        }
        const missing = (template.environment ?? [])
          .filter((e) => e.value === null && typeof i.environment?.[e.key] !== "string")
          .map((e) => e.key);
        if (missing.length)
          throw new Error(
            `${ctx.label}: environment: template "${template.name}" leaves ${missing.join(", ")} for you to supply (TemplateEnv value null); set ${missing.length > 1 ? "them" : "it"} in environment`,
          );
        answer = await ctx.client.post(
          `/v1/instances/${i.instanceId}/apps/from-template`,
          compact({
            template_id: String(i.templateId),
            name: i.name,
            environment: i.environment ?? {},
            mounts: i.mounts?.map(mountToApi),
            domain: i.domain,
          }),
        );
      } else {
        answer = await ctx.client.post(
          `/v1/instances/${i.instanceId}/apps`,
          compact({
            name: i.name,
            image: i.image,
            environment: i.environment ?? {},
            mounts: (i.mounts ?? []).map(mountToApi),
            ports: (i.ports ?? []).map(portToApi),
            domain: i.domain,
          }),
        );
      }
      return { id: idOf(resourceOf<ApiApp>(answer, ["app"]).id)!, workflow: workflowOf(answer) };
    },
    // Names are unique in the workspace (spec part 2, Apps): the instance's workspace is the app's.
    async conflict(ctx, i) {
      const instance = await ifFound(ctx.client.get<{ workspace?: { id: string } | null }>(`/v1/instances/${i.instanceId}`));
      const workspaceId = idOf(instance?.workspace);
      if (!workspaceId) return undefined;
      const found = (await listAll<ApiApp>(ctx.client, `/v1/workspaces/${workspaceId}/apps`, { name: i.name })).find(
        (a) => a.name === i.name,
      );
      return (
        found && {
          id: String(found.id),
          description: `an app named "${i.name}" already exists in the workspace (id ${found.id}, ${found.state})`,
          alternative: "choose another name",
        }
      );
    },
    async findExisting(ctx, i) {
      const found = await listAll<ApiApp>(ctx.client, `/v1/instances/${i.instanceId}/apps`, { name: i.name });
      return idOf(found.find((a) => a.name === i.name && createdDuring(ctx, a.created))?.id) ?? undefined;
    },
    async read(ctx, id, prior) {
      const a = await fetchApp(ctx, id);
      return a && toOutputs(a, prior);
    },
    settled: (o) => (o.state === "FAILED" ? "app is FAILED" : o.state === "AVAILABLE"),
    stateOf: (o) => `${o.state}${o.running ? ", running" : ", stopped"}`,
    // A stopped app is created (the API deploys it running), then stopped.
    afterCreate: ["power"],
    updateOrder: ["updateRequest", "power"],
    update: {
      async updateRequest(ctx, id, olds, news, changed) {
        const body: Record<string, unknown> = {};
        if (changed.includes("image")) body.image = news.image;
        if (changed.includes("mounts")) body.mounts = (news.mounts ?? []).map(mountToApi);
        if (changed.includes("ports")) body.ports = (news.ports ?? []).map(portToApi);
        if (changed.includes("environment"))
          body.environment = news.templateId !== undefined ? await templateEnvironment(ctx, id, olds, news) : news.environment;
        await runWorkflow(ctx, await ctx.client.patch(`/v1/apps/${id}`, body), "redeploy");
      },
      async power(ctx, id, _olds, news) {
        const action = news.running ? "start" : "stop";
        await runWorkflow(ctx, await ctx.client.post(`/v1/apps/${id}/${action}`), action);
      },
    },
    async delete(ctx, id) {
      return workflowOf(await ctx.client.delete(`/v1/apps/${id}`));
    },
  },
};

// 4. The public Args: the class is generated from them and the spec (resources/generated/).
export interface AppPortArgs {
  /** AppPort exposed on the instance host. */
  hostPort: pulumi.Input<number>;
  /** AppPort the container listens on. */
  containerPort: pulumi.Input<number>;
  /** TCP (default) or UDP. */
  protocol?: pulumi.Input<"TCP" | "UDP">;
  /** Serves HTTP traffic eligible for a custom domain (default false). */
  http?: pulumi.Input<boolean>;
}

export interface AppArgs extends CommonArgs {
  /** Instance the container runs on. Changing it replaces the app. */
  instanceId: pulumi.Input<string>;
  /** Unique within the workspace, 1 to 64 characters (the emulator's limit). Changing it replaces the app (any replacement deletes the old app first: names and host ports are unique). */
  name: pulumi.Input<string>;
  /** Custom image with a tag (e.g. nginx:1.27; lower case before the tag, at most 255 characters: the emulator's limits); set this or templateId. Patched in place (redeploy). */
  image?: pulumi.Input<string>;
  /** Deploy from this app template (see getAppTemplate); set this or image. Changing it replaces the app. */
  templateId?: pulumi.Input<string>;
  /**
   * Custom app: the environment (replaced as a whole in place). Template app: overrides of the
   * template's defaults (a string replaces one, null removes it, placeholders allowed); changes
   * are applied in place. Stored as a Pulumi secret. Names: a letter or _, then letters, digits,
   * _, . and -, at most 255 characters; values at most 64 KiB (the emulator's limits).
   */
  environment?: pulumi.Input<Record<string, pulumi.Input<string | null>>>;
  /** Volume mounts, at most 50 (the emulator's limit); for a template app they replace the template's. Patched in place. */
  mounts?: pulumi.Input<pulumi.Input<AppMountArgs>[]>;
  /** AppPort mappings of a custom-image app, at most 50 (the emulator's limit). Patched in place. */
  ports?: pulumi.Input<pulumi.Input<AppPortArgs>[]>;
  /** Custom domain; needs a port with http true (template: an http template port). Changing it replaces the app. */
  domain?: pulumi.Input<string>;
  /** Desired container state (default true), kept through start and stop. */
  running?: pulumi.Input<boolean>;
}
