/**
 * Snapshot — a point-in-time copy of an instance disk (spec part 2, Snapshot; instance command
 * create-snapshot).
 *
 *   POST   /v1/commands/create-snapshot     instance_id, disk_id (default the boot disk); instance AVAILABLE,
 *                                           not locked -> workflow
 *   GET    /v1/instances/{iid}/snapshots    (not shown in the spec) newest first
 *   GET    /v1/snapshots/{id}               (not shown in the spec)
 *   DELETE /v1/snapshots/{id}               (not shown in the spec) workflow
 *
 * The spec says snapshot list and delete endpoints exist but does not show them, nor the
 * snapshot's fields. This resource relies on the emulator's choice for them (emulator/notes/
 * part2-compute.md): the create answer is a bare workflow, so the new snapshot is the one that
 * appears in the instance's list during the create (on the requested disk); against an API
 * without these endpoints it fails with a message saying so. Every field replaces the snapshot
 * (there is no update); snapshots go away with their instance.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import type { OperationContext } from "../provider/context";
import { workflowOf } from "../provider/envelope";
import { ApiError, ifFound } from "../provider/errors";
import { listAll } from "../provider/paging";
import { type CommonArgs } from "../provider/resource";
import { type InputsMatch, zId } from "../provider/schema";
import { compact, idOf, numberOf, wireId } from "../provider/wire";
import { replace, type ResourceSpec } from "../provider/spec";

const NOT_SHOWN =
  "the spec says snapshot list and delete endpoints exist but does not show them (spec part 2, Plans and nodes, last line); this provider uses GET /v1/instances/{iid}/snapshots, GET and DELETE /v1/snapshots/{id}";

// 1. Inputs.
const inputs = z.object({
  instanceId: zId("instance id"),
  /** Disk to copy; the API's default is the instance's boot disk. */
  diskId: zId("disk id").optional(),
});
type Inputs = z.infer<typeof inputs>;
// The public SnapshotArgs and the schema above declare the same fields (checked by the compiler).
const _fieldsMatch: InputsMatch<SnapshotArgs, z.infer<typeof inputs>> = true;

export interface SnapshotOutputs extends Record<string, unknown> {
  workspaceId: string;
  instanceId: string;
  /** The copied disk (the boot disk unless diskId was set). */
  diskId: string;
  /** Name the API gave it. */
  name: string;
  /** Bytes. */
  size: number;
  /** PENDING, AVAILABLE, FAILED, DELETING. */
  state: string;
  createdAt: string;
}

// 2. API mapping.
interface ApiSnapshot {
  id: string;
  name: string;
  state: string;
  size: number;
  instance: { id: string } | null;
  disk: { id: string } | null;
  workspace?: { id: string } | null;
  created?: string;
}

const toOutputs = (s: ApiSnapshot, prior: Partial<Inputs>): SnapshotOutputs =>
  compact({
    workspaceId: idOf(s.workspace) ?? "",
    instanceId: idOf(s.instance) ?? prior.instanceId ?? "",
    diskId: idOf(s.disk) ?? prior.diskId ?? "",
    name: s.name,
    size: numberOf(s.size) ?? 0,
    state: s.state,
    createdAt: s.created ?? "",
  }) as SnapshotOutputs;

const listPath = (instanceId: string) => `/v1/instances/${instanceId}/snapshots`;

/** The instance's snapshots; a 404 for an instance that exists means the API has no such list. */
async function listSnapshots(ctx: OperationContext, instanceId: string): Promise<ApiSnapshot[]> {
  try {
    return await listAll<ApiSnapshot>(ctx.client, listPath(instanceId));
  } catch (err) {
    if (!(err instanceof ApiError && err.notFound)) throw err;
    try {
      await ctx.client.get(`/v1/instances/${instanceId}`);
    } catch {
      throw err; // the instance itself is gone: the API's own message says so
    }
    throw new Error(
      `${ctx.label}: the API has no snapshot list (GET ${listPath(instanceId)} answered 404): ${NOT_SHOWN}, which this API does not offer.`,
    );
  }
}

/** Snapshot ids seen on the instance just before the create request, per operation. */
const seenBefore = new WeakMap<OperationContext, Set<string>>();

/** The snapshot this operation created: on the instance (and disk), absent before the request, newest first. */
async function newSnapshot(ctx: OperationContext, i: Inputs): Promise<ApiSnapshot | undefined> {
  const before = seenBefore.get(ctx) ?? new Set<string>();
  const fresh = (await listSnapshots(ctx, i.instanceId)).filter(
    (s) => !before.has(idOf(s.id)!) && (i.diskId === undefined || idOf(s.disk) === i.diskId),
  );
  fresh.sort((a, b) => (b.created ?? "").localeCompare(a.created ?? ""));
  return fresh[0];
}

// 3. The spec: what a change does (policies) and the API calls.
/** @internal */
export const snapshotSpec: ResourceSpec<Inputs, SnapshotOutputs> = {
  kind: "Snapshot",
  doc: "A point-in-time copy of an instance disk (restore it with the restore-snapshot command). Relies on the snapshot endpoints the spec does not show (see the module comment).",
  inputs,
  // No update: every field replaces the snapshot.
  policies: { instanceId: replace, diskId: replace },
  stableOutputs: ["name", "size", "createdAt", "workspaceId"],
  label: (i, id) => `Snapshot ${id ?? ""} of instance ${i.instanceId ?? "?"}`.replace(/\s+/g, " "),
  broken: (o) => o.state === "FAILED",
  pricing: { notMetered: "the spec prices storage only as a disk's or an instance's; snapshots are not estimated" },
  api: {
    async create(ctx, i) {
      seenBefore.set(ctx, new Set((await listSnapshots(ctx, i.instanceId)).map((s) => idOf(s.id)!)));
      const answer = await ctx.client.post(
        "/v1/commands/create-snapshot",
        compact({ instance_id: wireId(i.instanceId), disk_id: i.diskId === undefined ? undefined : wireId(i.diskId) }),
      );
      const workflow = workflowOf(answer);
      const created = await newSnapshot(ctx, i);
      if (!created) {
        throw new Error(
          `${ctx.label}: create-snapshot started workflow ${workflow.id}, but no new snapshot appeared in GET ${listPath(i.instanceId)}; ` +
            `check the instance's snapshots and delete any this run left behind (${NOT_SHOWN}).`,
        );
      }
      return { id: idOf(created.id)!, workflow };
    },
    // A lost answer: the snapshot that appeared on the instance since the request was sent.
    findExisting: async (ctx, i) => idOf((await newSnapshot(ctx, i))?.id) ?? undefined,
    async read(ctx, id, prior) {
      const found = await ifFound(ctx.client.get<ApiSnapshot>(`/v1/snapshots/${id}`));
      return found && toOutputs(found, prior);
    },
    settled: (o) => (o.state === "FAILED" ? "snapshot is FAILED" : o.state === "AVAILABLE"),
    stateOf: (o) => o.state,
    async delete(ctx, id) {
      return workflowOf(await ctx.client.delete(`/v1/snapshots/${id}`));
    },
  },
};

// 4. The public Args: the class is generated from them and the spec (resources/generated/).
export interface SnapshotArgs extends CommonArgs {
  /** Instance whose disk is copied (AVAILABLE and not locked). Changing it replaces the snapshot. */
  instanceId: pulumi.Input<string>;
  /** Disk to copy; default the instance's boot disk. Changing it replaces the snapshot. */
  diskId?: pulumi.Input<string>;
}
