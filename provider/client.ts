/**
 * The HTTP client: one axios instance per configuration, bearer authentication, lossless JSON
 * (identifiers stay exact above 2^53: bodies carry `bigint` ids as bare integers), the retry
 * policy of `retry.ts`, and every non-2xx turned into an `ApiError` that names method, path,
 * status and the X-Message reason.
 */
import type { AxiosInstance, AxiosResponse, AxiosStatic } from "axios";
import { ApiError, NetworkError, type FieldError } from "./errors";
import { parseJson, stringifyJson } from "./json";
import { ensureEngineAlive } from "./engine";
import { limiterFor, priorityOf, type Limiter } from "./limiter";
import { decide, DEFAULT_RETRY_POLICY, parseRetryAfter, RETRYABLE_STATUSES, type RetryPolicy } from "./retry";
import type { ProviderConfig } from "./config";

export type Query = Record<string, string | number | boolean | bigint | Array<string | number | bigint> | undefined | null>;

export interface RequestOptions {
  query?: Query;
  body?: unknown;
  /** A POST that may safely be repeated (read-only or naturally idempotent). */
  repeatable?: boolean;
  /** Per-request timeout (ms). */
  timeoutMs?: number;
}

export interface RetryEvent {
  method: string;
  path: string;
  attempt: number;
  delayMs: number;
  cause: string;
}

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

/** The line a retry prints: what failed, how, and when it is tried again. */
export function retryMessage(e: RetryEvent): string {
  return `${e.method} ${e.path} answered ${e.cause}; retrying in ${(e.delayMs / 1000).toFixed(1)}s (attempt ${e.attempt + 1})`;
}

function serializeQuery(query: Query): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const v of value) params.append(key, String(v));
    else params.append(key, String(value));
  }
  return params.toString();
}

function fieldErrorsOf(body: unknown): FieldError[] {
  const errors = (body as { errors?: unknown } | null)?.errors;
  if (!Array.isArray(errors)) return [];
  return errors
    .filter((e): e is { field: unknown; message: unknown } => !!e && typeof e === "object")
    .map((e) => ({ field: String(e.field ?? ""), message: String(e.message ?? "") }));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface ClientOptions {
  retry?: RetryPolicy;
  onRetry?: (e: RetryEvent) => void;
  timeoutMs?: number;
  /** Absolute time (ms since epoch) past which no retry is waited for: the operation's deadline. */
  deadline?: number;
  /** Told how long each request waited for its slot in the process's pace (limiter.ts), when it waited. */
  onWait?: (waitedMs: number) => void;
  /** The pace requests wait on; by default the process's one for this API and token. */
  limiter?: Limiter;
}

/**
 * How long a request of a client with no operation deadline (a lookup, the policy pack) may go on
 * being refused with 429 before it fails: an operation's default timeout (timeouts.ts) is of the
 * same order.
 */
export const REQUEST_PATIENCE_MS = 10 * 60_000;

/**
 * axios and what it pulls in (about 60 modules, some 40 ms) load when the first client is made,
 * not with the package: a program that declares resources and calls no lookup never needs them
 * (bench/README.md, program side).
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const loadAxios = (): AxiosStatic => require("axios");

export class SvcClient {
  private readonly http: AxiosInstance;
  private readonly limiter: Limiter;

  constructor(
    readonly config: ProviderConfig,
    private readonly options: ClientOptions = {},
    shared?: AxiosInstance,
  ) {
    this.http =
      shared ??
      loadAxios().create({
        baseURL: config.baseUrl,
        timeout: options.timeoutMs ?? 60_000,
        headers: { Authorization: `Bearer ${config.token}`, Accept: "application/json", "User-Agent": "pulumi-svc" },
        responseType: "text",
        transformResponse: [(data) => data],
        transformRequest: [(data) => (data === undefined ? undefined : stringifyJson(data))],
        paramsSerializer: { serialize: serializeQuery },
        validateStatus: () => true,
        maxRedirects: 0,
      });
    this.limiter = options.limiter ?? limiterFor(config.baseUrl, config.token, config.maxRequestsPerSecond ?? null);
  }

  /**
   * The same client, retrying only while the wait ends before `deadline` (one operation's view);
   * `onRetry`, when given, reports that operation's retries in its own words.
   */
  withDeadline(deadline: number, onRetry?: (e: RetryEvent) => void, onWait?: (waitedMs: number) => void): SvcClient {
    const options = { ...this.options, limiter: this.limiter, deadline, ...(onRetry ? { onRetry } : {}), ...(onWait ? { onWait } : {}) };
    return new SvcClient(this.config, options, this.http);
  }

  /** Whether this client's requests are paced (limiter.ts): a rate limit is near, so polls should spare the budget. */
  paced(): boolean {
    return this.limiter.paced();
  }

  async request<T = unknown>(method: string, path: string, opts: RequestOptions = {}): Promise<T> {
    const policy = this.options.retry ?? DEFAULT_RETRY_POLICY;
    const deadline = this.options.deadline ?? Date.now() + REQUEST_PATIENCE_MS;
    for (let attempt = 1; ; attempt++) {
      let response: AxiosResponse<string> | undefined;
      let network: NetworkError | undefined;
      const ticket = await this.limiter.admit(priorityOf(method), deadline);
      // Nothing starts once the engine that asked for it is gone (provider/engine.ts), however long it waited for its slot.
      ensureEngineAlive();
      if (ticket.waitedMs > 0) this.options.onWait?.(ticket.waitedMs);
      try {
        response = await this.http.request<string>({
          method,
          url: path,
          params: opts.query,
          data: opts.body,
          headers: opts.body === undefined ? undefined : { "Content-Type": "application/json" },
          timeout: opts.timeoutMs,
        });
      } catch (err) {
        const code = (err as { code?: string }).code ?? "ERROR";
        network = NOT_SENT_CODES.has(code)
          ? new UnreachableError(method, path, code, this.config.baseUrl)
          : new NetworkError(method, path, code, false);
      }
      const status = response?.status;
      const retryAfterMs = parseRetryAfter(response?.headers["retry-after"] as string | undefined);
      this.limiter.answered(ticket, status, retryAfterMs);
      if (response && response.status < 300) return this.parse<T>(response);

      const remainingMs = deadline - Date.now();
      const decision = decide(
        {
          method,
          attempt,
          status,
          network: network && { notSent: network.notSent },
          retryAfterMs,
          repeatable: opts.repeatable,
          remainingMs,
        },
        policy,
      );
      const failure = network ?? this.apiError(method, path, response!);
      if (!decision.retry) {
        if (decision.ambiguous) (failure as AmbiguousMarked).ambiguous = true;
        throw failure;
      }
      this.options.onRetry?.({ method, path, attempt, delayMs: decision.delayMs, cause: network ? network.code : String(status) });
      // A 429 paused the whole pace until its Retry-After: the next admit waits for that, with every other request.
      if (status !== 429) await sleep(decision.delayMs);
    }
  }

  get<T = unknown>(path: string, query?: Query): Promise<T> {
    return this.request<T>("GET", path, { query });
  }
  post<T = unknown>(path: string, body?: unknown, opts: Omit<RequestOptions, "body"> = {}): Promise<T> {
    return this.request<T>("POST", path, { ...opts, body });
  }
  put<T = unknown>(path: string, body?: unknown): Promise<T> {
    return this.request<T>("PUT", path, { body });
  }
  patch<T = unknown>(path: string, body?: unknown): Promise<T> {
    return this.request<T>("PATCH", path, { body });
  }
  delete<T = unknown>(path: string): Promise<T> {
    return this.request<T>("DELETE", path);
  }

  private parse<T>(response: AxiosResponse<string>): T {
    const text = response.data;
    if (!text) return undefined as T;
    const type = String(response.headers["content-type"] ?? "");
    return (type.includes("json") ? parseJson(text) : text) as T;
  }

  private apiError(method: string, path: string, response: AxiosResponse<string>): ApiError {
    let body: unknown;
    try {
      body = response.data ? parseJson(response.data) : undefined;
    } catch {
      body = undefined;
    }
    const reason = (response.headers["x-message"] as string | undefined) ?? (body as { message?: string } | undefined)?.message ?? null;
    return new ApiError(method, path, response.status, reason, fieldErrorsOf(body));
  }
}

interface AmbiguousMarked {
  ambiguous?: boolean;
}

/** A failure that says nothing about the request itself (rate limit, server fault, lost connection): worth trying again. */
export function isTransient(err: unknown): boolean {
  return err instanceof NetworkError || (err instanceof ApiError && RETRYABLE_STATUSES.has(err.status));
}

/** True when a failed write may or may not have been applied by the server. */
export function isAmbiguous(err: unknown): boolean {
  return !!(err as AmbiguousMarked | null)?.ambiguous;
}
