/**
 * diff: which inputs changed and what each change does (the effect table, and the resource's
 * replaceOnChanges), with each changed leaf named by its property path, plus what the next up
 * must finish or repair whatever the declaration says: a pending create, a broken or unsettled
 * state. Paths under ignoreChanges keep their recorded value (options.ts).
 */
import { replacedOnChange, withIgnoredKept } from "./options";
import { pendingSince } from "./pending";
import { formatPath, leafChanges, type LeafChange } from "../fields/propertyPath";
import type { Outputs } from "../definition";
import { changedFields, replacing, sameUniqueKey } from "./changes";
import type { CompiledDefinition } from "./compile";
import { alwaysRecorded, withDeclaredWriteOnly } from "./declaration";
import type { Call, DiffResult, PropertyChange, Props } from "./types";
import { UNKNOWN } from "./unknowns";
import { AUTONAMED_KEY } from "./autoname";
import { labelOf } from "./operation";
import { notice } from "../runtime/progress";

/** A create recorded as pending is replaced: its delete removes what the attempt made, first. */
const replacePending = (): DiffResult => ({
  changes: true,
  replaces: ["id"],
  stables: [],
  deleteBeforeReplace: true,
  replaceDeletesFirst: true,
  detailedDiff: { id: { kind: "update", replace: true } },
});

/** `call.oldInputs`: the recorded inputs, where the face passes them (the plugin); the dynamic host passes outputs only. */
export async function diff<I extends Props, O extends Outputs>(
  c: CompiledDefinition<I, O>,
  id: string,
  outputs: Props,
  news: Props,
  call: Call = {},
): Promise<DiffResult> {
  if (pendingSince(id) !== undefined) return replacePending();
  const { definition } = c;
  const { oldInputs = {}, options } = call;
  const olds = withDeclaredWriteOnly(c, outputs, oldInputs);
  const desired = withIgnoredKept(olds, news, options?.ignoreChanges);
  // A write-only input an imported object never recorded is taken to hold the declared value (declaration.ts).
  const unrecorded = alwaysRecorded(c).filter((f) => olds[f] === undefined);
  const changed = changedFields(c, olds, desired).filter((f) => !unrecorded.includes(f));
  const byPolicy = replacing(c, changed, olds, desired);
  const onChange = replacedOnChange(options?.replaceOnChanges);
  const leaves = changed.flatMap((f) => leavesOf(olds[f], desired[f], f));
  const replaceLeaf = (leaf: LeafChange) => byPolicy.includes(String(leaf.path[0])) || onChange(leaf.path);
  const replaces = [...new Set([...byPolicy, ...leaves.filter(replaceLeaf).map((l) => String(l.path[0]))])];
  const broken = definition.broken?.(olds as O) ?? false;
  if (broken && !replaces.length) replaces.push("state");
  // A resource recorded mid-change (a create that ran out of time) is finished by the next update.
  const unsettled = !broken && !!id && inProgress(c, olds as O);
  // Unique names collide if the replacement is created first and keeps the same name.
  const { deleteFirst } = definition;
  const keptKey = sameUniqueKey(c, olds, desired);
  const deletesFirst =
    (typeof deleteFirst === "function" ? deleteFirst(olds as Partial<I>, desired as Partial<I>) : !!deleteFirst) || keptKey;
  if (replaces.length && keptKey) explainDeleteFirst(c, id, desired);
  const detailedDiff: Record<string, PropertyChange> = {};
  for (const leaf of leaves) detailedDiff[formatPath(leaf.path)] = { kind: leaf.kind, replace: replaceLeaf(leaf) };
  for (const f of replaces) if (!leaves.some((l) => l.path[0] === f)) detailedDiff[f] = { kind: "update", replace: true };
  return {
    detailedDiff,
    changes: changed.length > 0 || broken || unsettled,
    replaces,
    stables: definition.stableOutputs ?? [],
    deleteBeforeReplace: replaces.length > 0 && deletesFirst,
    replaceDeletesFirst: deletesFirst,
  };
}

/**
 * Why a replacement deletes first where a declared name must stay unique, with how to avoid the
 * gap (issue 46): a name left out is made anew for the replacement, which is then created first.
 */
function explainDeleteFirst<I extends Props, O extends Outputs>(c: CompiledDefinition<I, O>, id: string, desired: Props): void {
  const { autonamed, uniqueKey } = c.definition;
  if (!autonamed || !Array.isArray(uniqueKey) || !uniqueKey.includes(autonamed as keyof I & string) || desired[AUTONAMED_KEY]) return;
  notice(
    labelOf(c, desired as Partial<I>, id),
    `replaced by deleting it first: its ${autonamed} is declared and unique, so the two cannot exist at once; ` +
      `leave ${autonamed} out and Pulumi names the replacement, creating it before deleting this one`,
  );
}

/** The changed leaves of one changed field (the field itself where no leaf differs, as `{a: undefined}` against `{}`). */
function leavesOf(old: unknown, next: unknown, field: string): LeafChange[] {
  const leaves = leafChanges(old, next, [field], (v) => v === UNKNOWN);
  return leaves.length ? leaves : [{ path: [field], kind: "update" }];
}

/** Whether a recorded state is mid-operation: the definition's `inProgress`, else not `settled`. */
function inProgress<I extends Props, O extends Outputs>(c: CompiledDefinition<I, O>, outs: O): boolean {
  const { api } = c.definition;
  if (api.inProgress) return api.inProgress(outs);
  return api.settled ? api.settled(outs) === false : false;
}
