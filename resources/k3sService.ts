/**
 * K3sService — a containerised service deployed on the workspace's cluster (spec part 3,
 * Managed Kubernetes, Kubernetes service).
 *
 *   POST   /v1/workspaces/{wid}/k3s/services        name, image, mode, target_instances, replicas, ports, volumes,
 *                                                   environment, secret_refs, update_strategy -> workflow; DEPLOYING, then RUNNING
 *   GET    /v1/workspaces/{wid}/k3s/services        query name (partial) -> paged { service, live }
 *   GET    /v1/workspaces/{wid}/k3s/services/{id}   { service, live }
 *   PUT    /v1/workspaces/{wid}/k3s/services/{id}   the full desired state (omitted optional fields are cleared;
 *                                                   name and mode cannot change) -> workflow; UPDATING, then RUNNING
 *   DELETE /v1/workspaces/{wid}/k3s/services/{id}   workflow; DELETING, then removed
 *
 * Every field but name and mode is sent with PUT as the whole desired state, so optional inputs
 * have defaults that equal the API's (omitted means cleared, and diffs stay quiet). The create
 * answer is a bare workflow: the new service is found by listing with the name filter. A change
 * is done when the rollout is: status RUNNING, not updating, every desired replica available.
 * The environment map is write-only (never returned): it is kept from state.
 */
import { z } from "../provider/fields/zod";
import type { OperationContext } from "../provider/context";
import { workflowOf } from "../provider/client/envelope";
import { ApiError, ifFound } from "../provider/errors";
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
  writeOnly,
} from "../provider/fields/declare";
import { member, nested } from "../provider/fields/objectInputs";
import { fromWire, outputsFromAnswer, toWire } from "../provider/fields/convert";
import { exactly, hasTag, noDuplicates, zAbsolutePath, zId, zInteger, zPort, zProtocol } from "../provider/fields/constraints";
import type { Integer } from "../provider/fields/integer";
import { compact, idOf, numberOf, wireId } from "../provider/client/wire";
import { type ResourceDefinition } from "../provider/definition";
import type {
  K3sPod,
  K3sPortArgs,
  K3sServiceArgs,
  K3sServiceOutputs,
  K3sServicePort,
  K3sServiceVolume,
  K3sVolumeArgs,
} from "./generated/k3sService";
import { clusterTearingDown } from "./k3sCluster";
import { replace, updateRequest } from "../provider/fields/changeEffects";

const WHERE = "spec part 3, Kubernetes service";
// 1. Inputs.

/** @internal A published port (the API's ports entry). */
export const servicePort = nested(
  { doc: "A port the service publishes", args: "K3sPortArgs", outputs: "K3sServicePort" },
  {
    hostPort: member(zPort(WHERE), { doc: "Port on the host, 1 to 65535; unique per protocol.", wire: "host_port" }),
    containerPort: member(zPort(WHERE), { doc: "Port inside the container, 1 to 65535.", wire: "container_port" }),
    protocol: member(zProtocol(WHERE), { doc: "TCP (default) or UDP." }),
    http: member(z.boolean().default(false), { doc: "Eligible for a custom subdomain (default false)." }),
  },
  (shape) => z.strictObject(shape, exactly("hostPort, containerPort, protocol, http")),
);

/** @internal A host path mounted into the container (the API's volumes entry). */
export const serviceVolume = nested(
  { doc: "A host path mounted into the service's containers", args: "K3sVolumeArgs", outputs: "K3sServiceVolume" },
  {
    hostPath: member(zAbsolutePath(WHERE), { doc: "Absolute path on the host.", wire: "host_path" }),
    containerPath: member(zAbsolutePath(WHERE), {
      doc: "Absolute path inside the container; unique among the volumes.",
      wire: "container_path",
    }),
  },
  (shape) => z.strictObject(shape, exactly("hostPath, containerPath")),
);

/** @internal One pod of the service, as the live status reports it. */
export const servicePod = nested(
  { doc: "A pod of the service", outputs: "K3sPod" },
  {
    name: member(z.string(), { doc: "Pod name." }),
    phase: member(z.string(), { doc: "Pod phase (Pending, Running...)." }),
    ready: member(z.boolean(), { doc: "Whether the pod is ready." }),
    restartCount: member(zInteger(`restart_count must be a whole number (${WHERE})`), {
      doc: "Container restarts.",
      wire: "restart_count",
    }),
    nodeName: member(z.string().nullable(), { doc: "Node the pod runs on, or null.", wire: "node_name" }),
  },
);

/** Every field but name and mode is PUT as the whole desired state (the API clears what is omitted): each has the API's default. */
const put = { onChange: updateRequest } as const;

/** @internal */
export const k3sServiceFields = fieldSet({
  workspaceId: owningWorkspace,
  name: autonamed(
    input(z.string().min(1, `must not be empty (${WHERE}: name is required, unique within the workspace)`), {
      doc: "Unique within the workspace. A replacement under a new name creates the new service first.",
      onChange: replace,
    }),
  ),
  mode: input(
    z.enum(["PINNED", "SPREAD"], {
      error: `must be PINNED (pods only on the target instances) or SPREAD (across nodes up to replicas) (${WHERE})`,
    }),
    {
      doc: "PINNED: one pod on each target instance; SPREAD: `replicas` pods across the target instances' nodes. A replacement keeps the name, so it deletes the old service first.",
      onChange: replace,
      fromAnswer: (s: ApiService) => s.mode,
    },
  ),
  image: input(
    z.string().refine(hasTag, `must be a container image with a tag, such as nginx:1.27 or ghcr.io/org/app:v2 (${WHERE}: image with tag)`),
    { doc: "Container image with a tag, for example nginx:1.27 (a change is a rolling redeploy).", ...put },
  ),
  targetInstanceIds: input(
    z
      .array(zId("instance id"))
      .min(1, `must list at least one instance (${WHERE}: target_instances is required)`)
      .superRefine(noDuplicates((id) => id, "instance", WHERE)),
    {
      doc: "Instances the scheduler may use (at least one); each must be a READY node.",
      ...put,
      fromAnswer: (s: ApiService) => (s.target_instances ?? []).map((t) => idOf(t)!),
    },
  ),
  replicas: input(
    zInteger(`must be a whole number (${WHERE}: replicas is an integer)`, `must be a number (${WHERE}: replicas is an integer)`).default(1),
    {
      doc: "Replica count (meaningful for SPREAD); default 1.",
      ...put,
      fromAnswer: (s: ApiService) => numberOf(s.replicas)!,
    },
  ),
  ports: input(
    z
      .array(servicePort.schema)
      .superRefine(noDuplicates((p) => `${p.hostPort}/${p.protocol}`, "host port and protocol", WHERE))
      .default([]),
    {
      doc: "Published ports; default none.",
      ...put,
      fromAnswer: (s: ApiService) =>
        (s.ports ?? []).map((p) => ({
          hostPort: numberOf(p.host_port)!,
          containerPort: numberOf(p.container_port)!,
          protocol: p.protocol as (typeof servicePort)["__output"]["protocol"],
          http: !!p.http,
        })),
    },
  ),
  volumes: input(
    z
      .array(serviceVolume.schema)
      .superRefine(noDuplicates((v) => v.containerPath, "container path", WHERE))
      .default([]),
    {
      doc: "Host paths mounted into the container; default none.",
      ...put,
      fromAnswer: (s: ApiService) => (s.volumes ?? []).map((m) => fromWire(serviceVolume, m)),
    },
  ),
  environment: writeOnly(
    z.record(z.string(), z.string({ error: `environment values must be strings (${WHERE}: flat key to value)` })).default({}),
    {
      doc: "Environment variables (flat name to value); default none. Write-only: the API never returns it, so it is kept from state and a change made outside Pulumi is not detected.",
      ...put,
    },
  ),
  secretRefs: input(
    z
      .array(z.string().min(1, `secret names must not be empty (${WHERE}: secret_refs are secret names)`))
      .superRefine(noDuplicates((n) => n, "secret", WHERE))
      .default([]),
    {
      doc: "Names of K3sSecrets whose key-value pairs are injected as environment variables; default none.",
      ...put,
      wire: "secret_refs",
      fromAnswer: (s: ApiService) => [...(s.secret_refs ?? [])],
    },
  ),
  updateStrategy: input(z.enum(["ROLLING", "START_FIRST"], { error: `must be ROLLING or START_FIRST (${WHERE})` }).default("ROLLING"), {
    doc: "ROLLING (default: one pod at a time) or START_FIRST (new pods up before old ones go).",
    ...put,
    fromAnswer: (s: ApiService) => s.update_strategy,
  }),
  status: computed<string>({ doc: "DEPLOYING, RUNNING, UPDATING, DELETING, FAILED or STOPPED." }),
  desiredReplicas: computed<Integer | null>({
    doc: "Requested replicas (null while the live status is unavailable).",
    fromAnswer: ({ live }: Answer) => (live ? numberOf(live.desired_replicas) : null),
  }),
  availableReplicas: computed<Integer | null>({
    doc: "Ready replicas (null while the live status is unavailable).",
    fromAnswer: ({ live }: Answer) => (live ? numberOf(live.available_replicas) : null),
  }),
  updatedReplicas: computed<Integer | null>({
    doc: "Replicas on the current revision (null while the live status is unavailable).",
    fromAnswer: ({ live }: Answer) => (live ? numberOf(live.updated_replicas) : null),
  }),
  updating: computed<boolean>({ doc: "A rollout is in progress.", fromAnswer: ({ live }: Answer) => live?.updating ?? false }),
  pods: computed<(typeof servicePod)["__output"][]>({
    doc: "Per pod: name, phase, ready, restartCount, nodeName.",
    fromAnswer: ({ live }: Answer) =>
      (live?.pods ?? []).map((p) => ({
        name: p.name,
        phase: p.phase,
        ready: !!p.ready,
        restartCount: numberOf(p.restart_count) ?? 0,
        nodeName: p.node_name ?? null,
      })),
  }),
});
type Inputs = InputsOf<typeof k3sServiceFields>;
type Outputs = OutputsOf<typeof k3sServiceFields>;

// 2. API mapping.
interface ApiService {
  id: string;
  name: string;
  image: string;
  mode: "PINNED" | "SPREAD";
  target_instances: Array<{ id: string } | string>;
  replicas: number;
  ports?: Array<{ host_port: number; container_port: number; protocol: string; http: boolean }>;
  volumes?: Array<{ host_path: string; container_path: string }>;
  secret_refs?: string[];
  update_strategy: "ROLLING" | "START_FIRST";
  status: string;
  workspace?: { id: string } | null;
}

interface ApiServiceLive {
  desired_replicas: number;
  available_replicas: number;
  updated_replicas: number;
  updating: boolean;
  pods?: Array<{ name: string; phase: string; restart_count: number; ready: boolean; node_name: string | null }>;
}

/** "object with service and live"; tolerant of a bare service object. */
interface ApiServiceView {
  service?: ApiService;
  live?: ApiServiceLive | null;
}

const serviceOfView = (v: ApiServiceView): ApiService => v.service ?? (v as unknown as ApiService);

const servicesPath = (workspaceId: string) => `/v1/workspaces/${workspaceId}/k3s/services`;
const servicePath = (workspaceId: string, id: string) => `${servicesPath(workspaceId)}/${id}`;

/** What the outputs are read from: the service, with its live status beside it. */
type Answer = ApiService & { live: ApiServiceLive | null };

/** The environment is write-only (never answered): left out here, kept from state. */
const toOutputs = (v: ApiServiceView, workspaceId: string): Outputs =>
  compact(outputsFromAnswer(k3sServiceFields, { ...serviceOfView(v), live: v.live ?? null }, { workspaceId })) as Outputs;

/** The desired state PUT replaces (and create carries): every optional field sent explicitly. */
const desiredState = (i: Inputs) => ({
  image: i.image,
  target_instances: i.targetInstanceIds.map(wireId),
  replicas: i.replicas,
  ports: i.ports.map((p) => toWire(servicePort, p)),
  volumes: i.volumes.map((m) => toWire(serviceVolume, m)),
  environment: i.environment,
  secret_refs: i.secretRefs,
  update_strategy: i.updateStrategy,
});

/** The service with exactly this name (the list's name filter matches substrings). */
async function serviceByName(ctx: OperationContext, workspaceId: string, name: string): Promise<ApiService | undefined> {
  const found = await listAll<ApiServiceView>(ctx.client, servicesPath(workspaceId), { name });
  return found.map(serviceOfView).find((s) => s.name === name);
}

async function get(ctx: OperationContext, id: string, prior: { workspaceId?: string }): Promise<Outputs | undefined> {
  const found = await ifFound(ctx.client.get<ApiServiceView>(servicePath(prior.workspaceId ?? "", id)));
  return found && toOutputs(found, prior.workspaceId ?? "");
}

/** Done when the rollout is: RUNNING, not updating, every desired replica available. */
function settled(s: Outputs): boolean | string {
  if (s.status === "FAILED") return "the service is FAILED (its rollout did not complete)";
  return s.status === "RUNNING" && !s.updating && s.desiredReplicas !== null && s.availableReplicas === s.desiredReplicas;
}

const stateOf = (s: Outputs) =>
  s.desiredReplicas === null
    ? `${s.status} (live status unavailable)`
    : `${s.status}, ${s.availableReplicas}/${s.desiredReplicas} replicas available${s.updating ? ", rolling out" : ""}`;

// 3. The definition: what a change does (its effects) and the API calls.
/** @internal */
export const k3sServiceDefinition: ResourceDefinition<Inputs, Outputs> = {
  kind: "K3sService",
  doc: "A containerised service on the workspace's Kubernetes cluster. Declare it with `dependsOn` on the nodes of its target instances (and reference secrets through their `name` output).",
  // What a change does: name and mode cannot change (PUT refuses them); the rest is PUT as a whole.
  ...fromFields(k3sServiceFields),
  broken: (s) => s.status === "FAILED",
  // Names are unique in the workspace: a replacement that keeps the name deletes the old service first.
  uniqueKey: ["name"],
  pricing: { notMetered: "runs on its nodes, which are priced as Instances" },
  api: {
    // Names are unique in the workspace (spec part 3).
    async conflict(ctx, i) {
      const existing = await serviceByName(ctx, i.workspaceId, i.name);
      return (
        existing && {
          id: String(existing.id),
          description: `a service named "${i.name}" already exists in the workspace (id ${existing.id}, ${existing.status})`,
          alternative: "choose another name",
        }
      );
    },
    async create(ctx, i) {
      // The answer is a bare workflow: the lifecycle finds the new service by name.
      return {
        workflow: workflowOf(
          await ctx.client.post(servicesPath(i.workspaceId), { name: i.name, mode: i.mode, ...desiredState(i) }),
          "service create answer",
        ),
      };
    },
    async list(ctx, workspaceId) {
      const views = await listAll<ApiServiceView>(ctx.client, servicesPath(workspaceId));
      return views.map(serviceOfView).map((s) => ({ id: String(s.id), name: s.name }));
    },
    // conflict showed the name was free before the POST, so a service found by name now is the
    // one this create made.
    async findExisting(ctx, i) {
      return (await serviceByName(ctx, i.workspaceId, i.name))?.id;
    },
    get: (ctx, id, prior) => get(ctx, id, prior),
    settled,
    // Mid-operation statuses only: a RUNNING service short of replicas (a target powered off) is
    // degraded, not unfinished, and must not show a change on every preview.
    inProgress: (s) => s.status === "DEPLOYING" || s.status === "UPDATING" || s.status === "DELETING",
    stateOf,
    update: {
      // PUT is the full desired state: whatever changed, every field is sent.
      async updateRequest(ctx, id, olds, news) {
        // An imported service's environment is unknown (write-only in the API): a PUT of an empty one
        // would clear what it has. Refuse before writing; declaring it is the way on.
        if (olds.environment === undefined && !Object.keys(news.environment).length)
          throw new Error(
            `${ctx.label}: the service was adopted, and the API never returns a service's environment (${WHERE}): this update sends the whole service (PUT), so it would clear the variables it has. Declare environment (every variable, secrets from config), then run pulumi up again; nothing was changed.`,
          );
        const answer = await ctx.client.put(servicePath(news.workspaceId, id), desiredState(news));
        await ctx.waitForWorkflow(workflowOf(answer, "service update answer"), "update");
      },
    },
    async delete(ctx, id, olds) {
      try {
        return workflowOf(await ctx.client.delete(servicePath(olds.workspaceId, id)), "service delete answer");
      } catch (err) {
        if (err instanceof ApiError && err.status === 409) {
          // Already being deleted, or the cluster is being torn down (which removes its services): wait.
          const current = await get(ctx, id, olds);
          if (!current || current.status === "DELETING" || (await clusterTearingDown(ctx, olds.workspaceId))) return null;
        }
        throw err;
      }
    },
  },
};

// 4. The public Args: generated from the fields, with the class (resources/generated/k3sService.ts).
export type { K3sServiceArgs, K3sServiceOutputs, K3sPortArgs, K3sVolumeArgs, K3sServicePort, K3sServiceVolume, K3sPod };
