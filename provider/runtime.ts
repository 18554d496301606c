/**
 * The provider process's configuration and client: set by `configure` (the engine sends the
 * stack configuration), resolved lazily so a bad setting is reported at the first operation that
 * needs the API, with what to set.
 */
import { SvcClient } from "./client";
import { resolveConfig, type ConfigSources, type ProviderConfig } from "./config";
import { progress } from "./progress";
import type { ProviderRuntime } from "./lifecycle";

let sources: ConfigSources = { get: () => undefined, env: process.env };
let cached: { config: ProviderConfig; client: SvcClient } | undefined;

export function setConfigSources(next: ConfigSources): void {
  sources = next;
  cached = undefined;
}

function resolved() {
  if (!cached) {
    const config = resolveConfig(sources);
    const client = new SvcClient(config, {
      onRetry: (e) => progress("api", `${e.method} ${e.path} answered ${e.cause}; retrying in ${(e.delayMs / 1000).toFixed(1)}s (attempt ${e.attempt + 1})`),
    });
    cached = { config, client };
  }
  return cached;
}

export const processRuntime: ProviderRuntime = {
  config: () => resolved().config,
  client: () => resolved().client,
  defaultWorkspace: () => {
    const v = sources.get("svc:workspaceId") ?? sources.env.SVC_WORKSPACE_ID;
    return v ? v : null;
  },
};
