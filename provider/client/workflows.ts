/**
 * Waiting on asynchronous work, the one way: `waitUntil` polls on a schedule (POLL_SCHEDULE: every
 * quarter of the time waited so far, from 250 ms to 5 s) until a condition holds or a deadline passes.
 * `waitForWorkflow` waits for a workflow to end (FAILED, ABORTED and TIMED_OUT become errors
 * naming the operation and the resource); `waitForState` waits for a resource to settle. Each state
 * seen is a detail line (shown with PULUMI_SVC_VERBOSE=1) and goes to `onState`, which the
 * operation's heartbeat shows ("still creating… (30s elapsed; workflow RUNNING)").
 */
import type { SvcClient } from "./client";
import { DeadlineError, WorkflowError } from "../errors";
import { workflowOf, type Workflow } from "./envelope";
import { detail } from "../runtime/progress";
import { setTimeout as sleep } from "node:timers/promises";

export interface PollOptions {
  /** Absolute time (ms since epoch) after which waiting fails. */
  deadline: number;
  /** "Disk \"data\"" — names the resource in messages. */
  label: string;
  /** "create", "resize" — names the operation in messages. */
  operation: string;
  /** The polling schedule (tests shorten it). */
  schedule?: PollSchedule;
  /** Told what is being waited on as it changes ("workflow RUNNING", "PROVISIONING"). */
  onState?: (status: string) => void;
  /** Whether the process's requests are paced (limiter.ts): polls then spare the budget (`waitUntil`). */
  paced?: () => boolean;
}

/**
 * How often to ask whether work has ended. The wait before each poll is a quarter of the time
 * already waited (at least 250 ms, at most 5 s), so the end of work lasting T is seen within
 * max(250 ms, T/4) (and 5 s at most), at a cost of 4 polls for 1 s of work, 11 for 4 s, 17 for
 * 16 s. A schedule growing by half each poll (200 ms, 300, 450...) costs fewer polls but sees the
 * end up to T/2 late; people wait on the end, and polls are cheap against the API's rate limit
 * (1000/s per token), so lateness is what the schedule bounds (bench/README.md, workflow polling).
 */
export interface PollSchedule {
  /** The shortest wait, and the first. */
  stepMs: number;
  /** Each wait as a share of the time waited so far. */
  fraction: number;
  /** The longest wait. */
  capMs: number;
  /** Up to this share is taken off each wait at random, so resources waiting together do not poll in step. */
  jitter: number;
}

export const POLL_SCHEDULE: PollSchedule = { stepMs: 250, fraction: 0.25, capMs: 5_000, jitter: 0.2 };

/**
 * The waits between polls, one per `next()`. Jitter only shortens a wait, so the bounds above
 * hold with it. Pure, so the schedule is tested without a clock.
 */
export function pollDelays(schedule: PollSchedule = POLL_SCHEDULE, random: () => number = Math.random) {
  let waited = 0;
  return {
    next(): number {
      const base = Math.min(schedule.capMs, Math.max(schedule.stepMs, schedule.fraction * waited));
      const wait = Math.round(base * (1 - schedule.jitter * random()));
      waited += wait;
      return wait;
    },
  };
}

/**
 * What the schedule costs for work that ends `durationMs` after waiting began (no jitter): how
 * many polls it takes to see the end, and how long after the end the seeing poll comes. The
 * provider benchmark prints it beside what it measures (bench/provider.bench.ts).
 */
export function pollSchedule(durationMs: number, schedule: PollSchedule = POLL_SCHEDULE): { polls: number; noticedAfterMs: number } {
  const delays = pollDelays(schedule, () => 0);
  let at = 0;
  let polls = 0;
  while (at < durationMs) {
    at += delays.next();
    polls++;
  }
  return { polls, noticedAfterMs: at - durationMs };
}

/**
 * How long the waits of one kind of work took, as seen by its polls: "Disk create workflow" -> the
 * last few times from the start of waiting to the poll that saw the end. Work of one kind takes
 * about as long each time (a Disk's workflow, a cluster's provisioning), which is what a paced
 * process bets on. A bet that held is remembered a tenth lower (the end may have come sooner), so
 * a bet learnt behind a queue comes down; the bet is the shortest remembered, so one long wait
 * (work the API queued) does not hold every later one back. Tried and measured worse: their
 * median (it kept a congested phase's long waits: four stacks on one token ended with a straggler
 * holding each Disk for seconds) and one value moved up and down by each bet (concurrent misses
 * raised it into 20 s gaps with nothing sent).
 */
const seenEnds = new Map<string, number[]>();
const REMEMBERED = 8;
/** How much a bet that held is lowered: each poll is at most late by what the bet overshoots. */
const EARLIER = 0.9;

/** The kind of a wait: the resource's kind, the operation, and what is waited on (a workflow, a state). */
const kindOf = (opts: PollOptions & { waitsFor: string }) => `${opts.label.split(" ")[0]} ${opts.operation} ${opts.waitsFor}`;

/** The first wait when requests are paced, or undefined when no work of this kind was seen. */
function expectedEnd(opts: PollOptions & { waitsFor: string }): number | undefined {
  const seen = seenEnds.get(kindOf(opts));
  return seen?.length ? Math.min(...seen) : undefined;
}

/** Remembers a wait that ended `elapsedMs` after it began, lowered when its bet held. */
function remember(opts: PollOptions & { waitsFor: string }, elapsedMs: number, betHeld: boolean): void {
  const key = kindOf(opts);
  seenEnds.set(key, [...(seenEnds.get(key) ?? []).slice(1 - REMEMBERED), (betHeld ? EARLIER : 1) * elapsedMs]);
}

/**
 * Polls `probe` until it returns a value other than undefined; backoff with a cap; deadline.
 *
 * With budget (unpaced), the first poll is at once and each wait is a quarter of the time waited
 * (POLL_SCHEDULE). When the process is paced (a rate limit is near, limiter.ts), polls give way:
 * the first poll waits for the end this kind of work usually has (`expectedEnd`; at once while
 * none is known, as unpaced), the poll after a missed bet comes after the shortest wait, and each
 * later wait is at least a quarter of the time since waiting began, which includes the time polls
 * spent queued behind changes. So an end is seen within a quarter of the time
 * waited plus what the queue adds (bench/README.md).
 */
export async function waitUntil<T>(
  probe: () => Promise<T | undefined>,
  opts: PollOptions & { describe: () => string; waitsFor: string },
): Promise<T> {
  const delays = pollDelays(opts.schedule);
  const began = Date.now();
  const expected = opts.paced?.() ? expectedEnd(opts) : undefined;
  if (expected) await sleep(Math.max(0, Math.min(expected, opts.deadline - Date.now())));
  for (let polls = 1; ; polls++) {
    const result = await probe();
    if (result !== undefined) {
      remember(opts, Date.now() - began, !!expected && polls === 1);
      return result;
    }
    const schedule = opts.schedule ?? POLL_SCHEDULE;
    // Past a bet that missed, the end is near: the next poll comes after the shortest wait.
    const stretched = opts.paced?.() && !(expected && polls === 1) ? schedule.fraction * (Date.now() - began) : 0;
    const delay = Math.max(delays.next(), Math.min(stretched, schedule.capMs));
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
    { ...opts, waitsFor: "workflow", describe: () => `workflow ${last.id} still ${last.state}` },
  );
  if (FAILED_STATES.has(done.state)) {
    throw new WorkflowError(
      done.id,
      done.state,
      `${opts.label}: ${opts.operation} failed: workflow ${done.name ? `${done.name} ` : ""}${done.id} ended ${done.state}`,
    );
  }
  return done;
}

/**
 * Polls `read` until `settled` says the resource is done moving. `settled` returns true (done),
 * false (keep waiting) or a string (the resource ended in a failure state; the message).
 */
export async function waitForState<R>(
  read: () => Promise<R>,
  settled: (r: R) => boolean | string,
  opts: PollOptions & { stateOf: (r: R) => string },
): Promise<R> {
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
    { ...opts, waitsFor: "state", describe: () => `still ${lastState || "unknown"}` },
  );
  return result;
}
