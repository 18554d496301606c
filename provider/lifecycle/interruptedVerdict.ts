/**
 * What a create interrupted with its engine made (a pending create left in the stack by a killed
 * `pulumi up`): `svc-recover` (recover/) asks this for each one, with the declaration's inputs and
 * the time the interrupted update began.
 *
 * The evidence is the lifecycle's own lookups, the ones a create uses to recover from a lost
 * answer (provider/lifecycle/createRecovery.ts): `findExisting` (the object with the declaration's key or name,
 * made since the update began: `createdDuring`) and, where the API holds one object per key,
 * `conflict` (what holds the key now). An object is this create's only when it is tied to it
 * without doubt; anything else is left for a person to choose:
 *
 * - made: one object made since the update began (or the one holder of a unique key, which the
 *   create would have refused to take over had it existed before), with no field that differs
 *   and could only have been set at creation;
 * - nothing: the API shows no such object made since then (an older holder of the key is a
 *   person's: the next `pulumi up` names it and its `adoptId`, it is never taken here);
 * - unclear: two candidates, a candidate whose creation-only fields differ, or no lookup at all.
 */
import type { SvcClient } from "../client/client";
import type { OperationContext } from "../context";
import type { Conflict } from "../definition";

export type Interrupted =
  | { verdict: "made"; id: string; reason: string }
  | { verdict: "nothing"; reason: string }
  | { verdict: "unclear"; reason: string; candidates: string[] };

/** The lifecycle's lookups for one declaration (bound to its inputs). */
export interface InterruptedProbes {
  kind: string;
  conflict?(ctx: OperationContext): Promise<Conflict | undefined>;
  findExisting?(ctx: OperationContext): Promise<string | undefined>;
  /** The creation-only fields in which the object differs from the declaration, or undefined when it is gone. */
  unmatched(ctx: OperationContext, id: string): Promise<string[] | undefined>;
}

/**
 * The same client, with one object left out of every list it answers: asking `findExisting` again
 * through it tells whether a second object matches, without a lookup of its own per kind.
 */
export function hiding(client: SvcClient, id: string): SvcClient {
  const keep = (item: unknown) => !(item && typeof item === "object" && String((item as { id?: unknown }).id) === id);
  const hide = (answer: unknown): unknown => {
    if (Array.isArray(answer)) return answer.filter(keep);
    const items = (answer as { items?: unknown } | null)?.items;
    return Array.isArray(items) ? { ...(answer as object), items: items.filter(keep) } : answer;
  };
  return new Proxy(client, {
    get(target, prop, receiver) {
      if (prop !== "request") return Reflect.get(target, prop, receiver);
      return async (...args: Parameters<SvcClient["request"]>) => hide(await target.request(...args));
    },
  });
}

export async function judgeInterrupted(ctx: OperationContext, probes: InterruptedProbes): Promise<Interrupted> {
  const { kind } = probes;
  const since = new Date(ctx.startedAt).toISOString();
  if (!probes.findExisting && !probes.conflict)
    return { verdict: "unclear", reason: `the API offers no way to find a ${kind} by its declaration`, candidates: [] };
  const found = probes.findExisting && (await ctx.keepTrying(`the lookup of the ${kind}`, () => probes.findExisting!(ctx)));
  const holder = probes.conflict && (await ctx.keepTrying(`the lookup of the ${kind}'s key`, () => probes.conflict!(ctx)));
  if (found && holder && holder.id !== found)
    return {
      verdict: "unclear",
      reason: `${found} was made since the update began but ${holder.description}`,
      candidates: [found, holder.id],
    };
  // Without findExisting (a membership: its key is its id), the holder of the key is the candidate.
  const candidate = found || (probes.findExisting ? undefined : holder?.id);
  if (!candidate)
    return {
      verdict: "nothing",
      reason: holder
        ? `${holder.description}, made before the interrupted update began (${since}): not this create's, and never taken over here`
        : `the API shows no ${kind} matching the declaration made since the interrupted update began (${since})`,
    };
  const unmatched = await ctx.keepTrying(`the read of ${kind} ${candidate}`, () => probes.unmatched(ctx, candidate));
  if (!unmatched) return { verdict: "nothing", reason: `the ${kind} ${candidate} it made is gone` };
  if (unmatched.length)
    return {
      verdict: "unclear",
      reason: `${kind} ${candidate} differs from the declaration in ${unmatched.join(", ")}, which only a creation sets`,
      candidates: [candidate],
    };
  // Where the API allows more than one object per name, a second match makes the evidence ambiguous.
  if (!probes.conflict && probes.findExisting) {
    const other = await ctx.keepTrying(`the lookup of a second ${kind}`, () =>
      probes.findExisting!({ ...ctx, client: hiding(ctx.client, candidate) }),
    );
    if (other)
      return {
        verdict: "unclear",
        reason: `two ${kind}s match the declaration and were made since the update began (${candidate}, ${other})`,
        candidates: [candidate, other],
      };
  }
  return {
    verdict: "made",
    id: candidate,
    reason: `the API shows ${kind} ${candidate}, made since the interrupted update began, matching the declaration`,
  };
}
