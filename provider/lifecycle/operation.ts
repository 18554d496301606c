/**
 * What every operation starts from: a context (client, deadline, progress) labelled with the
 * resource and the operation.
 */
import { makeContext, type OperationContext } from "../context";
import type { Outputs } from "../definition";
import { deadlineFor, type Timeouts } from "../fields/timeouts";
import type { CompiledDefinition } from "./compile";
import type { Call, Props, ProviderRuntime } from "./types";

export function without<T extends Props>(obj: T, ...keys: string[]): T {
  const out = { ...obj };
  for (const k of keys) delete out[k];
  return out;
}

/** How a resource reads in messages: `Disk "data"` (dynamic providers never learn the Pulumi name). */
export function labelOf<I extends Props, O extends Outputs>(c: CompiledDefinition<I, O>, inputs: Partial<I>, id?: string): string {
  const { definition } = c;
  return definition.label
    ? definition.label(inputs, id)
    : `${definition.kind}${typeof inputs.name === "string" ? ` "${inputs.name}"` : id ? ` ${id}` : ""}`;
}

/** The context of one operation: its deadline from the resource's `timeouts`, else the engine's customTimeouts. */
export function contextFor<I extends Props, O extends Outputs>(
  c: CompiledDefinition<I, O>,
  runtime: ProviderRuntime,
  inputs: Partial<I>,
  operation: OperationContext["operation"],
  id?: string,
  call?: Call,
): OperationContext {
  const op = operation === "read" ? "update" : operation;
  // The resource's own `timeouts` input wins; the engine's customTimeouts apply where it is silent.
  const fromEngine: Timeouts = call?.timeoutSeconds ? { [op]: `${call.timeoutSeconds}s` } : {};
  const timeouts = { ...fromEngine, ...(inputs.timeouts as Timeouts | undefined) };
  return makeContext(runtime.client(), runtime.config(), labelOf(c, inputs, id), operation, deadlineFor(op, timeouts));
}
