/**
 * What the program declared, carried in a dynamic resource's outputs for read.
 *
 * The dynamic-provider host passes `read` the recorded outputs alone, never the recorded inputs
 * (cmd/dynamic-provider: `req.getInputs()` only when no outputs are recorded). A refresh must
 * record the declared inputs, each as the API now reports it, and nothing else: the host shows a
 * preview as the difference between the recorded inputs and the new ones, with no detailed diff.
 * An undeclared field the API reports (an instance's `cpu`) would show as "removed".
 *
 * So create and update record, under `__inputs`, the declared input names. They also record the
 * values no output holds: an instance's `cloudInit`, an `adoptId`, check's `__autonamed` marker.
 * read turns them back into the declared inputs, as the plugin face gets them from the engine.
 * The class marks `__inputs` secret (classSupport.ts): those values may be secret, and this host
 * passes none as secrets.
 *
 * A resource last written before `__inputs` existed carries none; its read records every input
 * the outputs echo, as before, until its next create or update.
 */
type Props = Record<string, unknown>;

export const INPUTS_KEY = "__inputs";

interface Carried {
  names: string[];
  values: Props;
}

/** `outs` with the declared `inputs` carried: their names, and the values no output holds. */
export function withDeclared(outs: Props, inputs: Props): Props {
  const names = Object.keys(inputs).sort();
  const values = Object.fromEntries(names.filter((k) => outs[k] === undefined).map((k) => [k, inputs[k]]));
  return { ...outs, [INPUTS_KEY]: { names, values } satisfies Carried };
}

/** The declared inputs `outs` carries, each value from the outputs unless carried; undefined where none is carried. */
export function declaredOf(outs: Props): Props | undefined {
  const carried = outs[INPUTS_KEY] as Carried | undefined;
  if (!carried || !Array.isArray(carried.names)) return undefined;
  const values = carried.values ?? {};
  return Object.fromEntries(carried.names.map((k) => [k, k in values ? values[k] : outs[k]]));
}
