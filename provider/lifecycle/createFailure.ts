/**
 * A create that failed after the API made its object: the object is kept in the stack with its
 * id, or, when the next up would replace it, deleted before the create fails, so the same create
 * called again converges on one object (afterFailure.ts says which, and why).
 */
import type { OperationContext } from "../context";
import type { Outputs } from "../definition";
import { sentences } from "../errors";
import { foundAfter, remedyFor } from "./afterFailure";
import type { CompiledDefinition } from "./compile";
import { deleteResource } from "./delete";
import { kept, readAfterFailure, reasonOf } from "./failures";
import type { Call, Props, ProviderRuntime } from "./types";

export async function failedCreate<I extends Props, O extends Outputs>(
  c: CompiledDefinition<I, O>,
  ctx: OperationContext,
  runtime: ProviderRuntime,
  call: Call | undefined,
  made: { id: string; inputs: Props },
  err: unknown,
): Promise<Error> {
  const { definition } = c;
  const { id, inputs } = made;
  const current = await readAfterFailure(c, ctx, id, inputs);
  const found = foundAfter(current, definition.broken);
  const reason = reasonOf(c as never, ctx, err);
  const again = ": calling the create again (an onError hook's retry, or the next pulumi up) makes it anew";
  switch (remedyFor(found, !definition.retainOnDelete)) {
    case "forget":
      return new Error(
        sentences(reason, `The API no longer shows the ${definition.kind} it made (id ${id}), so the stack keeps nothing${again}`),
      );
    case "keep":
      return kept(c, ctx, id, inputs, err, current);
  }
  const state = definition.api.stateOf?.(current as O) ?? "broken";
  try {
    await deleteResource(c, runtime, id, current as O, call);
  } catch (deleteErr) {
    return kept(c, ctx, id, inputs, err, current, `Deleting the ${state} ${definition.kind} failed too (${(deleteErr as Error).message})`);
  }
  ctx.notice(`the ${definition.kind} the create made (id ${id}) ended ${state}; deleted it, as the next up would replace it`);
  return new Error(
    sentences(
      reason,
      `The ${definition.kind} it made (id ${id}) ended ${state}, which a later up would replace, so it was deleted${again}`,
    ),
  );
}
