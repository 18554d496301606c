/**
 * The `__provider` text every dynamic resource carries in its state's inputs and
 * outputs, which the dynamic-provider host loads as a module and asks for `handler()` (the
 * host's `getProvider`: `requireFromString(text).handler()`, then `configure`, then the
 * operation).
 *
 * The SDK's `pulumi.dynamic.Resource` would serialize a provider object with its closure: even
 * a one-method object whose closure is two strings took 617 bytes of the serializer's wrapping,
 * twice per resource, about half of what the engine rewrites at every checkpoint (bench/README.md,
 * "A one-line __provider"). The classes register as that class does, but write the text
 * themselves: one line naming the package's entry point and the kind. The provider object itself
 * lives in the package (`shim` of the dynamic entry, dynamic/entry.ts), so the text stays the same whatever the
 * lifecycle's size or version.
 */
import { PROVIDER_ENTRY } from "../packageName";

/**
 * The property under which Pulumi records a dynamic resource's provider text. Never an input of
 * a kind; carried into a PartialFailure's properties, which become the recorded outputs.
 */
export const PROVIDER_KEY = "__provider";

/** The module text the host loads for a resource of `kind`: about 70 bytes. */
export function providerText(kind: string, entry: string = PROVIDER_ENTRY): string {
  return `exports.handler = () => require(${JSON.stringify(entry)}).shim(${JSON.stringify(kind)});\n`;
}
