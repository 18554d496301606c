/**
 * Failures that keep the resource in the stack, so state and the API agree: a change that failed
 * midway (recorded with what exists), and a create whose outcome no lookup could establish
 * (recorded under a provisional id, provider/lifecycle/pending.ts).
 */
import type { OperationContext } from "../context";
import { ApiError, sentences } from "../errors";
import type { FieldSet } from "../fields/declare";
import { pendingId } from "./pending";
import { foundAfter, updateRetryFor } from "./afterFailure";
import type { Outputs } from "../definition";
import type { CompiledDefinition } from "./compile";
import { finalize } from "./outputs";
import type { Props } from "./types";

/** An error pulumi records as "created, but failed to initialise": the resource stays in state. */
export class PartialFailure extends Error {
  constructor(
    message: string,
    readonly id: string,
    readonly properties: Props,
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
 * A write the API refused (400), in the program's words: the resource, each field the API names as
 * the program declares it (with the API's name beside it where the two differ) and the API's own
 * message. The provider checks at preview only what the spec documents; every other limit is the
 * API's to decide (provider/fields/constraints.ts), so this is the message a user meets for it. Other
 * errors are returned as they are.
 */
export function refusal(fields: FieldSet, label: string, err: unknown): unknown {
  if (!(err instanceof ApiError) || err.status !== 400) return err;
  const named = err.fieldErrors.map(({ field, message }) => {
    const path = programPath(fields, field);
    return `${path !== field ? `${path} (the API's ${field})` : field}: ${message}`;
  });
  const answered = `${err.method} ${err.path} answered 400${err.reason ? `: ${err.reason}` : ""}`;
  return new Error(sentences(`${label}: the API refused it (${answered})`, named.join("; ")));
}

/**
 * An API field path as the program writes it: each snake_case step in camelCase (the API's bodies
 * are snake_case, the declarations camelCase), where its first step is a declared field, by its
 * name or its wire name. A path the resource does not declare stays as the API wrote it.
 */
function programPath(fields: FieldSet, apiPath: string): string {
  const [head] = apiPath.split(/[.[]/);
  const camel = (step: string) => step.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
  const byWire = Object.entries(fields).find(([, f]) => f.wire === head)?.[0];
  const name = byWire ?? (camel(head) in fields ? camel(head) : undefined);
  return name ? name + apiPath.slice(head.length).replace(/[a-z][a-z0-9]*(?:_[a-z0-9]+)+/g, camel) : apiPath;
}

/** Records what exists after a failure midway, so state and the API agree. */
export async function partialFailure<I extends Props, O extends Outputs>(
  c: CompiledDefinition<I, O>,
  ctx: OperationContext,
  id: string,
  inputs: Props,
  err: unknown,
): Promise<PartialFailure> {
  return kept(c, ctx, id, inputs, err, await readAfterFailure(c, ctx, id, inputs));
}

/** The object as the API shows it after a failure: undefined when gone, "unread" when the read failed too. */
export async function readAfterFailure<I extends Props, O extends Outputs>(
  c: CompiledDefinition<I, O>,
  ctx: OperationContext,
  id: string,
  inputs: Props,
): Promise<O | undefined | "unread"> {
  try {
    return await c.definition.api.get(ctx, id, inputs as Partial<O> & Partial<I>);
  } catch {
    // The API may be what failed; the caller records the inputs and the id.
    return "unread";
  }
}

/** The failure's reason, in the program's words. */
export const reasonOf = (c: CompiledDefinition<Props, Outputs>, ctx: OperationContext, err: unknown): string =>
  (refusal(c.definition.fields, ctx.label, err) as Error).message ?? String(err);

/** A failure that keeps the object in the stack with what was read of it (`extra`: why it was not removed). */
export function kept<I extends Props, O extends Outputs>(
  c: CompiledDefinition<I, O>,
  ctx: OperationContext,
  id: string,
  inputs: Props,
  err: unknown,
  current: O | undefined | "unread",
  extra?: string,
): PartialFailure {
  const outs = current === "unread" || !current ? ({} as O) : current;
  return new PartialFailure(sentences(reasonOf(c as never, ctx, err), extra, hintAfter(c, ctx, id, current)), id, {
    ...inputs,
    ...finalize(c, outs, inputs),
  });
}

/** What a failed operation leaves for the next one to do, where the user can do better than retry. */
function hintAfter<I extends Props, O extends Outputs>(
  c: CompiledDefinition<I, O>,
  ctx: OperationContext,
  id: string,
  current: O | undefined | "unread",
): string | undefined {
  const { kind, broken, api } = c.definition;
  if (ctx.operation === "create")
    return `The resource (id ${id}) is kept in the stack: the next pulumi up repairs or replaces it, pulumi destroy removes it`;
  if (ctx.operation !== "update" || updateRetryFor(foundAfter(current, broken)) !== "next up replaces") return undefined;
  const state = api.stateOf?.(current as O) ?? "broken";
  return `The ${kind} (id ${id}) is ${state}, which no update can repair: an update keeps the id, so calling it again (an onError hook's retry) meets the same ${state} ${kind}; the next pulumi up replaces it`;
}

/**
 * The create may have been applied but no lookup could say so before the deadline: record it
 * under a provisional id (provider/lifecycle/pending.ts) so the next run resolves it instead of orphaning
 * or duplicating it.
 */
export function pendingFailure<I extends Props, O extends Outputs>(
  c: CompiledDefinition<I, O>,
  ctx: OperationContext,
  inputs: Props,
  reason: string,
): PartialFailure {
  const id = pendingId(ctx.startedAt);
  const hint =
    `The ${c.definition.kind} may exist in the API without its id being known, so it is kept in the stack as ${id}: ` +
    `the next pulumi up finds what this attempt created and replaces it, pulumi refresh resolves its id, pulumi destroy deletes it`;
  return new PartialFailure(sentences(reason, hint), id, { ...inputs });
}
