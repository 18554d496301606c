/**
 * Instance — a virtual server from a preset plan or a custom size (spec part 2, Instances and
 * Instance commands; part 3 for VPC membership).
 *
 *   POST   /v1/workspaces/{wid}/instances         PLAN or CUSTOM body -> workflow with the instance; settles AVAILABLE, online
 *   GET    /v1/instances/{id}
 *   PATCH  /v1/instances/{id}                     name and settings
 *   POST   /v1/commands/upgrade-instance          plan, cpu, memory, bandwidth, boot-disk growth (AVAILABLE, not locked)
 *   POST   /v1/commands/apply-upgrades            staged hardware of an online instance, with restart
 *   POST   /v1/instances/{id}/power               POWER_ON, SHUTDOWN
 *   POST   /v1/instances/{iid}/vpcs, DELETE /v1/instances/{iid}/vpcs/{vid}
 *   DELETE /v1/instances/{id}                     immediate deletion
 *   POST   /v1/commands/terminate-instance        immediate false: scheduled deletion in 3 days (refused while locked)
 */
import { isDeepStrictEqual } from "node:util";
import { z } from "../provider/fields/zod";
import { createdDuring, type OperationContext } from "../provider/context";
import { resourceOf, workflowOf } from "../provider/client/envelope";
import { ifFound } from "../provider/errors";
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
  createdAt,
} from "../provider/fields/declare";
import { member, nested } from "../provider/fields/objectInputs";
import { outputsFromAnswer, toWire, updateBody } from "../provider/fields/convert";
import { ddosProblem, zId, zInteger, zWideInteger } from "../provider/fields/constraints";
import { compact, idOf, numberOf, wireId } from "../provider/client/wire";
import { type ResourceDefinition, type Rule } from "../provider/definition";
import { ipParts, type Metering, type PricedProps } from "../provider/metering";
import type { EstimatePart } from "./lookups/billing";
import type { InstanceArgs, InstanceOutputs, InstanceStorageEntry } from "./generated/instance";
import {
  depends,
  ignore,
  type ChangeEffect,
  remember,
  replace,
  updateRequest,
  type StepOf,
  updateSteps,
} from "../provider/fields/changeEffects";

const WHERE = "spec part 2, Instances";

// The update steps beside the update request, in the order they run; each named below as an effect.
const steps = updateSteps("upgrade", "vpcs", "power");

// 1. Inputs and outputs, each field declared once: type and limits, doc, what a change does, how it is read (provider/fields/declare.ts).
const positiveInt = (what: string, field: string) =>
  zWideInteger(
    `must be a whole number of ${what} (${WHERE}: ${field} is an integer)`,
    `must be a number of ${what} (${WHERE}: ${field} is an integer)`,
  ).positive(`must be a positive number of ${what} (${WHERE}: ${field})`);
/** Bytes and bytes per second are wide (provider/fields/integer.ts: WideInteger); cores are not. */
const cores = zInteger(
  `must be a whole number of cores (${WHERE}: CUSTOM cpu is an integer)`,
  `must be a number of cores (${WHERE}: CUSTOM cpu is an integer)`,
).positive(`must be a positive number of cores (${WHERE}: CUSTOM cpu)`);

/** @internal One disk of a CUSTOM instance (the create body's storage entry). */
export const storageEntry = nested(
  { doc: "One disk of a CUSTOM instance", outputs: "InstanceStorageEntry" },
  {
    sizeBytes: member(positiveInt("bytes", "storage size_bytes"), { doc: "Size in bytes.", wire: "size_bytes" }),
    boot: member(z.boolean().default(false), { doc: "Whether this is the boot disk (exactly one entry is); default false." }),
    backing: member(
      z
        .enum(["LOCAL", "CEPH"], {
          error: `must be LOCAL or CEPH (${WHERE}: CUSTOM storage backing, such as LOCAL; part 2, Disks: backend LOCAL or CEPH)`,
        })
        .default("LOCAL"),
      { doc: "LOCAL (default) or CEPH." },
    ),
  },
);
type Storage = (typeof storageEntry)["__output"][];

/** @internal Bandwidth caps of a CUSTOM instance. */
export const bandwidthCaps = nested(
  { doc: "Bandwidth caps in bytes per second" },
  {
    uploadBytesSec: member(positiveInt("bytes per second", "bandwidth upload_bytes_sec"), {
      doc: "Upload cap in bytes per second.",
      wire: "upload_bytes_sec",
    }),
    downloadBytesSec: member(positiveInt("bytes per second", "bandwidth download_bytes_sec"), {
      doc: "Download cap in bytes per second.",
      wire: "download_bytes_sec",
    }),
  },
);
type Bandwidth = (typeof bandwidthCaps)["__output"];

/** @internal A floating IP allocated with the instance (the create body's ips entry). */
export const ipRequest = nested(
  { doc: "A floating IP allocated with the instance" },
  {
    family: member(z.enum(["IPv4", "IPv6"], { error: `must be IPv4 or IPv6 (${WHERE}: ips family)` }), { doc: "IPv4 or IPv6." }),
    ddos: member(z.boolean().default(false), { doc: "DDoS filtering (IPv4 only); default false." }),
  },
  (shape) =>
    z.strictObject(shape).superRefine((ip, ctx) => {
      const problem = ddosProblem(ip.family, ip.ddos);
      if (problem) ctx.addIssue({ code: "custom", path: ["ddos"], message: problem });
    }),
);

/** Settings PATCH /v1/instances/{id} accepts (spec part 2, Instances: PATCH), patched once the instance exists. */
const setting = (doc: string, wire: keyof ApiInstance) =>
  input(z.boolean().optional(), { doc, onChange: updateRequest, wire, fromAnswer: (v: ApiInstance) => v[wire] as boolean });

/** @internal */
export const instanceFields = fieldSet({
  workspaceId: owningWorkspace,
  name: autonamed(
    input(z.string().min(1, `must not be empty (${WHERE}: name is required)`), {
      doc: "Instance name (required).",
      onChange: updateRequest,
    }),
  ),
  type: input(z.enum(["PLAN", "CUSTOM"], { error: `must be PLAN or CUSTOM (${WHERE})` }).optional(), {
    doc: "PLAN (fixed specs and price) or CUSTOM; defaults to PLAN when planId is set.",
    onChange: replace,
    fromAnswer: (v: ApiInstance) => v.type,
  }),
  planId: input(zId("plan id").optional(), {
    doc: "PLAN: the plan.",
    onChange: steps.upgrade,
    fromAnswer: (v: ApiInstance) => idOf(v.staged?.plan ?? v.plan) ?? undefined,
  }),
  group: input(z.enum(["LIGHTNING", "RYZEN", "DEDICATED"], { error: `must be LIGHTNING, RYZEN or DEDICATED (${WHERE})` }).optional(), {
    doc: "CUSTOM: LIGHTNING, RYZEN or DEDICATED.",
    onChange: replace,
    fromAnswer: (v: ApiInstance) => v.group,
  }),
  cpu: input(cores.optional(), {
    doc: "CUSTOM: vCPU cores.",
    onChange: steps.upgrade,
    fromAnswer: (v: ApiInstance) => numberOf(v.staged?.cpu ?? v.cpu)!,
  }),
  memoryBytes: input(positiveInt("bytes", "CUSTOM memory_bytes").optional(), {
    doc: "CUSTOM: memory in bytes.",
    onChange: steps.upgrade,
    fromAnswer: (v: ApiInstance) => numberOf(v.staged?.memory ?? v.memory)!,
  }),
  bandwidth: input(bandwidthCaps.schema.optional(), {
    doc: "CUSTOM: bandwidth caps in bytes per second.",
    onChange: steps.upgrade,
    fromAnswer: (v: ApiInstance) => camelBandwidth(v.staged?.bandwidth ?? v.bandwidth),
  }),
  storage: input(
    z.array(storageEntry.schema).min(1, `needs at least one entry, exactly one with boot true (${WHERE}: CUSTOM storage)`).optional(),
    {
      doc: "CUSTOM: disks, exactly one with boot true. Growing only the boot disk upgrades in place; any other change replaces the instance.",
      onChange: storagePolicy(),
      // The API answers the disks, not the entries: the recorded entries, the boot disk at its current (or staged) size.
      // A CUSTOM instance the stack did not create (an import) has its boot disk as its one entry:
      // its other disks cannot be told from disks attached later, and are imported as Disks.
      fromAnswer: (v: ApiInstance, prior) => {
        const currentBoot = v.staged?.boot_disk_size ?? numberOf(bootDiskOf(v)?.size) ?? 0;
        const imported =
          v.type === "CUSTOM" ? [{ sizeBytes: currentBoot, boot: true, backing: bootDiskOf(v)?.backend ?? "LOCAL" }] : undefined;
        const entries = (prior.storage as Storage | undefined) ?? (imported as Storage | undefined);
        return entries?.map((e) => (e.boot ? { ...e, sizeBytes: currentBoot || e.sizeBytes } : e));
      },
    },
  ),
  region: input(z.string().min(1, `must name a region, for example NA_01 (${WHERE}: region)`).optional(), {
    doc: "Region, for example NA_01 (or set nodeId).",
    onChange: replace,
    fromAnswer: (v: ApiInstance) => v.region,
  }),
  nodeId: input(zId("node id").optional(), {
    doc: "A specific node (platform or your private cloud).",
    onChange: replace,
    fromAnswer: (v: ApiInstance) => idOf(v.node)!,
  }),
  imageId: input(zId("image id").optional(), {
    doc: "Template or backup restored onto the boot disk, or an ISO attached.",
    onChange: replace,
    fromAnswer: (v: ApiInstance) => idOf(v.image ?? v.iso) ?? undefined,
  }),
  ips: input(z.array(ipRequest.schema).optional(), {
    doc: "Floating IPs allocated with the instance; default one IPv4 and one IPv6; ddos (DDoS filtering) is for IPv4 only.",
    onChange: replace,
    output: false,
  }),
  vpcIds: input(
    z
      .array(zId("VPC id"))
      .transform((ids) => [...new Set(ids)].sort())
      .optional(),
    {
      doc: "VPCs the instance is attached to (a NIC and a private address each). As an output, the declared ones only: a VpcAttachment's VPC is on the attachment.",
      onChange: steps.vpcs,
      fromAnswer: (v: ApiInstance) => v.vpcs.map((m) => String(m.id)).sort(),
    },
  ),
  cloudInit: input(z.string().optional(), {
    doc: "cloud-init user-data run on first boot.",
    onChange: replace,
    output: false,
  }),
  disableCloudInit: input(z.boolean().optional(), {
    doc: "Turn off vendor cloud-init features.",
    onChange: replace,
    fromAnswer: (v: ApiInstance) => v.disable_cloud_init,
  }),
  boot: input(z.enum(["DISK", "ISO"], { error: `must be DISK or ISO (${WHERE}: boot)` }).optional(), {
    doc: "Boot device DISK or ISO.",
    onChange: updateRequest,
    fromAnswer: (v: ApiInstance) => v.boot,
  }),
  uefi: setting("Boot with UEFI firmware.", "uefi"),
  secureBoot: setting("UEFI Secure Boot.", "secure_boot"),
  attachVirtioCdb: setting("Attach the VirtIO CD device.", "attach_virtio_cdb"),
  syncHostname: setting("Keep the guest's hostname in step with the instance name.", "sync_hostname"),
  firewallEnabled: setting("Enforce this instance's firewall rules.", "firewall_enabled"),
  osName: input(z.string().optional(), {
    doc: "OS name shown for the instance.",
    onChange: updateRequest,
    wire: "os_name",
    fromAnswer: (v: ApiInstance) => v.os_name ?? undefined,
  }),
  powerState: input(z.enum(["running", "stopped"], { error: "must be running or stopped" }).default("running"), {
    doc: "Desired power state; default running.",
    onChange: steps.power,
    fromAnswer: (v: ApiInstance) => (v.online ? "running" : "stopped"),
  }),
  applyUpgrades: input(z.boolean().default(false), {
    doc: "After an upgrade of an online instance, restart it now to apply the new specs (default: at its next restart).",
    onChange: ignore,
    output: false,
  }),
  deletion: input(z.enum(["immediate", "scheduled"], { error: "must be immediate or scheduled" }).default("immediate"), {
    doc: "How `pulumi destroy` deletes it: immediate (default) or scheduled (powered off now, deleted by the API in 3 days; refused while locked).",
    onChange: remember,
    output: false,
  }),
  state: computed<string>({ doc: "Resource state: PENDING, AVAILABLE, SUSPENDED, FAILED..." }),
  online: computed<boolean>({ doc: "Whether the instance is powered on." }),
  locked: computed<boolean>({ doc: "Whether the instance is locked (a scheduled termination refuses it)." }),
  pendingUpgrades: computed<boolean>({
    doc: "Upgrades staged on an online instance, applied at its next restart.",
    wire: "pending_upgrades",
  }),
  hostname: computed<string>({ doc: "Hostname the API assigned.", stable: true }),
  ipv4Address: computed<string | null>({
    doc: "First IPv4 address of ipAddresses, or null.",
    fromAnswer: (v: ApiInstance) => firstIp(v.ips, "IPv4"),
  }),
  ipv6Address: computed<string | null>({
    doc: "First IPv6 address of ipAddresses, or null.",
    fromAnswer: (v: ApiInstance) => firstIp(v.ips, "IPv6"),
  }),
  ipAddresses: computed<Array<{ id: string; address: string; family: string; ddos: boolean }>>({
    doc: "The instance's own public addresses (id, address, family, ddos): those it was created with. A FloatingIpAttachment's address is on the attachment.",
    fromAnswer: (v: ApiInstance) => v.ips.map((ip) => ({ id: String(ip.id), address: ip.address, family: ip.family, ddos: !!ip.ddos })),
  }),
  privateIps: computed<Record<string, string>>({
    doc: "Private address in each VPC of vpcIds, by VPC id (a VpcAttachment's is on the attachment).",
    fromAnswer: (v: ApiInstance) => Object.fromEntries(v.vpcs.map((m) => [String(m.id), m.ip])),
  }),
  bootDiskId: computed<string | null>({ doc: "The boot disk's id.", stable: true, fromAnswer: (v: ApiInstance) => idOf(bootDiskOf(v)) }),
  terminationScheduledAt: computed<string | null>({
    doc: "When a scheduled termination deletes the instance, else null.",
    wire: "termination_scheduled_at",
  }),
  createdAt,
});
type Inputs = InputsOf<typeof instanceFields>;
type Outputs = OutputsOf<typeof instanceFields>;

const CUSTOM_ONLY = ["group", "cpu", "memoryBytes", "storage", "bandwidth"] as const;

const rules: Rule<Inputs>[] = [
  {
    fields: ["region", "nodeId"],
    property: "region",
    check: (i) =>
      i.region === undefined && i.nodeId === undefined ? `set region (for example NA_01) or nodeId (${WHERE}: create body)` : undefined,
  },
  {
    fields: ["type", "planId"],
    property: "planId",
    check: (i) => (i.type === "PLAN" && !i.planId ? `a PLAN instance needs planId (${WHERE}: PLAN adds plan)` : undefined),
  },
  {
    fields: ["type", "planId"],
    property: "planId",
    check: (i) =>
      i.type === "CUSTOM" && i.planId
        ? `a CUSTOM instance has no planId; set type PLAN or drop planId (${WHERE}: plan is the PLAN body's field)`
        : undefined,
  },
  ...CUSTOM_ONLY.map(
    (field): Rule<Inputs> => ({
      fields: ["type", field],
      property: field,
      check: (i) =>
        i.type === "PLAN" && i[field] !== undefined
          ? `${field} is for CUSTOM instances; a plan fixes the specs (${WHERE}: PLAN adds plan)`
          : i.type === "CUSTOM" && i[field] === undefined && field !== "bandwidth"
            ? `a CUSTOM instance needs ${field} (${WHERE}: CUSTOM adds group, cpu, memory_bytes, storage)`
            : undefined,
    }),
  ),
  {
    fields: ["storage"],
    check: (i) =>
      i.storage && i.storage.filter((s) => s.boot).length !== 1
        ? `exactly one storage entry must have boot true (${WHERE}: CUSTOM storage)`
        : undefined,
  },
];

const bootSize = (s: Storage) => s.find((e) => e.boot)?.sizeBytes ?? 0;
const withoutBootSize = (s: Storage) => s.map((e) => (e.boot ? { ...e, sizeBytes: 0 } : e));

/** Storage: growing only the boot disk is an in-place upgrade; any other change recreates the instance. (A function: the field set above uses it.) */
function storagePolicy(): ChangeEffect {
  return depends((old, next) => {
    const o = old as Storage | undefined;
    const n = next as Storage;
    if (!o) return replace;
    return isDeepStrictEqual(withoutBootSize(o), withoutBootSize(n)) && bootSize(n) >= bootSize(o) ? steps.upgrade : replace;
  });
}

// 2. API mapping.
interface ApiInstance {
  id: string;
  name: string;
  state: string;
  online: boolean;
  locked: boolean;
  pending_upgrades: boolean;
  type: "PLAN" | "CUSTOM";
  plan: { id: string } | null;
  group: "LIGHTNING" | "RYZEN" | "DEDICATED";
  cpu: number;
  memory: number;
  bandwidth: { upload_bytes_sec: number; download_bytes_sec: number };
  region: string;
  node: { id: string };
  image: { id: string } | null;
  iso: { id: string } | null;
  boot: "DISK" | "ISO";
  uefi: boolean;
  secure_boot: boolean;
  attach_virtio_cdb: boolean;
  sync_hostname: boolean;
  firewall_enabled: boolean;
  os_name: string | null;
  hostname: string;
  disable_cloud_init: boolean;
  ips: Array<{ id: string; address: string; family: string; ddos: boolean }>;
  vpcs: Array<{ id: string; ip: string }>;
  disks: Array<{ id: string; size: number; boot: boolean; backend?: "LOCAL" | "CEPH" }>;
  staged?: {
    plan: { id: string } | null;
    cpu: number | null;
    memory: number | null;
    bandwidth: { upload_bytes_sec: number; download_bytes_sec: number } | null;
    boot_disk_size: number | null;
  } | null;
  termination_scheduled_at: string | null;
  workspace?: { id: string };
  created?: string;
}

const camelBandwidth = (b: { upload_bytes_sec: number; download_bytes_sec: number }): Bandwidth => ({
  uploadBytesSec: numberOf(b.upload_bytes_sec)!,
  downloadBytesSec: numberOf(b.download_bytes_sec)!,
});
const bootDiskOf = (v: ApiInstance) => v.disks.find((d) => d.boot) ?? null;
/** The first address of a family in a list of them: the API's `ips`, or the recorded `ipAddresses`. */
const firstIp = (ips: ReadonlyArray<{ family: string; address: string }> | undefined, family: string) =>
  ips?.find((ip) => ip.family === family)?.address ?? null;

/** Outputs from the API view; staged hardware counts as the instance's (it applies at the next restart). Absent ones left out, as recorded. */
const toOutputs = (v: ApiInstance, prior: Partial<Inputs & Outputs>): Outputs =>
  compact(outputsFromAnswer(instanceFields, v, prior)) as Outputs;

async function fetchInstance(ctx: OperationContext, id: string): Promise<ApiInstance | undefined> {
  return ifFound(ctx.client.get<ApiInstance>(`/v1/instances/${id}`));
}

function createBody(i: Inputs) {
  const common = {
    type: i.type,
    name: i.name,
    region: i.region,
    node: i.nodeId && wireId(i.nodeId),
    image: i.imageId && wireId(i.imageId),
    ips: i.ips?.map((ip) => toWire(ipRequest, ip)),
    vpcs: i.vpcIds?.map(wireId),
    boot: i.boot,
    cloud_init: i.cloudInit,
    disable_cloud_init: i.disableCloudInit,
    start: i.powerState !== "stopped",
  };
  if (i.type === "PLAN") return compact({ ...common, plan: wireId(i.planId!) });
  return compact({
    ...common,
    group: i.group,
    cpu: i.cpu,
    memory_bytes: i.memoryBytes,
    storage: i.storage!.map((s) => toWire(storageEntry, s)),
    bandwidth: i.bandwidth && toWire(bandwidthCaps, i.bandwidth),
  });
}

async function runCommand(ctx: OperationContext, path: string, body: Record<string, unknown>, step: string): Promise<void> {
  await ctx.waitForWorkflow(workflowOf(await ctx.client.post(`/v1/commands/${path}`, body)), step);
}

/** Floating IPs of an instance that names none (spec part 2, Instances: "when omitted a plan grants one IPv4 and one IPv6"). */
const DEFAULT_IPS = [
  { family: "IPv4", ddos: false },
  { family: "IPv6", ddos: false },
] as const;

type IpLike = { family: "IPv4" | "IPv6"; ddos?: boolean };

/** The instance's addresses: as declared, else as recorded (outputs), else the create default. */
function ipsOf(p: PricedProps): IpLike[] {
  if (Array.isArray(p.ips)) return p.ips as IpLike[];
  if (Array.isArray(p.ipAddresses)) return p.ipAddresses as IpLike[];
  return [...DEFAULT_IPS];
}

const typeOf = (p: PricedProps) => p.type ?? (p.planId ? "PLAN" : "CUSTOM");

/**
 * What the API meters (policy pack): a PLAN's flat rate (its boot disk is part of it), or a
 * CUSTOM size's CPU (by service group), memory and every storage entry (a CUSTOM boot disk is
 * billed on its own); plus each floating IP. Bandwidth caps are not metered (the API bills compute
 * as CPU and memory).
 */
const pricing: Metering = {
  needs: (p) => (typeOf(p) === "PLAN" ? ["planId"] : ["cpu", "memoryBytes", "group"]),
  price(p) {
    if (typeof p.region !== "string")
      return { unpriced: p.nodeId ? "placed by nodeId: its region is known only after create" : "no region" };
    const ips = ipParts(ipsOf(p));
    if (typeOf(p) === "PLAN") return { request: { region: p.region, planId: String(p.planId), parts: ips } };
    const storage = (p.storage as Array<{ sizeBytes: number; backing?: string }> | undefined) ?? [];
    const parts: EstimatePart[] = [
      { type: "CPU", cpu: p.cpu as number, serviceGroup: p.group as string },
      { type: "MEMORY", memoryBytes: p.memoryBytes as number },
      ...storage.map(
        (s): EstimatePart => ({ type: "STORAGE", storageBytes: s.sizeBytes, storageBacking: (s.backing ?? "LOCAL").toLowerCase() }),
      ),
      ...ips,
    ];
    return { request: { region: p.region, parts } };
  },
};

/**
 * The instance's own VPCs and addresses. A VPC counts where the instance declares `vpcIds`: one a
 * VpcAttachment joined is that attachment's (its `privateIp`). An address counts where the
 * instance had it when created (or first recorded): one a FloatingIpAttachment put on it is that
 * attachment's. So the first refresh after an up that attached them moves none of these outputs.
 */
function ownOutputs(outs: Outputs, declared: Partial<Inputs>, recorded: Partial<Outputs> | undefined): Outputs {
  const vpcIds = declared.vpcIds === undefined ? [] : (outs.vpcIds ?? []);
  const privateIps = Object.fromEntries(Object.entries(outs.privateIps ?? {}).filter(([vpc]) => vpcIds.includes(vpc)));
  const had = recorded?.ipAddresses && new Set(recorded.ipAddresses.map((ip) => ip.id));
  const ipAddresses = had ? (outs.ipAddresses ?? []).filter((ip) => had.has(ip.id)) : outs.ipAddresses;
  return { ...outs, vpcIds, privateIps, ipAddresses, ipv4Address: firstIp(ipAddresses, "IPv4"), ipv6Address: firstIp(ipAddresses, "IPv6") };
}

// 3. The definition: what a change does (its effects) and the API calls.
/** @internal */
export const instanceDefinition: ResourceDefinition<Inputs, Outputs, StepOf<typeof steps>> = {
  steps: steps.order,
  kind: "Instance",
  doc: "A virtual server.",
  ...fromFields(instanceFields),
  rules,
  defaults: (i) => (i.type === undefined ? { type: i.planId ? "PLAN" : "CUSTOM" } : {}),
  transitions: [
    {
      field: "storage",
      check: (old, next) => {
        const o = old as Storage;
        const n = next as Storage;
        return bootSize(n) < bootSize(o)
          ? `the boot disk cannot shrink (${bootSize(o)} -> ${bootSize(n)} bytes): upgrade-instance only grows it (${WHERE}: upgrade-instance disk)`
          : undefined;
      },
    },
  ],
  keepFromState: ["cloudInit", "ips", "applyUpgrades"],
  declaredFrom: (echoed) => {
    // The API reports a PLAN instance's specs and a CUSTOM one's sizes, and both the region and the
    // node it placed the instance on: a declaration names the plan or the sizes, and the region.
    // Its VPC memberships are the VpcAttachments' (one owner per membership), left unmanaged here.
    const other: string[] = echoed.type === "PLAN" ? [...CUSTOM_ONLY] : ["planId"];
    const placed = echoed.region !== undefined ? ["nodeId"] : [];
    return Object.fromEntries(Object.entries(echoed).filter(([k]) => ![...other, ...placed, "vpcIds"].includes(k)));
  },
  ownOutputs,
  broken: (o) => o.state === "FAILED",
  pricing,
  api: {
    async create(ctx, i) {
      const answer = await ctx.client.post(`/v1/workspaces/${i.workspaceId}/instances`, createBody(i));
      return { id: String(resourceOf<ApiInstance>(answer, ["instance"]).id), workflow: workflowOf(answer) };
    },
    async list(ctx, workspaceId) {
      return (await listAll<ApiInstance>(ctx.client, `/v1/workspaces/${workspaceId}/instances`)).map((v) => ({
        id: String(v.id),
        name: v.name,
        ...(v.termination_scheduled_at ? { leftOut: `scheduled for termination at ${v.termination_scheduled_at}` } : {}),
      }));
    },
    async findExisting(ctx, i) {
      const found = await listAll<ApiInstance>(ctx.client, `/v1/workspaces/${i.workspaceId}/instances`, { name: i.name });
      return found.find((v) => v.name === i.name && createdDuring(ctx, v.created))?.id;
    },
    async get(ctx, id, prior) {
      const v = await fetchInstance(ctx, id);
      return v && toOutputs(v, prior);
    },
    settled: (o) => (o.state === "FAILED" ? "instance is FAILED" : o.state !== "PENDING" && o.state !== "DELETING"),
    stateOf: (o) => `${o.state}${o.online ? ", online" : ", offline"}`,
    isGone: (o) => o.terminationScheduledAt !== null,
    // Settings are not part of the create body; they are patched once the instance exists.
    afterCreate: ["updateRequest"],
    update: {
      async updateRequest(ctx, id, _olds, news, changed) {
        await ctx.client.patch(`/v1/instances/${id}`, updateBody(instanceFields, news, changed));
      },
      async upgrade(ctx, id, olds, news, changed) {
        if (news.type === "PLAN") {
          await runCommand(ctx, "upgrade-instance", { type: "PLAN", instance: wireId(id), plan: wireId(news.planId!) }, "upgrade (plan)");
        } else {
          const body: Record<string, unknown> = { type: "CUSTOM", instance: wireId(id) };
          if (changed.includes("cpu")) body.cpu = news.cpu;
          if (changed.includes("memoryBytes")) body.memory = news.memoryBytes;
          if (changed.includes("bandwidth") && news.bandwidth)
            Object.assign(body, { upload: news.bandwidth.uploadBytesSec, download: news.bandwidth.downloadBytesSec });
          if (changed.includes("storage") && news.storage && olds.storage && bootSize(news.storage) > bootSize(olds.storage))
            body.disk = bootSize(news.storage);
          await runCommand(ctx, "upgrade-instance", body, "upgrade");
        }
        const after = await fetchInstance(ctx, id);
        if (after?.pending_upgrades) {
          if (news.applyUpgrades) {
            ctx.notice("applying staged upgrades now (restarting the instance)");
            await runCommand(ctx, "apply-upgrades", { instance: wireId(id), restart: true }, "apply upgrades");
          } else {
            ctx.notice("the instance is online: the new specs apply at its next restart (set applyUpgrades: true to restart now)");
          }
        }
      },
      async vpcs(ctx, id, olds, news) {
        const before = new Set(olds.vpcIds ?? []);
        const after = new Set(news.vpcIds ?? []);
        for (const vpc of after) if (!before.has(vpc)) await ctx.client.post(`/v1/instances/${id}/vpcs`, { vpc: wireId(vpc) });
        for (const vpc of before) if (!after.has(vpc)) await ctx.client.delete(`/v1/instances/${id}/vpcs/${vpc}`);
      },
      async power(ctx, id, _olds, news) {
        const action = news.powerState === "stopped" ? "SHUTDOWN" : "POWER_ON";
        await ctx.waitForWorkflow(workflowOf(await ctx.client.post(`/v1/instances/${id}/power`, { action })), `power (${action})`);
      },
    },
    async delete(ctx, id, olds) {
      // Not an output: recorded beside them by its policy (remember), for this step.
      if ((olds as Partial<Inputs>).deletion === "scheduled") {
        const current = await fetchInstance(ctx, id);
        if (!current) return null;
        if (current.locked) {
          throw new Error(
            `${ctx.label}: instance ${id} is locked, and a scheduled termination refuses locked instances (${WHERE}: terminate with immediate false). Unlock it, or set deletion: "immediate".`,
          );
        }
        ctx.notice("scheduling termination: the instance is powered off now and deleted by the API in 3 days");
        return workflowOf(await ctx.client.post(`/v1/commands/terminate-instance`, { instance: wireId(id), immediate: false }));
      }
      return workflowOf(await ctx.client.delete(`/v1/instances/${id}`));
    },
  },
};

// 4. The public Args: generated from the fields, with the class (resources/generated/instance.ts).
export type { InstanceArgs, InstanceOutputs, InstanceStorageEntry };
