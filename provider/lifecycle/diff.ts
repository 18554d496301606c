/**
 * diff: which inputs changed and what each change does (the policy table), plus what the next up
 * must finish or repair whatever the declaration says: a pending create, a broken or unsettled state.
 */
import { pendingSince } from "../pending";
import type { Outputs } from "../spec";
import { changedFields, replacing, sameUniqueKey } from "./changes";
import type { CompiledSpec } from "./compile";
import type { DiffResult, PropertyChange, Props } from "./types";

/** A create recorded as pending is replaced: its delete removes what the attempt made, first. */
const replacePending = (): DiffResult => ({
  changes: true,
  replaces: ["id"],
  stables: [],
  deleteBeforeReplace: true,
  detailedDiff: { id: { kind: "update", replace: true } },
});

export async function diff<I extends Props, O extends Outputs>(
  c: CompiledSpec<I, O>,
  id: string,
  olds: Props,
  news: Props,
): Promise<DiffResult> {
  if (pendingSince(id) !== undefined) return replacePending();
  const { spec } = c;
  const changed = changedFields(c, olds, news);
  const replaces = replacing(c, changed, olds, news);
  const broken = spec.broken?.(olds as O) ?? false;
  if (broken && !replaces.length) replaces.push("state");
  // A resource recorded mid-change (a create that ran out of time) is finished by the next update.
  const unsettled = !broken && !!id && inProgress(c, olds as O);
  const detailedDiff: Record<string, PropertyChange> = {};
  for (const f of changed) detailedDiff[f] = { kind: olds[f] === undefined ? "add" : "update", replace: replaces.includes(f) };
  for (const f of replaces) detailedDiff[f] ??= { kind: "update", replace: true };
  return {
    detailedDiff,
    changes: changed.length > 0 || broken || unsettled,
    replaces,
    stables: spec.stableOutputs ?? [],
    // Unique names collide if the replacement is created first and keeps the same name.
    deleteBeforeReplace: replaces.length > 0 && (!!spec.deleteFirst || sameUniqueKey(c, olds, news)),
  };
}

/** Whether a recorded state is mid-operation: the spec's `inProgress`, else not `settled`. */
function inProgress<I extends Props, O extends Outputs>(c: CompiledSpec<I, O>, outs: O): boolean {
  const { api } = c.spec;
  if (api.inProgress) return api.inProgress(outs);
  return api.settled ? api.settled(outs) === false : false;
}
