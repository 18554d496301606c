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
import { echoedInputs, finalize } from "./outputs";
import type { Props, ProviderRuntime } from "./types";
import { containsUnknown } from "./unknowns";

/** What read answers for a resource that no longer exists: the engine drops it from the stack. */
const gone = (): pulumi.dynamic.ReadResult => ({ id: "", props: {} });

export async function read<I extends Props, O extends Outputs>(
  c: CompiledDefinition<I, O>,
  runtime: ProviderRuntime,
  id: string,
  props: Props,
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
  const current = finalize(c, outs, prior);
  // The dynamic host shows no per-property diff on refresh: name what changed outside Pulumi.
  if (realId === id) {
    const drift = driftNotice(c, prior, current);
    if (drift) ctx.notice(drift);
  }
  return { id: realId, props: current, inputs: recordedInputs(c, prior, current) };
}

/**
 * The inputs a refresh records: the recorded ones (the outputs echo them, with timeouts, adoptId
 * and workspaceId) with each declared field as the API reports it now, so the next preview diffs
 * the declaration against what is there, property by property, as the plugin face's Read does.
 * The dynamic-provider host passes them to the engine since @pulumi/pulumi 3.216 (ReadResult's
 * `inputs`); older hosts leave the recorded inputs as they were. A secret output keeps its
 * recorded (secret-wrapped) value: that host marks nothing secret on the way out.
 */
function recordedInputs<I extends Props, O extends Outputs>(c: CompiledDefinition<I, O>, prior: Props, current: Props): Props {
  const recorded = Object.fromEntries(Object.keys(c.shape).flatMap((k) => (prior[k] === undefined ? [] : [[k, prior[k]]])));
  const secret = new Set(c.definition.secretOutputs ?? []);
  const now = Object.fromEntries(Object.entries(echoedInputs(c, current)).filter(([k]) => !secret.has(k)));
  return { ...recorded, ...now };
}

/**
 * The managed fields whose value in the API differs from the recorded one, in one line (or
 * undefined): the next up sets them back to the declaration, in place or by replacement.
 */
function driftNotice<I extends Props, O extends Outputs>(c: CompiledDefinition<I, O>, recorded: Props, current: Props): string | undefined {
  const drifted = c.managed.filter(
    (f) => recorded[f] !== undefined && !containsUnknown(recorded[f]) && !isDeepStrictEqual(recorded[f], current[f]),
  );
  if (!drifted.length) return undefined;
  const replacing = drifted.filter((f) => current[f] !== undefined && effectOf(c, f, current[f], recorded[f]).kind === "replace");
  const next = replacing.length
    ? `the next pulumi up reverts them, replacing the ${c.definition.kind} for ${replacing.join(", ")} (set only at creation), unless the declaration changes to match`
    : "the next pulumi up reverts them, unless the declaration changes to match";
  return `drifted outside Pulumi: ${drifted.join(", ")}; ${next}`;
}
