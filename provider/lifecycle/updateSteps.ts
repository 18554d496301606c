/**
 * The update steps a set of changed fields calls for (the update request for updateRequest fields, a named command
 * for the others), run in the spec's order. Used by update, by adoption and after a create.
 */
import { isAmbiguous } from "../client/client";
import type { OperationContext } from "../context";
import type { Outputs, UpdateStep } from "../definition";
import { changedFields, effectOf } from "./changes";
import type { CompiledDefinition } from "./compile";
import { settle } from "./outputs";
import type { Props } from "./types";

/** Runs the steps for `fields` (only those named in `only`, when given). */
export async function runUpdateSteps<I extends Props, O extends Outputs>(
  c: CompiledDefinition<I, O>,
  ctx: OperationContext,
  id: string,
  olds: O,
  news: I,
  fields: string[],
  only?: string[],
): Promise<void> {
  const byStep = fieldsByStep(c, olds, news, fields);
  for (const step of c.updateOrder) {
    if (only && !only.includes(step)) continue;
    const changed = byStep.get(step);
    if (!changed?.length) continue;
    await runStep(c, ctx, step, id, olds, news, changed);
  }
}

/** The changed fields grouped by the step their effect names. */
function fieldsByStep<I extends Props, O extends Outputs>(
  c: CompiledDefinition<I, O>,
  olds: O,
  news: I,
  fields: string[],
): Map<string, string[]> {
  const byStep = new Map<string, string[]>();
  for (const f of fields) {
    const p = effectOf(c, f, olds[f], news[f]);
    const step = p.kind === "updateRequest" ? "updateRequest" : p.kind === "step" ? p.step : null;
    if (!step) continue;
    byStep.set(step, [...(byStep.get(step) ?? []), f]);
  }
  return byStep;
}

/**
 * One step. A command (a POST) whose answer was lost is not sent again blindly: whether it was
 * applied shows in the resource, read back persistently.
 */
async function runStep<I extends Props, O extends Outputs>(
  c: CompiledDefinition<I, O>,
  ctx: OperationContext,
  step: string,
  id: string,
  olds: O,
  news: I,
  fields: string[],
): Promise<void> {
  const run = (c.definition.api.update as Record<string, UpdateStep<I, O>> | undefined)?.[step];
  if (!run) throw new Error(`internal: ${c.definition.kind} has no update step "${step}"`);
  ctx.detail(`updating ${fields.join(", ")}`);
  let [current, changed] = [olds, fields];
  for (let attempt = 1; ; attempt++) {
    try {
      return await run(ctx, id, current, news, changed as Array<keyof I & string>);
    } catch (err) {
      if (!isAmbiguous(err) || attempt >= 3) throw err;
      current = await ctx.keepTrying("the read after a lost update answer", () => settle(c, ctx, id, news));
      const pending = changedFields(c, current, news).filter((f) => changed.includes(f));
      if (!pending.length)
        return ctx.notice(`the answer to updating ${changed.join(", ")} was lost; the resource shows the change applied`);
      changed = pending;
      ctx.notice(`the answer to updating ${changed.join(", ")} was lost and the change is not applied; sending it again`);
    }
  }
}
