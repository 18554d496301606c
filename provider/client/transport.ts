/**
 * The client's transport: one HTTP exchange on Node's own `http`/`https`, the last handler of the
 * request pipeline (stages.ts). Node's modules are loaded by Node itself at start, so the first
 * request loads nothing; axios, which this replaced, loaded about 67 modules at the first request
 * (~47 ms) and spent most of the ~1.5 ms of CPU each request cost the provider host, which
 * made a refresh of 100 resources a third slower than the shaped no-op (bench/README.md, issue 17).
 *
 * What it keeps from axios, as users met it:
 * - the proxy variables `HTTPS_PROXY`, `HTTP_PROXY`, `ALL_PROXY` and `NO_PROXY` (read by
 *   proxy-from-env, the library axios reads them with), through a CONNECT tunnel for an https API
 *   and the absolute form for an http one (https-proxy-agent, http-proxy-agent, loaded only when a
 *   proxy applies: the proxy protocols are theirs to get right, not ours to write again);
 * - a deadline on the whole exchange (`timeoutMs`), a failed connection reported by its code;
 * - keep-alive connections, and no redirect followed (a 3xx is an answer like any other).
 *
 * Answers are not compressed: no `Accept-Encoding` is sent, so the API answers plain JSON (its
 * answers are small pages; decompressing would cost the CPU this module saves).
 */
import * as http from "node:http";
import * as https from "node:https";
import { stringifyJson } from "./json";
import type { Handler, HttpAnswer, Query } from "./stages";

/** Where and as whom one configuration's requests go. */
export interface Connection {
  /** The base URL without its trailing slash; a request's path is appended to it. */
  readonly base: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  readonly agent: http.Agent;
  readonly send: typeof http.request;
}

/**
 * The connection of one configuration: bearer authentication, JSON accepted, every status
 * answered (the stages above decide what it means).
 */
export function connectionFor(baseUrl: string, token: string, timeoutMs: number): Connection {
  const secure = new URL(baseUrl).protocol === "https:";
  return {
    base: baseUrl.replace(/\/+$/, ""),
    headers: { Authorization: `Bearer ${token}`, Accept: "application/json", "User-Agent": "pulumi-svc" },
    timeoutMs,
    agent: agentFor(baseUrl, secure),
    send: secure ? https.request : http.request,
  };
}

/* eslint-disable @typescript-eslint/no-require-imports -- loaded only when a proxy applies */
/** Keep-alive sockets straight to the API, or through the proxy the environment names for it. */
function agentFor(baseUrl: string, secure: boolean): http.Agent {
  const proxy = (require("proxy-from-env") as { getProxyForUrl(url: string): string }).getProxyForUrl(baseUrl);
  if (!proxy) return new (secure ? https.Agent : http.Agent)({ keepAlive: true });
  if (secure) return new (require("https-proxy-agent") as typeof import("https-proxy-agent")).HttpsProxyAgent(proxy, { keepAlive: true });
  return new (require("http-proxy-agent") as typeof import("http-proxy-agent")).HttpProxyAgent(proxy, { keepAlive: true });
}
/* eslint-enable @typescript-eslint/no-require-imports */

/** The query string as the API reads it: a list is its key repeated, null and undefined left out. */
function serializeQuery(query: Query): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const v of value) params.append(key, String(v));
    else params.append(key, String(value));
  }
  return params.toString();
}

/** The code a failed exchange is reported by (ECONNREFUSED, ECONNRESET, ETIMEDOUT...). */
const codeOf = (err: unknown) => (err as { code?: string } | null)?.code ?? "ERROR";

/**
 * Sends the request once; a failed connection is an outcome too (its code), never a throw. The
 * body is lossless JSON (identifiers above 2^53 stay exact: `bigint` ids go out as bare integers).
 */
export const transport =
  (conn: Connection): Handler =>
  ({ method, path, opts }) =>
    new Promise((resolve) => {
      const query = opts.query ? serializeQuery(opts.query) : "";
      const body = opts.body === undefined ? undefined : stringifyJson(opts.body);
      const headers =
        body === undefined
          ? conn.headers
          : { ...conn.headers, "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) };
      const url = `${conn.base}${path}${query ? `?${query}` : ""}`;
      const fail = (err: unknown) => {
        clearTimeout(timer);
        resolve({ code: codeOf(err) });
      };
      const req = conn.send(url, { method, headers, agent: conn.agent }, (res) => {
        let data = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (data += chunk));
        res.on("end", () => {
          clearTimeout(timer);
          const response: HttpAnswer = { status: res.statusCode ?? 0, headers: res.headers, data };
          resolve({ response, status: response.status });
        });
        // The connection closed before the answer's end: lost after sending.
        res.on("close", () => res.complete || fail({ code: "ECONNRESET" }));
      });
      const timer = setTimeout(
        () => req.destroy(Object.assign(new Error("timed out"), { code: "ETIMEDOUT" })),
        opts.timeoutMs ?? conn.timeoutMs,
      );
      req.on("error", fail);
      req.end(body);
    });
