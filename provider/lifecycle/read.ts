/**
 * read: the resource as the API shows it now (a refresh, an import by id), a pending create
 * resolved to the real id, the inputs to record from it, and a line naming what drifted outside
 * Pulumi.
 */
import type * as pulumi from "@pulumi/pulumi";
import { isDeepStrictEqual } from "node:util";
import { pendingSince } from "./pending";
import type { Outputs } from "../definition";
import { effectOf } from "./changes";
import type { CompiledDefinition } from "./compile";
import { resolvePending } from "./createRecovery";
import { contextFor } from "./operation";
import { echoedInputs, finalize, ownOf } from "./outputs";
import type { Props, ProviderRuntime } from "./types";
import { containsUnknown } from "./unknowns";

/** What read answers for a resource that no longer exists: the engine drops it from the stack. */
const gone = (): pulumi.dynamic.ReadResult => ({ id: "", props: {} });

export async function read<I extends Props, O extends Outputs>(
  c: CompiledDefinition<I, O>,
  runtime: ProviderRuntime,
  id: string,
  props: Props,
  declared?: Props,
): Promise<pulumi.dynamic.ReadResult> {
  const { definition } = c;
  const prior = { ...props };
  // An import reads by id alone (the engine sends no properties): a workspace-scoped kind,
  // whose paths name its workspace, is read in the default one.
  if (definition.workspaceScoped && prior.workspaceId === undefined) prior.workspaceId = runtime.defaultWorkspace() ?? undefined;
  const ctx = contextFor(c, runtime, prior as Partial<I>, "read", id);
  const since = pendingSince(id);
  // A create recorded as pending: the engine takes the real id from read.
  const realId = since === undefined ? id : await resolvePending(c, ctx, since, prior);
  if (!realId) return gone();
  if (realId !== id) ctx.notice(`the pending create ${id} made ${definition.kind} ${realId}; recorded under its id`);
  const outs = await definition.api.get(ctx, realId, prior as Partial<O> & Partial<I>);
  if (!outs) return gone();
  const current = ownOf(c, finalize(c, outs, prior), declared, prior);
  // The dynamic host shows no per-property diff on refresh: name what changed outside Pulumi.
  if (realId === id) {
    const drift = driftNotice(c, prior, current, declared);
    if (drift) ctx.notice(drift);
  }
  return { id: realId, props: current, inputs: declared ? asReported(c, declared, current) : echoed(c, prior, current) };
}

/**
 * The inputs a refresh records: the declared ones, each the API reports as it reports it now, so
 * the next preview diffs the declaration against what is there and names nothing else. Both
 * faces show that preview from these inputs (the dynamic host forwards no detailed diff):
 * - an undeclared field the API reports (an instance's cpu, a VPC attached by a VpcAttachment) is
 *   not recorded, so it is neither "removed" nor drift;
 * - a declared one the API no longer holds is recorded as it reports it (a detached disk's
 *   instanceId, null), so the preview names it, not an update that names nothing;
 * - a secret one is recorded as it is now, so its change shows as a changed `[secret]`: the
 *   plugin marks it secret; for the dynamic host, which takes no secrets, the engine keeps the
 *   secret mark of the recorded input of that name (provider_plugin.go, annotateSecrets).
 * The rest (write-only, timeouts, adoptId, check's marker) stays as recorded.
 */
function asReported<I extends Props, O extends Outputs>(c: CompiledDefinition<I, O>, declared: Props, current: Props): Props {
  const reported = new Set(c.reported);
  return Object.fromEntries(
    Object.entries(declared).flatMap(([k, v]) => {
      if (!reported.has(k)) return [[k, v]];
      return current[k] === undefined ? [] : [[k, current[k]]];
    }),
  );
}

/**
 * The inputs a refresh records where the declared ones are unknown (a dynamic resource last
 * written before it carried them, declaredInputs.ts): every input the outputs echo, the recorded
 * ones updated. A secret output keeps its recorded value.
 */
function echoed<I extends Props, O extends Outputs>(c: CompiledDefinition<I, O>, prior: Props, current: Props): Props {
  const recorded = Object.fromEntries(Object.keys(c.shape).flatMap((k) => (prior[k] === undefined ? [] : [[k, prior[k]]])));
  const secret = new Set(c.definition.secretOutputs ?? []);
  const now = Object.fromEntries(Object.entries(echoedInputs(c, current)).filter(([k]) => !secret.has(k)));
  return { ...recorded, ...now };
}

/**
 * The managed fields (the declared ones, where known) whose value in the API differs from the
 * recorded one, in one line (or undefined): the next up sets them back to the declaration, in
 * place or by replacement. An undeclared one another resource of the stack moves (an instance's
 * vpcIds, by a VpcAttachment) is no drift.
 */
function driftNotice<I extends Props, O extends Outputs>(
  c: CompiledDefinition<I, O>,
  recorded: Props,
  current: Props,
  declared: Props | undefined,
): string | undefined {
  const drifted = c.managed.filter(
    (f) =>
      recorded[f] !== undefined &&
      (!declared || f in declared) &&
      !containsUnknown(recorded[f]) &&
      !isDeepStrictEqual(recorded[f], current[f]),
  );
  if (!drifted.length) return undefined;
  const replacing = drifted.filter((f) => current[f] !== undefined && effectOf(c, f, current[f], recorded[f]).kind === "replace");
  const next = replacing.length
    ? `the next pulumi up reverts them, replacing the ${c.definition.kind} for ${replacing.join(", ")} (set only at creation), unless the declaration changes to match`
    : "the next pulumi up reverts them, unless the declaration changes to match";
  return `drifted outside Pulumi: ${drifted.join(", ")}; ${next}`;
}
