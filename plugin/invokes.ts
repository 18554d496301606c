/**
 * The invokes of the plugin face: `svc:index:<lookup>` is the plain lookup of that name, the same
 * function TypeScript programs call (resources/lookups), with the same argument and result names.
 */
import * as lookups from "../resources/lookups";
import { TOKEN_PREFIX } from "../provider/typeTokens";

type Lookup = (args: Record<string, unknown>) => Promise<unknown>;

/** Every plain lookup by name (the Output forms are program-side conveniences, not invokes). */
export function lookupNames(): string[] {
  return Object.entries(lookups)
    .filter(([name, value]) => typeof value === "function" && /^get[A-Z]/.test(name) && !name.endsWith("Output"))
    .map(([name]) => name)
    .sort();
}

export function lookupFor(token: string): Lookup {
  const name = token.startsWith(TOKEN_PREFIX) ? token.slice(TOKEN_PREFIX.length) : "";
  if (!lookupNames().includes(name))
    throw new Error(
      `pulumi-svc has no function "${token}"; functions: ${lookupNames()
        .map((n) => TOKEN_PREFIX + n)
        .join(", ")}`,
    );
  return (lookups as unknown as Record<string, Lookup>)[name];
}
