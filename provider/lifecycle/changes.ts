/** What differs between two sets of inputs, and what each difference does (the effect table). */
import { isDeepStrictEqual } from "node:util";
import type { Outputs } from "../definition";
import type { CompiledDefinition } from "./compile";
import type { Props } from "./types";
import { AUTONAMED_KEY } from "./autoname";
import { containsUnknown } from "./unknowns";
import type { FixedEffect } from "../fields/changeEffects";

/** The effective effect of a field for a given change (an unknown new value replaces where it depends). */
export function effectOf<I extends Props, O extends Outputs>(
  c: CompiledDefinition<I, O>,
  field: string,
  old: unknown,
  next: unknown,
): FixedEffect {
  const p = c.onChange[field];
  return p.kind === "depends" ? (containsUnknown(next) ? { kind: "replace" } : p.decide(old, next)) : p;
}

/** Fields whose desired value differs from the recorded one (undefined desired = not managed). */
export function changedFields<I extends Props, O extends Outputs>(c: CompiledDefinition<I, O>, olds: Props, news: Props): string[] {
  return c.managed.filter((f) => news[f] !== undefined && (containsUnknown(news[f]) || !isDeepStrictEqual(olds[f], news[f])));
}

/** The changed fields among `fields` whose change recreates the resource. */
export function replacing<I extends Props, O extends Outputs>(
  c: CompiledDefinition<I, O>,
  fields: string[],
  olds: Props,
  news: Props,
): string[] {
  return fields.filter((f) => effectOf(c, f, olds[f], news[f]).kind === "replace");
}

/**
 * Whether a replacement keeps the unique key (so the old one must be deleted first). A name made
 * for the program (`AUTONAMED_KEY`) is made anew for the replacement (autoname.ts): it differs.
 */
export function sameUniqueKey<I extends Props, O extends Outputs>(c: CompiledDefinition<I, O>, olds: Props, news: Props): boolean {
  const { uniqueKey: key, autonamed } = c.definition;
  if (!key) return false;
  if (typeof key === "function") return !containsUnknown(news) && isDeepStrictEqual(key(olds as Partial<I>), key(news as Partial<I>));
  const renamed = (f: string) => f === autonamed && news[AUTONAMED_KEY] === true;
  return key.length > 0 && key.every((f) => !renamed(f) && !containsUnknown(news[f]) && isDeepStrictEqual(olds[f], news[f]));
}
