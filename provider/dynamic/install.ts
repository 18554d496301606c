/**
 * Called by the shim's `configure` in the provider process: takes the configuration the engine
 * sent, builds the lifecycle for a definition and installs its methods on the shim, as the
 * dynamic-provider host calls them (adapter.ts).
 */
import type * as pulumi from "@pulumi/pulumi";
import type { ConfigSources } from "../runtime/config";
import { configSources } from "../configure/configSources";
import { engineAddressIn, watchEngine } from "../runtime/engine";
import { buildLifecycle } from "../lifecycle";
import { processRuntime, setConfigSources } from "../configure/providerRuntime";
import type { AnyDefinition } from "../definition";
import { forDynamicHost } from "./adapter";

export function installLifecycle(shim: object, definition: AnyDefinition, req: pulumi.dynamic.ConfigureRequest): void {
  // This runs in the dynamic-provider host, whose first argument is the engine's address.
  watchEngine(engineAddressIn(process.argv.slice(2)));
  setConfigSources(dynamicSources(req.config));
  Object.assign(shim, forDynamicHost(buildLifecycle(definition, processRuntime)));
}

/**
 * Where a dynamic provider process reads its settings. The host configures it with the inputs of
 * its provider resource: the default provider's are the whole stack configuration (`svc:baseUrl`,
 * read through `get`), an explicit `svc.Provider`'s are its own settings (`baseUrl`, as the
 * plugin's provider properties are named, so a preview shows the same names on both faces). The
 * host's `get` prefixes a key without a namespace with the project's name, so those are read
 * from its bag (`rawConfig`, the same in every SDK from 3.163 to 3.276; tests/unit/provider/
 * install.test.ts pins it against the installed one).
 */
export function dynamicSources(config: pulumi.dynamic.Config): ConfigSources {
  const raw = (config as unknown as { rawConfig?: unknown }).rawConfig;
  const bag = raw && typeof raw === "object" ? (raw as Record<string, unknown>) : {};
  const own = configSources(bag, {});
  return {
    get: (key) => own.get(key) ?? (config.get(key) as string | undefined),
    env: process.env,
    // Stack config keys always have a namespace; an explicit provider's settings never do.
    explicit: Object.keys(bag).some((key) => !key.includes(":")),
  };
}
