/**
 * Network commands' domain (spec part 3, "Network commands"): attach-ip, detach-ip,
 * network-auto-attach, suspend-network and unsuspend-network. Floating IP rows belong to the
 * floating IPs area (domain/floatingIps.ts); these commands only move them between instances,
 * and network-auto-attach may allocate new ones (released again if its workflow fails).
 */
import type { AccessNeed } from "../core/auth";
import type { AuditEntryView } from "../core/choices";
import { conflict, fieldError, notFound } from "../core/errors";
import type { RouteContext } from "../core/router";
import { audit, type Services } from "../core/services";
import type { Row } from "../core/store";
import { defineWorkflowEffect } from "../core/workflowEffects";
import type { FloatingIpRow, InstanceRow } from "../model";
import { instanceSummary } from "./instances";
import { allocateFloatingIp, checkIpQuota, releaseFloatingIp } from "./floatingIps";

type Family = FloatingIpRow["family"];

export const FLOATING_IP_WRITE: AccessNeed = { role: "EDITOR", grant: ["FLOATING_IP", "WRITE"] };
export const INSTANCE_WRITE: AccessNeed = { role: "EDITOR", grant: ["INSTANCE", "WRITE"] };

// ---------------------------------------------------------------------------------------------
// attach-ip / detach-ip

/** attach-ip: applied immediately (part 3, Network commands); attaching to its current holder is a no-op. */
export function attachIp(ctx: RouteContext, ip: FloatingIpRow, instance: InstanceRow): FloatingIpRow {
  if (instance.workspaceId !== ip.workspaceId) throw fieldError("instance", "must belong to the floating IP's workspace");
  if (ip.instanceId && ip.instanceId !== instance.id) {
    throw conflict(`Floating IP ${ip.address} is attached to another instance; detach it first`);
  }
  return ctx.store.t.floatingIps.update(ip.id, { instanceId: instance.id });
}

export function detachIp(ctx: RouteContext, ip: FloatingIpRow): FloatingIpRow {
  // A detached address lives on in the workspace on its own, so it is no longer released with
  // the instance it came with (origin becomes ALLOCATED). Detaching a free address is a no-op.
  if (ip.instanceId) ctx.store.t.floatingIps.update(ip.id, { instanceId: null, origin: "ALLOCATED" });
  return ip;
}

// ---------------------------------------------------------------------------------------------
// network-auto-attach

/** An auto-attach request as the route has validated it: which families, DDoS-filtered or not. */
export interface AutoAttachRequest {
  skip_duplicate: boolean;
  v4?: { filtered: boolean } | null;
  v6?: { filtered: boolean } | null;
}

/** Request field for each family, in the order families are handled. */
const FAMILY_FIELDS: Array<{ family: Family; field: "v4" | "v6" }> = [
  { family: "IPv4", field: "v4" },
  { family: "IPv6", field: "v6" },
];

interface AutoAttachArgs extends Record<string, unknown> {
  instanceId: string;
  /** Floating IPs to attach when the workflow completes. */
  planned: string[];
  /** Those allocated by this request (released again if the workflow fails). */
  allocated: string[];
}

/**
 * Addresses promised to an auto-attach whose workflow has not ended yet (keyed by floating IP
 * id), so that a second auto-attach does not pick the same free address meanwhile.
 */
interface IpReservationRow extends Row {
  workflowId: string;
}

declare module "../core/store" {
  interface Tables {
    ipReservations: IpReservationRow;
  }
}

function releaseReservations(services: Services, args: AutoAttachArgs): void {
  for (const id of args.planned) services.store.t.ipReservations.delete(id);
}

/** "filtered" restricts candidates to DDoS-filtered addresses; a matching IP satisfies skip_duplicate. */
const matches = (ip: FloatingIpRow, family: Family, filtered: boolean) => ip.family === family && (!filtered || ip.ddos);

/** A free address of the workspace to reuse: cheapest first (unfiltered before filtered), then oldest. */
function freeCandidate(ctx: RouteContext, workspaceId: string, family: Family, filtered: boolean): FloatingIpRow | undefined {
  const free = ctx.store.t.floatingIps.filter(
    (ip) =>
      ip.workspaceId === workspaceId && ip.instanceId === null && matches(ip, family, filtered) && !ctx.store.t.ipReservations.get(ip.id),
  );
  free.sort((a, b) => Number(a.ddos) - Number(b.ddos) || a.created.localeCompare(b.created) || a.id.localeCompare(b.id));
  return free[0];
}

type FamilyEntry = (typeof FAMILY_FIELDS)[number];

const AUTO_ATTACH_APPLY = defineWorkflowEffect("netcommands.autoAttach.apply", (services, wf) => {
  const args = wf.args as AutoAttachArgs;
  releaseReservations(services, args);
  if (!services.store.t.instances.get(args.instanceId)) return;
  for (const id of args.planned) {
    const ip = services.store.t.floatingIps.get(id);
    // Taken meanwhile by another attach: leave it where it is.
    if (ip && ip.instanceId === null) services.store.t.floatingIps.update(id, { instanceId: args.instanceId });
  }
});

const AUTO_ATTACH_RELEASE = defineWorkflowEffect("netcommands.autoAttach.release", (services, wf) => {
  releaseReservations(services, wf.args as AutoAttachArgs);
  for (const id of (wf.args as AutoAttachArgs).allocated) {
    const ip = services.store.t.floatingIps.get(id);
    if (!ip || ip.instanceId !== null) continue;
    releaseFloatingIp(services, id);
  }
});

/**
 * AttachResult (fields not shown). Chosen: `{ workflow, result: { instance, attached, skipped } }`
 * where `attached` lists the addresses (id, address, family, ddos) attached when the workflow
 * completes and `skipped` the families left alone because of skip_duplicate.
 */
export function networkAutoAttach(ctx: RouteContext, instance: InstanceRow, body: AutoAttachRequest) {
  ctx.access(instance.workspaceId, FLOATING_IP_WRITE);
  const held = ctx.store.t.floatingIps.filter((ip) => ip.instanceId === instance.id);
  const skipped: Family[] = [];
  const wanted: Array<{ entry: FamilyEntry; filtered: boolean; reuse: FloatingIpRow | undefined }> = [];
  for (const entry of FAMILY_FIELDS) {
    const options = body[entry.field];
    if (!options) continue;
    if (body.skip_duplicate && held.some((ip) => matches(ip, entry.family, options.filtered))) skipped.push(entry.family);
    else
      wanted.push({ entry, filtered: options.filtered, reuse: freeCandidate(ctx, instance.workspaceId, entry.family, options.filtered) });
  }
  // Quotas are checked for every new address before any is allocated.
  checkIpQuota(
    ctx.services,
    instance.workspaceId,
    wanted.filter((w) => !w.reuse).map((w) => w.entry.family),
  );
  const allocated: string[] = [];
  const planned = wanted.map((w) => {
    if (w.reuse) return w.reuse;
    // Allocated (and billed) now so the answer can name it; attached when the workflow completes.
    const ip = allocateFloatingIp(ctx.services, {
      workspaceId: instance.workspaceId,
      family: w.entry.family,
      ddos: w.filtered,
      origin: "ALLOCATED",
      instanceId: null,
      region: instance.region,
    });
    allocated.push(ip.id);
    return ip;
  });
  const args: AutoAttachArgs = { instanceId: instance.id, planned: planned.map((ip) => ip.id), allocated };
  const wf = ctx.startWorkflow({
    name: "network-auto-attach",
    workspaceId: instance.workspaceId,
    resource: { kind: "instances", id: instance.id },
    onComplete: AUTO_ATTACH_APPLY,
    onFail: AUTO_ATTACH_RELEASE,
    args,
  });
  for (const ip of planned) ctx.store.t.ipReservations.insert({ id: ip.id, workflowId: wf.id });
  const attached = planned.map((ip) => ({ id: ip.id, address: ip.address, family: ip.family, ddos: ip.ddos }));
  return { workflow: ctx.workflows.view(wf), result: { instance: instanceSummary(instance), attached, skipped } };
}

// ---------------------------------------------------------------------------------------------
// suspend-network / unsuspend-network

/** suspend-network / unsuspend-network (Administrator only; the route checks): answers an audit entry. */
export function setNetworkSuspended(ctx: RouteContext, instanceId: string, suspended: boolean): AuditEntryView {
  const instance = ctx.store.t.instances.get(instanceId);
  if (!instance) throw notFound("Instance");
  ctx.store.t.instances.update(instance.id, { networkSuspended: suspended });
  return audit(ctx.services, {
    workspaceId: instance.workspaceId,
    actorId: ctx.principal.user.id,
    action: suspended ? "instance.network.suspend" : "instance.network.unsuspend",
    target: { kind: "INSTANCE", id: instance.id },
  });
}
