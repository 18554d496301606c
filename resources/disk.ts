/**
 * Disk — a standalone block volume (spec part 2, Disks).
 *
 *   POST   /v1/workspaces/{wid}/disks   name, size (bytes), backend (LOCAL|CEPH), region -> WorkflowWithResource
 *   GET    /v1/disks/{did}              detail with live.usage_pct when available
 *   PATCH  /v1/disks/{did}              name
 *   POST   /v1/disks/{did}/resize       size (larger than the current size; shrinking unsupported)
 *   POST   /v1/disks/{did}/attach       instance_id (disk detached and AVAILABLE)
 *   POST   /v1/disks/{did}/detach       (disk attached)
 *   DELETE /v1/disks/{did}              workflow; the disk must be detached (so it is detached first)
 */
import { z } from "../provider/fields/zod";
import { isAmbiguous } from "../provider/client/client";
import { createdDuring, type OperationContext } from "../provider/context";
import { workflowOf, resourceOf } from "../provider/client/envelope";
import { ApiError, ifFound } from "../provider/errors";
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
import { createBody, outputsFromAnswer, updateBody } from "../provider/fields/convert";
import { listAll } from "../provider/client/paging";
import { zId, zWideInteger } from "../provider/fields/constraints";
import { idOf, numberOf, wireId } from "../provider/client/wire";
import { type ResourceDefinition } from "../provider/definition";
import { type Metering } from "../provider/metering";
import type { DiskArgs, DiskOutputs } from "./generated/disk";
import { replace, updateRequest, type StepOf, updateSteps } from "../provider/fields/changeEffects";

const WHERE = "spec part 2, Disks";

// The update steps beside the update request, in the order they run; each named below as an effect.
const steps = updateSteps("resize", "attach");

// 1. Inputs and outputs, each field declared once: type and limits, doc, what a change does, how it is read (provider/fields/declare.ts).
/** @internal */
export const diskFields = fieldSet({
  workspaceId: owningWorkspace,
  name: autonamed(
    input(z.string().min(1, `must not be empty (${WHERE}: name is required)`), {
      doc: "Display name (required).",
      onChange: updateRequest,
    }),
  ),
  size: input(
    zWideInteger(
      `must be a whole number of bytes (${WHERE}: size)`,
      `must be a number of bytes (${WHERE}: size is required, in bytes)`,
    ).positive(`must be a positive number of bytes (${WHERE}: size)`),
    {
      doc: "Size in bytes. A disk only grows: a smaller size than the recorded one is rejected at preview.",
      onChange: steps.resize,
      fromAnswer: (d: ApiDisk) => numberOf(d.size)!,
    },
  ),
  backend: input(z.enum(["LOCAL", "CEPH"], { error: `must be LOCAL or CEPH (${WHERE})` }), {
    doc: "LOCAL or CEPH (CEPH needs a Ceph node in the region).",
    onChange: replace,
  }),
  region: input(z.string().min(1, `must name a region, for example NA_01 (${WHERE}: region is required)`), {
    doc: "Region, for example NA_01.",
    onChange: replace,
  }),
  instanceId: input(zId("instance id").nullable().default(null), {
    doc: "Instance to attach to (same workspace and region); omit or null to keep the disk detached.",
    onChange: steps.attach,
    // Attached by the attach step right after creation (afterCreate), not by the create request.
    create: false,
    fromAnswer: (d: ApiDisk) => idOf(d.instance),
  }),
  boot: computed<boolean>({ doc: "Whether this is an instance's boot disk.", stable: true }),
  state: computed<string>({ doc: "Resource state: PENDING, AVAILABLE, FAILED..." }),
  usagePct: computed<number | null>({
    doc: "Filesystem usage reported by the API while attached, else null.",
    fromAnswer: (d: ApiDisk) => d.live?.usage_pct ?? null,
  }),
  createdAt,
});
type Inputs = InputsOf<typeof diskFields>;
type Outputs = OutputsOf<typeof diskFields>;

// 2. API mapping.
/** The API's disk (spec part 2). */
interface ApiDisk {
  id: string;
  name: string;
  size: number;
  backend: string;
  region: string;
  boot: boolean;
  state: string;
  instance: { id: string; name?: string } | null;
  workspace?: { id: string };
  live?: { usage_pct?: number | null } | null;
  created?: string;
}
const toOutputs = (d: ApiDisk, workspaceId: string): Outputs => outputsFromAnswer(diskFields, d, { workspaceId });

async function get(ctx: OperationContext, id: string, prior: Partial<Inputs>): Promise<Outputs | undefined> {
  const found = await ifFound(ctx.client.get<ApiDisk>(`/v1/disks/${id}`));
  return found && toOutputs(found, prior.workspaceId ?? "");
}

/**
 * Detaches the disk from whatever instance holds it and waits until it is free. A detach whose
 * answer was lost (a 5xx or a dropped connection: it may or may not have been applied) is sent
 * again only when the disk still shows attached and idle; otherwise the wait below sees it free.
 */
async function detach(ctx: OperationContext, id: string): Promise<void> {
  let answer: unknown;
  for (;;) {
    try {
      answer = await ctx.client.post(`/v1/disks/${id}/detach`);
      break;
    } catch (err) {
      if (!isAmbiguous(err)) throw err;
      const current = await ctx.keepTrying("the check after a lost detach answer", () => get(ctx, id, {}));
      const untouched = !!current?.instanceId && current.state === "AVAILABLE";
      ctx.notice(
        `the detach answer was lost (${(err as Error).message}); ${untouched ? "still attached: sending it again" : "it is under way"}`,
      );
      if (!untouched) break;
    }
  }
  if (answer !== undefined) await ctx.waitForWorkflow(workflowOf(answer), "detach");
  await ctx.waitForState(
    () => get(ctx, id, {}),
    (d) => !d || (d.instanceId === null && d.state === "AVAILABLE"),
    (d) => d?.state ?? "gone",
    "detach",
  );
}

/** Detaches the disk when the API shows it attached; whether it did. */
async function detachIfAttached(ctx: OperationContext, id: string, olds: Outputs): Promise<boolean> {
  const current = await get(ctx, id, { workspaceId: olds.workspaceId });
  if (!current?.instanceId) return false;
  ctx.notice(`detaching from instance ${current.instanceId} before deletion`);
  await detach(ctx, id);
  return true;
}

/** What the API meters (policy pack): the size in its region, at its backend's storage rate (rate cards name backings in lower case). */
const pricing: Metering = {
  needs: () => ["size", "backend", "region"],
  price: (p) => ({
    request: {
      region: p.region as string,
      parts: [{ type: "STORAGE", storageBytes: p.size as number, storageBacking: String(p.backend).toLowerCase() }],
    },
  }),
};

// 3. The definition: what a change does (its effects) and the API calls.
/** @internal */
export const diskDefinition: ResourceDefinition<Inputs, Outputs, StepOf<typeof steps>> = {
  steps: steps.order,
  kind: "Disk",
  doc: "A standalone block volume, optionally attached to an instance.",
  ...fromFields(diskFields),
  // A disk never shrinks (spec part 2: "resize: larger than the current size; shrinking unsupported").
  transitions: [
    {
      field: "size",
      check: (old, next) =>
        Number(next) < Number(old)
          ? `cannot shrink a disk from ${old} to ${next} bytes: the API only grows disks (spec part 2, Disks: resize)`
          : undefined,
    },
  ],
  broken: (o) => o.state === "FAILED",
  pricing,
  api: {
    async create(ctx, i) {
      const answer = await ctx.client.post(`/v1/workspaces/${i.workspaceId}/disks`, createBody(diskFields, i));
      return { id: String(resourceOf<ApiDisk>(answer, ["disk"]).id), workflow: workflowOf(answer) };
    },
    async list(ctx, workspaceId) {
      return (await listAll<ApiDisk>(ctx.client, `/v1/workspaces/${workspaceId}/disks`)).map((d) => ({
        id: String(d.id),
        name: d.name,
        // An instance's boot disk comes and goes with it: its Instance declares it.
        ...(d.boot ? { leftOut: `the boot disk of instance ${d.instance?.name ?? idOf(d.instance) ?? "?"}` } : {}),
      }));
    },
    async findExisting(ctx, i) {
      const disks = await listAll<ApiDisk>(ctx.client, `/v1/workspaces/${i.workspaceId}/disks`, { name: i.name });
      return disks.find((d) => d.name === i.name && d.region === i.region && createdDuring(ctx, d.created))?.id;
    },
    get,
    settled: (d) => (d.state === "FAILED" ? `disk is FAILED` : d.state === "AVAILABLE"),
    stateOf: (d) => d.state,
    afterCreate: ["attach"],
    update: {
      async updateRequest(ctx, id, _olds, news, changed) {
        await ctx.client.patch(`/v1/disks/${id}`, updateBody(diskFields, news, changed));
      },
      async resize(ctx, id, _olds, news) {
        await ctx.waitForWorkflow(workflowOf(await ctx.client.post(`/v1/disks/${id}/resize`, { size: news.size })), "resize");
      },
      async attach(ctx, id, olds, news) {
        if (olds.instanceId) await detach(ctx, id);
        if (news.instanceId) {
          const answer = await ctx.client.post(`/v1/disks/${id}/attach`, { instance_id: wireId(news.instanceId) });
          await ctx.waitForWorkflow(workflowOf(answer), `attach to instance ${news.instanceId}`);
        }
      },
    },
    // Delete needs a detached disk (spec part 2). One this stack attached is detached first; one
    // recorded detached is deleted at once, and detached only when the API refuses because it is
    // attached after all (attached outside Pulumi since the last refresh): no read in the usual case.
    async beforeDelete(ctx, id, olds) {
      if (olds.instanceId) await detachIfAttached(ctx, id, olds);
    },
    async delete(ctx, id, olds) {
      const send = async () => workflowOf(await ctx.client.delete(`/v1/disks/${id}`));
      try {
        return await send();
      } catch (err) {
        if (!(err instanceof ApiError && err.status === 409) || !(await detachIfAttached(ctx, id, olds))) throw err;
        return send();
      }
    },
  },
};

// 4. The public Args: generated from the fields, with the class (resources/generated/disk.ts).
export type { DiskArgs, DiskOutputs };
