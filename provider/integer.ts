/**
 * The one declaration of "the spec types this integer" (issue 37): a field, nested member, computed
 * output or lookup result typed `Integer` is `integer` in schema.json (scripts/schema.ts maps this
 * alias, by its name and this file), so `int` in Python, `pulumi.Int` in Go, `Integer` in Java and
 * `int` in .NET; everything else numeric stays `number` (float64).
 *
 * `number & {}`: TypeScript keeps the intersection and its alias (it does not reduce it to `number`,
 * as it would `number & number`), so the generated Args and Outputs say `Integer` and the schema
 * generator can tell it from `number`; a plain number is still assignable both ways, so programs
 * pass `22` as before. A module of its own, with no import, so the published declarations
 * (resources/generated/*.d.ts, resources/lookups) reach it without reaching zod.
 *
 * Not every integer of the spec: Java's and .NET's `integer` is 32-bit, so a value the spec types
 * integer that exceeds 2^31-1 in ordinary use (bytes, bytes or bits per second, micro-USD, a 4-byte
 * ASN) stays `number`, exact up to 2^53, and its zod schema still refuses a fraction.
 */
export type Integer = number & {};
