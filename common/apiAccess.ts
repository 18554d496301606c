/**
 * Whether a tool (svc-recover, svc-import) can ask the API with a stack's settings, found before it
 * changes or writes anything: the settings' own problems, else what one request to the API says (an
 * unreachable address, a rejected token), as the provider's preflight says them at preview.
 */
import { configProblems, resolveConfig, type ConfigSources } from "../provider/runtime/config";
import { probeApi } from "../provider/configure/providerRuntime";

/**
 * What stops a tool from reaching the API with `sources`, in words for people; none when it can.
 * `probed` keeps one request per address, for a tool that asks on behalf of several providers.
 */
export async function apiProblems(sources: ConfigSources, probed = new Map<string, Promise<string[]>>()): Promise<string[]> {
  const problems = configProblems(sources).map((p) => p.message);
  if (problems.length) return problems;
  const config = resolveConfig(sources);
  if (!probed.has(config.baseUrl))
    probed.set(
      config.baseUrl,
      probeApi(config).then((found) => found.map((p) => p.message)),
    );
  return probed.get(config.baseUrl)!;
}
