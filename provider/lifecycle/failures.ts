/**
 * Failures that keep the resource in the stack, so state and the API agree: a change that failed
 * midway (recorded with what exists), and a create whose outcome no lookup could establish
 * (recorded under a provisional id, provider/pending.ts).
 */
import type { OperationContext } from "../context";
import { sentences } from "../errors";
import { pendingId } from "../pending";
import type { Outputs } from "../definition";
import type { CompiledDefinition } from "./compile";
import { SHIM_KEY } from "../shim";
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

/** Records what exists after a failure midway, so state and the API agree. */
export async function partialFailure<I extends Props, O extends Outputs>(
  c: CompiledDefinition<I, O>,
  ctx: OperationContext,
  id: string,
  inputs: Props,
  shim: unknown,
  err: unknown,
): Promise<PartialFailure> {
  let outs: Props = {};
  try {
    outs = (await c.definition.api.get(ctx, id, inputs as Partial<O> & Partial<I>)) ?? {};
  } catch {
    // The API may be what failed; record the inputs and the id.
  }
  const reason = (err as Error).message ?? String(err);
  const hint =
    ctx.operation === "create" &&
    `The resource (id ${id}) is kept in the stack: the next pulumi up repairs or replaces it, pulumi destroy removes it`;
  return new PartialFailure(sentences(reason, hint), id, { ...inputs, ...finalize(c, outs as O, inputs), [SHIM_KEY]: shim });
}

/**
 * The create may have been applied but no lookup could say so before the deadline: record it
 * under a provisional id (provider/pending.ts) so the next run resolves it instead of orphaning
 * or duplicating it.
 */
export function pendingFailure<I extends Props, O extends Outputs>(
  c: CompiledDefinition<I, O>,
  ctx: OperationContext,
  inputs: Props,
  shim: unknown,
  reason: string,
): PartialFailure {
  const id = pendingId(ctx.startedAt);
  const hint =
    `The ${c.definition.kind} may exist in the API without its id being known, so it is kept in the stack as ${id}: ` +
    `the next pulumi up finds what this attempt created and replaces it, pulumi refresh resolves its id, pulumi destroy deletes it`;
  return new PartialFailure(sentences(reason, hint), id, { ...inputs, [SHIM_KEY]: shim });
}
