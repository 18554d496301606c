/**
 * The floating IPs area's domain. Part 3 names floating IPs (fields seen: id, address, instance,
 * protected, family, ddos) but does not show their endpoints; network commands need addresses
 * to attach, so allocation, listing and release are a documented choice (emulator/README.md).
 *
 * An address comes from an instance's create (origin INSTANCE: released with the instance) or
 * from POST /v1/workspaces/{wid}/ips (origin ALLOCATED: detached, kept, when its instance goes).
 * Each held address is an IP billing subject. Quotas: max_floating_ipv4, max_floating_ipv6 and
 * max_floating_ips of the workspace.
 */
import { badRequest, conflict, notFound } from "../core/errors";
import type { AccessNeed } from "../core/auth";
import type { RouteContext } from "../core/router";
import type { Services } from "../core/services";
import { allocatePublicAddress } from "../network";
import { pricePart, startBilling, stopBilling } from "../pricing";
import type { FloatingIpRow } from "../model";
import type { IpFamily } from "../cidr";
import { workspaceSummary } from "./catalog";

export type { IpFamily };

export const IP_READ: AccessNeed = { grant: ["FLOATING_IP", "READ"] };
export const IP_ADMIN: AccessNeed = { role: "ADMINISTRATOR", grant: ["FLOATING_IP", "WRITE"] };

/** Region whose rate card prices a floating IP allocated on its own (choice: NA_01). */
const STANDALONE_IP_PRICING_REGION = "NA_01";

export function floatingIpView(services: Services, ip: FloatingIpRow) {
  const instance = ip.instanceId ? services.store.t.instances.get(ip.instanceId) : undefined;
  return {
    id: ip.id,
    address: ip.address,
    family: ip.family,
    ddos: ip.ddos,
    protected: ip.protected,
    // Choice (the full object is "not shown"): whether the address came with an instance's create
    // (INSTANCE: it goes with that instance) or was allocated on its own (ALLOCATED).
    origin: ip.origin,
    instance_id: instance ? instance.id : null,
    instance: instance ? { id: instance.id, name: instance.name } : null,
    workspace: workspaceSummary(services, ip.workspaceId),
    created: ip.created,
  };
}

/** Loads a floating IP and checks the caller may act on it; missing and invisible both answer 404. */
export function loadFloatingIp(ctx: RouteContext, id: string, need: AccessNeed): FloatingIpRow {
  const ip = ctx.store.t.floatingIps.get(id);
  if (!ip) throw notFound("Floating IP");
  ctx.access(ip.workspaceId, need);
  return ip;
}

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
    if (total > max)
      throw badRequest(`Floating IP quota exceeded: ${name} is ${max}`, [{ field: "ips", message: `quota ${name} (${max}) exceeded` }]);
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
  startBilling(services, {
    workspaceId: a.workspaceId,
    resourceId: ip.id,
    resourceKind: "FLOATING_IP",
    resourceName: ip.address,
    hourlyRate: "hourly_rate" in priced ? priced.hourly_rate : 0,
  });
  return ip;
}

/** POST /v1/workspaces/{wid}/ips: an address of its own, held until released. */
export function allocateStandaloneIp(services: Services, workspaceId: string, request: { family: IpFamily; ddos: boolean }): FloatingIpRow {
  checkIpQuota(services, workspaceId, [request.family]);
  return allocateFloatingIp(services, {
    workspaceId,
    ...request,
    origin: "ALLOCATED",
    instanceId: null,
    region: STANDALONE_IP_PRICING_REGION,
  });
}

export function releaseFloatingIp(services: Services, ipId: string): void {
  stopBilling(services, ipId);
  services.store.t.floatingIps.delete(ipId);
}

/** DELETE /v1/ips/{id}: only a free, unprotected address is released. */
export function releaseStandaloneIp(services: Services, ip: FloatingIpRow): void {
  // Choice: an attached address is not released from under its instance; detach it first.
  if (ip.instanceId) throw conflict("Floating IP is attached to an instance; detach it first");
  if (ip.protected) throw conflict("Floating IP is protected and cannot be released");
  releaseFloatingIp(services, ip.id);
}

/** An instance is removed: the addresses it was created with go, allocated ones stay, detached. */
export function freeAddressesOf(services: Services, instanceId: string): void {
  for (const ip of services.store.t.floatingIps.filter((x) => x.instanceId === instanceId)) {
    if (ip.origin === "INSTANCE") releaseFloatingIp(services, ip.id);
    else services.store.t.floatingIps.update(ip.id, { instanceId: null });
  }
}
