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
import type * as pulumi from "@pulumi/pulumi";
import { isEqual } from "lodash";
import { z } from "zod";
import { createdDuring, type OperationContext } from "../provider/context";
import { resourceOf, workflowOf } from "../provider/envelope";
import { ifFound } from "../provider/errors";
import { listAll } from "../provider/paging";
import { type WorkspaceScopedArgs } from "../provider/resource";
import { ddosProblem, emulatorLimit, type InputsMatch, trimmedLength, zId } from "../provider/schema";
import { compact, idOf, numberOf, wireId } from "../provider/wire";
import {
  command,
  depends,
  ignore,
  ipParts,
  type Metering,
  type Policy,
  type PricedProps,
  remember,
  replace,
  type ResourceSpec,
  type Rule,
  updateRequest,
} from "../provider/spec";
import type { EstimatePart } from "./lookups/billing";

const WHERE = "spec part 2, Instances";
/** Limits the spec does not give (name length, CUSTOM sizes, list sizes): the emulator's (emulator/README.md, Instances). */
const EMULATOR_LIMIT = emulatorLimit(WHERE);

// 1. Inputs and rules.
const MiB = 1024 ** 2;
const positiveInt = (what: string, field: string) =>
  z
    .number({ error: `must be a number of ${what} (${WHERE}: ${field} is an integer)` })
    .int(`must be a whole number of ${what} (${WHERE}: ${field} is an integer)`)
    .positive(`must be a positive number of ${what} (${WHERE}: ${field})`);

/** One disk of a CUSTOM instance, as recorded (the schema below must produce exactly this). */
export interface InstanceStorageEntry {
  sizeBytes: number;
  boot: boolean;
  backing: "LOCAL" | "CEPH";
}
type Storage = InstanceStorageEntry[];

const storageEntry = z
  .object({
    sizeBytes: positiveInt("bytes", "storage size_bytes"),
    boot: z.boolean().default(false),
    backing: z
      .enum(["LOCAL", "CEPH"], {
        error: `must be LOCAL or CEPH (${WHERE}: CUSTOM storage backing, such as LOCAL; part 2, Disks: backend LOCAL or CEPH)`,
      })
      .default("LOCAL"),
  })
  .strict() satisfies z.ZodType<InstanceStorageEntry>;

const inputs = z.object({
  name: z.string().min(1, `must not be empty (${WHERE}: name is required)`).superRefine(trimmedLength(64, EMULATOR_LIMIT)),
  type: z.enum(["PLAN", "CUSTOM"], { error: `must be PLAN or CUSTOM (${WHERE})` }).optional(),
  planId: zId("plan id").optional(),
  group: z.enum(["LIGHTNING", "RYZEN", "DEDICATED"], { error: `must be LIGHTNING, RYZEN or DEDICATED (${WHERE})` }).optional(),
  cpu: positiveInt("cores", "CUSTOM cpu").max(128, `must be at most 128 cores (${EMULATOR_LIMIT})`).optional(),
  memoryBytes: positiveInt("bytes", "CUSTOM memory_bytes")
    .min(512 * MiB, `must be at least 512 MiB, ${512 * MiB} bytes (${EMULATOR_LIMIT})`)
    .optional(),
  bandwidth: z
    .object({
      uploadBytesSec: positiveInt("bytes per second", "bandwidth upload_bytes_sec"),
      downloadBytesSec: positiveInt("bytes per second", "bandwidth download_bytes_sec"),
    })
    .strict()
    .optional(),
  storage: z
    .array(storageEntry)
    .min(1, `needs at least one entry, exactly one with boot true (${WHERE}: CUSTOM storage)`)
    .max(16, `must have at most 16 entries (${EMULATOR_LIMIT})`)
    .optional(),
  region: z.string().min(1, `must name a region, for example NA_01 (${WHERE}: region)`).optional(),
  nodeId: zId("node id").optional(),
  imageId: zId("image id").optional(),
  ips: z
    .array(
      z
        .object({
          family: z.enum(["IPv4", "IPv6"], { error: `must be IPv4 or IPv6 (${WHERE}: ips family)` }),
          ddos: z.boolean().default(false),
        })
        .strict()
        .superRefine((ip, ctx) => {
          const problem = ddosProblem(ip.family, ip.ddos);
          if (problem) ctx.addIssue({ code: "custom", path: ["ddos"], message: problem });
        }),
    )
    .max(16, `must list at most 16 addresses (${EMULATOR_LIMIT})`)
    .optional(),
  vpcIds: z
    .array(zId("VPC id"))
    .transform((ids) => [...new Set(ids)].sort())
    // The create body's limit (attaching later has none), checked always: a replacement sends them all at create.
    .refine((ids) => ids.length <= 8, `must list at most 8 VPCs (${EMULATOR_LIMIT})`)
    .optional(),
  cloudInit: z.string().max(65_536, `must be at most 65536 characters, 64 KiB (${EMULATOR_LIMIT})`).optional(),
  disableCloudInit: z.boolean().optional(),
  boot: z.enum(["DISK", "ISO"], { error: `must be DISK or ISO (${WHERE}: boot)` }).optional(),
  uefi: z.boolean().optional(),
  secureBoot: z.boolean().optional(),
  attachVirtioCdb: z.boolean().optional(),
  syncHostname: z.boolean().optional(),
  firewallEnabled: z.boolean().optional(),
  osName: z
    .string()
    .min(1, `must not be empty: omit it to leave the OS name as the image sets it (${EMULATOR_LIMIT})`)
    .superRefine(trimmedLength(64, EMULATOR_LIMIT))
    .optional(),
  powerState: z.enum(["running", "stopped"], { error: "must be running or stopped" }).default("running"),
  applyUpgrades: z.boolean().default(false),
  deletion: z.enum(["immediate", "scheduled"], { error: "must be immediate or scheduled" }).default("immediate"),
});
type Inputs = z.infer<typeof inputs> & { workspaceId: string };
// The public InstanceArgs and the schema above declare the same fields (checked by the compiler).
const _fieldsMatch: InputsMatch<InstanceArgs, z.infer<typeof inputs>> = true;

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

/** Storage: growing only the boot disk is an in-place upgrade; any other change recreates the instance. */
const storagePolicy: Policy = depends((old, next) => {
  const o = old as Storage | undefined;
  const n = next as Storage;
  if (!o) return replace;
  return isEqual(withoutBootSize(o), withoutBootSize(n)) && bootSize(n) >= bootSize(o) ? command("upgrade") : replace;
});

export interface InstanceOutputs extends Record<string, unknown> {
  workspaceId: string;
  name: string;
  type: "PLAN" | "CUSTOM";
  planId?: string;
  group: string;
  cpu: number;
  memoryBytes: number;
  bandwidth: { uploadBytesSec: number; downloadBytesSec: number };
  storage?: Storage;
  region: string;
  nodeId: string;
  imageId?: string;
  vpcIds: string[];
  disableCloudInit: boolean;
  boot: string;
  uefi: boolean;
  secureBoot: boolean;
  attachVirtioCdb: boolean;
  syncHostname: boolean;
  firewallEnabled: boolean;
  osName?: string;
  powerState: "running" | "stopped";
  /** Resource state: PENDING, AVAILABLE, SUSPENDED, FAILED... */
  state: string;
  online: boolean;
  locked: boolean;
  /** Upgrades staged on an online instance, applied at its next restart. */
  pendingUpgrades: boolean;
  hostname: string;
  /** First public IPv4 address, or null. */
  ipv4Address: string | null;
  /** First public IPv6 address, or null. */
  ipv6Address: string | null;
  ipAddresses: Array<{ id: string; address: string; family: string; ddos: boolean }>;
  /** Private address in each attached VPC, by VPC id. */
  privateIps: Record<string, string>;
  bootDiskId: string | null;
  terminationScheduledAt: string | null;
  createdAt: string;
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
  group: string;
  cpu: number;
  memory: number;
  bandwidth: { upload_bytes_sec: number; download_bytes_sec: number };
  region: string;
  node: { id: string };
  image: { id: string } | null;
  iso: { id: string } | null;
  boot: string;
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
  disks: Array<{ id: string; size: number; boot: boolean }>;
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

const camelBandwidth = (b: { upload_bytes_sec: number; download_bytes_sec: number }) => ({
  uploadBytesSec: numberOf(b.upload_bytes_sec)!,
  downloadBytesSec: numberOf(b.download_bytes_sec)!,
});

/** Outputs from the API view; staged hardware counts as the instance's (it applies at the next restart). */
function toOutputs(v: ApiInstance, prior: Partial<Inputs & InstanceOutputs>): InstanceOutputs {
  const staged = v.staged ?? null;
  const bootDisk = v.disks.find((d) => d.boot) ?? null;
  const currentBoot = staged?.boot_disk_size ?? numberOf(bootDisk?.size) ?? 0;
  const storage = prior.storage?.map((e) => (e.boot ? { ...e, sizeBytes: currentBoot || e.sizeBytes } : e));
  const first = (family: string) => v.ips.find((ip) => ip.family === family)?.address ?? null;
  return compact({
    workspaceId: idOf(v.workspace) ?? prior.workspaceId ?? "",
    name: v.name,
    type: v.type,
    planId: idOf(staged?.plan ?? v.plan) ?? undefined,
    group: v.group,
    cpu: numberOf(staged?.cpu ?? v.cpu)!,
    memoryBytes: numberOf(staged?.memory ?? v.memory)!,
    bandwidth: camelBandwidth(staged?.bandwidth ?? v.bandwidth),
    storage,
    region: v.region,
    nodeId: idOf(v.node)!,
    imageId: idOf(v.image ?? v.iso) ?? undefined,
    vpcIds: v.vpcs.map((m) => String(m.id)).sort(),
    disableCloudInit: v.disable_cloud_init,
    boot: v.boot,
    uefi: v.uefi,
    secureBoot: v.secure_boot,
    attachVirtioCdb: v.attach_virtio_cdb,
    syncHostname: v.sync_hostname,
    firewallEnabled: v.firewall_enabled,
    osName: v.os_name ?? undefined,
    powerState: v.online ? "running" : "stopped",
    state: v.state,
    online: v.online,
    locked: v.locked,
    pendingUpgrades: v.pending_upgrades,
    hostname: v.hostname,
    ipv4Address: first("IPv4"),
    ipv6Address: first("IPv6"),
    ipAddresses: v.ips.map((ip) => ({ id: String(ip.id), address: ip.address, family: ip.family, ddos: !!ip.ddos })),
    privateIps: Object.fromEntries(v.vpcs.map((m) => [String(m.id), m.ip])),
    bootDiskId: idOf(bootDisk),
    terminationScheduledAt: v.termination_scheduled_at,
    createdAt: v.created ?? "",
  }) as InstanceOutputs;
}

async function fetchInstance(ctx: OperationContext, id: string): Promise<ApiInstance | undefined> {
  return ifFound(ctx.client.get<ApiInstance>(`/v1/instances/${id}`));
}

/** Settings PATCH /v1/instances/{id} accepts, input name -> API name. */
const SETTINGS: Record<string, string> = {
  name: "name",
  boot: "boot",
  uefi: "uefi",
  secureBoot: "secure_boot",
  attachVirtioCdb: "attach_virtio_cdb",
  syncHostname: "sync_hostname",
  firewallEnabled: "firewall_enabled",
  osName: "os_name",
};

function createBody(i: Inputs) {
  const common = {
    type: i.type,
    name: i.name,
    region: i.region,
    node: i.nodeId && wireId(i.nodeId),
    image: i.imageId && wireId(i.imageId),
    ips: i.ips,
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
    storage: i.storage!.map((s) => ({ size_bytes: s.sizeBytes, boot: s.boot, backing: s.backing })),
    bandwidth: i.bandwidth && { upload_bytes_sec: i.bandwidth.uploadBytesSec, download_bytes_sec: i.bandwidth.downloadBytesSec },
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

// 3. The spec: what a change does (policies) and the API calls.
/** @internal */
export const instanceSpec: ResourceSpec<Inputs, InstanceOutputs> = {
  kind: "Instance",
  doc: "A virtual server.",
  workspaceScoped: true,
  inputs,
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
  // What a change does.
  policies: {
    name: updateRequest,
    boot: updateRequest,
    uefi: updateRequest,
    secureBoot: updateRequest,
    attachVirtioCdb: updateRequest,
    syncHostname: updateRequest,
    firewallEnabled: updateRequest,
    osName: updateRequest,
    planId: command("upgrade"),
    cpu: command("upgrade"),
    memoryBytes: command("upgrade"),
    bandwidth: command("upgrade"),
    storage: storagePolicy,
    vpcIds: command("vpcs"),
    powerState: command("power"),
    type: replace,
    group: replace,
    region: replace,
    nodeId: replace,
    imageId: replace,
    ips: replace,
    cloudInit: replace,
    disableCloudInit: replace,
    applyUpgrades: ignore,
    deletion: remember,
  },
  stableOutputs: ["bootDiskId", "createdAt", "hostname"],
  keepFromState: ["cloudInit", "ips", "applyUpgrades"],
  broken: (o) => o.state === "FAILED",
  pricing,
  api: {
    async create(ctx, i) {
      const answer = await ctx.client.post(`/v1/workspaces/${i.workspaceId}/instances`, createBody(i));
      return { id: String(resourceOf<ApiInstance>(answer, ["instance"]).id), workflow: workflowOf(answer) };
    },
    async findExisting(ctx, i) {
      const found = await listAll<ApiInstance>(ctx.client, `/v1/workspaces/${i.workspaceId}/instances`, { name: i.name });
      return found.find((v) => v.name === i.name && createdDuring(ctx, v.created))?.id;
    },
    async read(ctx, id, prior) {
      const v = await fetchInstance(ctx, id);
      return v && toOutputs(v, prior);
    },
    settled: (o) => (o.state === "FAILED" ? "instance is FAILED" : o.state !== "PENDING" && o.state !== "DELETING"),
    stateOf: (o) => `${o.state}${o.online ? ", online" : ", offline"}`,
    isGone: (o) => o.terminationScheduledAt !== null,
    // Settings are not part of the create body; they are patched once the instance exists.
    afterCreate: ["updateRequest"],
    updateOrder: ["updateRequest", "upgrade", "vpcs", "power"],
    update: {
      async updateRequest(ctx, id, _olds, news, changed) {
        const body: Record<string, unknown> = {};
        for (const f of changed) if (SETTINGS[f]) body[SETTINGS[f]] = news[f];
        await ctx.client.patch(`/v1/instances/${id}`, body);
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
      if (olds.deletion === "scheduled") {
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

// 4. The public Args: the class is generated from them and the spec (resources/generated/).
export interface InstanceArgs extends WorkspaceScopedArgs {
  /** Instance name, 1 to 64 characters (the emulator's limit). Patched in place. */
  name: pulumi.Input<string>;
  /** PLAN (fixed specs and price) or CUSTOM; defaults to PLAN when planId is set. Changing it replaces the instance. */
  type?: pulumi.Input<"PLAN" | "CUSTOM">;
  /** PLAN: the plan. Changing it upgrades the instance in place (upgrade-instance). */
  planId?: pulumi.Input<string>;
  /** CUSTOM: LIGHTNING, RYZEN or DEDICATED. Changing it replaces the instance. */
  group?: pulumi.Input<"LIGHTNING" | "RYZEN" | "DEDICATED">;
  /** CUSTOM: vCPU cores, 1 to 128 (the emulator's limit). Upgraded in place. */
  cpu?: pulumi.Input<number>;
  /** CUSTOM: memory in bytes, at least 512 MiB (the emulator's limit). Upgraded in place. */
  memoryBytes?: pulumi.Input<number>;
  /** CUSTOM: bandwidth caps in bytes per second. Upgraded in place. */
  bandwidth?: pulumi.Input<{ uploadBytesSec: number; downloadBytesSec: number }>;
  /** CUSTOM: disks, 1 to 16 entries (the emulator's limit); exactly one with boot true. Growing only the boot disk upgrades in place; any other change replaces the instance. */
  storage?: pulumi.Input<Array<{ sizeBytes: number; boot?: boolean; backing?: "LOCAL" | "CEPH" }>>;
  /** Region, for example NA_01 (or set nodeId). Changing it replaces the instance. */
  region?: pulumi.Input<string>;
  /** A specific node (platform or your private cloud). Changing it replaces the instance. */
  nodeId?: pulumi.Input<string>;
  /** Template or backup restored onto the boot disk, or an ISO attached. Changing it replaces the instance. */
  imageId?: pulumi.Input<string>;
  /** Floating IPs allocated with the instance, at most 16 (the emulator's limit); default one IPv4 and one IPv6; ddos (DDoS filtering) is for IPv4 only. Changing it replaces the instance. */
  ips?: pulumi.Input<Array<{ family: "IPv4" | "IPv6"; ddos?: boolean }>>;
  /** VPCs the instance is attached to (a NIC and a private address each), at most 8 (the emulator's limit on the create body). Attached and detached in place. */
  vpcIds?: pulumi.Input<pulumi.Input<string>[]>;
  /** cloud-init user-data run on first boot, at most 64 KiB (the emulator's limit). Changing it replaces the instance. */
  cloudInit?: pulumi.Input<string>;
  /** Turn off vendor cloud-init features. Changing it replaces the instance. */
  disableCloudInit?: pulumi.Input<boolean>;
  /** Boot device DISK or ISO. Patched in place. */
  boot?: pulumi.Input<"DISK" | "ISO">;
  uefi?: pulumi.Input<boolean>;
  secureBoot?: pulumi.Input<boolean>;
  attachVirtioCdb?: pulumi.Input<boolean>;
  syncHostname?: pulumi.Input<boolean>;
  /** Enforce this instance's firewall rules. Patched in place. */
  firewallEnabled?: pulumi.Input<boolean>;
  /** OS name shown for the instance, 1 to 64 characters (the emulator's limit). Patched in place. */
  osName?: pulumi.Input<string>;
  /** Desired power state, kept through the power command; default running. */
  powerState?: pulumi.Input<"running" | "stopped">;
  /** After an upgrade of an online instance, restart it now to apply the new specs (default: at its next restart). */
  applyUpgrades?: pulumi.Input<boolean>;
  /** How `pulumi destroy` deletes it: immediate (default) or scheduled (powered off now, deleted by the API in 3 days; refused while locked). */
  deletion?: pulumi.Input<"immediate" | "scheduled">;
}
