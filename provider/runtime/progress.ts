/**
 * What a person sees during `pulumi up`, as Terraform does it: nothing extra for work that finishes
 * quickly, a heartbeat for work that does not, and always the events that change what happened.
 *
 * - `notice`: always shown. Retries, adoptions, recoveries (a lost answer, a pending create, a
 *   natural key already taken), refusals waited out, drift found by a refresh, and whatever a
 *   resource file reports through `ctx.notice`.
 * - `detail`: the step-by-step trace (ids, workflow states, update steps, deletions): shown only
 *   with PULUMI_SVC_VERBOSE=1, which restores the full detail.
 * - heartbeat: an operation still running after 10 s says so ("still creating… (30s elapsed;
 *   workflow RUNNING)") every 10 s up to 30 s, then every 30 s, until it ends.
 *
 * Every line goes to the provider's stderr, which the engine shows under the stack; lines name the
 * resource and the operation and never contain inputs, which may be secret. Deciding what to show
 * is pure (`shown`, `nextBeatAt`); the sink only writes.
 */
export type ProgressKind = "notice" | "detail" | "heartbeat";

/** Receives every line with its kind; the default one writes what `shown` lets through to stderr. */
export type ProgressSink = (line: string, kind: ProgressKind) => void;

const VERBOSE_VARIABLE = "PULUMI_SVC_VERBOSE";

/** Whether the environment asks for the full detail (PULUMI_SVC_VERBOSE=1, true or yes). */
export function verboseFrom(env: NodeJS.ProcessEnv): boolean {
  return /^(1|true|yes|on)$/i.test((env[VERBOSE_VARIABLE] ?? "").trim());
}

/** Whether a line of this kind is shown: details only when verbose, everything else always. */
export function shown(kind: ProgressKind, verbose: boolean): boolean {
  return kind !== "detail" || verbose;
}

const toStderr: ProgressSink = (line, kind) => {
  if (shown(kind, verboseFrom(process.env))) process.stderr.write(`${line}\n`);
};

let sink: ProgressSink = toStderr;

/** Replaces where lines go (tests collect them); the replacement gets every line with its kind. */
export function setProgressSink(next: ProgressSink): void {
  sink = next;
}

/** Always shown: something a person should know happened (a retry, an adoption, a recovery, drift). */
export function notice(label: string, message: string): void {
  sink(`svc: ${label}: ${message}`, "notice");
}

/** Shown with PULUMI_SVC_VERBOSE=1 only: a routine step. */
export function detail(label: string, message: string): void {
  sink(`svc: ${label}: ${message}`, "detail");
}

/** The first heartbeat comes at 10 s: work that settles sooner prints nothing extra. */
const FIRST_BEAT_MS = 10_000;
/** Every 10 s until 30 s, then every 30 s. */
const SLOW_AFTER_MS = 30_000;
const SLOW_EVERY_MS = 30_000;

/** The elapsed time (ms) of the next heartbeat after `elapsedMs`: 10 s, 20 s, 30 s, 60 s, 90 s, ... */
export function nextBeatAt(elapsedMs: number): number {
  if (elapsedMs < SLOW_AFTER_MS) return (Math.floor(elapsedMs / FIRST_BEAT_MS) + 1) * FIRST_BEAT_MS;
  return (Math.floor(elapsedMs / SLOW_EVERY_MS) + 1) * SLOW_EVERY_MS;
}

/** "45s", "2m30s", "1h5m0s": how Terraform writes elapsed time. */
export function formatElapsed(ms: number): string {
  const total = Math.floor(ms / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  if (h) return `${h}h${m}m${s}s`;
  return m ? `${m}m${s}s` : `${s}s`;
}

const VERBS: Record<string, string> = { create: "creating", update: "updating", delete: "deleting", read: "reading" };

/** "still creating… (30s elapsed; workflow RUNNING)" */
export function heartbeatMessage(operation: string, elapsedMs: number, status?: string): string {
  const verb = VERBS[operation] ?? `${operation}ing`;
  return `still ${verb}… (${formatElapsed(elapsedMs)} elapsed${status ? `; ${status}` : ""})`;
}

export interface Heartbeat {
  /** What the operation is waiting on now ("workflow RUNNING", "PROVISIONING"); shown in the next beat. */
  status(text: string | undefined): void;
  stop(): void;
}

export interface HeartbeatClock {
  now(): number;
  /** Schedules `fn` after `ms`; returns a cancel function. The timer must not keep the process alive. */
  after(ms: number, fn: () => void): () => void;
}

const realClock: HeartbeatClock = {
  now: () => Date.now(),
  after(ms, fn) {
    const timer = setTimeout(fn, ms);
    timer.unref();
    return () => clearTimeout(timer);
  },
};

/** Starts the heartbeat of one operation: a line at each `nextBeatAt` until `stop`. */
export function startHeartbeat(label: string, operation: string, clock: HeartbeatClock = realClock): Heartbeat {
  const began = clock.now();
  let status: string | undefined;
  let cancel: (() => void) | undefined;
  let stopped = false;
  // Beats are named by their nominal time ("30s elapsed"), as Terraform does, whatever the timer's jitter.
  let due = nextBeatAt(0);
  const schedule = () => {
    cancel = clock.after(Math.max(0, due - (clock.now() - began)), beat);
  };
  function beat() {
    if (stopped) return;
    sink(`svc: ${label}: ${heartbeatMessage(operation, due, status)}`, "heartbeat");
    due = nextBeatAt(Math.max(due, clock.now() - began));
    schedule();
  }
  schedule();
  return {
    status(text) {
      status = text;
    },
    stop() {
      stopped = true;
      cancel?.();
    },
  };
}

/** A resource says once that it waits on the rate limit, when its waits add up to this (shorter ones are not worth a line). */
export const RATE_WAIT_NOTICE_MS = 2_000;

/** The heartbeat's note on rate-limit waiting: "waiting on the API's rate limit, 14s so far"; nothing below a second. */
export function rateWaitStatus(waitedMs: number): string | undefined {
  return waitedMs < 1000 ? undefined : `waiting on the API's rate limit, ${formatElapsed(waitedMs)} so far`;
}

/** The numbers one summary line reports (limiter.ts `stats`), per pace of the process. */
export interface RequestTotals {
  sent: number;
  rateLimited: number;
  waitingMs: number;
}

/**
 * The line a process prints once its work is done, when anything waited on the rate limit:
 * "412 sent, 9 answered 429 (2.2%), 31s waiting on the API's rate limit". Undefined otherwise.
 */
export function rateLimitSummary(totals: RequestTotals[]): string | undefined {
  const sum = totals.reduce(
    (a, t) => ({ sent: a.sent + t.sent, rateLimited: a.rateLimited + t.rateLimited, waitingMs: a.waitingMs + t.waitingMs }),
    {
      sent: 0,
      rateLimited: 0,
      waitingMs: 0,
    },
  );
  if (sum.rateLimited === 0 && sum.waitingMs < 1000) return undefined;
  const share = sum.sent ? ` (${((100 * sum.rateLimited) / sum.sent).toFixed(1)}%)` : "";
  return `${sum.sent} sent, ${sum.rateLimited} answered 429${share}, ${formatElapsed(sum.waitingMs)} waiting on the API's rate limit`;
}
