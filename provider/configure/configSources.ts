/**
 * Where a provider reads its settings, on both faces. Apart from provider/runtime/config.ts, which
 * programs load, because the engine's unknown marker comes from the lifecycle's modules and a
 * program loads none of them (tests/unit/classes.test.ts). Beside providerRuntime.ts: both are what
 * each face's `configure` sets up, above the lifecycle whose marker this reads.
 */
import type { ConfigSources } from "../runtime/config";
import { UNKNOWN } from "../lifecycle/unknowns";

const known = (v: unknown) => (v === undefined || v === null || v === UNKNOWN || v === "" ? undefined : String(v));

/**
 * Where a provider reads `svc:<name>`: an explicit provider's own properties (`<name>`), else the
 * configuration bag (`svc:<name>`, or the older `svc:config:<name>` spelling of Configure's
 * variables), else the environment. Both faces configure through it: the plugin from Configure,
 * the dynamic face from the host's config bag (provider/dynamic/install.ts).
 */
export function configSources(args: Record<string, unknown> | undefined, variables: Record<string, unknown>): ConfigSources {
  return {
    get(key) {
      const name = key.replace(/^svc:/, "");
      return known(args?.[name]) ?? known(variables[`svc:config:${name}`]) ?? known(variables[key]);
    },
    env: process.env,
  };
}
