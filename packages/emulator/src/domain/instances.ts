/**
 * The instances area's domain (spec part 2, "Instances"): who may do what, loading, the
 * instance view (with the addresses, disks and VPCs other areas hold about it), the standard
 * instance search (also part 3's load-balancer member list), billing and synthetic metrics.
 * State transitions are in instanceLifecycle.ts (power, upgrades, removal, termination) and
 * instanceProvisioning.ts (create).
 */
import { conflict, notFound } from "../core/errors";
import type { RouteContext } from "../core/router";
import type { Services } from "../core/services";
import { contains, queryBool, queryEnumList, queryIds } from "../core/validation";
import type { AccessNeed } from "../core/auth";
import { stableHash } from "../core/rng";
import { customInstanceHourlyRate, rebill, stopBilling } from "../pricing";
import type { DiskRow, FloatingIpRow, InstanceRow, VpcMemberRow } from "../model";
import { RESOURCE_STATES } from "../model";
import { workspaceSummary } from "./catalog";
import { isDiskBilled, startDiskBilling } from "./disks";
import { floatingIpView } from "./floatingIps";

// ---------------------------------------------------------------------------------------------
// Access levels (roles are a choice where the spec gives none; create is ADMINISTRATOR per spec)

export const INSTANCE_READ: AccessNeed = { grant: ["INSTANCE", "READ"] };
/** Settings, power and everyday commands. */
export const INSTANCE_OPERATE: AccessNeed = { role: "EDITOR", grant: ["INSTANCE", "WRITE"] };
/** Create, delete, terminate: ADMINISTRATOR (part 2: create and batch-instance-terminate). */
export const INSTANCE_ADMIN: AccessNeed = { role: "ADMINISTRATOR", grant: ["INSTANCE", "WRITE"] };

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

export function requireOffline(inst: InstanceRow, action: string): void {
  if (inst.online) throw conflict(`Instance is online; power it off to ${action}, or send restart true`);
}

export function requireNotLocked(instance: InstanceRow, action: string): void {
  if (instance.locked) throw conflict(`Instance is locked; cannot ${action}`);
}

// ---------------------------------------------------------------------------------------------
// Views

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

export function buildIndex(services: Services, only?: string): InstanceIndex {
  const { t } = services.store;
  const mine = <T>(rows: T[], key: (r: T) => string | null) => (only ? rows.filter((r) => key(r) === only) : rows);
  return {
    ips: groupBy(
      mine(t.floatingIps.all(), (r) => r.instanceId),
      (r) => r.instanceId,
    ),
    disks: groupBy(
      mine(t.disks.all(), (r) => r.instanceId),
      (r) => r.instanceId,
    ),
    vpcs: groupBy(
      mine(t.vpcMembers.all(), (r) => r.instanceId),
      (r) => r.instanceId,
    ),
  };
}

const byId = (a: { id: string }, b: { id: string }) => (BigInt(a.id) < BigInt(b.id) ? -1 : BigInt(a.id) > BigInt(b.id) ? 1 : 0);
const byCreated = (a: { created: string; id: string }, b: { created: string; id: string }) =>
  a.created.localeCompare(b.created) || byId(a, b);

/** Instance summary embedded in other resources (part 1: summaries carry id and name). */
export function instanceSummary(instance: InstanceRow): { id: string; name: string } {
  return { id: instance.id, name: instance.name };
}

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
    ips: (index.ips.get(inst.id) ?? [])
      .slice()
      .sort(byCreated)
      .map((ip) => floatingIpView(services, ip)),
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
  const states = queryEnumList(query.state, "state", RESOURCE_STATES);
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

// ---------------------------------------------------------------------------------------------
// Billing

/** Hourly rate of an instance's compute: the plan's flat rate, or CPU and memory for CUSTOM. */
export function instanceHourlyRate(
  services: Services,
  spec: Pick<InstanceRow, "type" | "planId" | "region" | "group" | "cpu" | "memoryBytes">,
): number {
  if (spec.type === "PLAN" && spec.planId) return services.store.t.plans.get(spec.planId)?.rate ?? 0;
  // Storage of a CUSTOM instance is billed per disk (its own subjects), so it is left out here.
  return customInstanceHourlyRate(services, {
    region: spec.region,
    group: spec.group,
    cpu: spec.cpu,
    memoryBytes: spec.memoryBytes,
    storage: [],
  });
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
// Metrics (part 2: raw values; chosen: deterministic waves and noise per instance and series)

/** A deterministic value in [0, 1) for an instance, a series and an instant. */
function noise(instanceId: string, series: string, t: number): number {
  return stableHash(`${instanceId}:${series}:${t}`) / 4294967296;
}

export function metricsFor(inst: InstanceRow, start: number, end: number, step: number) {
  const times: number[] = [];
  for (let t = start; t <= end; t += step) times.push(t);
  const wave = (t: number, period: number) => (Math.sin((2 * Math.PI * t) / period) + 1) / 2;
  const series = (name: string, value: (t: number) => number) => times.map((t) => ({ time: t, value: value(t) }));
  const round2 = (v: number) => Math.round(v * 100) / 100;
  return {
    cpu: series("cpu", (t) =>
      round2(100 * Math.min(1, 0.05 + 0.5 * wave(t, 3600) * noise(inst.id, "cpu", t) + 0.1 * noise(inst.id, "cpu2", t))),
    ),
    memory: series("memory", (t) => Math.round(inst.memoryBytes * (0.3 + 0.4 * noise(inst.id, "memory", t)))),
    disk_read: series("disk_read", (t) => Math.round(50_000_000 * noise(inst.id, "disk_read", t) * wave(t, 900))),
    disk_write: series("disk_write", (t) => Math.round(20_000_000 * noise(inst.id, "disk_write", t) * wave(t, 1200))),
    network_rx: series("network_rx", (t) => Math.round(inst.bandwidth.download_bytes_sec * 0.2 * noise(inst.id, "network_rx", t))),
    network_tx: series("network_tx", (t) => Math.round(inst.bandwidth.upload_bytes_sec * 0.2 * noise(inst.id, "network_tx", t))),
  };
}

/** A hostname derived from the instance name (RFC 1123 label characters). */
export function hostnameFrom(name: string): string {
  const cleaned = name
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 32);
  return cleaned.length >= 4 ? cleaned : `${cleaned || "host"}-vm`.slice(0, 32);
}
