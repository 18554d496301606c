/**
 * The one declaration of "the spec types this integer" (issue 37), in two kinds:
 *
 * - `Integer`: a field, nested member, computed output or lookup result that fits 32 bits in
 *   ordinary use (a port, a priority, a count). schema.json says `integer` (scripts/schema.ts maps
 *   this alias, by its name and this file): `int` in Python, `pulumi.Int` in Go, `Integer` in Java,
 *   `int` in .NET.
 * - `WideInteger`: one that exceeds 2^31-1 in ordinary use (bytes, bytes or bits per second,
 *   micro-USD, a 4-byte ASN). Java's and .NET's schema `integer` is 32-bit (`Integer`, `int`), so
 *   as `integer` such a value could not be passed or read there; schema.json says `number`
 *   (float64, exact for every integer up to 2^53) and its description says why, in WIDE_NOTE.
 *
 * Either way the zod schema of an input refuses a fraction (constraints.ts: zInteger, zWideInteger).
 *
 * `number & {}` and `number & { __wide?: never }`: TypeScript keeps an intersection and its alias
 * (it does not reduce it to `number`), so the generated Args and Outputs name them and the schema
 * generator can tell them from `number`; a plain number is still assignable both ways (an optional
 * member does not make a weak-type check of an intersection's part), so programs pass `22` as
 * before. A module of its own, with no import, so the published declarations
 * (resources/generated/*.d.ts, resources/lookups) reach it without reaching zod.
 */
export type Integer = number & {};
export type WideInteger = number & { readonly __wide?: never };

/** What a `WideInteger`'s schema description adds (scripts/schema.ts). */
export const WIDE_NOTE =
  "An integer in the spec; typed number because its values exceed 2^31-1, the integer of Java and .NET (exact up to 2^53, fractions refused).";
