/**
 * Called by the shim's `configure` in the provider process: takes the stack configuration the
 * engine sent, builds the lifecycle for a definition and installs its methods on the shim.
 */
import type * as pulumi from "@pulumi/pulumi";
import { engineAddressIn, watchEngine } from "./engine";
import { buildLifecycle } from "./lifecycle";
import { processRuntime, setConfigSources } from "./runtime";
import type { AnyDefinition } from "./definition";

export function installLifecycle(shim: object, definition: AnyDefinition, req: pulumi.dynamic.ConfigureRequest): void {
  // This runs in the dynamic-provider host, whose first argument is the engine's address.
  watchEngine(engineAddressIn(process.argv.slice(2)));
  setConfigSources({ get: (key) => req.config.get(key) as string | undefined, env: process.env });
  Object.assign(shim, buildLifecycle(definition, processRuntime));
}
