/**
 * Instance commands (spec part 2, "Instance commands", all POST under /v1/commands/): the request
 * schemas and the command table. The rules of each command are the instances area's domain
 * (domain/instanceCommands.ts, domain/instanceUpgrades.ts); create-snapshot and
 * restore-snapshot are routed by the snapshots area, install-recipe by recipes.
 */
import { z } from "zod";
import type { Domain } from "../core/domain";
import { accepted, ok, type Reply, type RouteContext } from "../core/router";
import { parseWith, zId, zInt } from "../core/validation";
import { loadInstance, INSTANCE_ADMIN, INSTANCE_OPERATE } from "../domain/instances";
import { POWER_ACTIONS } from "../domain/instanceLifecycle";
import { applyUpgrades, upgradeInstance } from "../domain/instanceUpgrades";
import {
  attachIso,
  batchPower,
  batchSuspend,
  batchTerminate,
  cancelTerminationCommand,
  detachIso,
  migrate,
  resetPassword,
  suspend,
  syncSshKeys,
  terminate,
  updateHostname,
} from "../domain/instanceCommands";

// ---------------------------------------------------------------------------------------------
// Request bodies

const bool = z.boolean();
const InstanceIdBody = z.object({ instance_id: zId });
const InstanceBody = z.object({ instance: zId });
const BatchIds = z.array(zId).min(1, "needs at least one instance").max(500, "at most 500 instances");

const AttachIso = z.object({ instance: zId, iso: zId });
const UpdateHostname = z.object({
  instance_id: zId,
  hostname: z
    .string()
    .min(4, "must be 4 to 32 characters")
    .max(32, "must be 4 to 32 characters")
    .regex(/^[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?$/, "letters, digits, dots and hyphens; must start and end with a letter or digit"),
});
const ApplyUpgrades = z.object({ instance: zId, restart: bool.default(false) });
const positive = zInt.refine((v) => v > 0, "must be a positive integer");
const IoLimits = z.object({ read_bytes_sec: positive, write_bytes_sec: positive, read_iops: positive, write_iops: positive });
const UpgradeInstance = z.discriminatedUnion(
  "type",
  [
    z.object({ type: z.literal("PLAN"), instance: zId, plan: zId }),
    z
      .object({
        type: z.literal("CUSTOM"),
        instance: zId,
        cpu: zInt.refine((v) => v >= 1 && v <= 128, "must be from 1 to 128 cores").optional(),
        memory: zInt.refine((v) => v >= 512 * 1024 ** 2, "must be at least 512 MiB").optional(),
        download: positive.optional(),
        upload: positive.optional(),
        disk: positive.optional(),
        io_limits: IoLimits.optional(),
      })
      .refine((b) => [b.cpu, b.memory, b.download, b.upload, b.disk, b.io_limits].some((v) => v !== undefined), {
        message: "send at least one of cpu, memory, download, upload, disk, io_limits",
        path: ["type"],
      }),
  ],
  { error: "type must be PLAN or CUSTOM" },
);
const BatchPower = z.object({ instances: BatchIds, action: z.enum(POWER_ACTIONS) });
const BatchTerminate = z.object({ instances: BatchIds, immediate: bool });
const BatchSuspend = z.object({ instances: BatchIds, suspend: bool });
const Terminate = z.object({ instance: zId, immediate: bool });
const Migrate = z.object({ instance: zId, node: zId.optional(), region: z.string().min(1, "must not be empty").optional() });
const Suspend = z.object({ instance: zId, suspend: bool });

// ---------------------------------------------------------------------------------------------
// Command table: the body's schema, the instance it names (with the access it needs), the command

const COMMANDS: Record<string, (ctx: RouteContext) => Reply> = {
  "attach-iso": (ctx) => {
    const body = parseWith(AttachIso, ctx.body);
    return accepted(attachIso(ctx, loadInstance(ctx, body.instance, INSTANCE_OPERATE), body.iso));
  },
  "detach-iso": (ctx) => {
    const body = parseWith(InstanceBody, ctx.body);
    return accepted(detachIso(ctx, loadInstance(ctx, body.instance, INSTANCE_OPERATE)));
  },
  "reset-instance-password": (ctx) => {
    const body = parseWith(InstanceIdBody, ctx.body);
    return ok(resetPassword(ctx, loadInstance(ctx, body.instance_id, INSTANCE_OPERATE)));
  },
  "sync-instance-ssh-keys": (ctx) => {
    const body = parseWith(InstanceIdBody, ctx.body);
    return accepted(syncSshKeys(ctx, loadInstance(ctx, body.instance_id, INSTANCE_OPERATE)));
  },
  "update-instance-hostname": (ctx) => {
    const body = parseWith(UpdateHostname, ctx.body);
    return ok(updateHostname(ctx, loadInstance(ctx, body.instance_id, INSTANCE_OPERATE), body.hostname));
  },
  "apply-upgrades": (ctx) => {
    const body = parseWith(ApplyUpgrades, ctx.body);
    return accepted(applyUpgrades(ctx, loadInstance(ctx, body.instance, INSTANCE_OPERATE), body.restart));
  },
  "upgrade-instance": (ctx) => {
    const body = parseWith(UpgradeInstance, ctx.body);
    return accepted(upgradeInstance(ctx, loadInstance(ctx, body.instance, INSTANCE_ADMIN), body));
  },
  "batch-instance-power": (ctx) => {
    const body = parseWith(BatchPower, ctx.body);
    return accepted(batchPower(ctx, body.instances, body.action));
  },
  "batch-instance-terminate": (ctx) => {
    const body = parseWith(BatchTerminate, ctx.body);
    return accepted(batchTerminate(ctx, body.instances, body.immediate));
  },
  "batch-instance-suspend": (ctx) => {
    ctx.requireStaff();
    const body = parseWith(BatchSuspend, ctx.body);
    return accepted(batchSuspend(ctx, body.instances, body.suspend));
  },
  "cancel-termination": (ctx) => {
    const body = parseWith(InstanceBody, ctx.body);
    return ok(cancelTerminationCommand(ctx, loadInstance(ctx, body.instance, INSTANCE_ADMIN)));
  },
  "terminate-instance": (ctx) => {
    const body = parseWith(Terminate, ctx.body);
    return accepted(terminate(ctx, loadInstance(ctx, body.instance, INSTANCE_ADMIN), body.immediate));
  },
  "migrate-instance": (ctx) => {
    ctx.requireStaff();
    const body = parseWith(Migrate, ctx.body);
    return accepted(migrate(ctx, loadInstance(ctx, body.instance, INSTANCE_ADMIN), body.node, body.region));
  },
  "suspend-instance": (ctx) => {
    ctx.requireStaff();
    const body = parseWith(Suspend, ctx.body);
    return ok(suspend(ctx, loadInstance(ctx, body.instance, INSTANCE_ADMIN), body.suspend));
  },
};

export const commandsDomain: Domain = {
  name: "commands",
  routes: Object.entries(COMMANDS).map(([name, handler]) => ({ method: "POST" as const, path: `/v1/commands/${name}`, handler })),
};
