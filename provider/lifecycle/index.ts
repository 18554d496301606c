/**
 * The lifecycle of a resource kind (check, diff, create, read, update, delete) built from its
 * definition: the definition is compiled once (compile.ts), and each operation is a module of its own that
 * reads the compiled tables. Nothing here knows any one resource: behaviour comes from the
 * definition's schema, rules, effect table and API mapping.
 *
 * What the engine does with each answer (old inputs to check, old outputs to diff, which errors
 * keep a resource in state, what an empty id from read means) is written once, in
 * docs/engine-facts.md.
 */
import { forPeople } from "../errors";
import { runOperation } from "../context";
import type { Outputs, ResourceDefinition } from "../definition";
import { contextFor } from "./operation";
import { declarationOf } from "./declaration";
import { check } from "./check";
import { compile } from "./compile";
import { create } from "./create";
import { deleteResource } from "./delete";
import { diff } from "./diff";
import { interrupted } from "./interruptedProbes";
import { read } from "./read";
import type { Lifecycle, Props, ProviderRuntime } from "./types";
import { update } from "./update";

export { PartialFailure } from "./failures";
export type { Call, Lifecycle, PropertyChange, ProviderRuntime } from "./types";
export type { Naming } from "./autoname";
export { UNKNOWN } from "./unknowns";

export function buildLifecycle<I extends Props, O extends Outputs>(
  definition: ResourceDefinition<I, O, string>,
  runtime: ProviderRuntime,
): Lifecycle {
  const c = compile(definition);
  const list = definition.api.list?.bind(definition.api);
  // declarationOf is pure and interrupted is no engine call: only the engine's calls are wrapped (errors
  // for people). check and diff open no operation context, so no heartbeat to stop: they skip the
  // operation scope, whose AsyncLocalStorage, once entered, slows every promise of the process (a
  // preview's provider process would pay it for nothing; bench/README.md).
  return {
    check: withErrorsForPeople((olds, news, call) => check(c, runtime, olds, news, call)),
    diff: withErrorsForPeople((id, olds, news, call) => diff(c, id, olds, news, call)),
    create: asOperation((props, call) => create(c, runtime, props, call)),
    read: asOperation((id, props, declared) => read(c, runtime, id, props, declared)),
    update: asOperation((id, olds, news, call) => update(c, runtime, id, olds, news, call)),
    delete: asOperation((id, props, call) => deleteResource(c, runtime, id, props, call)),
    declarationOf: (outputs) => declarationOf(c, runtime, outputs),
    ...(list
      ? {
          list: asOperation((workspaceId: string) =>
            list(contextFor(c, runtime, { workspaceId } as unknown as Partial<I>, "read"), workspaceId),
          ),
        }
      : {}),
    interrupted: (props, since) => interrupted(c, runtime, props, since),
  };
}

/** What a call throws reaches people as its message (`forPeople`: the dynamic-provider host prints `${err}: ${err.stack}`). */
function withErrorsForPeople<A extends unknown[], R>(method: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
  return async (...args: A) => {
    try {
      return await method(...args);
    } catch (err) {
      throw forPeople(err);
    }
  };
}

/** Each method call is one operation (provider/context.ts: its heartbeat stops when the call ends), its errors for people. */
function asOperation<A extends unknown[], R>(method: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
  return withErrorsForPeople((...args: A) => runOperation(() => method(...args)));
}
