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
import { isDeepStrictEqual } from "node:util";
import { z } from "../provider/fields/zod";
import { createdDuring, type OperationContext } from "../provider/context";
import { resourceOf, workflowOf } from "../provider/client/envelope";
import { ifFound } from "../provider/errors";
import { listAll } from "../provider/client/paging";
import { autonamed, computed, fieldSet, fromFields, input, type InputsOf, type OutputsOf, createdAt } from "../provider/fields/declare";
import { member, nested } from "../provider/fields/objectInputs";
import { outputsFromAnswer, toWire } from "../provider/fields/convert";
import { exactly, noDuplicates, zId, zPort, zProtocol } from "../provider/fields/constraints";
import { compact, idOf, numberOf } from "../provider/client/wire";
import { type ResourceDefinition, type Rule } from "../provider/definition";
import {
  fetchTemplate,
  hasPlaceholder,
  mountFromApi,
  mountToApi,
  parsePlaceholder,
  PLACEHOLDER,
  placeholdersOf,
  resolvesTo,
  zImage,
  mountSet,
  type ApiMount,
  type ApiTemplate,
} from "./appTemplate";
import type { AppArgs, AppOutputs, AppPort, AppPortArgs } from "./generated/app";
import { replace, updateRequest, type StepOf, updateSteps } from "../provider/fields/changeEffects";

const WHERE = "spec part 2, Apps";

// The update steps beside the update request, in the order they run; each named below as an effect.
const steps = updateSteps("power");

// 1. Inputs and outputs, each field declared once: type and limits, doc, what a change does, how it is read (provider/fields/declare.ts).
/** @internal A port mapping of a custom-image app (the API's ports entry). */
export const appPort = nested(
  { doc: "A port mapping of a custom-image app", args: "AppPortArgs", outputs: "AppPort", inputMembers: true },
  {
    hostPort: member(zPort(WHERE), { doc: "Port exposed on the instance host.", wire: "host_port" }),
    containerPort: member(zPort(WHERE), { doc: "Port the container listens on.", wire: "container_port" }),
    protocol: member(zProtocol(WHERE), { doc: "TCP (default) or UDP." }),
    http: member(z.boolean().default(false), { doc: "Serves HTTP traffic eligible for a custom domain (default false)." }),
  },
  (shape) => z.strictObject(shape, exactly("hostPort, containerPort, protocol, http")),
);
type Port = (typeof appPort)["__output"];

/** @internal A volume mount: a template's (their interfaces are declared with AppTemplate's). */
export const appMount = mountSet(WHERE, "appTemplate");

/** @internal */
export const appFields = fieldSet({
  workspaceId: computed<string>({
    doc: "Workspace the app belongs to (its instance's).",
    stable: true,
    fromAnswer: (a: ApiApp) => idOf(a.owner) ?? "",
  }),
  instanceId: input(zId("instance id"), {
    doc: "Instance the container runs on.",
    onChange: replace,
    fromAnswer: (a: ApiApp) => idOf(a.instance)!,
  }),
  name: autonamed(
    input(z.string().min(1, `must not be empty (${WHERE}: name is required, unique within the workspace)`), {
      doc: "Unique within the workspace. A replacement that keeps the name, or a host port on the same instance, deletes the old app first.",
      onChange: replace,
    }),
  ),
  image: input(zImage(WHERE).optional(), {
    doc: "Custom image with a tag (e.g. nginx:1.27); set this or templateId. A change redeploys.",
    onChange: updateRequest,
    fromAnswer: (a: ApiApp) => a.image,
  }),
  templateId: input(zId("app template id").optional(), {
    doc: "Deploy from this app template (see getAppTemplate); set this or image.",
    onChange: replace,
    fromAnswer: (a: ApiApp) => idOf(a.template_id) ?? undefined,
  }),
  environment: input(
    z
      .record(
        z.string(),
        z
          .string({ error: `environment values must be strings (or null, for a template app, to remove a template default) (${WHERE})` })
          .nullable(),
      )
      .optional(),
    {
      doc: "Custom app: the environment (replaced as a whole). Template app: overrides of the template's defaults (a string replaces one, null removes it, placeholders allowed). Stored as a Pulumi secret.",
      onChange: updateRequest,
      secret: true,
      // Recorded optional, as it always was (an echo of what was declared).
      fromAnswer: (a: ApiApp, prior): Record<string, string | null> | undefined =>
        environmentEcho(a.environment ?? {}, idOf(a.template_id) !== null, prior.environment as Record<string, string | null> | undefined),
    },
  ),
  resolvedEnvironment: computed<Record<string, string>>({
    doc: "The final values the API stores (template placeholders resolved).",
    secret: true,
    fromAnswer: (a: ApiApp) => ({ ...(a.environment ?? {}) }),
  }),
  mounts: input(z.array(appMount.schema).optional(), {
    doc: "Volume mounts; for a template app they replace the template's.",
    onChange: updateRequest,
    fromAnswer: (a: ApiApp) => (a.mounts ?? []).map(mountFromApi),
  }),
  ports: input(
    z
      .array(appPort.schema)
      .superRefine(noDuplicates((p) => `${p.hostPort}/${p.protocol}`, "host port and protocol", WHERE))
      .optional(),
    {
      doc: "Port mappings of a custom-image app.",
      onChange: updateRequest,
      fromAnswer: (a: ApiApp) => (a.ports ?? []).map(portFromApi),
    },
  ),
  domain: input(
    z
      .string()
      .regex(
        /^(?=.{1,253}$)(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\.)+[a-zA-Z]{2,63}$/,
        `must be a domain name such as app.example.com (${WHERE})`,
      )
      .optional(),
    {
      doc: "Custom domain; needs a port with http true (template: an http template port).",
      onChange: replace,
      fromAnswer: (a: ApiApp) => a.domain ?? undefined,
    },
  ),
  running: input(z.boolean().default(true), {
    doc: "Desired container state (default true).",
    onChange: steps.power,
    // `running` is the emulator's member; without it, live statistics mean a running container.
    fromAnswer: (a: ApiApp) => a.running ?? !!a.live?.statistics,
  }),
  state: computed<string>({ doc: "Resource state: PENDING, AVAILABLE, FAILED, DELETING..." }),
  containerId: computed<string | null>({
    doc: "Container id of the current deploy (null before the first deploy completes).",
    fromAnswer: (a: ApiApp) => a.live?.container_id ?? null,
  }),
  portAllocations: computed<Port[]>({
    doc: "Live port allocations.",
    fromAnswer: (a: ApiApp) => (a.live?.ports ?? a.ports ?? []).map(portFromApi),
  }),
  createdAt,
});
type Inputs = InputsOf<typeof appFields>;
type Outputs = OutputsOf<typeof appFields>;

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

const portFromApi = (p: ApiPort): Port => ({
  hostPort: numberOf(p.host_port)!,
  containerPort: numberOf(p.container_port)!,
  protocol: p.protocol,
  http: !!p.http,
});
const portToApi = (p: Port) => toWire(appPort, p);

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

const toOutputs = (a: ApiApp, prior: Partial<Inputs>): Outputs => compact(outputsFromAnswer(appFields, a, prior)) as Outputs;

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
async function templateEnvironment(ctx: OperationContext, id: string, olds: Outputs, news: Inputs): Promise<Record<string, string>> {
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
      if (isDeepStrictEqual(before[key], value)) continue;
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

/** Whether two port lists publish a host port in common (the same port and protocol); ports unknown until up may. */
function sharesHostPort(olds: Inputs["ports"], news: Inputs["ports"]): boolean {
  if (news === undefined) return false;
  if (!Array.isArray(news)) return true;
  const taken = new Set((olds ?? []).map((p) => `${p.hostPort}/${p.protocol}`));
  return news.some((p) => taken.has(`${p.hostPort}/${p.protocol}`));
}

// 3. The definition: what a change does (its effects) and the API calls.
/** @internal */
export const appDefinition: ResourceDefinition<Inputs, Outputs, StepOf<typeof steps>> = {
  steps: steps.order,
  kind: "App",
  doc: "A container app on an instance, from a custom image or an app template.",
  ...fromFields(appFields),
  rules,
  // Names are unique in the workspace (spec part 2) and host ports on the instance (deploy rules:
  // a port is taken only where free): a replacement created while the old app still exists would
  // collide on either. A name left out is made anew for the replacement (provider/lifecycle/autoname.ts).
  uniqueKey: ["name"],
  deleteFirst: (olds, news) => olds.instanceId === news.instanceId && sharesHostPort(olds.ports, news.ports),
  broken: (o) => o.state === "FAILED",
  pricing: { notMetered: "runs on its instance, which is priced as an Instance" },
  // A template app takes its image and ports from the template: its declaration names the template.
  declaredFrom: (echoed) => (echoed.templateId === undefined ? echoed : { ...echoed, image: undefined, ports: undefined }),
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
    async list(ctx, workspaceId) {
      return (await listAll<ApiApp>(ctx.client, `/v1/workspaces/${workspaceId}/apps`)).map((a) => ({ id: idOf(a.id)!, name: a.name }));
    },
    async findExisting(ctx, i) {
      const found = await listAll<ApiApp>(ctx.client, `/v1/instances/${i.instanceId}/apps`, { name: i.name });
      return idOf(found.find((a) => a.name === i.name && createdDuring(ctx, a.created))?.id) ?? undefined;
    },
    async get(ctx, id, prior) {
      const a = await fetchApp(ctx, id);
      return a && toOutputs(a, prior);
    },
    settled: (o) => (o.state === "FAILED" ? "app is FAILED" : o.state === "AVAILABLE"),
    stateOf: (o) => `${o.state}${o.running ? ", running" : ", stopped"}`,
    // A stopped app is created (the API deploys it running), then stopped.
    afterCreate: ["power"],
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

// 4. The public Args: generated from the fields, with the class (resources/generated/app.ts).
export type { AppArgs, AppOutputs, AppPortArgs, AppPort };
