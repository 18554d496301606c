/**
 * Snapshots: the create-snapshot and restore-snapshot instance commands (part 2) and the
 * snapshot list, fetch and delete endpoints (not shown; chosen). The rules are the area's
 * domain (domain/snapshots.ts).
 */
import { z } from "zod";
import type { Domain } from "../core/domain";
import { paginate } from "../core/paging";
import { accepted, ok } from "../core/router";
import { parseWith, pathId, zId } from "../core/validation";
import { loadInstance, INSTANCE_OPERATE, INSTANCE_READ } from "../domain/instances";
import { createSnapshot, deleteSnapshot, loadSnapshot, restoreSnapshot, snapshotView, type SnapshotRow } from "../domain/snapshots";

const CreateSnapshot = z.object({ instance_id: zId, disk_id: zId.optional() });
const RestoreSnapshot = z.object({ snapshot_id: zId, restart: z.boolean().default(false) });

export const snapshotsDomain: Domain = {
  name: "snapshots",
  inventory: {
    snapshots: { workspaceOf: (row: SnapshotRow) => row.workspaceId },
  },
  routes: [
    {
      method: "POST",
      path: "/v1/commands/create-snapshot",
      handler: (ctx) => {
        const body = parseWith(CreateSnapshot, ctx.body);
        return accepted(createSnapshot(ctx, loadInstance(ctx, body.instance_id, INSTANCE_OPERATE), body.disk_id));
      },
    },
    {
      method: "POST",
      path: "/v1/commands/restore-snapshot",
      handler: (ctx) => {
        const body = parseWith(RestoreSnapshot, ctx.body);
        return accepted(restoreSnapshot(ctx, loadSnapshot(ctx, body.snapshot_id, INSTANCE_OPERATE), body.restart));
      },
    },
    {
      method: "GET",
      path: "/v1/snapshots/:id",
      handler: (ctx) => ok(snapshotView(ctx.services, loadSnapshot(ctx, pathId(ctx.params.id, "id"), INSTANCE_READ))),
    },
    {
      method: "GET",
      path: "/v1/instances/:iid/snapshots",
      handler: (ctx) => {
        const inst = loadInstance(ctx, pathId(ctx.params.iid, "iid"), INSTANCE_READ);
        const rows = ctx.store.t.snapshots.filter((s) => s.instanceId === inst.id);
        return ok(
          paginate(rows, ctx.query, (s) => snapshotView(ctx.services, s), {
            id: (s) => s.id,
            sortable: { created: (s) => s.created, name: (s) => s.name },
            defaultSort: { field: "created", dir: "desc" },
          }),
        );
      },
    },
    {
      method: "DELETE",
      path: "/v1/snapshots/:id",
      handler: (ctx) => accepted(deleteSnapshot(ctx, loadSnapshot(ctx, pathId(ctx.params.id, "id"), INSTANCE_OPERATE))),
    },
  ],
};
