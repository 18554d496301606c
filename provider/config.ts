/**
 * Provider configuration: stack config first (`svc:baseUrl`, `svc:token` as a secret,
 * `svc:workspaceId`), environment second (`SVC_BASE_URL`, `SVC_TOKEN`, `SVC_WORKSPACE_ID`).
 *
 * Dynamic providers receive the whole stack configuration through `configure` (the engine
 * passes every key with its namespace), so the token never travels through resource inputs and
 * never reaches a resource's state. Problems are reported at the first operation that needs the
 * API, with what to set.
 */
import { isIP } from "node:net";
import { ConfigError } from "./errors";

export interface ProviderConfig {
  baseUrl: string;
  token: string;
  /** Default workspace for workspace-scoped resources; a resource's own workspaceId wins. */
  workspaceId: string | null;
}

/** Where config values come from: the engine's config bag (may be empty) and the environment. */
export interface ConfigSources {
  get(key: string): string | undefined;
  env: NodeJS.ProcessEnv;
}

/**
 * Whether a URL's host is this machine: the literal loopback addresses (127.0.0.0/8, ::1) or the
 * name localhost. Decided by the literal address, never by a prefix of a name:
 * `127.0.0.1.nip.io` and `127.evil.example` are names that resolve wherever their owner likes.
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[(.*)\]$/, "$1").replace(/\.$/, "");
  if (host === "localhost") return true;
  if (isIP(host) === 4) return host.split(".")[0] === "127";
  // WHATWG URL parsing already writes IPv6 in its shortest form, so loopback is exactly ::1.
  return isIP(host) === 6 && host === "::1";
}

function pick(sources: ConfigSources, key: string, envKey: string): string | undefined {
  const v = sources.get(key) ?? sources.env[envKey];
  return v === undefined || v === "" ? undefined : v;
}

/** Validates a base URL: absolute http(s); plain http only to loopback (tokens must not cross a network in clear). */
export function validateBaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`svc:baseUrl "${raw}" is not a valid URL; expected something like https://api.example.com`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new ConfigError(`svc:baseUrl "${raw}" must use https (or http to a loopback address)`);
  }
  if (url.protocol === "http:" && !isLoopbackHost(url.hostname)) {
    throw new ConfigError(`svc:baseUrl "${raw}" uses plain http to a non-loopback host; use https so the token is not sent in clear`);
  }
  // Paths in the spec begin with /v1 and are appended to the host of {base_url} (part 1).
  return `${url.protocol}//${url.host}`;
}

export function resolveConfig(sources: ConfigSources): ProviderConfig {
  const rawUrl = pick(sources, "svc:baseUrl", "SVC_BASE_URL");
  if (!rawUrl) throw new ConfigError("no API address: set svc:baseUrl (pulumi config set svc:baseUrl https://...) or SVC_BASE_URL");
  const baseUrl = validateBaseUrl(rawUrl);
  const token = pick(sources, "svc:token", "SVC_TOKEN");
  if (!token) throw new ConfigError("no API token: set svc:token (pulumi config set --secret svc:token <token>) or SVC_TOKEN");
  const workspaceId = pick(sources, "svc:workspaceId", "SVC_WORKSPACE_ID") ?? null;
  if (workspaceId !== null && !/^\d+$/.test(workspaceId)) {
    throw new ConfigError(`svc:workspaceId "${workspaceId}" is not a workspace identifier (digits only)`);
  }
  return { baseUrl, token, workspaceId };
}
