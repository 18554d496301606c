/**
 * FloatingIp — a public address the workspace holds on its own, to attach to an instance with a
 * FloatingIpAttachment (spec part 3, Floating IP; network commands attach-ip / detach-ip).
 *
 * The spec lists the floating IP's fields (id, address, instance or instance_id, protected,
 * family, ddos) but says the allocation endpoints are "not shown" (part 3, Network commands:
 * "Floating IP endpoints themselves (allocate at POST /v1/workspaces/{wid}/ips, list, reverse
 * DNS, DHCP): not shown"). This resource relies on those unshown endpoints as the emulator
 * implements them (packages/emulator/README.md, "Floating IPs"):
 *
 *   POST   /v1/workspaces/{wid}/ips   family (IPv4|IPv6), ddos (default false) -> 201 floating IP
 *   GET    /v1/workspaces/{wid}/ips   newest first; filters family, ddos, instance, address...
 *   GET    /v1/ips/{id}
 *   DELETE /v1/ips/{id}               204; 409 while attached or protected
 *
 * There, allocating and releasing need the ADMINISTRATOR role (or OWNER) and FLOATING_IP WRITE.
 * Against an API whose unshown endpoints differ, this resource fails with the API's answer.
 */
import { z } from "../provider/fields/zod";
import { createdDuring, type OperationContext } from "../provider/context";
import { ApiError, ifFound } from "../provider/errors";
import {
  computed,
  fieldSet,
  fromFields,
  input,
  type InputsOf,
  type OutputsOf,
  owningWorkspace,
  createdAt,
} from "../provider/fields/declare";
import { createBody, outputsFromAnswer } from "../provider/fields/convert";
import { listAll } from "../provider/client/paging";
import { ddosProblem } from "../provider/fields/constraints";
import { idOf, wireId } from "../provider/client/wire";
import { type ResourceDefinition, type Rule } from "../provider/definition";
import { ipParts, type Metering } from "../provider/metering";
import type { FloatingIpArgs, FloatingIpOutputs } from "./generated/floatingIp";
import { replace } from "../provider/fields/changeEffects";

const WHERE = "spec part 3, Floating IP";

// 1. Inputs and outputs, each field declared once (provider/fields/declare.ts). An address cannot change
// family or protection: a change allocates a new one.
/** @internal */
export const floatingIpFields = fieldSet({
  workspaceId: owningWorkspace,
  family: input(z.enum(["IPv4", "IPv6"], { error: `must be IPv4 or IPv6 (${WHERE})` }), { doc: "IPv4 or IPv6.", onChange: replace }),
  ddos: input(z.boolean({ error: `must be true or false (${WHERE}: ddos)` }).default(false), {
    doc: "DDoS-filtered address (default false; IPv4 only).",
    onChange: replace,
    fromAnswer: (ip: ApiFloatingIp) => !!ip.ddos,
  }),
  address: computed<string>({ doc: "The allocated address.", stable: true }),
  protected: computed<boolean>({ doc: "Protected addresses cannot be released.", fromAnswer: (ip: ApiFloatingIp) => !!ip.protected }),
  createdAt,
});
type Inputs = InputsOf<typeof floatingIpFields>;
type Outputs = OutputsOf<typeof floatingIpFields>;

const rules: Rule<Inputs>[] = [{ fields: ["family", "ddos"], property: "ddos", check: (i) => ddosProblem(i.family, i.ddos) }];

// 2. API mapping.
/** @internal */
export interface ApiFloatingIp {
  id: string;
  address: string;
  family: "IPv4" | "IPv6";
  ddos: boolean;
  protected?: boolean;
  /** INSTANCE (allocated by an instance's create: its declaration's `ips`) or ALLOCATED; where the API says (not in the spec). */
  origin?: string;
  instance_id?: string | null;
  instance?: { id: string; name?: string } | null;
  workspace?: { id: string };
  created?: string;
}

/**
 * The workspace's addresses, each with why an import leaves it out: one an instance's create
 * allocated goes with that instance and is its declaration's (`ips`), where the API says so (the
 * emulator's `origin`; the spec does not show the field, so without it every address is listed).
 * @internal
 */
export async function listFloatingIps(ctx: OperationContext, workspaceId: string): Promise<Array<{ ip: ApiFloatingIp; leftOut?: string }>> {
  const ips = await listAll<ApiFloatingIp>(ctx.client, ipsPath(workspaceId));
  return ips.map((ip) => ({
    ip,
    ...(ip.origin === "INSTANCE"
      ? { leftOut: `an address of instance ${ip.instance?.name ?? holderOf(ip) ?? "?"}, made by its create` }
      : {}),
  }));
}

/** The holder of a floating IP: the spec names it `instance` or `instance_id`. @internal */
export const holderOf = (ip: ApiFloatingIp): string | null => idOf(ip.instance_id ?? ip.instance ?? null);

const toOutputs = (ip: ApiFloatingIp, workspaceId: string): Outputs => outputsFromAnswer(floatingIpFields, ip, { workspaceId });

/** @internal */
export async function fetchFloatingIp(ctx: OperationContext, id: string): Promise<ApiFloatingIp | undefined> {
  return ifFound(ctx.client.get<ApiFloatingIp>(`/v1/ips/${id}`));
}

const ipsPath = (workspaceId: string) => `/v1/workspaces/${workspaceId}/ips`;

/**
 * A floating IP has no name: after a lost create answer, the one to adopt is the address of this
 * family that appeared since the create began (`before` holds the ids seen then) and that no
 * other create of this process received. Two such candidates cannot be told apart: refuse.
 */
const seenBefore = new WeakMap<OperationContext, Set<string>>();
const claimed = new Set<string>();

/**
 * What the API meters (policy pack): the address, priced in the region the policy's
 * `standaloneIpRegion` names (the spec gives an address allocated on its own no region).
 */
const pricing: Metering = {
  needs: () => ["family"],
  price: (p, standaloneIpRegion) => ({
    request: { region: standaloneIpRegion, parts: ipParts([{ family: p.family as "IPv4" | "IPv6", ddos: p.ddos as boolean | undefined }]) },
  }),
};

// 3. The definition: what a change does (its effects) and the API calls.
/** @internal */
export const floatingIpDefinition: ResourceDefinition<Inputs, Outputs> = {
  kind: "FloatingIp",
  doc: "A public address owned by the stack, independent of any instance (it outlives instance replacements); attach it with a FloatingIpAttachment. Relies on endpoints the spec does not show (allocation at POST /v1/workspaces/{wid}/ips, GET and DELETE /v1/ips/{id}), as the emulator implements them. `pulumi destroy` detaches the address if something still holds it, then releases it.",
  ...fromFields(floatingIpFields),
  rules,
  label: (i, id) => `FloatingIp ${i.family ?? ""}${id ? ` ${id}` : ""}`.replace(/\s+/g, " ").trim(),
  pricing,
  api: {
    async create(ctx, i) {
      const before = await listAll<ApiFloatingIp>(ctx.client, ipsPath(i.workspaceId), { family: i.family });
      seenBefore.set(ctx, new Set(before.map((ip) => String(ip.id))));
      const ip = await ctx.client.post<ApiFloatingIp>(ipsPath(i.workspaceId), createBody(floatingIpFields, i));
      claimed.add(String(ip.id));
      return { id: String(ip.id) };
    },
    async list(ctx, workspaceId) {
      return (await listFloatingIps(ctx, workspaceId)).map(({ ip, leftOut }) => ({
        id: String(ip.id),
        name: ip.address,
        ...(leftOut ? { leftOut } : {}),
      }));
    },
    async findExisting(ctx, i) {
      const before = seenBefore.get(ctx) ?? new Set<string>();
      const now = await listAll<ApiFloatingIp>(ctx.client, ipsPath(i.workspaceId), { family: i.family, ddos: i.ddos });
      const candidates = now.filter(
        (ip) =>
          !before.has(String(ip.id)) &&
          !claimed.has(String(ip.id)) &&
          holderOf(ip) === null &&
          !!ip.ddos === i.ddos &&
          createdDuring(ctx, ip.created),
      );
      if (candidates.length > 1) {
        throw new Error(
          `${ctx.label}: the create answer was lost and ${candidates.length} new ${i.family} addresses appeared meanwhile (${candidates.map((c) => `${c.id} ${c.address}`).join(", ")}); ` +
            `they cannot be told apart. Adopt the right one with adoptId, and release the others (DELETE /v1/ips/{id}).`,
        );
      }
      const found = candidates[0] && String(candidates[0].id);
      if (found) claimed.add(found);
      return found;
    },
    async get(ctx, id, prior) {
      const ip = await fetchFloatingIp(ctx, id);
      return ip && toOutputs(ip, prior.workspaceId ?? "");
    },
    // The address is released only once free: whatever still holds it lets go first.
    async beforeDelete(ctx, id) {
      const ip = await fetchFloatingIp(ctx, id);
      const holder = ip && holderOf(ip);
      if (holder) {
        ctx.notice(`detaching from instance ${holder} before releasing the address`);
        await ctx.client.post(`/v1/commands/detach-ip`, { ip: wireId(id) });
      }
    },
    async delete(ctx, id) {
      try {
        await ctx.client.delete(`/v1/ips/${id}`);
      } catch (err) {
        if (err instanceof ApiError && err.status === 409) {
          throw new Error(
            `${ctx.label}: the API refuses to release the address (${err.reason ?? "conflict"}): a protected address must be unprotected first, and an attached one detached.`,
          );
        }
        throw err;
      }
    },
  },
};

// 4. The public Args: generated from the fields, with the class (resources/generated/floatingIp.ts).
export type { FloatingIpArgs, FloatingIpOutputs };
