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
 * snapshot's fields. This resource relies on the emulator's choice for them (packages/emulator/README.md,
 * "Part 2 compute"): the create answer is a bare workflow, so the new snapshot is the one that
 * appears in the instance's list during the create (on the requested disk); against an API
 * without these endpoints it fails with a message saying so. Every field replaces the snapshot
 * (there is no update); snapshots go away with their instance.
 */
import type { OperationContext } from "../provider/context";
import { workflowOf } from "../provider/client/envelope";
import { ApiError, ifFound } from "../provider/errors";
import { computed, fieldSet, fromFields, input, type InputsOf, type OutputsOf, createdAt } from "../provider/fields/declare";
import { outputsFromAnswer } from "../provider/fields/convert";
import { listAll } from "../provider/client/paging";
import { zId } from "../provider/fields/constraints";
import type { WideInteger } from "../provider/fields/integer";
import { compact, idOf, numberOf, wireId } from "../provider/client/wire";
import { type ResourceDefinition } from "../provider/definition";
import type { SnapshotArgs, SnapshotOutputs } from "./generated/snapshot";
import { replace } from "../provider/fields/changeEffects";

const NOT_SHOWN =
  "the spec says snapshot list and delete endpoints exist but does not show them (spec part 2, Plans and nodes, last line); this provider uses GET /v1/instances/{iid}/snapshots, GET and DELETE /v1/snapshots/{id}";

// 1. Inputs and outputs, each field declared once: type and limits, doc, what a change does, how it is read (provider/fields/declare.ts).
// No update: every field replaces the snapshot.
/** @internal */
export const snapshotFields = fieldSet({
  // The snapshot's workspace, as the API reports it (an output: the instance decides it).
  workspaceId: computed<string>({
    doc: "The workspace of the instance.",
    stable: true,
    fromAnswer: (s: ApiSnapshot) => idOf(s.workspace) ?? "",
  }),
  instanceId: input(zId("instance id"), {
    doc: "Instance whose disk is copied (AVAILABLE and not locked).",
    onChange: replace,
    fromAnswer: (s: ApiSnapshot, prior) => idOf(s.instance) ?? (prior.instanceId as string | undefined) ?? "",
  }),
  diskId: input(zId("disk id").optional(), {
    doc: "Disk to copy; default the instance's boot disk (the copied disk is recorded either way).",
    onChange: replace,
    fromAnswer: (s: ApiSnapshot, prior) => idOf(s.disk) ?? (prior.diskId as string | undefined) ?? "",
  }),
  name: computed<string>({ doc: "Name the API gave it.", stable: true }),
  size: computed<WideInteger>({ doc: "Bytes.", stable: true, fromAnswer: (s: ApiSnapshot) => numberOf(s.size) ?? 0 }),
  state: computed<string>({ doc: "PENDING, AVAILABLE, FAILED, DELETING." }),
  createdAt,
});
type Inputs = InputsOf<typeof snapshotFields>;
type Outputs = OutputsOf<typeof snapshotFields>;

// 2. API mapping.
/** The emulator's snapshot (the spec does not show its fields; see the module comment). */
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

// 3. The definition: what a change does (its effects) and the API calls.
/** @internal */
export const snapshotDefinition: ResourceDefinition<Inputs, Outputs> = {
  kind: "Snapshot",
  doc: "A point-in-time copy of an instance disk (restore it with the restore-snapshot command). Relies on the snapshot endpoints the spec does not show (see the module comment).",
  ...fromFields(snapshotFields),
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
    // Each instance's snapshots (the list the spec does not show, as the emulator implements it).
    async list(ctx, workspaceId) {
      const instances = await listAll<{ id: string }>(ctx.client, `/v1/workspaces/${workspaceId}/instances`);
      const snapshots = await Promise.all(instances.map((v) => listSnapshots(ctx, String(v.id))));
      return snapshots.flat().map((s) => ({ id: idOf(s.id)!, name: s.name }));
    },
    // A lost answer: the snapshot that appeared on the instance since the request was sent.
    findExisting: async (ctx, i) => idOf((await newSnapshot(ctx, i))?.id) ?? undefined,
    async get(ctx, id, prior) {
      const found = await ifFound(ctx.client.get<ApiSnapshot>(`/v1/snapshots/${id}`));
      return found && outputsFromAnswer(snapshotFields, found, prior);
    },
    settled: (o) => (o.state === "FAILED" ? "snapshot is FAILED" : o.state === "AVAILABLE"),
    stateOf: (o) => o.state,
    async delete(ctx, id) {
      return workflowOf(await ctx.client.delete(`/v1/snapshots/${id}`));
    },
  },
};

// 4. The public Args: generated from the fields, with the class (resources/generated/snapshot.ts).
export type { SnapshotArgs, SnapshotOutputs };
