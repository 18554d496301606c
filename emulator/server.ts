/**
 * The emulator's HTTP server: a fastify app that mounts every route table of the API under /v1
 * and the test controls under /_emulator, with one request pipeline:
 *
 *   advance workflows -> rate limit -> injected faults -> authenticate -> handler (atomic:
 *   a handler that throws leaves the store as it was) -> persist (--state) -> log
 *   -> (injected connection drop)
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
import { makeContext, type Reply, type RouteDef } from "./core/router";
import type { EmulatorSettings, Services } from "./core/services";
import { Store, type IdMode } from "./core/store";
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
  /** Persist state to this file (written atomically after every change). */
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

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

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

interface RequestState {
  started: number;
  faults: RequestFaults;
}

const stateOf = new WeakMap<FastifyRequest, RequestState>();

/** The seeded state, kept (and persisted) so that POST /_emulator/reset can return to it. */
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
  workflows.bind(services);

  let bootstrap: Bootstrap;
  const persisted = options.stateFile ? Store.readStateFile(options.stateFile) : undefined;
  if (persisted) {
    clock.offset = store.restore(persisted);
    const saved = store.t.bootstrap.get("bootstrap");
    if (!saved) throw new Error(`emulator state file ${options.stateFile} has no bootstrap record; move it away or fix it`);
    bootstrap = {
      token: saved.token,
      staffToken: saved.staffToken,
      workspaceId: saved.workspaceId,
      userId: saved.userId,
      email: saved.email,
      password: saved.password,
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

  app.addHook("onRequest", async (request, reply) => {
    const url = request.url.split("?")[0];
    if (url.startsWith("/_emulator")) return;
    const state: RequestState = { started: performance.now(), faults: {} };
    stateOf.set(request, state);
    services.workflows.advance();

    const now = services.clock.now();
    const lifecycle = LIFECYCLE_PATHS.has(url);
    const key = lifecycle ? request.ip : (request.headers.authorization ?? request.ip);
    const wait = services.rateLimiter.take(key, lifecycle ? "lifecycle" : "general", now);
    if (wait > 0) {
      sendError(reply, new ApiError(429, "Rate limit exceeded; retry later", [], { "Retry-After": String(wait) }));
      return reply;
    }

    state.faults = services.faults.decide(request.method, url);
    if (state.faults.delayMs) await sleep(state.faults.delayMs);
    if (state.faults.status) {
      const { status, retryAfterSeconds } = state.faults.status;
      const headers: Record<string, string> = retryAfterSeconds !== undefined ? { "Retry-After": String(retryAfterSeconds) } : {};
      sendError(reply, new ApiError(status, `Injected fault: ${status}`, [], headers));
      return reply;
    }
  });

  app.addHook("onResponse", async (request, reply) => {
    const state = stateOf.get(request);
    if (!state) return;
    logRequest(services, request, reply.statusCode, state);
  });

  for (const route of routes) {
    app.route({
      method: route.method,
      url: route.path,
      handler: async (request, reply) => {
        const state = stateOf.get(request) ?? { started: performance.now(), faults: {} };
        try {
          let principal: Principal | null = null;
          const auth = route.auth ?? "token";
          if (auth === "token" || (auth === "optional" && request.headers.authorization)) {
            principal = authenticate(services, request.headers.authorization, request.ip);
          }
          const ctx = makeContext(services, request, principal, state.faults);
          const result = await services.store.atomically(() => route.handler(ctx));
          persist(services);
          if (state.faults.dropAfterWrite) {
            // The write is committed; the client never hears about it.
            logRequest(services, request, 0, state);
            stateOf.delete(request);
            request.raw.socket.destroy();
            return reply.hijack();
          }
          sendReply(request, reply, result);
        } catch (err) {
          persist(services);
          if (err instanceof ApiError) sendError(reply, err);
          else {
            console.error("emulator: internal error on", request.method, request.url, err);
            sendError(reply, new ApiError(500, `Internal emulator error: ${(err as Error).message}`));
          }
        }
        return reply;
      },
    });
  }

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

function persist(services: Services): void {
  const file = services.settings.stateFile;
  if (file && services.store.dirty) services.store.saveTo(file, services.clock.offset);
}

function logRequest(services: Services, request: FastifyRequest, status: number, state: RequestState): void {
  const body = request.body as unknown;
  services.requestLog.record({
    time: new Date().toISOString(),
    method: request.method,
    path: request.url.split("?")[0],
    query: (request.query ?? {}) as Record<string, unknown>,
    status,
    body: body && typeof (body as Readable).pipe === "function" ? "[stream]" : body,
    durationMs: Math.round((performance.now() - state.started) * 1000) / 1000,
  });
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const { services, bootstrap, reset } = buildServices(options);
  if (options.stateFile) {
    services.store.dirty = true;
    persist(services);
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
