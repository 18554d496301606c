/**
 * A field set's values to and from the API's names (each field's or member's `wire` name, ids as
 * integers on the way out and strings of digits on the way in): the outputs of an answer, the
 * request bodies, and the entries of nested and variants inputs. The declarations are
 * provider/fields/declare.ts's; this is the one place that reads their `wire`, `id` and `local`.
 */
import { idOf, wireId } from "../client/wire";
import { entries, isInput, isOutput, type FieldSet, type OutputsOf } from "./declare";
import type { Members, Nested, Variants } from "./objectInputs";

/** The outputs from an API answer: each output field's `fromAnswer`, else the answer's member of its wire name (none for a `kept` one). */
export function outputsFromAnswer<F extends FieldSet>(fields: F, api: object, prior: Record<string, unknown> = {}): OutputsOf<F> {
  const out: Record<string, unknown> = {};
  for (const [k, f] of entries(fields)) {
    if (!isOutput(f) || f.kept) continue;
    const value = f.fromAnswer
      ? (f.fromAnswer as (api: object, prior: Record<string, unknown>) => unknown)(api, prior)
      : (api as Record<string, unknown>)[f.wire ?? k];
    // An output the answer lacks is left out, not recorded as undefined (a fingerprint the API may omit).
    if (value !== undefined) out[k] = value;
  }
  return out as OutputsOf<F>;
}

/** A request body of `names` (inputs) in the API's names. */
export function updateBody(fields: FieldSet, values: Record<string, unknown>, names: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(names.map((k) => [fields[k]?.wire ?? k, values[k]]));
}

/** The create request's body: every input sent on create (not `workspaceId`: it is in the path), in the API's names. */
export function createBody(fields: FieldSet, values: Record<string, unknown>): Record<string, unknown> {
  const sent = entries(fields).flatMap(([k, f]) => (isInput(f) && f.create ? [k] : []));
  return updateBody(fields, values, sent);
}

/** Members' values in the API's names: ids as integers, local members left out. */
function membersToWire(members: Members, value: object): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(members).flatMap(([k, m]) => {
      const v = (value as Record<string, unknown>)[k];
      return m.local ? [] : [[m.wire ?? k, m.id && v !== undefined && v !== null ? wireId(v as string) : v]];
    }),
  );
}

/** A nested value in the API's names (a request body's entry). */
export function toWire(set: Nested, value: object): Record<string, unknown> {
  return membersToWire(set.members, value);
}

/** A nested value from the API's names (an answer's entry), each member as answered. */
export function fromWire<N extends Nested>(set: N, api: object): N["__output"] {
  return Object.fromEntries(Object.entries(set.members).map(([k, m]) => [k, (api as Record<string, unknown>)[m.wire ?? k]]));
}

/** A variants value in the API's names: the discriminator, then its shape's members (ids as integers, absent and local ones left out). */
export function variantToWire(set: Pick<Variants, "names" | "variants">, value: object): Record<string, unknown> {
  const tag = (value as Record<string, unknown>)[set.names.discriminator] as string;
  const wire = membersToWire(set.variants[tag]?.members ?? {}, value);
  return { [set.names.discriminator]: tag, ...Object.fromEntries(Object.entries(wire).filter(([, v]) => v !== undefined)) };
}

/**
 * A variants value from the API's names: the discriminator, then its shape's members as answered
 * (ids as strings), those the answer lacks and local ones left out; undefined for a shape the set
 * does not declare (the caller says how to record it).
 */
export function variantFromWire(set: Pick<Variants, "names" | "variants">, api: object): Record<string, unknown> | undefined {
  const tag = (api as Record<string, unknown>)[set.names.discriminator] as string;
  const shape = set.variants[tag];
  if (!shape) return undefined;
  const members = Object.entries(shape.members).flatMap(([k, m]) => {
    const v = (api as Record<string, unknown>)[m.wire ?? k];
    if (m.local || v === undefined || v === null) return [];
    return [[k, m.id ? idOf(v as string) : v]];
  });
  return { [set.names.discriminator]: tag, ...Object.fromEntries(members) };
}
