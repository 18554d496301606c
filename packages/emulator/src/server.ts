/**
 * The emulator's HTTP server: a fastify app that mounts every route table of the API under /v1
 * and the test controls under /_emulator, every /v1 request going through one pipeline of named
 * stages (`PIPELINE`, in running order).
 */
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from "fastify";
import type { Readable } from "node:stream";
import { Clock } from "./core/clock";
import { ApiError } from "./core/errors";
import { fieldErrorBody } from "./core/choices";
import { Faults, type RequestFaults } from "./core/faults";
import { parseJson, stringifyJson } from "./core/json";
import { RateLimiter, DEFAULT_RATE_LIMITS, type RateLimitSettings } from "./core/ratelimit";
import { RequestLog } from "./core/requestLog";
import { routeContext, type Reply, type RouteDef } from "./core/router";
import type { EmulatorSettings, Services } from "./core/services";
import { Store, type IdMode } from "./core/store";
import { runEffect } from "./core/workflowEffects";
import { Workflows } from "./core/workflows";
import { authenticate, type Principal } from "./core/auth";
import { seedStore, type Bootstrap } from "./seed";
import { allRoutes } from "./routes";
import { registerControlRoutes } from "./control";

export interface EmulatorOptions {
  /** TCP port on 127.0.0.1; 0 picks a free one. */
  port?: number;
  /** How long workflows take, QUEUED to COMPLETED (default 500 ms). */
  workflowMs?: number;
  /** Keep the state in this file (written atomically after every change), read back at start. */
  stateFile?: string;
  /** Seed for identifiers and random values; random when absent. */
  seed?: number;
  /** "large" (default): identifiers above 2^53; "small": 1, 2, 3... */
  idMode?: IdMode;
  rateLimits?: Partial<RateLimitSettings>;
  /** Credentials the simulated live registry accepts (host -> username -> password). */
  registryAccounts?: Record<string, Record<string, string>>;
}

export interface RunningEmulator extends Bootstrap {
  url: string;
  stop(): Promise<void>;
  /** In-process access for tests and benchmarks. */
  services: Services;
}

export const DEFAULT_WORKFLOW_MS = 500;

export const DEFAULT_REGISTRY_ACCOUNTS: Record<string, Record<string, string>> = {
  "registry.example.com": { deploy: "s3cret-token" },
  "ghcr.io": { "octo-bot": "ghp_emulatorToken" },
  "docker.io": { "demo-user": "docker-hub-pass" },
};

const LIFECYCLE_PATHS = new Set(["/v1/login", "/v1/register", "/v1/reset-password", "/v1/verify-email", "/v1/lock-account"]);

/** X-Message must be a single header line of visible Latin-1. */
function headerSafe(text: string): string {
  return text
    .replace(/[\r\n]+/g, " ")
    .replace(/[^\x20-\x7e\xa0-\xff]/g, "?")
    .slice(0, 1000);
}

function sendError(reply: FastifyReply, err: ApiError): void {
  reply.code(err.status).header("X-Message", headerSafe(err.message));
  for (const [k, v] of Object.entries(err.headers)) reply.header(k, v);
  // 401 and 403: the reason is in X-Message and the body is empty (spec part 1, Authentication).
  if (err.status === 401 || err.status === 403) {
    reply.send();
    return;
  }
  const body = err.status === 400 ? fieldErrorBody(err.message, err.fieldErrors) : { message: err.message };
  reply.type("application/json").send(stringifyJson(body));
}

function sendReply(request: FastifyRequest, reply: FastifyReply, result: Reply): void {
  reply.code(result.status);
  for (const [k, v] of Object.entries(result.headers ?? {})) reply.header(k, v);
  if (result.stream) {
    result.stream(request, reply);
    return;
  }
  if (result.text !== undefined) {
    reply.type("text/plain; charset=utf-8").send(result.text);
    return;
  }
  if (result.body === undefined) {
    reply.send();
    return;
  }
  reply.type("application/json").send(stringifyJson(result.body));
}

/** The seeded state, kept (and saved with the state) so that POST /_emulator/reset can return to it. */
interface SeedSnapshotRow {
  id: string;
  seed: true;
  snapshot: ReturnType<Store["snapshot"]>;
}

declare module "./core/store" {
  interface Tables {
    seedSnapshot: SeedSnapshotRow;
  }
}

export function buildServices(options: EmulatorOptions): { services: Services; bootstrap: Bootstrap; reset: () => void } {
  const seed = options.seed ?? Math.floor(Math.random() * 2 ** 31);
  const store = new Store(seed, options.idMode ?? "large");
  const clock = new Clock();
  const settings: EmulatorSettings = {
    workflowMs: options.workflowMs ?? DEFAULT_WORKFLOW_MS,
    registryAccounts: options.registryAccounts ?? DEFAULT_REGISTRY_ACCOUNTS,
    stateFile: options.stateFile ?? null,
    baseUrl: "http://127.0.0.1",
  };
  const workflows = new Workflows(store, clock, () => settings.workflowMs);
  const services: Services = {
    store,
    clock,
    workflows,
    faults: new Faults(store.rng),
    rateLimiter: new RateLimiter({ ...DEFAULT_RATE_LIMITS, ...(options.rateLimits ?? {}) }),
    requestLog: new RequestLog(),
    settings,
  };
  workflows.bind((effectName, workflow) => runEffect(services, effectName, workflow));

  let bootstrap: Bootstrap;
  const saved = options.stateFile ? Store.readStateFile(options.stateFile) : undefined;
  if (saved) {
    clock.offset = store.restore(saved);
    const record = store.t.bootstrap.get("bootstrap");
    if (!record) throw new Error(`emulator state file ${options.stateFile} has no bootstrap record; move it away or fix it`);
    bootstrap = {
      token: record.token,
      staffToken: record.staffToken,
      workspaceId: record.workspaceId,
      userId: record.userId,
      email: record.email,
      password: record.password,
    };
  } else {
    bootstrap = seedStore(services);
    // A deep copy: snapshot() shares the live row objects, which later updates mutate in place.
    store.t.seedSnapshot.insert({ id: "seed", seed: true, snapshot: structuredClone(store.snapshot(0)) });
  }
  const startupSettings = structuredClone({ workflowMs: settings.workflowMs, registryAccounts: settings.registryAccounts });
  const startupRateLimits = structuredClone(services.rateLimiter.settings);
  const reset = () => {
    const saved = store.t.seedSnapshot.get("seed");
    if (!saved) throw new Error("internal: no seed snapshot to reset to");
    store.restore(structuredClone(saved.snapshot));
    store.t.seedSnapshot.insert(saved);
    clock.offset = 0;
    settings.workflowMs = startupSettings.workflowMs;
    settings.registryAccounts = structuredClone(startupSettings.registryAccounts);
    services.rateLimiter.settings = structuredClone(startupRateLimits);
    services.faults.clear();
    services.rateLimiter.reset();
    services.requestLog.clear();
    if (settings.stateFile) store.saveTo(settings.stateFile, 0);
  };
  return { services, bootstrap, reset };
}

export function buildApp(services: Services, reset: () => void, routes: RouteDef[] = allRoutes): FastifyInstance {
  const app = Fastify({ logger: false, bodyLimit: 64 * 1024 * 1024, forceCloseConnections: true, trustProxy: false });

  app.removeAllContentTypeParsers();
  app.addContentTypeParser("application/json", { parseAs: "string" }, (_req, text, done) => {
    if (!text || !(text as string).trim()) return done(null, undefined);
    try {
      done(null, parseJson(text as string));
    } catch (err) {
      const e = new ApiError(400, `Request body is not valid JSON: ${(err as Error).message}`);
      done(e as unknown as Error, undefined);
    }
  });
  // Uploads and anything else: handed to the route as a stream.
  app.addContentTypeParser("*", (_req, payload, done) => done(null, payload));

  mountPipeline(app, services, routes);

  registerControlRoutes(app, services, reset);

  app.setNotFoundHandler((request, reply) => {
    sendError(reply, new ApiError(404, `No route ${request.method} ${request.url.split("?")[0]}`));
  });
  app.setErrorHandler((err, _request, reply) => {
    if (err instanceof ApiError) return sendError(reply, err);
    const status = (err as { statusCode?: number }).statusCode ?? 500;
    sendError(reply, new ApiError(status >= 400 && status < 600 ? status : 500, (err as Error).message));
  });
  return app;
}

// ---- the request pipeline ----------------------------------------------------------------

/** One /v1 request on its way through the pipeline. */
interface Exchange {
  request: FastifyRequest;
  reply: FastifyReply;
  started: number;
  /** The injected faults that hit this request (`injectFaults`). */
  faults: RequestFaults;
  /** The route fastify found (set once the body is read). */
  route?: RouteDef;
  /** The caller (`authenticateCaller`); null for a route that asks for no token. */
  principal: Principal | null;
  /** The route's answer (`handleAtomically`). */
  result?: Reply;
  /** The error that answers the request, once a stage threw it. */
  failure?: ApiError;
}

/** One concern of the pipeline: throws the error that answers the request, returns true once it answered it itself, or lets it go on. */
type Stage = (services: Services, x: Exchange) => boolean | void | Promise<boolean | void>;

const exchanges = new WeakMap<FastifyRequest, Exchange>();

/** The request's exchange, begun when it arrived. */
function exchangeOf(request: FastifyRequest, reply: FastifyReply): Exchange {
  let x = exchanges.get(request);
  if (!x) exchanges.set(request, (x = { request, reply, started: performance.now(), faults: {}, principal: null }));
  return x;
}

/** Work in flight moves on the workflow clock first: the request sees it as it is by now. */
const advanceWorkflows: Stage = (services) => {
  services.workflows.advance();
};

/** The spec's rate limits: per token (per address on the account lifecycle paths), 429 with Retry-After. */
const rateLimit: Stage = (services, { request }) => {
  const lifecycle = LIFECYCLE_PATHS.has(request.url.split("?")[0]);
  const key = lifecycle ? request.ip : (request.headers.authorization ?? request.ip);
  const wait = services.rateLimiter.take(key, lifecycle ? "lifecycle" : "general", services.clock.now());
  if (wait > 0) throw new ApiError(429, "Rate limit exceeded; retry later", [], { "Retry-After": String(wait) });
};

/** The fault rules (/_emulator/faults) that hit this request: a delay, then an injected status; the rest is used later. */
const injectFaults: Stage = async (services, x) => {
  x.faults = services.faults.forRequest(x.request.method, x.request.url.split("?")[0]);
  if (x.faults.delayMs) await new Promise((resolve) => setTimeout(resolve, x.faults.delayMs));
  if (!x.faults.status) return;
  const { status, retryAfterSeconds } = x.faults.status;
  throw new ApiError(
    status,
    `Injected fault: ${status}`,
    [],
    retryAfterSeconds !== undefined ? { "Retry-After": String(retryAfterSeconds) } : {},
  );
};

/** The caller's token, where the route asks for one (spec part 1, Authentication). */
const authenticateCaller: Stage = (services, x) => {
  const auth = x.route!.auth ?? "token";
  if (auth === "token" || (auth === "optional" && x.request.headers.authorization))
    x.principal = authenticate(services, x.request.headers.authorization, x.request.ip);
};

/** The route's handler, atomic: one that throws leaves the store as it was. */
const handleAtomically: Stage = async (services, x) => {
  const ctx = routeContext(services, x.request, x.principal, x.faults);
  x.result = await services.store.atomically(() => x.route!.handler(ctx));
};

/** An injected connection drop: the write is committed, the client never hears about it. */
const dropAfterWrite: Stage = (services, x) => {
  if (x.failure || !x.faults.dropAfterWrite) return;
  logRequest(services, x, 0);
  exchanges.delete(x.request);
  x.request.raw.socket.destroy();
  x.reply.hijack();
  return true;
};

/** Sends the route's answer, or the error a stage threw. */
const answer: Stage = (_services, x) => {
  if (x.failure) sendError(x.reply, x.failure);
  else sendReply(x.request, x.reply, x.result!);
  return true;
};

/** The request log (/_emulator/requests), once the answer has gone. */
const logAnswer: Stage = (services, x) => logRequest(services, x, x.reply.statusCode);

/**
 * The pipeline of every /v1 request, in running order. A stage that throws ends its part: a
 * refusal on `arrival` is answered at once; fastify then reads the body and finds the route;
 * `afterRoute` runs after the `route` part whatever it did, and answers.
 */
const PIPELINE = {
  arrival: [advanceWorkflows, rateLimit, injectFaults],
  route: [authenticateCaller, handleAtomically],
  afterRoute: [saveState, dropAfterWrite, answer],
  afterAnswer: [logAnswer],
} satisfies Record<string, Stage[]>;

/**
 * Runs the pipeline's parts where fastify lets them: on arrival (before the body is read, for
 * unknown paths too), in each route once the body is read, and when the answer has gone.
 */
function mountPipeline(app: FastifyInstance, services: Services, routes: RouteDef[]): void {
  app.addHook("onRequest", async (request, reply) => {
    if (request.url.startsWith("/_emulator")) return;
    const x = exchangeOf(request, reply);
    await runStages(PIPELINE.arrival, services, x);
    if (!x.failure) return;
    answer(services, x);
    return reply;
  });
  app.addHook("onResponse", async (request) => {
    const x = exchanges.get(request);
    if (x) await runStages(PIPELINE.afterAnswer, services, x);
  });
  for (const route of routes) {
    app.route({
      method: route.method,
      url: route.path,
      handler: async (request, reply) => {
        const x = exchangeOf(request, reply);
        x.route = route;
        await runStages(PIPELINE.route, services, x);
        await runStages(PIPELINE.afterRoute, services, x);
        return reply;
      },
    });
  }
}

/** Runs stages in order until one answers the request or throws; the error is kept as the answer (an unexpected one as a 500). */
async function runStages(stages: Stage[], services: Services, x: Exchange): Promise<void> {
  try {
    for (const stage of stages) if (await stage(services, x)) return;
  } catch (err) {
    x.failure = asApiError(err, x.request);
  }
}

function asApiError(err: unknown, request: FastifyRequest): ApiError {
  if (err instanceof ApiError) return err;
  console.error("emulator: internal error on", request.method, request.url, err);
  return new ApiError(500, `Internal emulator error: ${(err as Error).message}`);
}

/**
 * With --state, writes the store to the file when it changed since the last write: after every
 * request that reached a route, whatever it did, and at start.
 */
function saveState(services: Services): void {
  const file = services.settings.stateFile;
  if (file && services.store.dirty) services.store.saveTo(file, services.clock.offset);
}

function logRequest(services: Services, x: Exchange, status: number): void {
  const { request } = x;
  const body = request.body as unknown;
  services.requestLog.record({
    time: new Date().toISOString(),
    method: request.method,
    path: request.url.split("?")[0],
    query: (request.query ?? {}) as Record<string, unknown>,
    status,
    body: body && typeof (body as Readable).pipe === "function" ? "[stream]" : body,
    durationMs: Math.round((performance.now() - x.started) * 1000) / 1000,
  });
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const { services, bootstrap, reset } = buildServices(options);
  if (options.stateFile) {
    services.store.dirty = true;
    saveState(services);
  }
  const app = buildApp(services, reset);
  await app.listen({ host: "127.0.0.1", port: options.port ?? 0 });
  const address = app.server.address();
  if (!address || typeof address === "string") throw new Error("emulator: could not determine the listening address");
  const url = `http://127.0.0.1:${address.port}`;
  services.settings.baseUrl = url;
  return {
    ...bootstrap,
    url,
    services,
    stop: async () => {
      await app.close();
    },
  };
}
