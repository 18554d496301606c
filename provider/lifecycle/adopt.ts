/** Adoption (`adoptId`): take over an existing resource by id, then converge it to the declared inputs. */
import type { OperationContext } from "../context";
import type { Outputs } from "../definition";
import { changedFields, replacing } from "./changes";
import type { CompiledDefinition } from "./compile";
import { partialFailure } from "./failures";
import { finalize, ownOf, settle } from "./outputs";
import type { Props } from "./types";
import { runUpdateSteps } from "./updateSteps";

export async function adopt<I extends Props, O extends Outputs>(
  c: CompiledDefinition<I, O>,
  ctx: OperationContext,
  inputs: I,
): Promise<{ id: string; outs: Props }> {
  const { api, kind } = c.definition;
  const id = inputs.adoptId as string;
  const current = await api.get(ctx, id, inputs as Partial<O> & Partial<I>);
  if (!current) throw new Error(`${ctx.label}: adoptId ${id}: no such ${kind} is visible to this token`);
  const differing = changedFields(c, current, inputs);
  const unreplaceable = replacing(c, differing, current, inputs);
  if (unreplaceable.length) {
    const which = unreplaceable.map((f) => `${f} (declared ${JSON.stringify(inputs[f])}, actual ${JSON.stringify(current[f])})`).join("; ");
    throw new Error(
      `${ctx.label}: cannot adopt ${kind} ${id}: fields that can only be set at creation differ: ${which}. Change the declaration to match, or drop adoptId to create a new one.`,
    );
  }
  ctx.notice(`adopting existing ${kind} ${id}${differing.length ? `; converging ${differing.join(", ")}` : ""}`);
  try {
    await runUpdateSteps(c, ctx, id, current, inputs, differing);
    return { id, outs: ownOf(c, finalize(c, await settle(c, ctx, id, inputs), inputs), inputs) };
  } catch (err) {
    throw await partialFailure(c, ctx, id, inputs, err);
  }
}
