/**
 * The provider's configuration in the plugin face. The engine configures each provider resource
 * on its own: the default provider from the stack's `svc:*` config, an explicit provider from its
 * properties (`baseUrl`, `token`, `workspaceId`), so one program can reach two workspaces or two
 * tokens. The environment fallbacks (SVC_*) and the checks are the dynamic face's own
 * (provider/config.ts).
 */
import { configProblems, type ConfigSources } from "../provider/config";
import { UNKNOWN } from "../provider/lifecycle";

/** Provider properties recorded secret. */
export const PROVIDER_SECRETS = ["token"] as const;

const known = (v: unknown) => (v === undefined || v === null || v === UNKNOWN || v === "" ? undefined : String(v));

/**
 * Where the runtime reads `svc:<name>`: Configure's typed arguments, else its variables (the engine
 * sends both; variables use the older `svc:config:<name>` spelling), else the environment.
 */
export function configSources(args: Record<string, unknown> | undefined, variables: Record<string, string>): ConfigSources {
  return {
    get(key) {
      const name = key.replace(/^svc:/, "");
      return known(args?.[name]) ?? known(variables[`svc:config:${name}`]) ?? known(variables[key]);
    },
    env: process.env,
  };
}

/**
 * CheckConfig's failures: the same problems the dynamic face reports at check, on the provider's
 * own property. A value not known until `up` (a token from another resource) is checked then.
 */
export function checkProviderConfig(news: Record<string, unknown>): Array<{ property: string; reason: string }> {
  const pending = Object.keys(news).filter((k) => news[k] === UNKNOWN);
  return configProblems(configSources(news, {}))
    .map((p) => ({ property: p.setting.replace(/^svc:/, ""), reason: p.message }))
    .filter((f) => !pending.includes(f.property));
}
