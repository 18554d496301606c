/**
 * Waiting on asynchronous work, the one way: `waitUntil` polls with backoff (from 200 ms, x1.5,
 * with jitter, never more than 5 s) until a condition holds or a deadline passes.
 * `waitForWorkflow` waits for a workflow to end (FAILED, ABORTED and TIMED_OUT become errors
 * naming the operation and the resource); `waitForState` waits for a resource to settle. Each state
 * seen is a detail line (shown with PULUMI_SVC_VERBOSE=1) and goes to `onState`, which the
 * operation's heartbeat shows ("still creating… (30s elapsed; workflow RUNNING)").
 */
import type { SvcClient } from "./client";
import { DeadlineError, WorkflowError } from "./errors";
import { workflowOf, type Workflow } from "./envelope";
import { detail } from "./progress";

export interface PollOptions {
  /** Absolute time (ms since epoch) after which waiting fails. */
  deadline: number;
  /** "Disk \"data\"" — names the resource in messages. */
  label: string;
  /** "create", "resize" — names the operation in messages. */
  operation: string;
  initialDelayMs?: number;
  maxDelayMs?: number;
  /** Told what is being waited on as it changes ("workflow RUNNING", "PROVISIONING"). */
  onState?: (status: string) => void;
}

export const POLL_INITIAL_MS = 200;
export const POLL_MAX_MS = 5_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The wait before the next poll: x1.5 per poll, ±20% jitter so that many resources waiting at once
 * do not poll in step, and never more than the cap. Pure, so the schedule is tested without a clock.
 */
export function pollDelays(initialMs: number, capMs: number, random: () => number = Math.random) {
  let base = initialMs;
  return {
    next(): number {
      const wait = Math.min(capMs, Math.round(base * (0.8 + random() * 0.4)));
      base = Math.min(capMs, base * 1.5);
      return wait;
    },
  };
}

/** Polls `probe` until it returns a value other than undefined; backoff with a cap; deadline. */
export async function waitUntil<T>(probe: () => Promise<T | undefined>, opts: PollOptions & { describe: () => string }): Promise<T> {
  const delays = pollDelays(opts.initialDelayMs ?? POLL_INITIAL_MS, opts.maxDelayMs ?? POLL_MAX_MS);
  for (;;) {
    const result = await probe();
    if (result !== undefined) return result;
    const delay = delays.next();
    if (Date.now() + delay > opts.deadline) {
      throw new DeadlineError(
        `${opts.label}: ${opts.operation} did not finish before its deadline (${opts.describe()}); ` +
          `raise timeouts.${opts.operation === "delete" ? "delete" : opts.operation === "create" ? "create" : "update"} (or the customTimeouts option) or check the API, then run pulumi up again`,
      );
    }
    await sleep(delay);
  }
}

const FAILED_STATES = new Set(["FAILED", "ABORTED", "TIMED_OUT"]);

export async function waitForWorkflow(client: SvcClient, start: Workflow, opts: PollOptions): Promise<Workflow> {
  let last = start;
  const began = Date.now();
  detail(opts.label, `${opts.operation}: workflow ${start.name || ""} ${start.id} ${start.state}`.replace(/\s+/g, " "));
  opts.onState?.(`workflow ${start.state}`);
  const done = await waitUntil(
    async () => {
      if (last.state === "COMPLETED" || FAILED_STATES.has(last.state)) return last;
      const next = workflowOf(await client.get(`/v1/workflows/${last.id}`));
      if (next.state !== last.state) {
        detail(opts.label, `${opts.operation}: workflow ${next.id} ${next.state} (${((Date.now() - began) / 1000).toFixed(1)}s)`);
        opts.onState?.(`workflow ${next.state}`);
      }
      last = next;
      return next.state === "COMPLETED" || FAILED_STATES.has(next.state) ? next : undefined;
    },
    { ...opts, describe: () => `workflow ${last.id} still ${last.state}` },
  );
  if (FAILED_STATES.has(done.state)) {
    throw new WorkflowError(done.id, done.state, `${opts.label}: ${opts.operation} failed: workflow ${done.name ? `${done.name} ` : ""}${done.id} ended ${done.state}`);
  }
  return done;
}

/**
 * Polls `read` until `settled` says the resource is done moving. `settled` returns true (done),
 * false (keep waiting) or a string (the resource ended in a failure state; the message).
 */
export async function waitForState<R>(read: () => Promise<R>, settled: (r: R) => boolean | string, opts: PollOptions & { stateOf: (r: R) => string }): Promise<R> {
  let current: R | undefined;
  let lastState = "";
  const result = await waitUntil(
    async () => {
      current = await read();
      const state = opts.stateOf(current);
      if (state !== lastState) {
        if (lastState) detail(opts.label, `${opts.operation}: ${state}`);
        opts.onState?.(state);
        lastState = state;
      }
      const verdict = settled(current);
      if (typeof verdict === "string") throw new WorkflowError("", state, `${opts.label}: ${opts.operation} failed: ${verdict}`);
      return verdict ? current : undefined;
    },
    { ...opts, describe: () => `still ${lastState || "unknown"}` },
  );
  return result;
}
