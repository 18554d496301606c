/**
 * The engine's `import` option where the provider acts on it (the call's options: the dynamic
 * face's classes carry it, provider/dynamic/carriedOptions.ts). As Pulumi documents it
 * (https://www.pulumi.com/docs/iac/concepts/options/import/): the object is taken into the stack
 * as it is, with no write, when every declared input matches it. Otherwise
 * nothing is written and each differing input is named, as pulumi before 3.174 refuses ("inputs to
 * import do not match the existing resource"); later versions import and then update, which this
 * face leaves to adoptId, and says so. Checked at preview (check) for the inputs known then, and
 * again by create with all of them.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { OperationContext } from "../context";
import type { Outputs } from "../definition";
import { changedFields } from "./changes";
import type { CompiledDefinition } from "./compile";
import { alwaysRecorded } from "./declaration";
import { contextFor } from "./operation";
import { withIgnoredKept } from "./options";
import { finalize, ownOf } from "./outputs";
import type { Props, ProviderRuntime, ResourceOptions } from "./types";

interface Mismatch {
  field: string;
  declared: unknown;
  actual: unknown;
}

/**
 * The declared inputs (those in `skip` aside) that differ from the object, ignored paths kept as the
 * object has them. Neither a write-only input (no read gives it) nor a client-side setting the
 * object has no part of (an instance's deletion mode) can differ: the declared value is recorded.
 */
function mismatches<I extends Props, O extends Outputs>(
  c: CompiledDefinition<I, O>,
  current: O,
  inputs: Props,
  skip: string[],
  ignoreChanges: string[] | undefined,
): Mismatch[] {
  const desired = withIgnoredKept(current, inputs, ignoreChanges);
  const unreadable = [...alwaysRecorded(c).filter((f) => current[f] === undefined), ...c.remembered];
  return changedFields(c, current, desired)
    .filter((f) => !skip.includes(f) && !unreadable.includes(f))
    .map((field) => ({ field, declared: desired[field], actual: current[field] }));
}

const NOT_MATCHING = "inputs to import do not match the existing resource";
// Through the plugin, pulumi 3.174 and later import a differing object and then update it; here an
// import never writes, and adoptId is the way to take an object over and change it (docs/guides/options-and-limits.md).
const FIX =
  "Change the declaration to match, or list the field in ignoreChanges; to take the object over and change it to the declaration, set adoptId instead of the import option";
const noSuch = (kind: string, id: string) => `the import option names ${kind} ${id}, which is not visible to this token`;

/** check's job 7: what stops this import, at preview. */
export async function importFailures<I extends Props, O extends Outputs>(
  c: CompiledDefinition<I, O>,
  runtime: ProviderRuntime,
  inputs: Props,
  options: ResourceOptions | undefined,
  unknown: string[],
): Promise<pulumi.dynamic.CheckFailure[]> {
  const id = options?.import;
  if (id === undefined) return [];
  if (inputs.adoptId !== undefined) return [{ property: "adoptId", reason: "set adoptId or the import option, not both" }];
  const ctx = contextFor(c, runtime, inputs as Partial<I>, "read", id);
  const current = await c.definition.api.get(ctx, id, inputs as Partial<O> & Partial<I>);
  if (!current) return [{ property: "(inputs)", reason: noSuch(c.definition.kind, id) }];
  return mismatches(c, current, inputs, unknown, options?.ignoreChanges).map((m) => ({
    property: m.field,
    reason: `${NOT_MATCHING}: ${c.definition.kind} ${id} has ${JSON.stringify(m.actual)}, the declaration ${JSON.stringify(m.declared)}. ${FIX}.`,
  }));
}

/** create's path for an import: the object recorded as it is, or an error naming every differing input. */
export async function importExisting<I extends Props, O extends Outputs>(
  c: CompiledDefinition<I, O>,
  ctx: OperationContext,
  inputs: I,
  id: string,
  ignoreChanges: string[] | undefined,
): Promise<{ id: string; outs: Props }> {
  const { kind, api } = c.definition;
  const current = await api.get(ctx, id, inputs as Partial<O> & Partial<I>);
  if (!current) throw new Error(`${ctx.label}: ${noSuch(kind, id)}`);
  const differing = mismatches(c, current, inputs, [], ignoreChanges);
  if (differing.length) {
    const which = differing
      .map((m) => `${m.field} (declared ${JSON.stringify(m.declared)}, actual ${JSON.stringify(m.actual)})`)
      .join("; ");
    throw new Error(`${ctx.label}: ${NOT_MATCHING} (${kind} ${id}): ${which}. ${FIX}; nothing was written.`);
  }
  ctx.detail(`imported existing ${kind} ${id} as it is`);
  return { id, outs: ownOf(c, finalize(c, current, inputs), inputs) };
}
