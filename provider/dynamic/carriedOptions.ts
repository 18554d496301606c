/**
 * Resource options the dynamic-provider host drops, carried to the provider by the generated
 * classes (they see every option in their constructor; the host does not):
 *
 * - `replaceOnChanges`: the host forwards no list of changed properties, so the engine cannot
 *   tell a replacing change; the lifecycle's diff marks it.
 * - `ignoreChanges`: the engine keeps an ignored input's recorded input, but a dynamic provider's
 *   diff compares against recorded outputs, which a refresh moved (drift); the lifecycle keeps the
 *   recorded value of each ignored path in diff and update, as Pulumi documents.
 * - `import`: the engine's import reads with no properties, so the host cannot find the provider
 *   (`code must be a string, not undefined`); the class drops the option and the lifecycle adopts
 *   the object when every declared input matches it, writing nothing (check and create).
 * - `customTimeouts`: the host passes no timeout; the class folds them into the `timeouts` input
 *   (`timeouts` wins where it names the operation, as on the plugin face).
 *
 * The plugin face gets all of these from the engine itself and never sees this input. The class's
 * side is `superArgs` (provider/dynamic/classSupport.ts); this module is the lifecycle's.
 */
import { contains, keepOld, parsePath, type PropertyPath } from "../fields/propertyPath";

/** The input under which a class carries them; recorded with the resource's inputs, never an output. */
export const CARRIED_KEY = "__options";

export interface CarriedOptions {
  import?: string;
  ignoreChanges?: string[];
  replaceOnChanges?: string[];
}

/** The carried options in a set of properties (none when the class carried none). */
export const carriedOf = (props: Record<string, unknown>): CarriedOptions => (props[CARRIED_KEY] as CarriedOptions | undefined) ?? {};

const pathsOf = (texts: string[] | undefined): PropertyPath[] =>
  (texts ?? []).map(parsePath).filter((p): p is PropertyPath => typeof p !== "string");

/**
 * The desired inputs with each ignored path at its recorded value (what ignoreChanges means once a
 * refresh recorded the API's value): a copy, `news` untouched.
 */
export function withIgnoredKept(olds: Record<string, unknown>, news: Record<string, unknown>): Record<string, unknown> {
  const paths = pathsOf(carriedOf(news).ignoreChanges);
  if (!paths.length) return news;
  const kept = copyOf(news);
  for (const path of paths) keepOld(olds, kept, path);
  return kept;
}

/**
 * A deep copy of plain values. Not structuredClone: its copies take the prototypes of the realm
 * that made them, which Node's deep equality tells apart from the engine's objects (under jest's
 * vm contexts, for one).
 */
function copyOf<T>(value: T): T {
  if (Array.isArray(value)) return value.map(copyOf) as T;
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, copyOf(v)])) as T;
  return value;
}

/** Whether a changed path (a detailed-diff key) lies under one of the resource's replaceOnChanges paths. */
export function replacedOnChange(news: Record<string, unknown>): (changed: PropertyPath) => boolean {
  const paths = pathsOf(carriedOf(news).replaceOnChanges);
  return (changed) => paths.some((p) => contains(p, changed));
}
