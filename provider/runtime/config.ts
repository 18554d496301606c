/**
 * Provider configuration: stack config first (`svc:baseUrl`, `svc:token` as a secret,
 * `svc:workspaceId`, `svc:maxRequestsPerSecond`), environment second (`SVC_BASE_URL`, `SVC_TOKEN`,
 * `SVC_WORKSPACE_ID`, `SVC_MAX_REQUESTS_PER_SECOND`).
 *
 * Dynamic providers receive the whole stack configuration through `configure` (the engine
 * passes every key with its namespace), so the token never travels through resource inputs and
 * never reaches a resource's state. Problems are reported by every resource's `check` (so
 * `pulumi preview` fails with them), each distinct problem in full once per provider process
 * (`reportOnce`), with what to set.
 */
import { isIP } from "node:net";
import { ConfigError } from "../errors";

export interface ProviderConfig {
  /** Base URL of the API (https; plain http only to a loopback address). */
  baseUrl: string;
  /** API token (keep it a secret). */
  token: string;
  /** Default workspace for workspace-scoped resources; a resource's own workspaceId wins. */
  workspaceId: string | null;
  /** Most requests per second this provider sends (positive; fractions allowed); unset, it learns its share of the limit from 429s. */
  maxRequestsPerSecond?: number;
}

/** Settings recorded secret: the plugin's provider properties and the inputs of the dynamic face's `svc.Provider`. */
export const PROVIDER_SECRETS = ["token"] as const;

/** Where config values come from: the engine's config bag (may be empty) and the environment. */
export interface ConfigSources {
  get(key: string): string | undefined;
  env: NodeJS.ProcessEnv;
  /** The settings are an explicit provider's own (`svc.Provider` on the dynamic face): problems name its properties, not stack config. */
  explicit?: boolean;
}

/**
 * Whether a URL's host is this machine: the literal loopback addresses (127.0.0.0/8, ::1) or the
 * name localhost. Decided by the literal address, never by a prefix of a name:
 * `127.0.0.1.nip.io` and `127.evil.example` are names that resolve wherever their owner likes.
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname
    .toLowerCase()
    .replace(/^\[(.*)\]$/, "$1")
    .replace(/\.$/, "");
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
function validateBaseUrl(raw: string): string {
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

/**
 * The setting a configuration problem is about, as a person sets it.
 * @public scripts/schema.ts reads it by name (the provider settings of schema.json), which knip cannot see.
 */
export type Setting = "svc:baseUrl" | "svc:token" | "svc:workspaceId" | "svc:maxRequestsPerSecond";

export interface ConfigProblem {
  setting: Setting;
  /** What is wrong and what to set: the whole message a person reads. */
  message: string;
}

/** How a person sets each required setting: in stack config (the default provider), or on the explicit provider. */
const HOW_TO_SET = {
  stack: {
    "svc:baseUrl": "svc:baseUrl (pulumi config set svc:baseUrl https://...)",
    "svc:token": "svc:token (pulumi config set --secret svc:token <token>)",
  },
  provider: { "svc:baseUrl": "the svc.Provider's baseUrl", "svc:token": "the svc.Provider's token" },
} as const;

/** Every problem of the configuration (none when it is usable), in the order a person fixes them. */
export function configProblems(sources: ConfigSources): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  const rawUrl = pick(sources, "svc:baseUrl", "SVC_BASE_URL");
  const howToSet = HOW_TO_SET[sources.explicit ? "provider" : "stack"];
  if (!rawUrl) problems.push({ setting: "svc:baseUrl", message: `no API address: set ${howToSet["svc:baseUrl"]} or SVC_BASE_URL` });
  else {
    try {
      validateBaseUrl(rawUrl);
    } catch (err) {
      problems.push({ setting: "svc:baseUrl", message: (err as Error).message });
    }
  }
  if (!pick(sources, "svc:token", "SVC_TOKEN"))
    problems.push({ setting: "svc:token", message: `no API token: set ${howToSet["svc:token"]} or SVC_TOKEN` });
  const workspaceId = pick(sources, "svc:workspaceId", "SVC_WORKSPACE_ID");
  if (workspaceId !== undefined && !/^\d+$/.test(workspaceId)) {
    problems.push({ setting: "svc:workspaceId", message: `svc:workspaceId "${workspaceId}" is not a workspace identifier (digits only)` });
  }
  const cap = pick(sources, "svc:maxRequestsPerSecond", "SVC_MAX_REQUESTS_PER_SECOND");
  if (cap !== undefined && !(Number(cap) > 0 && Number.isFinite(Number(cap)))) {
    problems.push({
      setting: "svc:maxRequestsPerSecond",
      message: `svc:maxRequestsPerSecond "${cap}" is not a positive number of requests per second (e.g. 5, or 0.5 for one request every 2 s)`,
    });
  }
  return problems;
}

export function resolveConfig(sources: ConfigSources): ProviderConfig {
  const [first] = configProblems(sources);
  if (first) throw new ConfigError(first.message);
  const cap = pick(sources, "svc:maxRequestsPerSecond", "SVC_MAX_REQUESTS_PER_SECOND");
  return {
    baseUrl: validateBaseUrl(pick(sources, "svc:baseUrl", "SVC_BASE_URL")!),
    token: pick(sources, "svc:token", "SVC_TOKEN")!,
    workspaceId: pick(sources, "svc:workspaceId", "SVC_WORKSPACE_ID") ?? null,
    ...(cap === undefined ? {} : { maxRequestsPerSecond: Number(cap) }),
  };
}

/** A check failure as the engine takes it (pulumi.dynamic.CheckFailure). */
export interface ConfigFailure {
  property: string;
  reason: string;
}

/**
 * The check failures for some problems, each distinct problem in full only the first time it is
 * reported in this process (`reported` remembers): every resource's check fails, so the preview
 * fails, but a person reads each message once. Later resources carry a short pointer to it.
 *
 * The property is left empty: the engine then prints `<type> resource '<name>' has a problem:
 * <reason>` rather than `property svc:token value {<nil>}`, as the setting is not an input.
 */
export function reportOnce(problems: ConfigProblem[], reported: Set<string>): ConfigFailure[] {
  return problems.map((p) => {
    const key = `${p.setting}\n${p.message}`;
    if (reported.has(key)) return { property: "", reason: `${p.setting}: the problem reported in full for the first resource checked` };
    reported.add(key);
    return { property: "", reason: p.message };
  });
}
