/**
 * Creating an instance (spec part 2, "Instances", create): the spec resolved from a plan or a
 * CUSTOM body, placement on a node, the image, quotas (instances, storage, floating IPs), then
 * the rows (instance PENDING, its disks, addresses and VPC memberships), billing, and the
 * workflow whose effect (instanceLifecycle.ts) makes it AVAILABLE.
 */
import { badRequest, conflict, fieldError, notFound } from "../core/errors";
import type { RouteContext } from "../core/router";
import type { WorkflowView } from "../core/choices";
import { effectiveRole } from "../core/auth";
import { startBilling } from "../pricing";
import type { ImageRow, InstanceRow, NodeRow, PlanRow } from "../model";
import { leastLoaded, nodesInRegion, nodeUsableBy, type PlanGroup } from "./catalog";
import { checkStorageQuota, insertDisk, startDiskBilling, type DiskBackend } from "./disks";
import { allocateFloatingIp, checkIpQuota, type IpFamily } from "./floatingIps";
import { hostnameFrom, instanceHourlyRate } from "./instances";
import { INSTANCE_CREATED, INSTANCE_CREATE_FAILED } from "./instanceLifecycle";
import { joinPlanned, planMemberships } from "./vpcs";

/** A create request as the route has validated it (part 2, create body). */
export type InstanceRequest = (
  | { type: "PLAN"; plan: string }
  | {
      type: "CUSTOM";
      group: PlanGroup;
      cpu: number;
      memory_bytes: number;
      storage: Array<{ size_bytes: number; boot: boolean; backing: DiskBackend }>;
      bandwidth?: { upload_bytes_sec: number; download_bytes_sec: number };
    }
) & {
  name: string;
  region?: string;
  node?: string;
  image?: string;
  ips?: Array<{ family: IpFamily; ddos: boolean }>;
  vpcs?: string[];
  boot?: "DISK" | "ISO";
  cloud_init?: string;
  disable_cloud_init?: boolean;
  start?: boolean;
};

/** Bandwidth of a CUSTOM instance that sends none (choice). */
const DEFAULT_CUSTOM_BANDWIDTH = { upload_bytes_sec: 100_000_000, download_bytes_sec: 100_000_000 };
/** Floating IPs when `ips` is omitted (part 2: "a plan grants one IPv4 and one IPv6"). */
const DEFAULT_IPS: Array<{ family: IpFamily; ddos: boolean }> = [
  { family: "IPv4", ddos: false },
  { family: "IPv6", ddos: false },
];

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

function resolveSpec(ctx: RouteContext, body: InstanceRequest): ResolvedSpec {
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
function placeInstance(ctx: RouteContext, wid: string, body: InstanceRequest, spec: ResolvedSpec): NodeRow {
  const needsCeph = spec.storage.some((s) => s.backend === "CEPH");
  const fits = (n: NodeRow) => n.cores >= spec.cpu && n.maxMemory >= spec.memoryBytes;
  if (body.node) {
    const node = ctx.store.t.nodes.get(body.node);
    if (!node || !nodeUsableBy(node, wid)) throw notFound("Node");
    if (body.region && body.region !== node.region)
      throw fieldError("region", `node ${node.name} is in ${node.region}, not ${body.region}`);
    if (node.group !== spec.group) throw fieldError("node", `node ${node.name} serves ${node.group}; the instance needs ${spec.group}`);
    if (needsCeph && !node.flags.includes("CEPH"))
      throw fieldError("storage", `node ${node.name} is not in the Ceph cluster; CEPH storage needs a CEPH node`);
    if (!fits(node)) throw fieldError("node", `node ${node.name} cannot host ${spec.cpu} cores and ${spec.memoryBytes} bytes of memory`);
    return node;
  }
  const region = body.region!;
  const inGroup = nodesInRegion(ctx.services, wid, region, spec.group);
  if (!inGroup.length) throw fieldError("region", `no ${spec.group} node in region ${region} is available to this workspace`);
  const withStorage = needsCeph ? inGroup.filter((n) => n.flags.includes("CEPH")) : inGroup;
  if (!withStorage.length) throw fieldError("storage", `no CEPH node in region ${region}; CEPH storage needs one`);
  const candidates = withStorage.filter(fits);
  if (!candidates.length)
    throw fieldError("cpu", `no node in region ${region} can host ${spec.cpu} cores and ${spec.memoryBytes} bytes of memory`);
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
function sameWorkspaceRow<T extends { workspaceId: string }>(
  ctx: RouteContext,
  row: T | undefined,
  wid: string,
  field: string,
  what: string,
): T {
  if (!row || effectiveRole(ctx.services, ctx.principal, row.workspaceId) === null) throw notFound(what);
  if (row.workspaceId !== wid) throw fieldError(field, `${what} belongs to another workspace`);
  return row;
}

function checkInstanceQuota(ctx: RouteContext, wid: string): void {
  const ws = ctx.store.t.workspaces.get(wid);
  if (!ws) return;
  const count = ctx.store.t.instances.count((i) => i.workspaceId === wid);
  if (count + 1 > ws.quota.max_instances) throw badRequest(`Instance quota exceeded: max_instances is ${ws.quota.max_instances}`);
}

/** Creates an instance (PENDING) with its disks, addresses and VPC memberships, and the workflow that settles it. */
export function provisionInstance(
  ctx: RouteContext,
  wid: string,
  body: InstanceRequest,
): { instance: InstanceRow; workflow: WorkflowView } {
  const spec = resolveSpec(ctx, body);
  const node = placeInstance(ctx, wid, body, spec);
  const bootSize = spec.storage.find((s) => s.boot)!.size;
  const image = resolveImage(ctx, wid, body.image, bootSize);
  const iso = image?.kind === "ISO" ? image : null;
  if (body.boot === "ISO" && !iso) throw fieldError("boot", "booting from ISO needs an ISO image");
  const ips = body.ips ?? DEFAULT_IPS;
  const vpcs = planMemberships(ctx, wid, body.vpcs ?? [], (vpc) => sameWorkspaceRow(ctx, vpc, wid, "vpcs", "VPC"));
  checkInstanceQuota(ctx, wid);
  checkStorageQuota(
    ctx.services,
    wid,
    spec.storage.reduce((sum, s) => sum + s.size, 0),
    "storage",
  );
  checkIpQuota(
    ctx.services,
    wid,
    ips.map((ip) => ip.family),
  );

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
  for (const ip of ips)
    allocateFloatingIp(ctx.services, {
      workspaceId: wid,
      family: ip.family,
      ddos: ip.ddos,
      origin: "INSTANCE",
      instanceId: inst.id,
      region: node.region,
    });
  joinPlanned(ctx.services, inst.id, vpcs);
  startBilling(ctx.services, {
    workspaceId: wid,
    resourceId: inst.id,
    resourceKind: "INSTANCE",
    resourceName: inst.name,
    hourlyRate: instanceHourlyRate(ctx.services, inst),
  });

  const wf = ctx.startWorkflow({
    name: "create-instance",
    workspaceId: wid,
    resource: { kind: "instances", id: inst.id },
    onComplete: INSTANCE_CREATED,
    onFail: INSTANCE_CREATE_FAILED,
    args: { start: body.start ?? true },
  });
  return { instance: inst, workflow: ctx.workflows.view(wf) };
}
