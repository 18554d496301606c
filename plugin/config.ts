/**
 * The provider's configuration in the plugin face. The engine configures each provider resource
 * on its own: the default provider from the stack's `svc:*` config, an explicit provider from its
 * properties (`baseUrl`, `token`, `workspaceId`), so one program can reach two workspaces or two
 * tokens. The environment fallbacks (SVC_*) and the checks are the dynamic face's own
 * (provider/runtime/config.ts).
 */
import { configProblems } from "../provider/runtime/config";
import { configSources } from "../provider/configure/configSources";
import { UNKNOWN } from "../provider/lifecycle";

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
