/**
 * interrupted: what a create interrupted with its engine made, judged with the spec's own lookups
 * (provider/lifecycle/interruptedVerdict.ts) from the declaration's inputs; `svc-recover` asks it.
 */
import { judgeInterrupted, type Interrupted } from "./interruptedVerdict";
import type { Outputs } from "../definition";
import { changedFields, replacing } from "./changes";
import type { CompiledDefinition } from "./compile";
import { contextFor } from "./operation";
import type { Props, ProviderRuntime } from "./types";

export async function interrupted<I extends Props, O extends Outputs>(
  c: CompiledDefinition<I, O>,
  runtime: ProviderRuntime,
  props: Props,
  since: number,
): Promise<Interrupted> {
  const { api, kind } = c.definition;
  const inputs = { ...props } as I;
  const ctx = { ...contextFor(c, runtime, inputs, "read"), startedAt: since };
  return judgeInterrupted(ctx, {
    kind,
    conflict: api.conflict && ((at) => api.conflict!(at, inputs)),
    findExisting: api.findExisting && ((at) => api.findExisting!(at, inputs)),
    // Fields that differ and could only be set at creation: that object is not this declaration's.
    unmatched: async (at, id) => {
      const current = await api.get(at, id, inputs as Partial<O> & Partial<I>);
      if (!current) return undefined;
      return replacing(c, changedFields(c, current, inputs), current, inputs);
    },
  });
}
