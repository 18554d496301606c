/** What an operation records: the resource read back once it has settled, plus what the API does not echo. */
import type { OperationContext } from "../context";
import { WorkflowError } from "../errors";
import type { Outputs } from "../definition";
import { leftOut, type CompiledDefinition } from "./compile";
import type { Props } from "./types";

/** Outputs as recorded: what the API reports, plus write-only values carried over. */
export function finalize<I extends Props, O extends Outputs>(c: CompiledDefinition<I, O>, outs: O, carry: Props): Props {
  const result: Props = { ...outs };
  // timeouts ride along so that delete (which sees only recorded outputs) honours timeouts.delete.
  for (const key of [...(c.definition.keepFromState ?? []), ...c.remembered, "timeouts"])
    if (carry[key] !== undefined && result[key] === undefined) result[key] = carry[key];
  // An object read with nothing recorded (an import) remembers what a declaration leaving the
  // setting out would: an instance's deletion is immediate unless declared otherwise.
  for (const key of c.remembered) {
    const omitted = leftOut(c, key);
    if (result[key] === undefined && omitted.kind === "defaulted") result[key] = omitted.value;
  }
  if (c.definition.workspaceScoped && result.workspaceId === undefined) result.workspaceId = carry.workspaceId;
  return result;
}

/**
 * The outputs as the object's own (the definition's `ownOutputs`: without what other resources
 * attach to it), where its declaration is known.
 */
export function ownOf<I extends Props, O extends Outputs>(
  c: CompiledDefinition<I, O>,
  outputs: Props,
  declared: Props | undefined,
  recorded?: Props,
): Props {
  const { ownOutputs } = c.definition;
  return ownOutputs && declared ? ownOutputs(outputs as O, declared as Partial<I>, recorded as Partial<O> | undefined) : outputs;
}

/** The inputs a person declares, as recorded outputs echo them (the API's view of the declaration). */
export function echoedInputs<I extends Props, O extends Outputs>(c: CompiledDefinition<I, O>, outputs: Props): Props {
  return Object.fromEntries(c.declarable.filter((k) => outputs[k] !== undefined && outputs[k] !== null).map((k) => [k, outputs[k]]));
}

/** Reads the resource until it has settled (where the spec says when); a resource gone meanwhile is an error. */
export async function settle<I extends Props, O extends Outputs>(
  c: CompiledDefinition<I, O>,
  ctx: OperationContext,
  id: string,
  prior: Props,
): Promise<O> {
  const { api } = c.definition;
  const read = async () => {
    const outs = await api.get(ctx, id, prior as Partial<O> & Partial<I>);
    if (!outs)
      throw new WorkflowError(
        "",
        "GONE",
        `${ctx.label}: the resource ${id} disappeared while it was being ${ctx.operation === "create" ? "created" : "changed"}`,
      );
    return outs;
  };
  if (!api.settled) return read();
  return ctx.waitForState(read, api.settled, api.stateOf ?? (() => "changing"), ctx.operation === "create" ? "create" : "settle");
}
