/**
 * Builds a Pulumi dynamic provider (check, diff, create, read, update, delete) from a resource
 * spec. Nothing here knows any one resource: behaviour comes from the spec's schema, rules,
 * policy table and API mapping.
 *
 * What the engine does with each answer (old inputs to check, old outputs to diff, which errors
 * keep a resource in state, what an empty id from read means) is written once, in ARCHITECTURE.md
 * ("The engine facts the design rests on").
 */
import type * as pulumi from "@pulumi/pulumi";
import { isEqual } from "lodash";
import { z } from "zod";
import { ApiError, forPeople, sentences, WorkflowError } from "./errors";
import { isAmbiguous, type SvcClient } from "./client";
import { pendingId, pendingSince } from "./pending";
import type { ProviderConfig } from "./config";
import { makeContext, runOperation, type OperationContext } from "./context";
import { deadlineFor, parseDuration, type Timeouts } from "./timeouts";
import { waitUntil } from "./workflows";
import type { Workflow } from "./envelope";
import type { Created, Outputs, Policy, ResourceSpec } from "./spec";
import { judgeInterrupted, type Interrupted } from "./interrupted";

/** The engine's marker for a value not known until `pulumi up` (rpc.unknownValue). */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

const PROVIDER_KEY = "__provider";

/** Inputs every resource gets from the lifecycle, with their policies. */
const COMMON_POLICIES: Record<string, Policy> = {
  timeouts: { kind: "ignore" },
  adoptId: { kind: "ignore" },
};

const zDuration = z.string().superRefine((v, ctx) => {
  const ms = parseDuration(v);
  if (typeof ms === "string") ctx.addIssue({ code: "custom", message: ms });
});

const commonInputs = (adoptIdPattern: RegExp) => ({
  timeouts: z.object({ create: zDuration.optional(), update: zDuration.optional(), delete: zDuration.optional() }).strict().optional(),
  adoptId: z.string().regex(adoptIdPattern, "must be the id of an existing resource of this kind").optional(),
});

const workspaceInput = { workspaceId: z.string().regex(/^\d+$/, "must be a workspace id (digits)") };

/** Access to configuration and the client, resolved at the first operation that needs them. */
export interface ProviderRuntime {
  config(): ProviderConfig;
  client(): SvcClient;
  /** The default workspace (svc:workspaceId / SVC_WORKSPACE_ID), if configured; never throws. */
  defaultWorkspace(): string | null;
  /**
   * Configuration problems for `check` to report (provider/runtime.ts): missing or malformed
   * settings, and with `probeTheApi` whether the API answers and accepts the token (once per
   * process). Each distinct problem comes in full once per process, then as a short pointer.
   */
  preflight?(probeTheApi: boolean): Promise<pulumi.dynamic.CheckFailure[]>;
}

export function containsUnknown(value: unknown): boolean {
  if (value === UNKNOWN) return true;
  if (Array.isArray(value)) return value.some(containsUnknown);
  if (value && typeof value === "object") return Object.values(value).some(containsUnknown);
  return false;
}

function without<T extends Record<string, unknown>>(obj: T, ...keys: string[]): T {
  const out = { ...obj };
  for (const k of keys) delete out[k];
  return out;
}

function issuePath(path: PropertyKey[]): string {
  let out = "";
  for (const p of path) out += typeof p === "number" ? `[${p}]` : out ? `.${String(p)}` : String(p);
  return out;
}

/** An error pulumi records as "created, but failed to initialise": the resource stays in state. */
export class PartialFailure extends Error {
  constructor(
    message: string,
    readonly id: string,
    readonly properties: Record<string, unknown>,
  ) {
    super(message);
    this.name = "PartialFailure";
  }
  /** Read by the dynamic-provider host. */
  get reasons(): string[] {
    return [this.message];
  }
}

/**
 * Each method call is one operation (provider/context.ts: its heartbeat stops when the call ends),
 * and what it throws reaches people as its message (`forPeople`: the dynamic-provider host prints
 * `${err}: ${err.stack}`).
 */
function asOperations<T extends object>(provider: T): T {
  const wrapped: Record<string, unknown> = {};
  for (const [name, method] of Object.entries(provider)) {
    wrapped[name] = async (...args: unknown[]) => {
      try {
        return await runOperation(() => (method as (...a: unknown[]) => Promise<unknown>)(...args));
      } catch (err) {
        throw forPeople(err);
      }
    };
  }
  return wrapped as T;
}

/** What one engine call adds beside the resource's properties (the plugin face passes `customTimeouts` here). */
export interface CallOptions {
  /** The engine's deadline for this operation in seconds (the `customTimeouts` option); 0 or absent: none. */
  timeoutSeconds?: number;
}

/** How one property changes in a diff (the plugin face forwards it to the engine). */
export interface PropertyChange {
  kind: "add" | "update";
  replace: boolean;
}

export interface DiffResult extends pulumi.dynamic.DiffResult {
  /** Every changed property, and whether its change replaces the resource. */
  detailedDiff: Record<string, PropertyChange>;
}

/**
 * The lifecycle of one kind, independent of the face that serves it: the dynamic face passes it to
 * the dynamic-provider host as is (extra arguments and fields are ignored there); the plugin face
 * (plugin/server.ts) adds what the provider protocol carries.
 */
export interface Lifecycle {
  check(olds: Record<string, unknown>, news: Record<string, unknown>): Promise<pulumi.dynamic.CheckResult>;
  diff(id: string, olds: Record<string, unknown>, news: Record<string, unknown>): Promise<DiffResult>;
  create(props: Record<string, unknown>, call?: CallOptions): Promise<pulumi.dynamic.CreateResult>;
  read(id: string, props: Record<string, unknown>): Promise<pulumi.dynamic.ReadResult>;
  update(
    id: string,
    olds: Record<string, unknown>,
    news: Record<string, unknown>,
    call?: CallOptions,
  ): Promise<pulumi.dynamic.UpdateResult>;
  delete(id: string, props: Record<string, unknown>, call?: CallOptions): Promise<void>;
  /** The declarable inputs a set of outputs echoes (what a refresh or an import records as inputs). */
  inputsOf(outputs: Record<string, unknown>): Record<string, unknown>;
  /**
   * What a create interrupted with its engine (a pending create in the stack) made in the API,
   * judged from the declaration's inputs and when the interrupted update began (provider/interrupted.ts).
   */
  interrupted(props: Record<string, unknown>, since: number): Promise<Interrupted>;
}

export function buildLifecycle<I extends Record<string, unknown>, O extends Outputs>(
  spec: ResourceSpec<I, O>,
  runtime: ProviderRuntime,
): Lifecycle {
  // inputsOf is pure and interrupted is no engine call: only the operations are wrapped (one
  // operation each, errors for people).
  const { inputsOf, interrupted, ...operations } = buildSpecLifecycle(spec, runtime);
  return { ...asOperations(operations), inputsOf, interrupted };
}

/** The dynamic face: the lifecycle as the dynamic-provider host calls it. */
export function buildProvider<I extends Record<string, unknown>, O extends Outputs>(
  spec: ResourceSpec<I, O>,
  runtime: ProviderRuntime,
): pulumi.dynamic.ResourceProvider {
  return buildLifecycle(spec, runtime);
}

function buildSpecLifecycle<I extends Record<string, unknown>, O extends Outputs>(
  spec: ResourceSpec<I, O>,
  runtime: ProviderRuntime,
): Lifecycle {
  const shape = {
    ...spec.inputs.shape,
    ...(spec.workspaceScoped ? workspaceInput : {}),
    ...commonInputs(spec.adoptIdPattern ?? /^\d+$/),
  };
  const policies: Record<string, Policy> = {
    ...spec.policies,
    ...(spec.workspaceScoped ? { workspaceId: { kind: "replace" } as Policy } : {}),
    ...COMMON_POLICIES,
  };
  // Schemas are built once per set of relaxed fields (those unknown until up), not per check:
  // building a zod object costs more than validating with it.
  const strict = z.object(shape).strict();
  const schemas = new Map<string, z.ZodType<Record<string, unknown>>>([["", strict]]);
  const schemaRelaxing = (fields: string[]): z.ZodType<Record<string, unknown>> => {
    const key = fields.join(",");
    let schema = schemas.get(key);
    if (!schema)
      schemas.set(key, (schema = strict.partial(Object.fromEntries(fields.map((k) => [k, true as const])) as Record<string, never>)));
    return schema;
  };
  const managedFields = Object.keys(policies).filter((f) => policies[f].kind !== "ignore");
  /** The effective policy of a field for a given change. */
  const policyOf = (field: string, old: unknown, next: unknown): Exclude<Policy, { kind: "depends" }> => {
    const p = policies[field];
    return p.kind === "depends" ? (containsUnknown(next) ? { kind: "replace" } : p.decide(old, next)) : p;
  };
  const label = (inputs: Partial<I>, id?: string) =>
    spec.label ? spec.label(inputs, id) : `${spec.kind}${typeof inputs.name === "string" ? ` "${inputs.name}"` : id ? ` ${id}` : ""}`;

  const context = (inputs: Partial<I>, operation: OperationContext["operation"], id?: string, call?: CallOptions): OperationContext => {
    const op = operation === "read" ? "update" : operation;
    // The resource's own `timeouts` input wins; the engine's customTimeouts apply where it is silent.
    const fromEngine: Timeouts = call?.timeoutSeconds ? { [op]: `${call.timeoutSeconds}s` } : {};
    const timeouts = { ...fromEngine, ...(inputs.timeouts as Timeouts | undefined) };
    return makeContext(runtime.client(), runtime.config(), label(inputs, id), operation, deadlineFor(op, timeouts));
  };

  /** Fields whose desired value differs from the recorded one (undefined desired = not managed). */
  const changedFields = (olds: Record<string, unknown>, news: Record<string, unknown>): string[] =>
    managedFields.filter((f) => news[f] !== undefined && (containsUnknown(news[f]) || !isEqual(olds[f], news[f])));

  /** Whether a replacement keeps the unique key (so the old one must be deleted first). */
  const sameUniqueKey = (olds: Record<string, unknown>, news: Record<string, unknown>): boolean => {
    const key = spec.uniqueKey;
    if (!key) return false;
    if (typeof key === "function") return !containsUnknown(news) && isEqual(key(olds as Partial<I>), key(news as Partial<I>));
    return key.length > 0 && key.every((f) => !containsUnknown(news[f]) && isEqual(olds[f], news[f]));
  };

  /** Outputs as recorded: what the API reports, plus write-only values carried over. */
  const finalize = (outs: O, carry: Record<string, unknown>): Record<string, unknown> => {
    const result: Record<string, unknown> = { ...outs };
    const remembered = Object.keys(policies).filter((f) => policies[f].kind === "remember");
    // timeouts ride along so that delete (which sees only recorded outputs) honours timeouts.delete.
    for (const key of [...(spec.keepFromState ?? []), ...remembered, "timeouts"])
      if (carry[key] !== undefined && result[key] === undefined) result[key] = carry[key];
    if (spec.workspaceScoped && result.workspaceId === undefined) result.workspaceId = carry.workspaceId;
    return result;
  };

  const settle = async (ctx: OperationContext, id: string, prior: Record<string, unknown>): Promise<O> => {
    const read = async () => {
      const outs = await spec.api.read(ctx, id, prior as Partial<O> & Partial<I>);
      if (!outs)
        throw new WorkflowError(
          "",
          "GONE",
          `${ctx.label}: the resource ${id} disappeared while it was being ${ctx.operation === "create" ? "created" : "changed"}`,
        );
      return outs;
    };
    if (!spec.api.settled) return read();
    return ctx.waitForState(
      read,
      spec.api.settled,
      spec.api.stateOf ?? (() => "changing"),
      ctx.operation === "create" ? "create" : "settle",
    );
  };

  /** The object a synchronous create answered with, when it needs no read to be recorded. */
  const answeredSettled = (created: Created): O | undefined => {
    const current = created.current as O | undefined;
    if (!current || created.workflow) return undefined;
    return !spec.api.settled || spec.api.settled(current) === true ? current : undefined;
  };

  /** Records what exists after a failure midway, so state and the API agree. */
  const partialFailure = async (
    ctx: OperationContext,
    id: string,
    inputs: Record<string, unknown>,
    provider: unknown,
    err: unknown,
  ): Promise<PartialFailure> => {
    let outs: Record<string, unknown> = {};
    try {
      outs = (await spec.api.read(ctx, id, inputs as Partial<O> & Partial<I>)) ?? {};
    } catch {
      // The API may be what failed; record the inputs and the id.
    }
    const reason = (err as Error).message ?? String(err);
    const hint =
      ctx.operation === "create" &&
      `The resource (id ${id}) is kept in the stack: the next pulumi up repairs or replaces it, pulumi destroy removes it`;
    return new PartialFailure(sentences(reason, hint), id, { ...inputs, ...finalize(outs as O, inputs), [PROVIDER_KEY]: provider });
  };

  /**
   * The create may have been applied but no lookup could say so before the deadline: record it
   * under a provisional id (provider/pending.ts) so the next run resolves it instead of orphaning
   * or duplicating it.
   */
  const pendingFailure = (ctx: OperationContext, inputs: Record<string, unknown>, provider: unknown, reason: string): PartialFailure => {
    const id = pendingId(ctx.startedAt);
    const hint =
      `The ${spec.kind} may exist in the API without its id being known, so it is kept in the stack as ${id}: ` +
      `the next pulumi up finds what this attempt created and replaces it, pulumi refresh resolves its id, pulumi destroy deletes it`;
    return new PartialFailure(sentences(reason, hint), id, { ...inputs, [PROVIDER_KEY]: provider });
  };

  /** The object a create recorded as pending made, found as the recovery lookup would have (created since the attempt began). */
  const resolvePending = async (ctx: OperationContext, since: number, recorded: Record<string, unknown>): Promise<string | undefined> => {
    if (!spec.api.findExisting) return undefined;
    const then = { ...ctx, startedAt: since };
    return ctx.persistently(`the lookup for the ${spec.kind} a pending create made`, () => spec.api.findExisting!(then, recorded as I));
  };

  /**
   * Stops a create whose natural key is taken (one cluster per workspace, a unique name): the
   * object may be a person's, so it is never taken over without the declaration saying so.
   */
  const refuseConflict = async (ctx: OperationContext, inputs: I) => {
    if (!spec.api.conflict) return;
    const found = await ctx.persistently(`the check for an existing ${spec.kind}`, () => spec.api.conflict!(ctx, inputs));
    if (!found) return;
    let comparison = "";
    try {
      const current = await spec.api.read(ctx, found.id, inputs as Partial<O> & Partial<I>);
      const differing = current ? changedFields(current, inputs) : [];
      comparison = differing.length ? `It differs from this declaration in ${differing.join(", ")}` : "It matches every declared field";
    } catch {
      // The comparison only helps the reader; the message stands without it.
    }
    throw new Error(
      sentences(
        `${ctx.label}: ${found.description}`,
        comparison,
        `This stack has no record of creating it, so it is not taken over on its own. To manage it here, set adoptId: "${found.id}"${found.alternative ? `; otherwise ${found.alternative}` : ""}`,
      ),
    );
  };

  /**
   * POST with recovery from an ambiguous failure: look the resource up (persistently: giving up
   * would orphan it or duplicate it on the next run) and adopt it, or send again when nothing was
   * created. When even the lookup cannot answer before the deadline, the attempt is recorded as
   * pending.
   */
  const createWithRecovery = async (ctx: OperationContext, inputs: I, provider: unknown): Promise<Created> => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await spec.api.create(ctx, inputs);
      } catch (err) {
        if (!isAmbiguous(err)) throw err;
        if (!spec.api.findExisting) {
          throw new Error(
            sentences(
              `${ctx.label}: the create request may or may not have been applied (${(err as Error).message})`,
              `Check the API for a ${spec.kind} matching this declaration before running pulumi up again, and delete any duplicate`,
            ),
          );
        }
        let existing: string | undefined;
        try {
          existing = await ctx.persistently("the lookup after a lost create answer", () => spec.api.findExisting!(ctx, inputs));
        } catch (lookupErr) {
          throw pendingFailure(ctx, inputs, provider, `${ctx.label}: ${(err as Error).message}; ${(lookupErr as Error).message}`);
        }
        if (existing) {
          ctx.progress(
            `the create answer was lost (${(err as Error).message}); found the ${spec.kind} the API created (id ${existing}) and adopted it`,
          );
          return { id: existing, workflow: null };
        }
        if (attempt >= 3) throw err;
        ctx.progress(
          `the create request failed without a clear answer (${(err as Error).message}) and nothing was created; sending it again`,
        );
      }
    }
  };

  /** The id of an accepted create answered with a bare workflow, found persistently; pending when not found in time. */
  const idOfCreated = async (ctx: OperationContext, inputs: I, created: Created, provider: unknown): Promise<string> => {
    if (created.id) return created.id;
    const accepted = `the API accepted the create${created.workflow ? ` (workflow ${created.workflow.id})` : ""}`;
    if (!spec.api.findExisting) throw new Error(`internal: ${spec.kind} answers its create with a bare workflow but has no findExisting`);
    let id: string | undefined;
    try {
      id = await ctx.persistently(`the lookup of the ${spec.kind} just created`, () => spec.api.findExisting!(ctx, inputs));
    } catch (err) {
      throw pendingFailure(ctx, inputs, provider, `${ctx.label}: ${accepted} but ${(err as Error).message}`);
    }
    if (!id) throw pendingFailure(ctx, inputs, provider, `${ctx.label}: ${accepted} but the API does not show the new ${spec.kind}`);
    return id;
  };

  const runUpdateSteps = async (ctx: OperationContext, id: string, olds: O, news: I, fields: string[], only?: string[]) => {
    const byStep = new Map<string, string[]>();
    for (const f of fields) {
      const p = policyOf(f, olds[f], news[f]);
      const step = p.kind === "updateRequest" ? "updateRequest" : p.kind === "command" ? p.command : null;
      if (!step) continue;
      byStep.set(step, [...(byStep.get(step) ?? []), f]);
    }
    const commands = [...new Set(Object.values(spec.policies).flatMap((p) => (p.kind === "command" ? [p.command] : [])))];
    const order = spec.api.updateOrder ?? ["updateRequest", ...commands];
    for (const step of order) {
      if (only && !only.includes(step)) continue;
      let changed = byStep.get(step);
      if (!changed?.length) continue;
      const run = spec.api.update?.[step];
      if (!run) throw new Error(`internal: ${spec.kind} has no update step "${step}"`);
      ctx.detail(`updating ${changed.join(", ")}`);
      let current = olds;
      for (let attempt = 1; ; attempt++) {
        try {
          await run(ctx, id, current, news, changed as Array<keyof I & string>);
          break;
        } catch (err) {
          // A command (a POST) whose answer was lost: whether it was applied shows in the resource.
          if (!isAmbiguous(err) || attempt >= 3) throw err;
          current = await ctx.persistently("the read after a lost update answer", () => settle(ctx, id, news));
          const pending: string[] = changedFields(current, news).filter((f) => changed!.includes(f));
          if (!pending.length) {
            ctx.progress(`the answer to updating ${changed.join(", ")} was lost; the resource shows the change applied`);
            break;
          }
          changed = pending;
          ctx.progress(`the answer to updating ${changed.join(", ")} was lost and the change is not applied; sending it again`);
        }
      }
    }
  };

  /** Adoption: take over an existing resource by id, then converge it to the declared inputs. */
  const adopt = async (ctx: OperationContext, inputs: I, provider: unknown) => {
    const id = inputs.adoptId as string;
    const current = await spec.api.read(ctx, id, inputs as Partial<O> & Partial<I>);
    if (!current) throw new Error(`${ctx.label}: adoptId ${id}: no such ${spec.kind} is visible to this token`);
    const differing = changedFields(current, inputs);
    const unreplaceable = differing.filter((f) => policyOf(f, current[f], inputs[f]).kind === "replace");
    if (unreplaceable.length) {
      const detail = unreplaceable
        .map((f) => `${f} (declared ${JSON.stringify(inputs[f])}, actual ${JSON.stringify(current[f])})`)
        .join("; ");
      throw new Error(
        `${ctx.label}: cannot adopt ${spec.kind} ${id}: fields that can only be set at creation differ: ${detail}. Change the declaration to match, or drop adoptId to create a new one.`,
      );
    }
    ctx.progress(`adopting existing ${spec.kind} ${id}${differing.length ? `; converging ${differing.join(", ")}` : ""}`);
    try {
      await runUpdateSteps(ctx, id, current, inputs, differing);
      return { id, outs: finalize(await settle(ctx, id, inputs), inputs) };
    } catch (err) {
      throw await partialFailure(ctx, id, inputs, provider, err);
    }
  };

  /**
   * The managed fields whose value in the API differs from the recorded one, in one line (or
   * undefined): the next up sets them back to the declaration, in place or by replacement.
   */
  const driftNotice = (recorded: Record<string, unknown>, current: Record<string, unknown>): string | undefined => {
    const drifted = managedFields.filter(
      (f) => recorded[f] !== undefined && !containsUnknown(recorded[f]) && !isEqual(recorded[f], current[f]),
    );
    if (!drifted.length) return undefined;
    const replacing = drifted.filter((f) => current[f] !== undefined && policyOf(f, current[f], recorded[f]).kind === "replace");
    const next = replacing.length
      ? `the next pulumi up reverts them, replacing the ${spec.kind} for ${replacing.join(", ")} (set only at creation), unless the declaration changes to match`
      : "the next pulumi up reverts them, unless the declaration changes to match";
    return `drifted outside Pulumi: ${drifted.join(", ")}; ${next}`;
  };

  const provider: Lifecycle = {
    async check(olds: Record<string, unknown>, news: Record<string, unknown>) {
      const raw = without(news, PROVIDER_KEY);
      const failures: pulumi.dynamic.CheckFailure[] = [];
      if (spec.workspaceScoped && raw.workspaceId === undefined) {
        const ws = runtime.defaultWorkspace();
        if (ws) raw.workspaceId = ws;
        else
          failures.push({
            property: "workspaceId",
            reason: "no workspace: set the workspaceId input, svc:workspaceId or SVC_WORKSPACE_ID",
          });
      }
      // Like the engine's import option, adoptId applies only while the resource is not in the
      // stack yet; once it is, a replacement must create anew, not re-adopt the id it deletes.
      if (olds && Object.keys(olds).length) delete raw.adoptId;
      const unknownKeys = Object.keys(raw).filter((k) => containsUnknown(raw[k]));
      const known = without(raw, ...unknownKeys);
      // Unknown values are validated at `up`; a missing workspace was reported above.
      const relaxed = [...unknownKeys, ...(failures.length ? ["workspaceId"] : [])];
      const parsed = schemaRelaxing(relaxed.filter((k) => k in shape)).safeParse(known);
      let inputs: Record<string, unknown> = raw;
      if (parsed.success) {
        const withDefaults = spec.defaults ? { ...parsed.data, ...spec.defaults(parsed.data as Partial<I>) } : parsed.data;
        inputs = { ...withDefaults, ...Object.fromEntries(unknownKeys.map((k) => [k, raw[k]])) };
      } else
        for (const issue of parsed.error.issues) failures.push({ property: issuePath(issue.path) || "(inputs)", reason: issue.message });
      if (parsed.success && olds && Object.keys(olds).length) {
        for (const t of spec.transitions ?? []) {
          const before = olds[t.field];
          const after = inputs[t.field];
          if (before === undefined || after === undefined || containsUnknown(after) || isEqual(before, after)) continue;
          const reason = t.check(before, after);
          if (reason) failures.push({ property: t.field, reason });
        }
      }
      if (parsed.success) {
        for (const rule of spec.rules ?? []) {
          if (rule.fields.some((f) => unknownKeys.includes(f))) continue;
          const reason = rule.check(inputs as Partial<I>);
          if (reason) failures.push({ property: rule.property ?? rule.fields[0], reason });
        }
      }
      // The provider's configuration, reported here so that preview fails on what up would fail
      // on. The API itself is asked (once per process) only when this resource's inputs are valid
      // and the plan will call it: a create, or a change. An unchanged stack, or a preview that
      // only rejects bad inputs, sends nothing.
      const planned = !olds || !Object.keys(olds).length || changedFields(olds, inputs).length > 0;
      const config = (await runtime.preflight?.(failures.length === 0 && planned)) ?? [];
      return { inputs, failures: [...config, ...failures] };
    },

    async diff(id: string, olds: Record<string, unknown>, news: Record<string, unknown>) {
      // A create recorded as pending is replaced: its delete removes what the attempt made, first.
      if (pendingSince(id) !== undefined)
        return {
          changes: true,
          replaces: ["id"],
          stables: [],
          deleteBeforeReplace: true,
          detailedDiff: { id: { kind: "update", replace: true } },
        };
      const changed = changedFields(olds, news);
      const replaces = changed.filter((f) => policyOf(f, olds[f], news[f]).kind === "replace");
      const broken = spec.broken?.(olds as O) ?? false;
      if (broken && !replaces.length) replaces.push("state");
      // A resource recorded mid-change (a create that ran out of time) is finished by the next update.
      const inProgress = spec.api.inProgress ?? (spec.api.settled ? (o: O) => spec.api.settled!(o) === false : () => false);
      const unsettled = !broken && !!id && inProgress(olds as O);
      const detailedDiff: Record<string, PropertyChange> = {};
      for (const f of changed) detailedDiff[f] = { kind: olds[f] === undefined ? "add" : "update", replace: replaces.includes(f) };
      for (const f of replaces) detailedDiff[f] ??= { kind: "update", replace: true };
      return {
        detailedDiff,
        changes: changed.length > 0 || broken || unsettled,
        replaces,
        stables: spec.stableOutputs ?? [],
        // Unique names collide if the replacement is created first and keeps the same name.
        deleteBeforeReplace: replaces.length > 0 && (!!spec.deleteFirst || sameUniqueKey(olds, news)),
      };
    },

    async create(props: Record<string, unknown>, call?: CallOptions) {
      const inputs = without(props, PROVIDER_KEY) as I;
      const ctx = context(inputs, "create", undefined, call);
      if (inputs.adoptId) return adopt(ctx, inputs, props[PROVIDER_KEY]);
      await refuseConflict(ctx, inputs);
      const created = await createWithRecovery(ctx, inputs, props[PROVIDER_KEY]);
      created.id = await idOfCreated(ctx, inputs, created, props[PROVIDER_KEY]);
      ctx.detail(`created id ${created.id}`);
      try {
        await ctx.waitForWorkflow(created.workflow, "create");
        const carry = { ...inputs, ...(created.outputs ?? {}) };
        let outs = answeredSettled(created) ?? (await settle(ctx, created.id, carry));
        if (spec.api.afterCreate?.length) {
          const pending = changedFields(outs, inputs);
          if (pending.length) {
            await runUpdateSteps(ctx, created.id, outs, inputs, pending, spec.api.afterCreate);
            outs = await settle(ctx, created.id, carry);
          }
        }
        return { id: created.id, outs: finalize(outs, carry) };
      } catch (err) {
        throw await partialFailure(ctx, created.id!, { ...inputs, ...(created.outputs ?? {}) }, props[PROVIDER_KEY], err);
      }
    },

    async read(id: string, props: Record<string, unknown>) {
      const prior = without(props ?? {}, PROVIDER_KEY);
      // An import reads by id alone (the engine sends no properties): a workspace-scoped kind,
      // whose paths name its workspace, is read in the default one.
      if (spec.workspaceScoped && prior.workspaceId === undefined) prior.workspaceId = runtime.defaultWorkspace() ?? undefined;
      const ctx = context(prior as Partial<I>, "read", id);
      const since = pendingSince(id);
      // A create recorded as pending: the engine takes the real id from read.
      const realId = since === undefined ? id : await resolvePending(ctx, since, prior);
      if (!realId) return { id: "", props: {} };
      if (realId !== id) ctx.progress(`the pending create ${id} made ${spec.kind} ${realId}; recorded under its id`);
      const outs = await spec.api.read(ctx, realId, prior as Partial<O> & Partial<I>);
      if (!outs) return { id: "", props: {} };
      const current = finalize(outs, prior);
      // The dynamic host shows no per-property diff on refresh: name what changed outside Pulumi.
      if (realId === id) {
        const drift = driftNotice(prior, current);
        if (drift) ctx.progress(drift);
      }
      return { id: realId, props: current };
    },

    async update(id: string, olds: Record<string, unknown>, news: Record<string, unknown>, call?: CallOptions) {
      const inputs = without(news, PROVIDER_KEY) as I;
      const ctx = context(inputs, "update", id, call);
      try {
        if (spec.api.settled && spec.api.settled(olds as O) !== true) {
          ctx.progress("waiting for the previous operation to finish");
          await settle(ctx, id, olds);
        }
        await runUpdateSteps(ctx, id, olds as O, inputs, changedFields(olds, inputs));
        return { outs: finalize(await settle(ctx, id, inputs), inputs) };
      } catch (err) {
        // Record how far the update got, so the next up continues from the truth.
        throw await partialFailure(ctx, id, inputs, news[PROVIDER_KEY], err);
      }
    },

    async delete(id: string, props: Record<string, unknown>, call?: CallOptions): Promise<void> {
      const olds = without(props, PROVIDER_KEY) as O;
      const ctx = context(olds as unknown as Partial<I>, "delete", id, call);
      const since = pendingSince(id);
      if (since !== undefined) {
        const made = await resolvePending(ctx, since, olds);
        if (!made) return ctx.progress(`the pending create ${id} made nothing; forgotten`);
        ctx.progress(`the pending create ${id} made ${spec.kind} ${made}; deleting it`);
        return provider.delete(made, props, call);
      }
      if (spec.retainOnDelete) {
        ctx.progress(`the API has no delete for ${spec.kind}; it is kept and only removed from the stack`);
        return;
      }
      await spec.api.beforeDelete?.(ctx, id, olds);
      let workflow: Workflow | null = null;
      const sendDelete = async () => ctx.waitForWorkflow((workflow = (await spec.api.delete(ctx, id, olds)) ?? null), "delete");
      try {
        await sendDelete();
      } catch (err) {
        if (err instanceof ApiError && err.notFound) return;
        // Refused while the resource is busy (a command still running): let it settle, then once more.
        if (!(err instanceof ApiError && err.status === 409 && spec.api.settled)) throw err;
        ctx.progress(`the API refused the delete for now (${err.reason}); waiting for the resource to settle`);
        try {
          await settle(ctx, id, olds);
        } catch (settleErr) {
          if (!(settleErr instanceof WorkflowError)) throw settleErr; // a FAILED resource can still be deleted
        }
        try {
          await sendDelete();
        } catch (again) {
          if (again instanceof ApiError && again.notFound) return;
          throw again;
        }
      }
      if (spec.api.goneOnAnswer && !workflow) return ctx.detail("deleted");
      const gone = async () => {
        const outs = await spec.api.read(ctx, id, olds as Partial<O> & Partial<I>);
        return outs === undefined || spec.api.isGone?.(outs) ? true : undefined;
      };
      await waitUntil(gone, {
        deadline: ctx.deadline,
        label: ctx.label,
        operation: "delete",
        waitsFor: "removal",
        paced: () => ctx.client.paced(),
        describe: () => "the resource still exists",
      });
      ctx.detail("deleted");
    },

    async interrupted(props: Record<string, unknown>, since: number) {
      const inputs = without(props, PROVIDER_KEY) as I;
      const ctx = { ...context(inputs, "read"), startedAt: since };
      return judgeInterrupted(ctx, {
        kind: spec.kind,
        conflict: spec.api.conflict && ((c) => spec.api.conflict!(c, inputs)),
        findExisting: spec.api.findExisting && ((c) => spec.api.findExisting!(c, inputs)),
        // Fields that differ and could only be set at creation: that object is not this declaration's.
        unmatched: async (c, id) => {
          const current = await spec.api.read(c, id, inputs as Partial<O> & Partial<I>);
          if (!current) return undefined;
          return changedFields(current, inputs).filter((f) => policyOf(f, current[f], inputs[f]).kind === "replace");
        },
      });
    },

    inputsOf(outputs: Record<string, unknown>) {
      const declarable = Object.keys(shape).filter((k) => !(k in COMMON_POLICIES));
      return Object.fromEntries(declarable.filter((k) => outputs[k] !== undefined && outputs[k] !== null).map((k) => [k, outputs[k]]));
    },
  };
  return provider;
}
