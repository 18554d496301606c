/**
 * The HTTP client: one connection per configuration and one request pipeline, composed in the
 * constructor from the stages of stages.ts (one concern each), in the order a request runs
 * through them. Every non-2xx answer becomes an `ApiError` that names method, path, status and
 * the X-Message reason; retries follow the rules of retry.ts.
 */
import { limiterFor, type Limiter } from "./limiter";
import { DEFAULT_RETRY_RULES, type RetryRules } from "./retry";
import type { ProviderConfig } from "../runtime/config";
import {
  engineAlive,
  mapErrors,
  pace,
  parse,
  pipeline,
  reportWait,
  retry,
  type Handler,
  type Query,
  type RequestOptions,
  type RetryEvent,
} from "./stages";
import { connectionFor, transport, type Connection } from "./transport";

export { isAmbiguous, isTransient, retryMessage, UnreachableError, type Query, type RequestOptions, type RetryEvent } from "./stages";

export interface ClientOptions {
  retry?: RetryRules;
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
 * How long a request of a client with no operation deadline (a lookup, the rules pack) may go on
 * being refused with 429 before it fails: an operation's default timeout (provider/fields/timeouts.ts) is of the
 * same order.
 */
const REQUEST_PATIENCE_MS = 10 * 60_000;

export class SvcClient {
  private readonly connection: Connection;
  private readonly limiter: Limiter;
  /** One request through the pipeline: the successful answer, or the error that ended it. */
  private readonly send: Handler;

  constructor(
    readonly config: ProviderConfig,
    private readonly options: ClientOptions = {},
    shared?: Connection,
  ) {
    this.connection = shared ?? connectionFor(config.baseUrl, config.token, options.timeoutMs ?? 60_000);
    this.limiter = options.limiter ?? limiterFor(config.baseUrl, config.token, config.maxRequestsPerSecond ?? null);
    // The request pipeline: its stages in the order every request runs through them, each wrapping the ones below it.
    this.send = pipeline(
      retry(options.retry ?? DEFAULT_RETRY_RULES, options.onRetry), // as many attempts as decide() allows before the deadline; reports each retry
      pace(this.limiter), // waits for its slot in the process's shared pace (admit); tells the pace the answer (answered)
      engineAlive, // nothing starts once the engine is gone
      reportWait(options.onWait), // reports how long the attempt waited for its slot
      mapErrors(config.baseUrl), // reads the answer: a non-2xx or a lost connection becomes the error a person reads
      transport(this.connection), // one HTTP exchange (transport.ts)
    );
  }

  /**
   * The same client, retrying only while the wait ends before `deadline` (one operation's view);
   * `onRetry`, when given, reports that operation's retries in its own words.
   */
  withDeadline(deadline: number, onRetry?: (e: RetryEvent) => void, onWait?: (waitedMs: number) => void): SvcClient {
    const options = { ...this.options, limiter: this.limiter, deadline, ...(onRetry ? { onRetry } : {}), ...(onWait ? { onWait } : {}) };
    return new SvcClient(this.config, options, this.connection);
  }

  /** Whether this client's requests are paced (limiter.ts): a rate limit is near, so polls should spare the budget. */
  paced(): boolean {
    return this.limiter.paced();
  }

  async request<T = unknown>(method: string, path: string, opts: RequestOptions = {}): Promise<T> {
    const deadline = this.options.deadline ?? Date.now() + REQUEST_PATIENCE_MS;
    return parse<T>(await this.send({ method, path, opts, deadline }));
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
}
