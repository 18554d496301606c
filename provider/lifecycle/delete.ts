/**
 * delete: what a pending create made, or the recorded resource: the definition's preparation, the
 * request (a refusal while the resource is busy waited out once), then its removal confirmed.
 */
import { ApiError, WorkflowError } from "../errors";
import type { OperationContext } from "../context";
import type { Workflow } from "../client/envelope";
import { pendingSince } from "./pending";
import type { Outputs } from "../definition";
import { waitUntil } from "../client/workflows";
import type { CompiledDefinition } from "./compile";
import { resolvePending } from "./createRecovery";
import { contextFor } from "./operation";
import { settle } from "./outputs";
import type { Call, Props, ProviderRuntime } from "./types";

export async function deleteResource<I extends Props, O extends Outputs>(
  c: CompiledDefinition<I, O>,
  runtime: ProviderRuntime,
  id: string,
  props: Props,
  call?: Call,
): Promise<void> {
  const { api, kind } = c.definition;
  const olds = { ...props } as O;
  const ctx = contextFor(c, runtime, olds as unknown as Partial<I>, "delete", id, call);
  const since = pendingSince(id);
  if (since !== undefined) {
    const made = await resolvePending(c, ctx, since, olds);
    if (!made) return ctx.notice(`the pending create ${id} made nothing; forgotten`);
    ctx.notice(`the pending create ${id} made ${kind} ${made}; deleting it`);
    return deleteResource(c, runtime, made, props, call);
  }
  if (c.definition.retainOnDelete) return ctx.notice(`the API has no delete for ${kind}; it is kept and only removed from the stack`);
  await api.beforeDelete?.(ctx, id, olds);
  const sent = await sendDelete(c, ctx, id, olds);
  if (sent === "gone") return;
  if (api.goneOnAnswer && !sent.workflow) return ctx.detail("deleted");
  await waitForRemoval(c, ctx, id, olds);
  ctx.detail("deleted");
}

/**
 * The delete request and its workflow; "gone" when the API has nothing to delete. Refused while
 * the resource is busy (a command still running): let it settle, then once more.
 */
async function sendDelete<I extends Props, O extends Outputs>(
  c: CompiledDefinition<I, O>,
  ctx: OperationContext,
  id: string,
  olds: O,
): Promise<"gone" | { workflow: Workflow | null }> {
  const once = async () => {
    const workflow = (await c.definition.api.delete(ctx, id, olds)) ?? null;
    await ctx.waitForWorkflow(workflow, "delete");
    return { workflow };
  };
  try {
    return await once();
  } catch (err) {
    if (err instanceof ApiError && err.notFound) return "gone";
    if (!(err instanceof ApiError && err.status === 409 && c.definition.api.settled)) throw err;
    ctx.notice(`the API refused the delete for now (${err.reason}); waiting for the resource to settle`);
    try {
      await settle(c, ctx, id, olds);
    } catch (settleErr) {
      if (!(settleErr instanceof WorkflowError)) throw settleErr; // a FAILED resource can still be deleted
    }
    try {
      return await once();
    } catch (again) {
      if (again instanceof ApiError && again.notFound) return "gone";
      throw again;
    }
  }
}

/** Reads until the resource is gone (or counts as gone), within the operation's deadline. */
async function waitForRemoval<I extends Props, O extends Outputs>(
  c: CompiledDefinition<I, O>,
  ctx: OperationContext,
  id: string,
  olds: O,
): Promise<void> {
  const { api } = c.definition;
  const gone = async () => {
    const outs = await api.get(ctx, id, olds as Partial<O> & Partial<I>);
    return outs === undefined || api.isGone?.(outs) ? true : undefined;
  };
  await waitUntil(gone, {
    deadline: ctx.deadline,
    label: ctx.label,
    operation: "delete",
    waitsFor: "removal",
    paced: () => ctx.client.paced(),
    describe: () => "the resource still exists",
  });
}
