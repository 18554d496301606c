/**
 * Instances (spec part 2, "Instances"): create, list, fetch, settings, power, delete and
 * metrics; plus floating-IP allocation, whose endpoints part 3 names but does not show
 * ("Floating IP endpoints themselves ... not shown"): network commands need IPs to attach.
 *
 * Lifecycle (part 2, "States and transitions"):
 * - create: PENDING, then AVAILABLE with online true when the workflow completes (offline when
 *   the body says start false);
 * - power: the workflow flips `online` when it completes; a start or POWER_CYCLE is the
 *   "next restart" at which staged upgrades apply;
 * - delete: DELETING, then removed with its resources freed (boot disks deleted, data disks
 *   detached, INSTANCE-origin IPs released, ALLOCATED IPs detached, VPC and load-balancer
 *   memberships dropped, billing stopped), then the `instance.deleted` hook tells other areas;
 * - terminate with immediate false (commands area) schedules the removal 3 days out as a
 *   long-running workflow, so it happens lazily on the first request after the emulator clock
 *   passes it.
 *
 * The helpers exported here (views, loaders, removal, power, termination, billing, floating-IP
 * allocation) are used by the commands area and may be used by networking areas.
 */
import { z } from "zod";
import type { Domain } from "../core/domain";
import { badRequest, conflict, fieldError, notFound } from "../core/errors";
import { paginate } from "../core/paging";
import { accepted, noContent, ok, created, type RouteContext } from "../core/router";
import type { Services } from "../core/services";
import { defineWorkflowEffect } from "../core/workflows";
import { fireHook } from "../core/hooks";
import { contains, parseWith, pathId, queryBool, queryIds, queryInt, zId, zInt } from "../core/validation";
import { workflowWithResource } from "../core/choices";
import { effectiveRole, type AccessNeed } from "../core/auth";
import { allocateInRange, allocatePublicAddress } from "../network";
import { customInstanceHourlyRate, pricePart, rebill, startBilling, stopBilling } from "../pricing";
import type { DiskRow, FloatingIpRow, ImageRow, InstanceRow, NodeRow, PlanRow, VpcMemberRow, VpcRow } from "../model";
import { RESOURCE_STATES } from "../model";
import { leastLoaded, nodesInRegion, nodeUsableBy, PLAN_GROUPS, workspaceSummary } from "./catalog";
import { checkStorageQuota, destroyDisk, enumList, insertDisk, isDiskBilled, stableHash, startDiskBilling, DISK_BACKENDS, type DiskBackend } from "./disks";

// ---------------------------------------------------------------------------------------------
// Access levels (roles are a choice where the spec gives none; create is ADMINISTRATOR per spec)

export const INSTANCE_READ: AccessNeed = { grant: ["INSTANCE", "READ"] };
/** Settings, power and everyday commands. */
export const INSTANCE_OPERATE: AccessNeed = { role: "EDITOR", grant: ["INSTANCE", "WRITE"] };
/** Create, delete, terminate: ADMINISTRATOR (part 2: create and batch-instance-terminate). */
export const INSTANCE_ADMIN: AccessNeed = { role: "ADMINISTRATOR", grant: ["INSTANCE", "WRITE"] };
const IP_READ: AccessNeed = { grant: ["FLOATING_IP", "READ"] };
const IP_ADMIN: AccessNeed = { role: "ADMINISTRATOR", grant: ["FLOATING_IP", "WRITE"] };

export const TERMINATION_DELAY_MS = 3 * 24 * 3600 * 1000;

/** Loads an instance and checks the caller may act on it; missing and invisible both answer 404. */
export function loadInstance(ctx: RouteContext, id: string, need: AccessNeed): InstanceRow {
  const instance = ctx.store.t.instances.get(id);
  if (!instance) throw notFound("Instance");
  ctx.access(instance.workspaceId, { ...need, resource: { kind: "INSTANCE", id: instance.id } });
  return instance;
}

export function requireInstanceState(instance: InstanceRow, state: InstanceRow["state"], action: string): void {
  if (instance.state !== state) throw conflict(`Instance is ${instance.state}; it must be ${state} to ${action}`);
}

export function requireNotLocked(instance: InstanceRow, action: string): void {
  if (instance.locked) throw conflict(`Instance is locked; cannot ${action}`);
}

// ---------------------------------------------------------------------------------------------
// Views

export function floatingIpView(services: Services, ip: FloatingIpRow) {
  const instance = ip.instanceId ? services.store.t.instances.get(ip.instanceId) : undefined;
  return {
    id: ip.id,
    address: ip.address,
    family: ip.family,
    ddos: ip.ddos,
    protected: ip.protected,
    instance_id: instance ? instance.id : null,
    instance: instance ? { id: instance.id, name: instance.name } : null,
    workspace: workspaceSummary(services, ip.workspaceId),
    created: ip.created,
  };
}

/** Rows other tables hold about instances, grouped by instance: built once per list. */
interface InstanceIndex {
  ips: Map<string, FloatingIpRow[]>;
  disks: Map<string, DiskRow[]>;
  vpcs: Map<string, VpcMemberRow[]>;
}

function groupBy<T>(rows: T[], key: (row: T) => string | null): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const row of rows) {
    const k = key(row);
    if (k === null) continue;
    const list = out.get(k);
    if (list) list.push(row);
    else out.set(k, [row]);
  }
  return out;
}

function buildIndex(services: Services, only?: string): InstanceIndex {
  const { t } = services.store;
  const mine = <T>(rows: T[], key: (r: T) => string | null) => (only ? rows.filter((r) => key(r) === only) : rows);
  return {
    ips: groupBy(mine(t.floatingIps.all(), (r) => r.instanceId), (r) => r.instanceId),
    disks: groupBy(mine(t.disks.all(), (r) => r.instanceId), (r) => r.instanceId),
    vpcs: groupBy(mine(t.vpcMembers.all(), (r) => r.instanceId), (r) => r.instanceId),
  };
}

const byId = (a: { id: string }, b: { id: string }) => (BigInt(a.id) < BigInt(b.id) ? -1 : BigInt(a.id) > BigInt(b.id) ? 1 : 0);
const byCreated = (a: { created: string; id: string }, b: { created: string; id: string }) => a.created.localeCompare(b.created) || byId(a, b);

function summary<T extends { id: string; name: string }>(row: T | undefined): { id: string; name: string } | null {
  return row ? { id: row.id, name: row.name } : null;
}

export function instanceView(services: Services, inst: InstanceRow, index: InstanceIndex = buildIndex(services, inst.id)) {
  const { t } = services.store;
  const vpcs = (index.vpcs.get(inst.id) ?? []).slice().sort(byCreated);
  const disks = (index.disks.get(inst.id) ?? []).slice().sort((a, b) => Number(b.boot) - Number(a.boot) || byCreated(a, b));
  return {
    id: inst.id,
    name: inst.name,
    state: inst.state,
    online: inst.online,
    locked: inst.locked,
    pending_upgrades: inst.pendingUpgrades,
    type: inst.type,
    plan: summary(inst.planId ? t.plans.get(inst.planId) : undefined),
    group: inst.group,
    cpu: inst.cpu,
    memory: inst.memoryBytes,
    bandwidth: { upload_bytes_sec: inst.bandwidth.upload_bytes_sec, download_bytes_sec: inst.bandwidth.download_bytes_sec },
    io_limits: inst.ioLimits ? { ...inst.ioLimits } : null,
    region: inst.region,
    node: summary(t.nodes.get(inst.nodeId)) ?? { id: inst.nodeId, name: "" },
    image: summary(inst.imageId ? t.images.get(inst.imageId) : undefined),
    iso: summary(inst.isoId ? t.images.get(inst.isoId) : undefined),
    boot: inst.boot,
    uefi: inst.uefi,
    secure_boot: inst.secureBoot,
    attach_virtio_cdb: inst.attachVirtioCdb,
    sync_hostname: inst.syncHostname,
    firewall_enabled: inst.firewallEnabled,
    os_name: inst.osName,
    hostname: inst.hostname,
    disable_cloud_init: inst.disableCloudInit,
    ips: (index.ips.get(inst.id) ?? []).slice().sort(byCreated).map((ip) => floatingIpView(services, ip)),
    vpcs: vpcs.map((m) => ({ id: m.vpcId, name: t.vpcs.get(m.vpcId)?.name ?? "", ip: m.ip })),
    disks: disks.map((d) => ({ id: d.id, name: d.name, size: d.size, boot: d.boot, backend: d.backend })),
    // Not shown in the spec; chosen: the hardware an upgrade staged on an online instance,
    // applied at the next restart or apply-upgrades (null when nothing is pending).
    staged: inst.staged
      ? {
          plan: summary(inst.staged.planId ? t.plans.get(inst.staged.planId) : undefined),
          cpu: inst.staged.cpu ?? null,
          memory: inst.staged.memoryBytes ?? null,
          bandwidth: inst.staged.bandwidth ?? null,
          boot_disk_size: inst.staged.bootDiskSize ?? null,
        }
      : null,
    termination_scheduled_at: inst.terminationScheduledAt,
    network_suspended: inst.networkSuspended,
    workspace: workspaceSummary(services, inst.workspaceId),
    created: inst.created,
  };
}

// ---------------------------------------------------------------------------------------------
// Instance search (also the "standard instance search parameters" of part 3's LB member list)

/**
 * Filters instances by q (name substring, exact IP or exact ID), ip (exact public or private
 * address), id, name (substring), node, plan, iso, online and state (part 2, list query).
 */
export function filterInstances(services: Services, rows: InstanceRow[], query: Record<string, unknown>): InstanceRow[] {
  const ids = queryIds(query.id, "id");
  const nodes = queryIds(query.node, "node");
  const plans = queryIds(query.plan, "plan");
  const isos = queryIds(query.iso, "iso");
  const online = queryBool(query.online, "online");
  const states = enumList(query.state, "state", RESOURCE_STATES);
  const needsAddresses = Boolean(query.ip || query.q);
  const addresses = needsAddresses ? addressesByInstance(services) : new Map<string, string[]>();
  const q = query.q ? String(query.q) : "";
  return rows.filter(
    (i) =>
      (!ids.length || ids.includes(i.id)) &&
      (!nodes.length || nodes.includes(i.nodeId)) &&
      (!plans.length || (i.planId !== null && plans.includes(i.planId))) &&
      (!isos.length || (i.isoId !== null && isos.includes(i.isoId))) &&
      (online === undefined || i.online === online) &&
      (!states.length || states.includes(i.state)) &&
      contains(i.name, query.name) &&
      (!query.ip || (addresses.get(i.id) ?? []).includes(String(query.ip))) &&
      (!q || i.id === q || contains(i.name, q) || (addresses.get(i.id) ?? []).includes(q)),
  );
}

/** Public (floating) and private (VPC) addresses of every instance. */
function addressesByInstance(services: Services): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const add = (id: string | null, address: string) => {
    if (!id) return;
    const list = out.get(id);
    if (list) list.push(address);
    else out.set(id, [address]);
  };
  for (const ip of services.store.t.floatingIps.all()) add(ip.instanceId, ip.address);
  for (const m of services.store.t.vpcMembers.all()) add(m.instanceId, m.ip);
  return out;
}

const INSTANCE_SORTS = {
  name: (i: InstanceRow) => i.name,
  created: (i: InstanceRow) => i.created,
  state: (i: InstanceRow) => i.state,
  online: (i: InstanceRow) => i.online,
  cpu: (i: InstanceRow) => i.cpu,
  memory: (i: InstanceRow) => i.memoryBytes,
};

// ---------------------------------------------------------------------------------------------
// Billing

/** Hourly rate of an instance's compute: the plan's flat rate, or CPU and memory for CUSTOM. */
export function instanceHourlyRate(services: Services, spec: Pick<InstanceRow, "type" | "planId" | "region" | "group" | "cpu" | "memoryBytes">): number {
  if (spec.type === "PLAN" && spec.planId) return services.store.t.plans.get(spec.planId)?.rate ?? 0;
  // Storage of a CUSTOM instance is billed per disk (its own subjects), so it is left out here.
  return customInstanceHourlyRate(services, { region: spec.region, group: spec.group, cpu: spec.cpu, memoryBytes: spec.memoryBytes, storage: [] });
}

/**
 * The boot disk of a PLAN instance is part of the plan's flat price; a CUSTOM instance's boot
 * disk is billed on its own. Called whenever an instance's type may have changed.
 */
export function syncBootDiskBilling(services: Services, inst: InstanceRow): void {
  for (const disk of services.store.t.disks.filter((d) => d.instanceId === inst.id && d.boot)) {
    const billed = isDiskBilled(services, disk.id);
    if (inst.type === "CUSTOM" && !billed) startDiskBilling(services, disk);
    if (inst.type === "PLAN" && billed) stopBilling(services, disk.id);
  }
}

export function rebillInstance(services: Services, inst: InstanceRow): void {
  rebill(services, inst.id, instanceHourlyRate(services, inst));
}

// ---------------------------------------------------------------------------------------------
// Floating IPs

export type IpFamily = "IPv4" | "IPv6";

/** Region whose rate card prices a floating IP allocated on its own (choice: NA_01). */
const STANDALONE_IP_PRICING_REGION = "NA_01";

/** 400 when allocating these families would pass max_floating_ipv4 / ipv6 / ips. */
export function checkIpQuota(services: Services, workspaceId: string, families: IpFamily[]): void {
  const ws = services.store.t.workspaces.get(workspaceId);
  if (!ws || !families.length) return;
  const held = services.store.t.floatingIps.filter((ip) => ip.workspaceId === workspaceId);
  const count = (rows: { family: IpFamily }[], f: IpFamily) => rows.filter((r) => r.family === f).length;
  const wanted = families.map((family) => ({ family }));
  const limits: Array<[string, number, number]> = [
    ["max_floating_ipv4", count(held, "IPv4") + count(wanted, "IPv4"), ws.quota.max_floating_ipv4],
    ["max_floating_ipv6", count(held, "IPv6") + count(wanted, "IPv6"), ws.quota.max_floating_ipv6],
    ["max_floating_ips", held.length + wanted.length, ws.quota.max_floating_ips],
  ];
  for (const [name, total, max] of limits) {
    if (total > max) throw badRequest(`Floating IP quota exceeded: ${name} is ${max}`, [{ field: "ips", message: `quota ${name} (${max}) exceeded` }]);
  }
}

export function allocateFloatingIp(
  services: Services,
  a: { workspaceId: string; family: IpFamily; ddos: boolean; origin: FloatingIpRow["origin"]; instanceId: string | null; region: string },
): FloatingIpRow {
  const { store, clock } = services;
  const ip = store.t.floatingIps.insert({
    id: store.newId(),
    workspaceId: a.workspaceId,
    family: a.family,
    address: allocatePublicAddress(services, a.family),
    ddos: a.ddos,
    protected: false,
    instanceId: a.instanceId,
    origin: a.origin,
    created: clock.iso(),
  });
  const priced = pricePart(services, a.region, { type: "FLOATING_IP", family: a.family, ddos: a.ddos }, clock.now());
  startBilling(services, { workspaceId: a.workspaceId, resourceId: ip.id, resourceKind: "FLOATING_IP", resourceName: ip.address, hourlyRate: "hourly_rate" in priced ? priced.hourly_rate : 0 });
  return ip;
}

export function releaseFloatingIp(services: Services, ipId: string): void {
  stopBilling(services, ipId);
  services.store.t.floatingIps.delete(ipId);
}

// ---------------------------------------------------------------------------------------------
// Power, upgrades, removal and termination (shared with the commands area)

export const POWER_ACTIONS = ["POWER_ON", "POWER_OFF", "SHUTDOWN", "POWER_CYCLE"] as const;
export type PowerAction = (typeof POWER_ACTIONS)[number];

/** Whether the instance runs after the action. */
const ONLINE_AFTER: Record<PowerAction, boolean> = { POWER_ON: true, POWER_OFF: false, SHUTDOWN: false, POWER_CYCLE: true };

export function setOnline(services: Services, inst: InstanceRow, online: boolean): void {
  if (inst.online === online) return;
  services.store.t.instances.update(inst.id, { online });
  fireHook(services, "instance.power", { instanceId: inst.id, online });
}

/** Applies staged hardware (upgrade-instance on an online instance): the "next restart". */
export function applyStagedUpgrades(services: Services, inst: InstanceRow): void {
  const staged = inst.staged;
  if (!staged) return;
  const { bootDiskSize, ...hardware } = staged;
  const patch: Partial<InstanceRow> = { ...hardware, staged: null, pendingUpgrades: false };
  if ("planId" in hardware) patch.type = hardware.planId ? "PLAN" : "CUSTOM";
  services.store.t.instances.update(inst.id, patch);
  if (bootDiskSize !== undefined) {
    for (const d of services.store.t.disks.filter((x) => x.instanceId === inst.id && x.boot && x.size < bootDiskSize)) {
      services.store.t.disks.update(d.id, { size: bootDiskSize });
    }
  }
  syncBootDiskBilling(services, inst);
}

/** Restart semantics shared by power, apply-upgrades and restore: off, staged hardware in, on. */
export function restartInstance(services: Services, inst: InstanceRow): void {
  setOnline(services, inst, false);
  applyStagedUpgrades(services, inst);
  setOnline(services, inst, true);
}

/** What a completed power workflow does to one instance. */
export function applyPower(services: Services, instanceId: string, action: PowerAction): void {
  const inst = services.store.t.instances.get(instanceId);
  if (!inst || inst.state !== "AVAILABLE") return;
  const booting = action === "POWER_CYCLE" || (action === "POWER_ON" && !inst.online);
  if (booting) restartInstance(services, inst);
  else setOnline(services, inst, ONLINE_AFTER[action]);
}

/** Removes an instance for good and frees what it held (part 2: "removed, resources freed"). */
export function removeInstance(services: Services, instanceId: string): void {
  const { t } = services.store;
  const inst = t.instances.get(instanceId);
  if (!inst) return;
  for (const disk of t.disks.filter((d) => d.instanceId === instanceId)) {
    if (disk.boot) destroyDisk(services, disk.id);
    else t.disks.update(disk.id, { instanceId: null });
  }
  for (const ip of t.floatingIps.filter((x) => x.instanceId === instanceId)) {
    if (ip.origin === "INSTANCE") releaseFloatingIp(services, ip.id);
    else t.floatingIps.update(ip.id, { instanceId: null });
  }
  for (const m of t.vpcMembers.filter((x) => x.instanceId === instanceId)) t.vpcMembers.delete(m.id);
  for (const m of t.netLbMembers.filter((x) => x.instanceId === instanceId)) t.netLbMembers.delete(m.id);
  abortScheduledDeletion(services, instanceId);
  stopBilling(services, instanceId);
  t.instances.delete(instanceId);
  fireHook(services, "instance.deleted", { instanceId, workspaceId: inst.workspaceId });
}

const SCHEDULED_DELETION = "instance.scheduled-deletion";

defineWorkflowEffect(SCHEDULED_DELETION, (services, wf) => {
  const inst = services.store.t.instances.get(wf.resource!.id);
  // A cancelled (or re-scheduled) termination leaves the instance alone.
  if (inst && inst.terminationScheduledAt === wf.args.at) removeInstance(services, inst.id);
});

/**
 * terminate with immediate false: suspended now, powered off by the returned workflow, removed
 * 3 days later. The removal is a background workflow ending at the scheduled instant, so it
 * happens lazily on the first request after the emulator clock passes it.
 */
export function scheduleTermination(services: Services, inst: InstanceRow): void {
  const at = services.clock.iso(services.clock.now() + TERMINATION_DELAY_MS);
  services.store.t.instances.update(inst.id, { terminationScheduledAt: at, state: "SUSPENDED" });
  services.workflows.start({
    name: "scheduled-instance-deletion",
    workspaceId: inst.workspaceId,
    resource: { kind: "instances", id: inst.id },
    onComplete: SCHEDULED_DELETION,
    args: { at },
    durationMs: TERMINATION_DELAY_MS,
  });
}

function abortScheduledDeletion(services: Services, instanceId: string): void {
  const { workflows } = services.store.t;
  for (const wf of workflows.filter((w) => w.onComplete === SCHEDULED_DELETION && w.resource?.id === instanceId && (w.state === "QUEUED" || w.state === "RUNNING"))) {
    workflows.update(wf.id, { state: "ABORTED" });
  }
}

/** cancel-termination: resumed to an offline state (AVAILABLE, online false). No-op when none is scheduled. */
export function cancelTermination(services: Services, inst: InstanceRow): boolean {
  if (!inst.terminationScheduledAt) return false;
  abortScheduledDeletion(services, inst.id);
  services.store.t.instances.update(inst.id, { terminationScheduledAt: null, state: "AVAILABLE" });
  setOnline(services, inst, false);
  return true;
}

// ---------------------------------------------------------------------------------------------
// Workflow effects of this area

const INSTANCE_CREATED = defineWorkflowEffect("instance.created", (services, wf) => {
  const inst = services.store.t.instances.get(wf.resource!.id);
  if (!inst) return;
  for (const d of services.store.t.disks.filter((x) => x.instanceId === inst.id && x.state === "PENDING")) services.store.t.disks.update(d.id, { state: "AVAILABLE" });
  services.store.t.instances.update(inst.id, { state: "AVAILABLE" });
  setOnline(services, inst, wf.args.start !== false);
});

const INSTANCE_CREATE_FAILED = defineWorkflowEffect("instance.create-failed", (services, wf) => {
  const inst = services.store.t.instances.get(wf.resource!.id);
  if (!inst) return;
  for (const d of services.store.t.disks.filter((x) => x.instanceId === inst.id && x.state === "PENDING")) services.store.t.disks.update(d.id, { state: "FAILED" });
  services.store.t.instances.update(inst.id, { state: "FAILED" });
});

const INSTANCE_POWERED = defineWorkflowEffect("instance.powered", (services, wf) => {
  applyPower(services, wf.resource!.id, wf.args.action as PowerAction);
});

export const INSTANCE_REMOVED = defineWorkflowEffect("instance.removed", (services, wf) => {
  removeInstance(services, wf.resource!.id);
});

/** A failure effect that changes nothing: for operations whose failure leaves the resource as it was. */
export const NOTHING = defineWorkflowEffect("compute.unchanged", () => undefined);

// ---------------------------------------------------------------------------------------------
// Create

/** Bandwidth of a CUSTOM instance that sends none (choice). */
const DEFAULT_CUSTOM_BANDWIDTH = { upload_bytes_sec: 100_000_000, download_bytes_sec: 100_000_000 };
/** Floating IPs when `ips` is omitted (part 2: "a plan grants one IPv4 and one IPv6"). */
const DEFAULT_IPS: Array<{ family: IpFamily; ddos: boolean }> = [
  { family: "IPv4", ddos: false },
  { family: "IPv6", ddos: false },
];

export const INSTANCE_NAME = z.string().trim().min(1, "must not be empty").max(64, "must be at most 64 characters");
const positive = (what: string) => zInt.refine((v) => v > 0, `must be a positive ${what}`);

const IpRequest = z
  .object({ family: z.enum(["IPv4", "IPv6"]), ddos: z.boolean().default(false) })
  .refine((ip) => !(ip.ddos && ip.family === "IPv6"), { message: "DDoS protection is offered for IPv4 addresses only", path: ["ddos"] });

const CommonCreate = {
  name: INSTANCE_NAME,
  region: z.string().min(1, "must not be empty").optional(),
  node: zId.optional(),
  image: zId.optional(),
  ips: z.array(IpRequest).max(16, "at most 16 addresses").optional(),
  vpcs: z
    .array(zId)
    .max(8, "at most 8 VPCs")
    .refine((v) => new Set(v).size === v.length, "must not repeat a VPC")
    .optional(),
  boot: z.enum(["DISK", "ISO"]).optional(),
  cloud_init: z.string().max(65_536, "must be at most 64 KiB").optional(),
  disable_cloud_init: z.boolean().optional(),
  start: z.boolean().optional(),
};

const StorageEntry = z.object({
  size_bytes: positive("number of bytes"),
  boot: z.boolean().default(false),
  backing: z
    .string()
    .transform((s) => s.toUpperCase())
    .pipe(z.enum(DISK_BACKENDS, { error: "must be LOCAL or CEPH" }))
    .default("LOCAL"),
});

const Bandwidth = z.object({ upload_bytes_sec: positive("rate"), download_bytes_sec: positive("rate") });

const CreateInstance = z
  .discriminatedUnion("type", [
    z.object({ type: z.literal("PLAN"), plan: zId, ...CommonCreate }),
    z.object({
      type: z.literal("CUSTOM"),
      group: z.enum(PLAN_GROUPS),
      cpu: zInt.refine((v) => v >= 1 && v <= 128, "must be from 1 to 128 cores"),
      memory_bytes: zInt.refine((v) => v >= 512 * 1024 ** 2, "must be at least 512 MiB"),
      storage: z
        .array(StorageEntry)
        .min(1, "needs at least one entry")
        .max(16, "at most 16 entries")
        .refine((s) => s.filter((e) => e.boot).length === 1, "exactly one entry must have boot true"),
      bandwidth: Bandwidth.optional(),
      ...CommonCreate,
    }),
  ], { error: "type must be PLAN or CUSTOM" })
  .refine((b) => b.region !== undefined || b.node !== undefined, { message: "send region (for example NA_01) or node", path: ["region"] });

type CreateBody = z.infer<typeof CreateInstance>;

/** What the instance will be: specs resolved from the plan or the custom body. */
interface ResolvedSpec {
  type: "PLAN" | "CUSTOM";
  plan: PlanRow | null;
  group: string;
  cpu: number;
  memoryBytes: number;
  bandwidth: { upload_bytes_sec: number; download_bytes_sec: number };
  ioLimits: InstanceRow["ioLimits"];
  storage: Array<{ size: number; boot: boolean; backend: DiskBackend }>;
}

function resolveSpec(ctx: RouteContext, body: CreateBody): ResolvedSpec {
  if (body.type === "PLAN") {
    const plan = ctx.store.t.plans.get(body.plan);
    if (!plan) throw notFound("Plan");
    if (plan.disabled) throw fieldError("plan", `plan ${plan.name} is disabled and unavailable for new instances`);
    return {
      type: "PLAN",
      plan,
      group: plan.group,
      cpu: plan.cpu,
      memoryBytes: plan.memory,
      bandwidth: { upload_bytes_sec: plan.upload, download_bytes_sec: plan.download },
      ioLimits: plan.ioLimits ? { ...plan.ioLimits } : null,
      storage: [{ size: plan.diskSize, boot: true, backend: "LOCAL" }],
    };
  }
  return {
    type: "CUSTOM",
    plan: null,
    group: body.group,
    cpu: body.cpu,
    memoryBytes: body.memory_bytes,
    bandwidth: body.bandwidth ?? { ...DEFAULT_CUSTOM_BANDWIDTH },
    ioLimits: null,
    storage: body.storage.map((s) => ({ size: s.size_bytes, boot: s.boot, backend: s.backing })),
  };
}

/** Picks the node: the one named (visible, right group) or the least-loaded suitable one in the region. */
function placeInstance(ctx: RouteContext, wid: string, body: CreateBody, spec: ResolvedSpec): NodeRow {
  const needsCeph = spec.storage.some((s) => s.backend === "CEPH");
  const fits = (n: NodeRow) => n.cores >= spec.cpu && n.maxMemory >= spec.memoryBytes;
  if (body.node) {
    const node = ctx.store.t.nodes.get(body.node);
    if (!node || !nodeUsableBy(node, wid)) throw notFound("Node");
    if (body.region && body.region !== node.region) throw fieldError("region", `node ${node.name} is in ${node.region}, not ${body.region}`);
    if (node.group !== spec.group) throw fieldError("node", `node ${node.name} serves ${node.group}; the instance needs ${spec.group}`);
    if (needsCeph && !node.flags.includes("CEPH")) throw fieldError("storage", `node ${node.name} is not in the Ceph cluster; CEPH storage needs a CEPH node`);
    if (!fits(node)) throw fieldError("node", `node ${node.name} cannot host ${spec.cpu} cores and ${spec.memoryBytes} bytes of memory`);
    return node;
  }
  const region = body.region!;
  const inGroup = nodesInRegion(ctx.services, wid, region, spec.group);
  if (!inGroup.length) throw fieldError("region", `no ${spec.group} node in region ${region} is available to this workspace`);
  const withStorage = needsCeph ? inGroup.filter((n) => n.flags.includes("CEPH")) : inGroup;
  if (!withStorage.length) throw fieldError("storage", `no CEPH node in region ${region}; CEPH storage needs one`);
  const candidates = withStorage.filter(fits);
  if (!candidates.length) throw fieldError("cpu", `no node in region ${region} can host ${spec.cpu} cores and ${spec.memoryBytes} bytes of memory`);
  return leastLoaded(ctx.services, candidates)!;
}

/** The image named in the body: visible to the workspace (platform or its own) and AVAILABLE. */
function resolveImage(ctx: RouteContext, wid: string, imageId: string | undefined, bootDiskSize: number): ImageRow | null {
  if (!imageId) return null;
  const image = ctx.store.t.images.get(imageId);
  if (!image || (image.workspaceId !== null && image.workspaceId !== wid)) throw notFound("Image");
  if (image.state !== "AVAILABLE") throw conflict(`Image is ${image.state}; it must be AVAILABLE`);
  if (image.kind !== "ISO" && image.size > bootDiskSize) {
    throw fieldError("image", `the image needs a boot disk of at least ${image.size} bytes; the boot disk is ${bootDiskSize}`);
  }
  return image;
}

/** A row of another table referenced from a body: must exist, be visible, and be in the workspace. */
function sameWorkspaceRow<T extends { workspaceId: string }>(ctx: RouteContext, row: T | undefined, wid: string, field: string, what: string): T {
  if (!row || effectiveRole(ctx.services, ctx.principal, row.workspaceId) === null) throw notFound(what);
  if (row.workspaceId !== wid) throw fieldError(field, `${what} belongs to another workspace`);
  return row;
}

/** VPCs to join, each with the private address it will get. */
function planVpcMemberships(ctx: RouteContext, wid: string, vpcIds: string[]): Array<{ vpc: VpcRow; ip: string }> {
  return vpcIds.map((id) => {
    const vpc = sameWorkspaceRow(ctx, ctx.store.t.vpcs.get(id), wid, "vpcs", "VPC");
    const taken = ctx.store.t.vpcMembers.filter((m) => m.vpcId === vpc.id).map((m) => m.ip);
    const ip = allocateInRange(vpc.range, taken);
    if (!ip) throw conflict(`VPC ${vpc.name} has no free address in ${vpc.range}`);
    return { vpc, ip };
  });
}

function checkInstanceQuota(ctx: RouteContext, wid: string): void {
  const ws = ctx.store.t.workspaces.get(wid);
  if (!ws) return;
  const count = ctx.store.t.instances.count((i) => i.workspaceId === wid);
  if (count + 1 > ws.quota.max_instances) throw badRequest(`Instance quota exceeded: max_instances is ${ws.quota.max_instances}`);
}

/** A hostname derived from the instance name (RFC 1123 label characters). */
export function hostnameFrom(name: string): string {
  const cleaned = name.toLowerCase().replace(/[^a-z0-9-]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 32);
  return cleaned.length >= 4 ? cleaned : `${cleaned || "host"}-vm`.slice(0, 32);
}

function createInstance(ctx: RouteContext) {
  const wid = pathId(ctx.params.wid, "wid");
  ctx.access(wid, INSTANCE_ADMIN);
  const body = parseWith(CreateInstance, ctx.body);
  const spec = resolveSpec(ctx, body);
  const node = placeInstance(ctx, wid, body, spec);
  const bootSize = spec.storage.find((s) => s.boot)!.size;
  const image = resolveImage(ctx, wid, body.image, bootSize);
  const iso = image?.kind === "ISO" ? image : null;
  if (body.boot === "ISO" && !iso) throw fieldError("boot", "booting from ISO needs an ISO image");
  const ips = body.ips ?? DEFAULT_IPS;
  const vpcs = planVpcMemberships(ctx, wid, body.vpcs ?? []);
  checkInstanceQuota(ctx, wid);
  checkStorageQuota(ctx.services, wid, spec.storage.reduce((sum, s) => sum + s.size, 0), "storage");
  checkIpQuota(ctx.services, wid, ips.map((ip) => ip.family));

  const { store, clock } = ctx;
  const template = image && !iso ? image : null;
  const inst = store.t.instances.insert({
    id: store.newId(),
    workspaceId: wid,
    name: body.name,
    type: spec.type,
    planId: spec.plan?.id ?? null,
    group: spec.group,
    cpu: spec.cpu,
    memoryBytes: spec.memoryBytes,
    bandwidth: spec.bandwidth,
    ioLimits: spec.ioLimits,
    region: node.region,
    nodeId: node.id,
    imageId: template?.id ?? null,
    isoId: iso?.id ?? null,
    // Without an explicit choice an ISO install boots the ISO (an empty disk cannot boot).
    boot: body.boot ?? (iso ? "ISO" : "DISK"),
    uefi: image?.uefi ?? false,
    secureBoot: false,
    attachVirtioCdb: false,
    syncHostname: true,
    firewallEnabled: false,
    osName: image?.os?.name ?? null,
    hostname: hostnameFrom(body.name),
    cloudInit: body.cloud_init ?? null,
    disableCloudInit: body.disable_cloud_init ?? false,
    state: "PENDING",
    online: false,
    locked: false,
    pendingUpgrades: false,
    staged: null,
    terminationScheduledAt: null,
    networkSuspended: false,
    created: clock.iso(),
  });
  spec.storage.forEach((s, i) => {
    const disk = insertDisk(ctx.services, {
      workspaceId: wid,
      name: s.boot ? `${body.name}-boot` : `${body.name}-disk-${i}`,
      backend: s.backend,
      boot: s.boot,
      size: s.size,
      instanceId: inst.id,
      state: "PENDING",
      region: node.region,
    });
    // A PLAN's boot disk is in the flat price; every other disk is billed on its own.
    if (!(spec.type === "PLAN" && s.boot)) startDiskBilling(ctx.services, disk);
  });
  for (const ip of ips) allocateFloatingIp(ctx.services, { workspaceId: wid, family: ip.family, ddos: ip.ddos, origin: "INSTANCE", instanceId: inst.id, region: node.region });
  for (const { vpc, ip } of vpcs) store.t.vpcMembers.insert({ id: store.newId(), vpcId: vpc.id, instanceId: inst.id, ip, created: clock.iso() });
  startBilling(ctx.services, { workspaceId: wid, resourceId: inst.id, resourceKind: "INSTANCE", resourceName: inst.name, hourlyRate: instanceHourlyRate(ctx.services, inst) });

  const wf = ctx.startWorkflow({
    name: "create-instance",
    workspaceId: wid,
    resource: { kind: "instances", id: inst.id },
    onComplete: INSTANCE_CREATED,
    onFail: INSTANCE_CREATE_FAILED,
    args: { start: body.start ?? true },
  });
  return accepted(workflowWithResource(ctx.workflows.view(wf), instanceView(ctx.services, inst)));
}

// ---------------------------------------------------------------------------------------------
// Settings, power, delete

const PatchInstance = z.object({
  name: INSTANCE_NAME.optional(),
  boot: z.enum(["DISK", "ISO"]).optional(),
  uefi: z.boolean().optional(),
  secure_boot: z.boolean().optional(),
  attach_virtio_cdb: z.boolean().optional(),
  sync_hostname: z.boolean().optional(),
  firewall_enabled: z.boolean().optional(),
  os_name: z.string().trim().min(1, "must not be empty").max(64, "must be at most 64 characters").nullable().optional(),
});

/** PATCH body field -> row field. */
const PATCH_FIELDS: Record<keyof z.infer<typeof PatchInstance>, keyof InstanceRow> = {
  name: "name",
  boot: "boot",
  uefi: "uefi",
  secure_boot: "secureBoot",
  attach_virtio_cdb: "attachVirtioCdb",
  sync_hostname: "syncHostname",
  firewall_enabled: "firewallEnabled",
  os_name: "osName",
};

function patchInstance(ctx: RouteContext) {
  const inst = loadInstance(ctx, pathId(ctx.params.id, "id"), INSTANCE_OPERATE);
  const body = parseWith(PatchInstance, ctx.body);
  if (inst.state === "DELETING") throw conflict("Instance is being deleted");
  if (body.boot === "ISO" && !inst.isoId) throw conflict("No ISO is attached; attach one before booting from ISO");
  const patch: Partial<InstanceRow> = {};
  for (const [field, column] of Object.entries(PATCH_FIELDS) as Array<[keyof typeof PATCH_FIELDS, keyof InstanceRow]>) {
    if (body[field] !== undefined) (patch as Record<string, unknown>)[column] = body[field];
  }
  return ok(instanceView(ctx.services, ctx.store.t.instances.update(inst.id, patch)));
}

const PowerBody = z.object({ action: z.enum(POWER_ACTIONS) });

function powerInstance(ctx: RouteContext) {
  const inst = loadInstance(ctx, pathId(ctx.params.id, "id"), INSTANCE_OPERATE);
  const body = parseWith(PowerBody, ctx.body);
  requireInstanceState(inst, "AVAILABLE", "change its power state");
  const wf = ctx.startWorkflow({
    name: "power-instance",
    workspaceId: inst.workspaceId,
    resource: { kind: "instances", id: inst.id },
    onComplete: INSTANCE_POWERED,
    // A failed power action leaves the instance as it was (not FAILED).
    onFail: NOTHING,
    args: { action: body.action },
  });
  return accepted(ctx.workflows.view(wf));
}

/** Starts the removal of an instance: DELETING now, removed when the workflow completes. */
export function startInstanceRemoval(ctx: RouteContext, inst: InstanceRow, name: string) {
  ctx.store.t.instances.update(inst.id, { state: "DELETING" });
  return ctx.startWorkflow({ name, workspaceId: inst.workspaceId, resource: { kind: "instances", id: inst.id }, onComplete: INSTANCE_REMOVED });
}

function deleteInstance(ctx: RouteContext) {
  const inst = loadInstance(ctx, pathId(ctx.params.id, "id"), INSTANCE_ADMIN);
  if (inst.state === "DELETING") throw conflict("Instance is already being deleted");
  return accepted(ctx.workflows.view(startInstanceRemoval(ctx, inst, "delete-instance")));
}

// ---------------------------------------------------------------------------------------------
// Metrics (part 2: instance, start, end, step >= 15, all required; raw values)

const MAX_METRIC_POINTS = 10_000;

function requiredQueryInt(ctx: RouteContext, name: string): number {
  const v = queryInt(ctx.query[name], name);
  if (v === undefined) throw badRequest(`Invalid query: ${name} is required`, [{ field: name, message: "is required" }]);
  return v;
}

/** A deterministic value in [0, 1) for an instance, a series and an instant. */
function noise(instanceId: string, series: string, t: number): number {
  return stableHash(`${instanceId}:${series}:${t}`) / 4294967296;
}

function metricsFor(inst: InstanceRow, start: number, end: number, step: number) {
  const times: number[] = [];
  for (let t = start; t <= end; t += step) times.push(t);
  const wave = (t: number, period: number) => (Math.sin((2 * Math.PI * t) / period) + 1) / 2;
  const series = (name: string, value: (t: number) => number) => times.map((t) => ({ time: t, value: value(t) }));
  const round2 = (v: number) => Math.round(v * 100) / 100;
  return {
    cpu: series("cpu", (t) => round2(100 * Math.min(1, 0.05 + 0.5 * wave(t, 3600) * noise(inst.id, "cpu", t) + 0.1 * noise(inst.id, "cpu2", t)))),
    memory: series("memory", (t) => Math.round(inst.memoryBytes * (0.3 + 0.4 * noise(inst.id, "memory", t)))),
    disk_read: series("disk_read", (t) => Math.round(50_000_000 * noise(inst.id, "disk_read", t) * wave(t, 900))),
    disk_write: series("disk_write", (t) => Math.round(20_000_000 * noise(inst.id, "disk_write", t) * wave(t, 1200))),
    network_rx: series("network_rx", (t) => Math.round(inst.bandwidth.download_bytes_sec * 0.2 * noise(inst.id, "network_rx", t))),
    network_tx: series("network_tx", (t) => Math.round(inst.bandwidth.upload_bytes_sec * 0.2 * noise(inst.id, "network_tx", t))),
  };
}

function instanceMetrics(ctx: RouteContext) {
  if (ctx.query.instance === undefined || ctx.query.instance === "") throw badRequest("Invalid query: instance is required", [{ field: "instance", message: "is required" }]);
  const instanceId = pathId(String(ctx.query.instance), "instance");
  const start = requiredQueryInt(ctx, "start");
  const end = requiredQueryInt(ctx, "end");
  const step = requiredQueryInt(ctx, "step");
  if (step < 15) throw badRequest("Invalid query: step must be at least 15 seconds", [{ field: "step", message: "must be at least 15" }]);
  if (start < 0) throw badRequest("Invalid query: start must be a Unix time in seconds", [{ field: "start", message: "must not be negative" }]);
  if (end < start) throw badRequest("Invalid query: end must not be before start", [{ field: "end", message: "must not be before start" }]);
  if (Math.floor((end - start) / step) + 1 > MAX_METRIC_POINTS) {
    throw badRequest(`Invalid query: at most ${MAX_METRIC_POINTS} points per series; widen step`, [{ field: "step", message: "too many points" }]);
  }
  const inst = loadInstance(ctx, instanceId, INSTANCE_READ);
  return ok({ instance: inst.id, start, end, step, series: metricsFor(inst, start, end, step) });
}

// ---------------------------------------------------------------------------------------------
// Floating IP allocation (part 3: endpoints "not shown"; a documented choice)

const AllocateIp = z
  .object({ family: z.enum(["IPv4", "IPv6"]), ddos: z.boolean().default(false) })
  .refine((b) => !(b.ddos && b.family === "IPv6"), { message: "DDoS protection is offered for IPv4 addresses only", path: ["ddos"] });

function loadIp(ctx: RouteContext, need: AccessNeed): FloatingIpRow {
  const ip = ctx.store.t.floatingIps.get(pathId(ctx.params.id, "id"));
  if (!ip) throw notFound("Floating IP");
  ctx.access(ip.workspaceId, need);
  return ip;
}

function filterIps(ctx: RouteContext, rows: FloatingIpRow[]): FloatingIpRow[] {
  const q = ctx.query;
  const ids = queryIds(q.id, "id");
  const instances = queryIds(q.instance, "instance");
  const ddos = queryBool(q.ddos, "ddos");
  const families = enumList(q.family, "family", ["IPv4", "IPv6"] as const);
  return rows.filter(
    (ip) =>
      (!ids.length || ids.includes(ip.id)) &&
      (!instances.length || (ip.instanceId !== null && instances.includes(ip.instanceId))) &&
      (!families.length || families.includes(ip.family)) &&
      (ddos === undefined || ip.ddos === ddos) &&
      contains(ip.address, q.address) &&
      (!q.q || ip.id === String(q.q) || contains(ip.address, q.q)),
  );
}

const IP_SORTS = { created: (ip: FloatingIpRow) => ip.created, address: (ip: FloatingIpRow) => ip.address, family: (ip: FloatingIpRow) => ip.family };

const ipRoutes: Domain["routes"] = [
  {
    method: "POST",
    path: "/v1/workspaces/:wid/ips",
    handler: (ctx) => {
      const wid = pathId(ctx.params.wid, "wid");
      ctx.access(wid, IP_ADMIN);
      const body = parseWith(AllocateIp, ctx.body);
      checkIpQuota(ctx.services, wid, [body.family]);
      const ip = allocateFloatingIp(ctx.services, { workspaceId: wid, family: body.family, ddos: body.ddos, origin: "ALLOCATED", instanceId: null, region: STANDALONE_IP_PRICING_REGION });
      return created(floatingIpView(ctx.services, ip));
    },
  },
  {
    method: "GET",
    path: "/v1/workspaces/:wid/ips",
    handler: (ctx) => {
      const wid = pathId(ctx.params.wid, "wid");
      ctx.access(wid, IP_READ);
      const rows = filterIps(ctx, ctx.store.t.floatingIps.filter((ip) => ip.workspaceId === wid));
      return ok(paginate(rows, ctx.query, (ip) => floatingIpView(ctx.services, ip), { id: (ip) => ip.id, sortable: IP_SORTS, defaultSort: { field: "created", dir: "desc" } }));
    },
  },
  {
    method: "GET",
    path: "/v1/ips/:id",
    handler: (ctx) => ok(floatingIpView(ctx.services, loadIp(ctx, IP_READ))),
  },
  {
    method: "DELETE",
    path: "/v1/ips/:id",
    handler: (ctx) => {
      const ip = loadIp(ctx, IP_ADMIN);
      // Choice: an attached address is not released from under its instance; detach it first.
      if (ip.instanceId) throw conflict("Floating IP is attached to an instance; detach it first");
      if (ip.protected) throw conflict("Floating IP is protected and cannot be released");
      releaseFloatingIp(ctx.services, ip.id);
      return noContent();
    },
  },
];

// ---------------------------------------------------------------------------------------------

export const instancesDomain: Domain = {
  name: "instances",
  inventory: {
    instances: { workspaceOf: (row: InstanceRow) => row.workspaceId },
    floatingIps: { workspaceOf: (row: FloatingIpRow) => row.workspaceId, label: (row: FloatingIpRow) => row.address },
  },
  routes: [
    {
      method: "GET",
      path: "/v1/workspaces/:wid/instances",
      handler: (ctx) => {
        const wid = pathId(ctx.params.wid, "wid");
        ctx.access(wid, INSTANCE_READ);
        const rows = filterInstances(ctx.services, ctx.store.t.instances.filter((i) => i.workspaceId === wid), ctx.query);
        const index = buildIndex(ctx.services);
        return ok(paginate(rows, ctx.query, (i) => instanceView(ctx.services, i, index), { id: (i) => i.id, sortable: INSTANCE_SORTS, defaultSort: { field: "created", dir: "desc" } }));
      },
    },
    { method: "POST", path: "/v1/workspaces/:wid/instances", handler: createInstance },
    {
      method: "GET",
      path: "/v1/instances/:id",
      handler: (ctx) => ok(instanceView(ctx.services, loadInstance(ctx, pathId(ctx.params.id, "id"), INSTANCE_READ))),
    },
    { method: "PATCH", path: "/v1/instances/:id", handler: patchInstance },
    { method: "POST", path: "/v1/instances/:id/power", handler: powerInstance },
    { method: "DELETE", path: "/v1/instances/:id", handler: deleteInstance },
    { method: "GET", path: "/v1/metrics", handler: instanceMetrics },
    ...ipRoutes,
  ],
};
