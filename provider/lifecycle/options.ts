/**
 * The resource options a provider acts on (types.ts `ResourceOptions`), as Pulumi documents them:
 * their schema, and what ignoreChanges and replaceOnChanges do, as functions of their paths. The
 * engine applies them itself on the plugin face; on the dynamic face the provider must, as the
 * host drops them (provider/dynamic/carriedOptions.ts says why, one by one).
 *
 * - ignoreChanges (https://www.pulumi.com/docs/iac/concepts/options/ignorechanges/): the engine
 *   keeps an ignored input's recorded input, but a dynamic provider's diff compares against
 *   recorded outputs, which a refresh moved (drift); diff and update keep the recorded value of
 *   each ignored path.
 * - replaceOnChanges (https://www.pulumi.com/docs/iac/concepts/options/replaceonchanges/): a
 *   change under one of its paths replaces.
 */
import { z } from "../fields/zod";
import { contains, keepOld, parsePath, type PropertyPath } from "../fields/propertyPath";

const zPropertyPath = z.string().superRefine((v, ctx) => {
  const path = parsePath(v);
  if (typeof path === "string") ctx.addIssue({ code: "custom", message: path });
});

/** The options as check validates them: the import an id of the kind (`idPattern`), every path a property path. */
export const optionsSchema = (idPattern: RegExp) =>
  z
    .object({
      import: z.string().regex(idPattern, "the import option must be the id of an existing resource of this kind").optional(),
      ignoreChanges: z.array(zPropertyPath).optional(),
      replaceOnChanges: z.array(zPropertyPath).optional(),
    })
    .strict()
    .optional();

const pathsOf = (texts: string[] | undefined): PropertyPath[] =>
  (texts ?? []).map(parsePath).filter((p): p is PropertyPath => typeof p !== "string");

/**
 * The desired inputs with each ignored path at its recorded value (what ignoreChanges means once a
 * refresh recorded the API's value): a copy, `news` untouched.
 */
export function withIgnoredKept(olds: Record<string, unknown>, news: Record<string, unknown>, ignoreChanges: string[] | undefined) {
  const paths = pathsOf(ignoreChanges);
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

/** Whether a changed path (a detailed-diff key) lies under one of the replaceOnChanges paths. */
export function replacedOnChange(replaceOnChanges: string[] | undefined): (changed: PropertyPath) => boolean {
  const paths = pathsOf(replaceOnChanges);
  return (changed) => paths.some((p) => contains(p, changed));
}
