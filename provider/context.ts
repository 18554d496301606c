/**
 * What a resource's API mapping gets for one operation: the client, the configuration, the
 * deadline from `timeouts`, and waiting/progress helpers already labelled with the resource and
 * the operation.
 *
 * An operation is one call of create, read, update or delete (`runOperation`; check and diff
 * open no context and stay outside); its context starts a heartbeat
 * (provider/runtime/progress.ts) that stops when the call ends, so work that takes longer than 10 s says
 * so, and quick work prints nothing extra.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { retryMessage, type RetryEvent, type SvcClient } from "./client/client";
import type { ProviderConfig } from "./runtime/config";
import type { Workflow } from "./client/envelope";
import { keepTrying } from "./client/keepTrying";
import { allLimiters } from "./client/limiter";
import { detail, notice, rateLimitSummary, rateWaitStatus, RATE_WAIT_NOTICE_MS, startHeartbeat } from "./runtime/progress";
import { waitForState, waitForWorkflow } from "./client/workflows";

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
  /** A line a person should see whatever the verbosity: a recovery, a refusal waited out, something left behind. */
  notice(message: string): void;
  /** A routine step, shown only with PULUMI_SVC_VERBOSE=1. */
  detail(message: string): void;
  /** Runs a lookup that must not give up on a transient failure: tried again until the deadline. */
  keepTrying<R>(what: string, lookup: () => Promise<R>): Promise<R>;
}

/** What ends with the operation running in this async context (its heartbeats). */
const operationScope = new AsyncLocalStorage<Set<() => void>>();

/** Operations under way in this process, and the summary a pause after the last one prints. */
let running = 0;
let summaryTimer: NodeJS.Timeout | undefined;
let lastSummary = "";

/**
 * How long the process must be idle before the rate-limit summary is printed: the engine ends the
 * provider process (SIGKILL) soon after its last answer, so this is short; work that resumes
 * within it (the next wave of a stack) moves the summary to the end.
 */
const SUMMARY_AFTER_IDLE_MS = 50;

/** Prints the process's rate-limit summary (requests sent, answered 429, time waiting) when it changed and anything waited. */
function summarise(): void {
  const line = rateLimitSummary(allLimiters().map((l) => l.stats()));
  if (!line || line === lastSummary) return;
  lastSummary = line;
  notice("API requests", line);
}

/** Runs one provider method as one operation: whatever its contexts started stops when it ends. */
export async function runOperation<T>(fn: () => Promise<T>): Promise<T> {
  const endings = new Set<() => void>();
  running++;
  clearTimeout(summaryTimer);
  try {
    return await operationScope.run(endings, fn);
  } finally {
    for (const end of endings) end();
    if (--running === 0) summaryTimer = setTimeout(summarise, SUMMARY_AFTER_IDLE_MS).unref();
  }
}

/** A 429 is waited out by the pace and summed in the heartbeat: a line each only with PULUMI_SVC_VERBOSE=1; other retries always. */
const retryLine = (label: string) => (e: RetryEvent) => (e.cause === "429" ? detail : notice)(label, retryMessage(e));

/**
 * What an operation's heartbeat shows: the state waited on, and the time spent waiting on the
 * rate limit (said once when it passes RATE_WAIT_NOTICE_MS). Outside an operation (a hand-made
 * context) there is nothing to stop a heartbeat: none starts.
 */
function heartbeatStatus(label: string, operation: OperationContext["operation"]) {
  const scope = operationScope.getStore();
  const heartbeat = scope ? startHeartbeat(label, operation) : undefined;
  if (heartbeat) scope!.add(() => heartbeat.stop());
  let state: string | undefined;
  let rateWaitMs = 0;
  const show = () => heartbeat?.status([state, rateWaitStatus(rateWaitMs)].filter(Boolean).join("; ") || undefined);
  return {
    status(text: string | undefined) {
      state = text;
      show();
    },
    onWait(ms: number) {
      const before = rateWaitMs;
      rateWaitMs += ms;
      if (before < RATE_WAIT_NOTICE_MS && rateWaitMs >= RATE_WAIT_NOTICE_MS)
        notice(label, "waiting on the API's rate limit (shared by everything using this token); it goes on as the API allows");
      show();
    },
  };
}

export function makeContext(
  shared: SvcClient,
  config: ProviderConfig,
  label: string,
  operation: OperationContext["operation"],
  deadline: number,
): OperationContext {
  const { status, onWait } = heartbeatStatus(label, operation);
  // Every request of the operation retries only while its wait ends before the deadline, and
  // says so under the resource's name.
  const client = shared.withDeadline(deadline, retryLine(label), onWait);
  return {
    client,
    config,
    label,
    operation,
    deadline,
    startedAt: Date.now(),
    async waitForWorkflow(workflow, step) {
      if (!workflow) return;
      try {
        await waitForWorkflow(client, workflow, { deadline, label, operation: step, onState: status, paced: () => client.paced() });
      } finally {
        status(undefined);
      }
    },
    async waitForState(read, settled, stateOf, step) {
      try {
        return await waitForState(read, settled, {
          deadline,
          label,
          operation: step,
          stateOf,
          onState: status,
          paced: () => client.paced(),
        });
      } finally {
        status(undefined);
      }
    },
    notice: (message) => notice(label, message),
    detail: (message) => detail(label, message),
    keepTrying: (what, lookup) =>
      keepTrying(lookup, {
        deadline,
        what,
        onFailedAttempt: (err, delayMs) =>
          notice(label, `${what} failed (${err.message}); trying again in ${(delayMs / 1000).toFixed(1)}s`),
      }),
  };
}
