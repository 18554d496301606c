/**
 * Inputs whose value is an object: `nested` (one shape: a port, a mount, a storage entry) and
 * `variants` (several shapes told apart by a discriminator: an image's source), each member
 * declared once like a kind's fields (type and limits, doc, name in the API). Their schemas and
 * error messages derive here; their wire forms in convert.ts, their public interfaces in
 * scripts/fieldTypes.ts.
 */
import { z } from "./zod";
import { exactly } from "./constraints";
import type { Flat } from "./declare";

// Nested field sets: the members of an input whose value is an object or a list of objects (a
// port, a mount, a storage entry), declared once like a kind's fields: their type and limits, doc
// and name in the API. scripts/fieldTypes.ts renders each as a named interface (its `names`) with
// a TSDoc on every member, where the field's type uses it.

/** One member of a nested object. */
export interface Member<S extends z.ZodType = z.ZodType> {
  readonly schema: S;
  /** What the member is, for people. */
  readonly doc: string;
  /** Its name in the API's requests and answers, when it differs (`size_bytes`). */
  readonly wire?: string;
  /** An identifier: sent as an integer (`wireId`: ids exceed 2^53), read back as a string of digits. */
  readonly id?: boolean;
  /** The program's own, never sent nor answered (a local file's path): recorded as declared. */
  readonly local?: boolean;
  /** Type only (no value at run time). */
  readonly __input: z.input<S>;
  readonly __output: z.output<S>;
}

export function member<S extends z.ZodType>(schema: S, options: { doc: string; wire?: string; id?: boolean; local?: boolean }): Member<S> {
  return { schema, ...options } as Member<S>;
}

export type Members = Record<string, Member>;
type ShapeOf<M extends Members> = { [K in keyof M]: M[K]["schema"] };

/**
 * The public names of a nested object: `args`, the interface inside a kind's Args (what a program
 * passes), `outputs`, the one inside its Outputs (as recorded). Without a name, that side is
 * written inline where it is used (the schema's type names come from these names, so a shape that
 * had none keeps none).
 */
export interface NestedNames {
  /** What the object is, for people (its interfaces' TSDoc). */
  readonly doc: string;
  readonly args?: string;
  readonly outputs?: string;
  /** The Args interface's members are each a `pulumi.Input` (a program may pass an output for one); default plain values. */
  readonly inputMembers?: boolean;
  /**
   * The module (resources/<from>.ts) that exports these interfaces, where two kinds take the same
   * object (an app's mounts are its template's): this kind's generated file imports them from there.
   */
  readonly from?: string;
}

/** A nested object: its members and the schema made of them (`object`: strict, unless it says otherwise). */
export interface Nested<M extends Members = Members, O extends z.ZodType = z.ZodType> {
  readonly role: "nested";
  readonly names: NestedNames;
  readonly members: M;
  readonly schema: O;
  /** Type only: what a program passes, and what the schema gives. */
  readonly __input: z.input<O>;
  readonly __output: z.output<O>;
}

/**
 * A nested object of `members`; `object` builds its schema from their schemas where it needs more
 * than a strict object (a cross-member rule, an error message naming the members).
 */
export function nested<const M extends Members, O extends z.ZodType = z.ZodObject<ShapeOf<M>, z.core.$strict>>(
  names: NestedNames,
  members: M,
  object?: (shape: ShapeOf<M>) => O,
): Nested<M, O> {
  const shape = Object.fromEntries(Object.entries(members).map(([k, m]) => [k, m.schema])) as ShapeOf<M>;
  return { role: "nested", names, members, schema: object ? object(shape) : z.strictObject(shape) } as Nested<M, O>;
}

// Variants: an input whose value is one of several object shapes, told apart by a discriminator
// member (an image's source: `{ type: "URL", url }` or `{ type: "BACKUP", backupId }`...). A
// construct of its own because a nested object has one shape: here each shape declares its
// members once (type and limits, doc, name in the API), and the union's schema, its error
// messages, the public union types (scripts/fieldTypes.ts) and the wire form derive from them.

/** One shape of a variants union: what it is (the discriminator's TSDoc) and its members. */
export interface Variant<M extends Members = Members> {
  readonly doc: string;
  readonly members: M;
}

export const variant = <const M extends Members>(doc: string, members: M): Variant<M> => ({ doc, members });

/** The public names of a variants union (each side a type alias of the union) and what its errors say. */
export interface VariantNames<D extends string = string> {
  /** What the value is, for people (the aliases' TSDoc). */
  readonly doc: string;
  /** The union a program passes (each member but the discriminator a `pulumi.Input`). */
  readonly args: string;
  /** The union as recorded. */
  readonly outputs: string;
  /** The member whose value names the shape (`type`). */
  readonly discriminator: D;
  /** The error of a value of no shape: `must be ${what} whose ${discriminator} is URL (url), ... (${where})`. */
  readonly what: string;
  readonly where: string;
}

type MemberSide = "__input" | "__output";
type MemberValues<M extends Members, S extends MemberSide> = Flat<
  { [K in keyof M as undefined extends M[K][S] ? never : K]: M[K][S] } & {
    [K in keyof M as undefined extends M[K][S] ? K : never]?: M[K][S];
  }
>;
type VariantValue<D extends string, V extends Record<string, Variant>, S extends MemberSide> = {
  [T in keyof V & string]: Flat<{ [P in D]: T } & MemberValues<V[T]["members"], S>>;
}[keyof V & string];

export interface Variants<D extends string = string, V extends Record<string, Variant> = Record<string, Variant>> {
  readonly role: "variants";
  readonly names: VariantNames<D>;
  readonly variants: V;
  readonly schema: z.ZodType<VariantValue<D, V, "__output">, VariantValue<D, V, "__input">>;
  /** Type only: what a program passes, and what the schema gives. */
  readonly __input: VariantValue<D, V, "__input">;
  readonly __output: VariantValue<D, V, "__output">;
}

/** `a, b or c` */
const listed = (items: string[]) => (items.length > 1 ? `${items.slice(0, -1).join(", ")} or ${items[items.length - 1]}` : items.join(""));

/**
 * A value of one of `variants`' shapes, by its discriminator: each shape a strict object whose
 * unknown members are named with the ones it takes (`exactly`), a value of no shape refused with
 * every shape and its members.
 */
export function variants<const D extends string, const V extends Record<string, Variant>>(
  names: VariantNames<D>,
  shapes: V,
): Variants<D, V> {
  const tags = Object.entries(shapes);
  const objects = tags.map(([tag, v]) => {
    const shape = Object.fromEntries(Object.entries(v.members).map(([k, m]) => [k, m.schema]));
    return z.strictObject(
      { [names.discriminator]: z.literal(tag), ...shape },
      exactly([names.discriminator, ...Object.keys(v.members)].join(", ")),
    );
  });
  const shown = tags.map(([tag, v]) => (Object.keys(v.members).length ? `${tag} (${Object.keys(v.members).join(", ")})` : tag));
  const schema = z.discriminatedUnion(names.discriminator, objects as unknown as [z.ZodObject, ...z.ZodObject[]], {
    error: `must be ${names.what} whose ${names.discriminator} is ${listed(shown)} (${names.where})`,
  });
  return { role: "variants", names, variants: shapes, schema } as unknown as Variants<D, V>;
}
