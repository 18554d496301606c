/**
 * The serialized provider: what Pulumi stores as `__provider` in the state of every resource.
 *
 * Pulumi serializes the provider object and everything it captures. This one captures only the
 * resource kind, a string, and has a single method: the dynamic-provider host calls `configure`
 * right after deserializing a provider (before any other method), and `configure` installs the
 * real implementation, loaded by package name at call time. The result is a few hundred bytes
 * per resource whatever the size of the provider.
 */
import type * as pulumi from "@pulumi/pulumi";

export function shimProvider(kind: string): pulumi.dynamic.ResourceProvider {
  const shim = {
    configure(req: pulumi.dynamic.ConfigureRequest) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- resolved in the provider process, not captured
      return require("pulumi-svc/dist/resources/registry").install(this, kind, req);
    },
  };
  return shim as unknown as pulumi.dynamic.ResourceProvider;
}
