/**
 * The stages of the client's request pipeline, one concern each; `SvcClient` (client.ts) composes
 * them in the order they run (the one place that order is written). As hcloud-go chains its
 * handlers, each wrapping the next, and Octokit keeps throttling and retry as separate plugins:
 * a stage gets the request and the stages it wraps, and answers what the attempt came to (its `Outcome`).
 */
import type { IncomingHttpHeaders } from "node:http";
import { ApiError, NetworkError, type FieldError } from "../errors";
import { parseJson } from "./json";
import { ensureEngineAlive } from "../runtime/engine";
import { priorityOf, type Limiter } from "./limiter";
import { decide, parseRetryAfter, RETRYABLE_STATUSES, type RetryRules } from "./retry";
import { setTimeout as sleep } from "node:timers/promises";

export type Query = Record<string, string | number | boolean | bigint | Array<string | number | bigint> | undefined | null>;

export interface RequestOptions {
  query?: Query;
  body?: unknown;
  /** A POST that may safely be repeated (read-only or naturally idempotent). */
  repeatable?: boolean;
  /** Per-request timeout (ms). */
  timeoutMs?: number;
}

/** One request on its way through the pipeline. */
export interface ApiRequest {
  method: string;
  path: string;
  opts: RequestOptions;
  /** Absolute time (ms since epoch) past which nothing is waited for. */
  deadline: number;
  /** Time this attempt waited for its slot in the pace (ms); set by `pace`. */
  waitedMs?: number;
}

/** An HTTP answer of any status, its body as text (transport.ts). */
export interface HttpAnswer {
  status: number;
  /** Names in lower case, as Node gives them. */
  headers: IncomingHttpHeaders;
  data: string;
}

/** What one attempt came to, filled in on its way back out: `transport` sets the answer or the code, `mapErrors` reads them. */
export interface Outcome {
  /** The HTTP answer, of any status. */
  response?: HttpAnswer;
  /** The connection error's code, when no answer came. */
  code?: string;
  status?: number;
  retryAfterMs?: number;
  /** Set unless the answer is a success. */
  failure?: ApiError | NetworkError;
}

/** Sends a request through the stages below it. */
export type Handler = (req: ApiRequest) => Promise<Outcome>;
/** One concern: handles the request, handing it on to the stages it wraps. */
export type Stage = (next: Handler) => Handler;

/** The stages in the order a request runs through them, outermost first, ending with the handler that sends it. */
export function pipeline(...parts: [...Stage[], Handler]): Handler {
  const stages = parts.slice(0, -1) as Stage[];
  return stages.reduceRight<Handler>((next, stage) => stage(next), parts[parts.length - 1] as Handler);
}

// ---- retry -------------------------------------------------------------------------------

interface AmbiguousMarked {
  ambiguous?: boolean;
}

/**
 * One request, as many attempts as `decide()` (retry.ts) allows before the deadline; each retry is
 * reported to `onRetry` where it is decided. A 429 paused the whole pace until its Retry-After:
 * the next admit waits for that, with every other request, so no sleep of its own here. The
 * failure that ends the request is thrown, marked when the server may or may not have applied it.
 */
export const retry =
  (rules: RetryRules, onRetry: ((e: RetryEvent) => void) | undefined): Stage =>
  (next) =>
  async (req) => {
    const { method, path } = req;
    for (let attempt = 1; ; attempt++) {
      const outcome = await next(req);
      const { status, retryAfterMs, failure } = outcome;
      if (!failure) return outcome;
      const network = failure instanceof NetworkError ? failure : undefined;
      const remainingMs = req.deadline - Date.now();
      const { repeatable } = req.opts;
      const decision = decide(
        { method, attempt, status, network: network && { notSent: network.notSent }, retryAfterMs, repeatable, remainingMs },
        rules,
      );
      if (!decision.retry) {
        if (decision.ambiguous) (failure as AmbiguousMarked).ambiguous = true;
        throw failure;
      }
      onRetry?.({ method, path, attempt, delayMs: decision.delayMs, cause: network ? network.code : String(status) });
      if (status !== 429) await sleep(decision.delayMs);
    }
  };

/** A failure that says nothing about the request itself (rate limit, server fault, lost connection): worth trying again. */
export function isTransient(err: unknown): boolean {
  return err instanceof NetworkError || (err instanceof ApiError && RETRYABLE_STATUSES.has(err.status));
}

/** True when a failed write may or may not have been applied by the server. */
export function isAmbiguous(err: unknown): boolean {
  return !!(err as AmbiguousMarked | null)?.ambiguous;
}

// ---- rate limit --------------------------------------------------------------------------

/**
 * The process's shared pace (limiter.ts): the attempt waits for its slot (changes before reads;
 * refused once the deadline passes first), and the pace learns how it was answered. An attempt
 * the engine check refused was never sent and is not counted as answered.
 */
export const pace =
  (limiter: Limiter): Stage =>
  (next) =>
  async (req) => {
    const ticket = await limiter.admit(priorityOf(req.method), req.deadline);
    const outcome = await next({ ...req, waitedMs: ticket.waitedMs });
    limiter.answered(ticket, outcome.status, outcome.retryAfterMs);
    return outcome;
  };

// ---- engine ------------------------------------------------------------------------------

/** Nothing starts once the engine that asked for it is gone (provider/runtime/engine.ts), however long it waited for its slot. */
export const engineAlive: Stage = (next) => (req) => {
  ensureEngineAlive();
  return next(req);
};

// ---- reporting ---------------------------------------------------------------------------

/** Tells `onWait` how long the attempt waited for its slot in the pace, when it waited. */
export const reportWait =
  (onWait: ((waitedMs: number) => void) | undefined): Stage =>
  (next) =>
  (req) => {
    if ((req.waitedMs ?? 0) > 0) onWait?.(req.waitedMs!);
    return next(req);
  };

export interface RetryEvent {
  method: string;
  path: string;
  attempt: number;
  delayMs: number;
  cause: string;
}

/** The line a retry prints: what failed, how, and when it is tried again. */
export function retryMessage(e: RetryEvent): string {
  return `${e.method} ${e.path} answered ${e.cause}; retrying in ${(e.delayMs / 1000).toFixed(1)}s (attempt ${e.attempt + 1})`;
}

// ---- error mapping -----------------------------------------------------------------------

/** Connection errors that prove the request never reached the server. */
const NOT_SENT_CODES = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH"]);

/**
 * A request that never reached the server (refused, no such host): the message names the address,
 * which is what a person has to check, and the settings it comes from.
 */
export class UnreachableError extends NetworkError {
  constructor(
    method: string,
    path: string,
    code: string,
    readonly baseUrl: string,
  ) {
    super(method, path, code, true);
    this.message = `${method} ${path} failed: nothing answers at ${baseUrl} (${code}); check svc:baseUrl / SVC_BASE_URL and that the API is reachable from here`;
  }
}

function fieldErrorsOf(body: unknown): FieldError[] {
  const errors = (body as { errors?: unknown } | null)?.errors;
  if (!Array.isArray(errors)) return [];
  return errors
    .filter((e): e is { field: unknown; message: unknown } => !!e && typeof e === "object")
    .map((e) => ({ field: String(e.field ?? ""), message: String(e.message ?? "") }));
}

/** A non-2xx answer as a person reads it: method, path, status, the X-Message reason and the field errors. */
function apiError(method: string, path: string, response: HttpAnswer): ApiError {
  let body: unknown;
  try {
    body = response.data ? parseJson(response.data) : undefined;
  } catch {
    body = undefined;
  }
  const reason = (response.headers["x-message"] as string | undefined) ?? (body as { message?: string } | undefined)?.message ?? null;
  return new ApiError(method, path, response.status, reason, fieldErrorsOf(body));
}

/** Reads the answer: status and Retry-After of any HTTP answer; a non-2xx answer or a lost connection as its error. */
export const mapErrors =
  (baseUrl: string): Stage =>
  (next) =>
  async (req) => {
    const outcome = await next(req);
    const { method, path } = req;
    const { response, code = "ERROR" } = outcome;
    if (!response) {
      const notSent = NOT_SENT_CODES.has(code);
      return {
        ...outcome,
        failure: notSent ? new UnreachableError(method, path, code, baseUrl) : new NetworkError(method, path, code, false),
      };
    }
    const retryAfterMs = parseRetryAfter(response.headers["retry-after"] as string | undefined);
    return { ...outcome, retryAfterMs, failure: response.status < 300 ? undefined : apiError(method, path, response) };
  };

// ---- parse -------------------------------------------------------------------------------

/** The body of a successful answer: JSON read losslessly, other text as it is, nothing as undefined. */
export function parse<T>({ response }: Outcome): T {
  const text = response?.data;
  if (!text) return undefined as T;
  const type = String(response!.headers["content-type"] ?? "");
  return (type.includes("json") ? parseJson(text) : text) as T;
}
