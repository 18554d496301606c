/**
 * The shim: the dynamic provider object Pulumi serializes and stores as `__provider` in the state
 * of every resource.
 *
 * Pulumi serializes the object and everything it captures. The shim captures only the resource
 * kind, a string, and has a single method: the dynamic-provider host calls `configure` right
 * after deserializing it (before any other method), and `configure` installs the kind's
 * lifecycle on it, loaded by package name at call time. The result is a few hundred bytes per
 * resource whatever the size of the lifecycle.
 */
import type * as pulumi from "@pulumi/pulumi";
import { PROVIDER_ENTRY } from "./packageName";

// The require below resolves in the provider process; `entry` (the package's own name plus
// "/provider", see packageName.ts) and `kind` are captured as strings. No comment may sit inside
// the method: its source text is what Pulumi stores in every resource's state.
/* eslint-disable @typescript-eslint/no-require-imports */

export function makeShim(kind: string, entry: string = PROVIDER_ENTRY): pulumi.dynamic.ResourceProvider {
  const shim = {
    configure(req: pulumi.dynamic.ConfigureRequest) {
      return require(entry).install(this, kind, req);
    },
  };
  return shim as unknown as pulumi.dynamic.ResourceProvider;
}
