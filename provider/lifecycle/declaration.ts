/**
 * declaration: what a program declares to reproduce an object it did not create (an import by
 * `pulumi import` or svc-import), from the object's outputs. The inputs the outputs echo, as the
 * kind declares them (its `declaredFrom`: a PLAN instance declares no CPU count), without:
 * - the owning workspace when it is the provider's default one (a program leaves it to config);
 * - a value its field's default or the kind's defaults would give anyway (a rule's priority 1, the
 *   remote 0.0.0.0/0 of an IPv4 rule), so the program says only what is particular to the object;
 * - secret and write-only inputs: no read gives a write-only value back, and a secret one must not
 *   reach a program in plain text; the import sets them from config (svc-import writes the keys).
 * What is left passes check and diffs clean against the outputs (tests/integration/provider/declaration.test.ts).
 */
import { isDeepStrictEqual } from "node:util";
import { holdsPlaceholder } from "../fields/configSecret";
import type { Outputs } from "../definition";
import { leftOut, type CompiledDefinition } from "./compile";
import { without } from "./operation";
import { echoedInputs } from "./outputs";
import type { Props, ProviderRuntime } from "./types";

/** Inputs no import can declare from a read: secret ones, and those kept from state because the API never answers them. */
function undeclarable<I extends Props, O extends Outputs>(c: CompiledDefinition<I, O>): string[] {
  const { fields, keepFromState = [] } = c.definition;
  return c.declarable.filter((k) => keepFromState.includes(k) || fields[k]?.secret === true);
}

export function declarationOf<I extends Props, O extends Outputs>(
  c: CompiledDefinition<I, O>,
  runtime: ProviderRuntime,
  outputs: Props,
): Props {
  const { definition } = c;
  let inputs = without(echoedInputs(c, outputs), ...undeclarable(c));
  if (definition.workspaceScoped && inputs.workspaceId === runtime.defaultWorkspace()) inputs = without(inputs, "workspaceId");
  const shaped: Props = definition.declaredFrom ? definition.declaredFrom(inputs as Partial<I>, runtime.defaultWorkspace()) : inputs;
  return Object.fromEntries(Object.entries(shaped).filter(([k, v]) => v !== undefined && !isDeepStrictEqual(v, defaultOf(c, shaped, k))));
}

/**
 * Write-only inputs every object this stack made has recorded (required, or given a default by
 * check): one the state lacks belongs to an object the stack did not create (an import), whose value
 * no read can give; diff takes it to hold the declared value rather than show a change every time.
 * Optional ones (an instance's cloudInit) are legitimately unrecorded and diff as usual.
 */
export function alwaysRecorded<I extends Props, O extends Outputs>(c: CompiledDefinition<I, O>): string[] {
  const kept = c.definition.keepFromState ?? [];
  return c.declarable.filter((k) => kept.includes(k) && leftOut(c, k).kind !== "optional");
}

/**
 * The recorded outputs, with the write-only inputs an import left unrecorded taken from the
 * recorded inputs where a person declared them since (the plugin face: the first up after
 * `pulumi import` records the program's inputs, no output), so a later change shows. Only required
 * ones: a defaulted one (a service's environment) may hold check's default, not what the object has.
 */
export function withDeclaredWriteOnly<I extends Props, O extends Outputs>(
  c: CompiledDefinition<I, O>,
  outputs: Props,
  inputs: Props,
): Props {
  const declared = alwaysRecorded(c).filter(
    (f) => outputs[f] === undefined && inputs[f] !== undefined && !holdsPlaceholder(inputs[f]) && leftOut(c, f).kind === "required",
  );
  return declared.length ? { ...outputs, ...Object.fromEntries(declared.map((f) => [f, inputs[f]])) } : outputs;
}

/** What check would give `field` were it left out: its schema's default, else the kind's defaults from the other inputs. */
function defaultOf<I extends Props, O extends Outputs>(c: CompiledDefinition<I, O>, inputs: Props, field: string): unknown {
  const omitted = leftOut(c, field);
  if (omitted.kind === "defaulted") return omitted.value;
  return c.definition.defaults?.(without(inputs, field) as Partial<I>)?.[field as keyof I];
}
