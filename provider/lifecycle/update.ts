/** update: finish what an earlier operation left moving, run the steps the changed fields call for, record the result. */
import type * as pulumi from "@pulumi/pulumi";
import type { Outputs } from "../definition";
import { changedFields } from "./changes";
import type { CompiledDefinition } from "./compile";
import { partialFailure } from "./failures";
import { contextFor } from "./operation";
import { withIgnoredKept } from "./options";
import { finalize, ownOf, settle } from "./outputs";
import type { Call, Props, ProviderRuntime } from "./types";
import { runUpdateSteps } from "./updateSteps";

export async function update<I extends Props, O extends Outputs>(
  c: CompiledDefinition<I, O>,
  runtime: ProviderRuntime,
  id: string,
  olds: Props,
  news: Props,
  call?: Call,
): Promise<pulumi.dynamic.UpdateResult> {
  const { api } = c.definition;
  // Paths under ignoreChanges keep their recorded value, as diff decided (options.ts).
  const inputs = withIgnoredKept(olds, news, call?.options?.ignoreChanges) as I;
  const ctx = contextFor(c, runtime, inputs, "update", id, call);
  try {
    if (api.settled && api.settled(olds as O) !== true) {
      ctx.notice("waiting for the previous operation to finish");
      await settle(c, ctx, id, olds);
    }
    await runUpdateSteps(c, ctx, id, olds as O, inputs, changedFields(c, olds, inputs));
    return { outs: ownOf(c, finalize(c, await settle(c, ctx, id, inputs), inputs), inputs, olds) };
  } catch (err) {
    // Record how far the update got, so the next up continues from the truth.
    throw await partialFailure(c, ctx, id, inputs, err);
  }
}
