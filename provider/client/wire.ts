/**
 * The API's wire format, both ways: identifiers as bare JSON integers in request bodies, and the
 * values read back from answers (an identifier or a number in whatever form the JSON gave it).
 * Apart from provider/fields/constraints.ts (the input schemas, on zod) so that the program-side lookups read
 * answers without loading zod.
 */

/** An identifier for a request body: bare JSON integer (bigint keeps it exact). */
export const wireId = (id: string | number | bigint): bigint => BigInt(id);

/** Reads an identifier from an answer (string, number or bigint) as a string. */
export function idOf(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === "object" && "id" in (value as object)) return idOf((value as { id: unknown }).id);
  return String(value);
}

/** Reads a number from an answer (bigint when above 2^53: converted, quantities stay well below). */
export function numberOf(value: unknown): number | null {
  if (value === null || value === undefined) return null;
  return typeof value === "bigint" ? Number(value) : Number(value);
}

/** Drops keys whose value is undefined (so outputs do not carry holes). */
export function compact<T extends Record<string, unknown>>(obj: T): T {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined)) as T;
}
