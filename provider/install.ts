/**
 * Called by the shim's `configure` in the provider process: takes the stack configuration the
 * engine sent, builds the real provider for a spec and installs its methods on the shim.
 */
import type * as pulumi from "@pulumi/pulumi";
import { buildProvider } from "./lifecycle";
import { processRuntime, setConfigSources } from "./runtime";
import type { ResourceSpec } from "./spec";

export function installProvider(target: object, spec: ResourceSpec, req: pulumi.dynamic.ConfigureRequest): void {
  setConfigSources({ get: (key) => req.config.get(key) as string | undefined, env: process.env });
  Object.assign(target, buildProvider(spec, processRuntime));
}
