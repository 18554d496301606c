/**
 * What a resource's API mapping gets for one operation: the client, the configuration, the
 * deadline from `timeouts`, and waiting/progress helpers already labelled with the resource and
 * the operation.
 */
import type { SvcClient } from "./client";
import type { ProviderConfig } from "./config";
import type { Workflow } from "./envelope";
import { persist } from "./persist";
import { progress } from "./progress";
import { waitForState, waitForWorkflow } from "./workflows";

/** Whether an API timestamp is from this operation (allowing a minute of clock skew). */
export function createdDuring(ctx: Pick<OperationContext, "startedAt">, created: string | null | undefined): boolean {
  return !!created && Date.parse(created) >= ctx.startedAt - 60_000;
}

export interface OperationContext {
  client: SvcClient;
  config: ProviderConfig;
  /** `Disk "data"` */
  label: string;
  operation: "create" | "update" | "delete" | "read";
  /** Absolute deadline (ms since epoch). */
  deadline: number;
  /** When the operation began (ms since epoch): a resource created before it is not "the one we just created". */
  startedAt: number;
  /** Waits for a workflow to end COMPLETED; other endings throw, naming the step. */
  waitForWorkflow(workflow: Workflow | null | undefined, step: string): Promise<void>;
  /** Polls `read` until `settled` (true) or failure (a message). */
  waitForState<R>(read: () => Promise<R>, settled: (r: R) => boolean | string, stateOf: (r: R) => string, step: string): Promise<R>;
  progress(message: string): void;
  /** Runs a lookup that must not give up on a transient failure: tried again until the deadline. */
  persistently<R>(what: string, lookup: () => Promise<R>): Promise<R>;
}

export function makeContext(shared: SvcClient, config: ProviderConfig, label: string, operation: OperationContext["operation"], deadline: number): OperationContext {
  // Every request of the operation retries only while its wait ends before the deadline.
  const client = shared.withDeadline(deadline);
  return {
    client,
    config,
    label,
    operation,
    deadline,
    startedAt: Date.now(),
    async waitForWorkflow(workflow, step) {
      if (!workflow) return;
      await waitForWorkflow(client, workflow, { deadline, label, operation: step });
    },
    waitForState(read, settled, stateOf, step) {
      return waitForState(read, settled, { deadline, label, operation: step, stateOf });
    },
    progress: (message) => progress(label, message),
    persistently: (what, lookup) =>
      persist(lookup, {
        deadline,
        what,
        onRetry: (err, delayMs) => progress(label, `${what} failed (${err.message}); trying again in ${(delayMs / 1000).toFixed(1)}s`),
      }),
  };
}
