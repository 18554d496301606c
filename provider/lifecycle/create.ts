/**
 * create: import or adopt the object named by the import option or adoptId, or refuse a taken
 * key, send the create (recovering from a lost answer), find its id, then wait for it to settle
 * and run the steps the create request cannot carry. A failure after the API made the object
 * keeps it in the stack, or deletes it where the next up would replace it (createFailure.ts).
 */
import type * as pulumi from "@pulumi/pulumi";
import type { OperationContext } from "../context";
import type { Created, Outputs } from "../definition";
import { adopt } from "./adopt";
import { changedFields } from "./changes";
import type { CompiledDefinition } from "./compile";
import { createWithRecovery, idOfCreated, refuseConflict } from "./createRecovery";
import { failedCreate } from "./createFailure";
import { refusal } from "./failures";
import { contextFor } from "./operation";
import { importExisting } from "./importOption";
import { finalize, ownOf, settle } from "./outputs";
import type { Call, Props, ProviderRuntime } from "./types";
import { runUpdateSteps } from "./updateSteps";

export async function create<I extends Props, O extends Outputs>(
  c: CompiledDefinition<I, O>,
  runtime: ProviderRuntime,
  props: Props,
  call?: Call,
): Promise<pulumi.dynamic.CreateResult> {
  const inputs = { ...props } as I;
  const ctx = contextFor(c, runtime, inputs, "create", undefined, call);
  const options = call?.options;
  if (options?.import !== undefined) return importExisting(c, ctx, inputs, options.import, options.ignoreChanges);
  if (inputs.adoptId) return adopt(c, ctx, inputs);
  await refuseConflict(c, ctx, inputs);
  const created = await createWithRecovery(c, ctx, inputs).catch((err) => {
    throw refusal(c.definition.fields, ctx.label, err);
  });
  const id = await idOfCreated(c, ctx, inputs, created);
  ctx.detail(`created id ${id}`);
  const carry = { ...inputs, ...(created.outputs ?? {}) };
  try {
    return { id, outs: ownOf(c, finalize(c, await finish(c, ctx, id, inputs, created, carry), carry), inputs) };
  } catch (err) {
    throw await failedCreate(c, ctx, runtime, call, { id, inputs: carry }, err);
  }
}

/** The new object once its workflow ended and it settled, with the after-create steps run. */
async function finish<I extends Props, O extends Outputs>(
  c: CompiledDefinition<I, O>,
  ctx: OperationContext,
  id: string,
  inputs: I,
  created: Created,
  carry: Props,
): Promise<O> {
  const { afterCreate } = c.definition.api;
  await ctx.waitForWorkflow(created.workflow, "create");
  const outs = answeredSettled(c, created) ?? (await settle(c, ctx, id, carry));
  if (!afterCreate?.length) return outs;
  const pending = changedFields(c, outs, inputs);
  if (!pending.length) return outs;
  await runUpdateSteps(c, ctx, id, outs, inputs, pending, afterCreate);
  return settle(c, ctx, id, carry);
}

/** The object a synchronous create answered with, when it needs no read to be recorded. */
function answeredSettled<I extends Props, O extends Outputs>(c: CompiledDefinition<I, O>, created: Created): O | undefined {
  const { api } = c.definition;
  const current = created.current as O | undefined;
  if (!current || created.workflow) return undefined;
  return !api.settled || api.settled(current) === true ? current : undefined;
}
