/**
 * The provider process's configuration and client: set by `configure` (the engine sends the
 * stack configuration), resolved lazily for the operations that need the API.
 *
 * Above the client it builds and beside the faces that configure it: provider/runtime/ holds only
 * what the client itself reads (the settings, the engine's presence, progress), so the two no
 * longer import each other.
 *
 * `preflight` is what `check` reports about them, so `pulumi preview` fails on a configuration
 * that `pulumi up` would fail on: missing or malformed settings always, and, once per process,
 * whether the API answers at the base URL and accepts the token (one cheap GET). Each distinct
 * problem is reported in full once per process.
 */
import { SvcClient } from "../client/client";
import {
  configProblems,
  reportOnce,
  resolveConfig,
  type ConfigFailure,
  type ConfigProblem,
  type ConfigSources,
  type ProviderConfig,
} from "../runtime/config";
import { ApiError, NetworkError } from "../errors";
import type { ProviderRuntime } from "../lifecycle";

const SETTINGS = [
  ["svc:baseUrl", "SVC_BASE_URL"],
  ["svc:token", "SVC_TOKEN"],
  ["svc:workspaceId", "SVC_WORKSPACE_ID"],
  ["svc:maxRequestsPerSecond", "SVC_MAX_REQUESTS_PER_SECOND"],
] as const;

/** The runtime of one provider: its configuration sources, and what was resolved and probed from them. */
export interface ConfiguredRuntime extends ProviderRuntime {
  /**
   * Sets where configuration comes from. The dynamic face calls it from every resource's
   * `configure` (the engine configures each resource's provider before using it) with the same
   * stack configuration, so what was resolved and probed is kept unless the settings change; the
   * plugin face calls it from the provider's `Configure`.
   */
  setSources(next: ConfigSources): void;
}

/** A runtime with no configuration yet: one per provider (the dynamic face shares one per process). */
export function createRuntime(): ConfiguredRuntime {
  let sources: ConfigSources = { get: () => undefined, env: process.env };
  let sourcesKey = "";
  let cached: { config: ProviderConfig; client: SvcClient } | undefined;
  let probe: Promise<ConfigProblem[]> | undefined;
  /** Problems already reported in full by this runtime. */
  const reported = new Set<string>();

  const resolved = () => {
    if (!cached) {
      const config = resolveConfig(sources);
      // Retries are reported by each operation's view of the client (context.ts), under its resource.
      cached = { config, client: new SvcClient(config) };
    }
    return cached;
  };

  return {
    setSources(next) {
      const key = JSON.stringify(SETTINGS.map(([k, env]) => [next.get(k) ?? null, next.env[env] ?? null]));
      sources = next;
      if (key === sourcesKey) return;
      sourcesKey = key;
      cached = undefined;
      probe = undefined;
    },
    config: () => resolved().config,
    client: () => resolved().client,
    defaultWorkspace: () => {
      const v = sources.get("svc:workspaceId") ?? sources.env.SVC_WORKSPACE_ID;
      return v ? v : null;
    },
    async preflight(probeTheApi: boolean): Promise<ConfigFailure[]> {
      const problems = configProblems(sources);
      if (!problems.length && probeTheApi) problems.push(...(await (probe ??= probeApi(resolved().config))));
      return reportOnce(problems, reported);
    },
  };
}

/** The request the probe sends: the plan catalogue, which any valid token may read (spec part 2, Plans). */
const PROBE_PATH = "/v1/plans";

const answered = (err: ApiError) => `GET ${PROBE_PATH} answered ${err.status}${err.reason ? `: ${err.reason}` : ""}`;

/**
 * One cheap authenticated GET: a problem when nothing answers at the base URL or the API rejects
 * the token. Anything else (a 5xx, a timeout) is left to the operations, which retry.
 */
export async function probeApi(
  config: ProviderConfig,
  client: SvcClient = new SvcClient(config, { timeoutMs: 10_000 }),
): Promise<ConfigProblem[]> {
  try {
    await client.withDeadline(Date.now() + 15_000).request("GET", PROBE_PATH, { query: { limit: 1 } });
    return [];
  } catch (err) {
    if (err instanceof NetworkError && err.notSent) {
      return [
        {
          setting: "svc:baseUrl",
          message: `the API at ${config.baseUrl} cannot be reached (${err.code}): check svc:baseUrl (or SVC_BASE_URL) and that the API is reachable from here`,
        },
      ];
    }
    if (err instanceof ApiError && err.status === 401) {
      return [
        {
          setting: "svc:token",
          message: `the API at ${config.baseUrl} rejects the token (${answered(err)}): set a valid API token with pulumi config set --secret svc:token <token> (or SVC_TOKEN)`,
        },
      ];
    }
    if (err instanceof ApiError && err.status === 403) {
      return [
        {
          setting: "svc:token",
          message: `the API at ${config.baseUrl} refuses the token (${answered(err)}): check its grants, or set another with pulumi config set --secret svc:token <token> (or SVC_TOKEN)`,
        },
      ];
    }
    return [];
  }
}

/** The dynamic face's runtime: one per provider process, configured by every resource's `configure`. */
export const processRuntime = createRuntime();

/** Sets the dynamic face's configuration sources (see `ConfiguredRuntime.setSources`). */
export const setConfigSources = (next: ConfigSources): void => processRuntime.setSources(next);
