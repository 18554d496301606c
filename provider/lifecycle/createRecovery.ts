/**
 * Before and around the create request: a natural key already taken stops the create; an
 * ambiguous failure (the answer lost) is recovered by looking the resource up (persistently:
 * giving up would orphan it or duplicate it on the next run); the id of a create answered with a
 * bare workflow is found the same way. When no lookup can answer before the deadline, the
 * attempt is recorded as pending (provider/lifecycle/pending.ts).
 */
import { isAmbiguous } from "../client/client";
import type { OperationContext } from "../context";
import { sentences } from "../errors";
import type { Created, Outputs } from "../definition";
import { changedFields } from "./changes";
import type { CompiledDefinition } from "./compile";
import { pendingFailure } from "./failures";
import type { Props } from "./types";

/**
 * Stops a create whose natural key is taken (one cluster per workspace, a unique name): the
 * object may be a person's, so it is never taken over without the declaration saying so.
 */
export async function refuseConflict<I extends Props, O extends Outputs>(
  c: CompiledDefinition<I, O>,
  ctx: OperationContext,
  inputs: I,
): Promise<void> {
  const { api, kind } = c.definition;
  if (!api.conflict) return;
  const found = await ctx.keepTrying(`the check for an existing ${kind}`, () => api.conflict!(ctx, inputs));
  if (!found) return;
  let comparison = "";
  try {
    const current = await api.get(ctx, found.id, inputs as Partial<O> & Partial<I>);
    const differing = current ? changedFields(c, current, inputs) : [];
    comparison = differing.length ? `It differs from this declaration in ${differing.join(", ")}` : "It matches every declared field";
  } catch {
    // The comparison only helps the reader; the message stands without it.
  }
  throw new Error(
    sentences(
      `${ctx.label}: ${found.description}`,
      comparison,
      `This stack has no record of creating it, so it is not taken over on its own. To manage it here, set adoptId: "${found.id}"${found.alternative ? `; otherwise ${found.alternative}` : ""}`,
    ),
  );
}

/** The create request, sent again (up to three times in all) only while a lookup shows nothing was created. */
export async function createWithRecovery<I extends Props, O extends Outputs>(
  c: CompiledDefinition<I, O>,
  ctx: OperationContext,
  inputs: I,
): Promise<Created> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await c.definition.api.create(ctx, inputs);
    } catch (err) {
      if (!isAmbiguous(err)) throw err;
      const existing = await lookUpAfterLostAnswer(c, ctx, inputs, err as Error);
      if (existing) return existing;
      if (attempt >= 3) throw err;
      ctx.notice(`the create request failed without a clear answer (${(err as Error).message}) and nothing was created; sending it again`);
    }
  }
}

/** After a lost create answer: the resource the API created, adopted; undefined when nothing was created. */
async function lookUpAfterLostAnswer<I extends Props, O extends Outputs>(
  c: CompiledDefinition<I, O>,
  ctx: OperationContext,
  inputs: I,
  err: Error,
): Promise<Created | undefined> {
  const { api, kind } = c.definition;
  if (!api.findExisting) {
    throw new Error(
      sentences(
        `${ctx.label}: the create request may or may not have been applied (${err.message})`,
        `Check the API for a ${kind} matching this declaration before running pulumi up again, and delete any duplicate`,
      ),
    );
  }
  let existing: string | undefined;
  try {
    existing = await ctx.keepTrying("the lookup after a lost create answer", () => api.findExisting!(ctx, inputs));
  } catch (lookupErr) {
    throw pendingFailure(c, ctx, inputs, `${ctx.label}: ${err.message}; ${(lookupErr as Error).message}`);
  }
  if (!existing) return undefined;
  ctx.notice(`the create answer was lost (${err.message}); found the ${kind} the API created (id ${existing}) and adopted it`);
  return { id: existing, workflow: null };
}

/** The id of an accepted create answered with a bare workflow, found persistently; pending when not found in time. */
export async function idOfCreated<I extends Props, O extends Outputs>(
  c: CompiledDefinition<I, O>,
  ctx: OperationContext,
  inputs: I,
  created: Created,
): Promise<string> {
  if (created.id) return created.id;
  const { api, kind } = c.definition;
  const accepted = `the API accepted the create${created.workflow ? ` (workflow ${created.workflow.id})` : ""}`;
  if (!api.findExisting) throw new Error(`internal: ${kind} answers its create with a bare workflow but has no findExisting`);
  let id: string | undefined;
  try {
    id = await ctx.keepTrying(`the lookup of the ${kind} just created`, () => api.findExisting!(ctx, inputs));
  } catch (err) {
    throw pendingFailure(c, ctx, inputs, `${ctx.label}: ${accepted} but ${(err as Error).message}`);
  }
  if (!id) throw pendingFailure(c, ctx, inputs, `${ctx.label}: ${accepted} but the API does not show the new ${kind}`);
  return id;
}

/** The object a create recorded as pending made, found as the recovery lookup would have (created since the attempt began). */
export async function resolvePending<I extends Props, O extends Outputs>(
  c: CompiledDefinition<I, O>,
  ctx: OperationContext,
  since: number,
  recorded: Props,
): Promise<string | undefined> {
  const { api, kind } = c.definition;
  if (!api.findExisting) return undefined;
  const then = { ...ctx, startedAt: since };
  return ctx.keepTrying(`the lookup for the ${kind} a pending create made`, () => api.findExisting!(then, recorded as I));
}
