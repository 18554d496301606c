/**
 * For tests (`pulumi-svc-emulator/testing`): an in-process emulator on a free loopback port, and
 * small HTTP clients that talk to it over real HTTP with lossless JSON (identifiers above 2^53
 * stay exact). The emulator's own tests use it, and so do pulumi-svc's.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- a response body defaults to any: tests read it field by field */
import { startEmulator, type EmulatorOptions, type RunningEmulator } from ".";
import { parseJson, stringifyJson } from "./core/json";
import { setTimeout as sleep } from "node:timers/promises";

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  /** X-Message header (the API's reason for an error). */
  message: string | null;
  body: T;
  text: string;
}

export interface RequestOptions {
  query?: Record<string, string | number | boolean | Array<string | number> | undefined>;
  headers?: Record<string, string>;
  /** Send this exact text as the body (to test raw JSON such as big integers). */
  rawBody?: string;
}

export class TestApi {
  constructor(
    readonly baseUrl: string,
    readonly token: string | null,
  ) {}

  as(token: string | null): TestApi {
    return new TestApi(this.baseUrl, token);
  }

  async request<T = any>(method: string, path: string, body?: unknown, opts: RequestOptions = {}): Promise<ApiResponse<T>> {
    const url = new URL(path, this.baseUrl);
    for (const [k, v] of Object.entries(opts.query ?? {})) {
      if (v === undefined) continue;
      if (Array.isArray(v)) for (const item of v) url.searchParams.append(k, String(item));
      else url.searchParams.set(k, String(v));
    }
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    let payload: string | undefined;
    if (opts.rawBody !== undefined) payload = opts.rawBody;
    else if (body !== undefined) payload = stringifyJson(body);
    if (payload !== undefined) headers["content-type"] = "application/json";
    const res = await fetch(url, { method, headers, body: payload });
    const text = await res.text();
    const isJson = (res.headers.get("content-type") ?? "").includes("application/json");
    return {
      status: res.status,
      headers: res.headers,
      message: res.headers.get("x-message"),
      body: (isJson && text ? parseJson(text) : text) as T,
      text,
    };
  }

  get<T = any>(path: string, query?: RequestOptions["query"]) {
    return this.request<T>("GET", path, undefined, { query });
  }
  post<T = any>(path: string, body?: unknown, opts?: RequestOptions) {
    return this.request<T>("POST", path, body, opts);
  }
  put<T = any>(path: string, body?: unknown, opts?: RequestOptions) {
    return this.request<T>("PUT", path, body, opts);
  }
  patch<T = any>(path: string, body?: unknown, opts?: RequestOptions) {
    return this.request<T>("PATCH", path, body, opts);
  }
  delete<T = any>(path: string, opts?: RequestOptions) {
    return this.request<T>("DELETE", path, undefined, opts);
  }
}

export interface TestEmulator {
  emu: RunningEmulator;
  /** The bootstrap user's API token (USER subject, full grants). */
  api: TestApi;
  /** The staff/operator token. */
  staff: TestApi;
  /** No Authorization header. */
  anon: TestApi;
  workspaceId: string;
  /** Emulator test controls (/_emulator/...). */
  control: TestApi;
  /** Polls a workflow until it leaves QUEUED/RUNNING; returns its final state. */
  waitWorkflow(id: string, timeoutMs?: number): Promise<string>;
  /** Polls a GET until `done(body)` holds. */
  waitFor<T = any>(path: string, done: (body: T) => boolean, timeoutMs?: number): Promise<T>;
  stop(): Promise<void>;
}

export async function startTestEmulator(options: EmulatorOptions = {}): Promise<TestEmulator> {
  const emu = await startEmulator({ port: 0, workflowMs: 30, seed: 1234, ...options });
  const api = new TestApi(emu.url, emu.token);
  const waitFor = async <T>(path: string, done: (body: T) => boolean, timeoutMs = 5000): Promise<T> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const res = await api.get<T>(path);
      if (res.status === 200 && done(res.body)) return res.body;
      if (Date.now() > deadline)
        throw new Error(`waitFor ${path}: condition not met in ${timeoutMs} ms (last status ${res.status}: ${res.text.slice(0, 300)})`);
      await sleep(10);
    }
  };
  return {
    emu,
    api,
    staff: api.as(emu.staffToken),
    anon: api.as(null),
    control: api.as(null),
    workspaceId: emu.workspaceId,
    waitWorkflow: async (id, timeoutMs = 5000) => {
      const wf = await waitFor<{ state: string }>(`/v1/workflows/${id}`, (b) => b.state !== "QUEUED" && b.state !== "RUNNING", timeoutMs);
      return wf.state;
    },
    waitFor,
    stop: () => emu.stop(),
  };
}

/**
 * One emulator for a test file: started before its tests, stopped after them, and (unless told
 * otherwise) reset to the seed before each test. `use` receives it. For a runner with jest's
 * `beforeAll`, `afterAll` and `beforeEach` globals; `startTestEmulator` serves any other.
 */
export function useTestEmulator(use: (t: TestEmulator) => void, options: EmulatorOptions = {}, { resetEachTest = true } = {}): void {
  let t: TestEmulator | undefined;
  beforeAll(async () => {
    t = await startTestEmulator(options);
    use(t);
  });
  afterAll(async () => {
    await t?.stop();
  });
  if (resetEachTest) {
    beforeEach(async () => {
      await t!.control.post("/_emulator/reset");
    });
  }
}
