/**
 * Request validation with zod: every documented constraint answers 400 with the reason in
 * X-Message and per-field errors in the body.
 */
import { z } from "zod";
import { ApiError, badRequest } from "./errors";

function fieldPath(path: PropertyKey[]): string {
  let out = "";
  for (const p of path) out += typeof p === "number" ? `[${p}]` : out ? `.${String(p)}` : String(p);
  return out || "(body)";
}

export function parseWith<S extends z.ZodType>(schema: S, value: unknown, where = "body"): z.infer<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const errors = result.error.issues.map((issue) => ({ field: fieldPath(issue.path), message: issue.message }));
  const first = errors[0];
  throw badRequest(`Invalid ${where}: ${first.field}: ${first.message}`, errors);
}

/**
 * An identifier in a request body: a JSON integer (a bigint once above 2^53), returned as a
 * decimal string. Strings are refused: the spec sends identifiers as integers in bodies.
 */
export const zId = z
  .union([z.bigint(), z.number().int()], { error: "must be an integer identifier" })
  .refine((v) => BigInt(v) > 0n, { message: "must be a positive identifier" })
  .transform((v) => BigInt(v).toString());

/** An identifier sent as a string (app template_id keeps 64-bit precision that way). */
export const zStringId = z.string().regex(/^\d+$/, "must be a string of digits");

/** Plain integer quantities (sizes, counts, rates); bigint accepted when above 2^53 but safe to number. */
export const zInt = z.union([z.number().int(), z.bigint()], { error: "must be an integer" }).transform((v) => Number(v));

/** A path identifier: digits only. */
export function pathId(value: string | undefined, name = "id"): string {
  if (!value || !/^\d{1,20}$/.test(value))
    throw badRequest(`Invalid path: ${name} must be an integer`, [{ field: name, message: "must be an integer" }]);
  return BigInt(value).toString();
}

/** A query parameter that may repeat (`?id=1&id=2`) or be comma separated (`?id=1,2`). */
export function queryList(value: unknown): string[] {
  if (value === undefined || value === null || value === "") return [];
  const items = Array.isArray(value) ? value : [value];
  return items
    .flatMap((v) => String(v).split(","))
    .map((s) => s.trim())
    .filter(Boolean);
}

export function queryIds(value: unknown, name: string): string[] {
  return queryList(value).map((v) => pathId(v, name));
}

export function queryBool(value: unknown, name: string): boolean | undefined {
  if (value === undefined || value === "") return undefined;
  if (value === "true" || value === true) return true;
  if (value === "false" || value === false) return false;
  throw badRequest(`Invalid query: ${name} must be true or false`, [{ field: name, message: "must be true or false" }]);
}

export function queryInt(value: unknown, name: string): number | undefined {
  if (value === undefined || value === "") return undefined;
  const n = Number(value);
  if (!Number.isInteger(n)) throw badRequest(`Invalid query: ${name} must be an integer`, [{ field: name, message: "must be an integer" }]);
  return n;
}

export function queryEnum<T extends string>(value: unknown, name: string, allowed: readonly T[]): T | undefined {
  if (value === undefined || value === "") return undefined;
  if (!allowed.includes(value as T)) {
    throw badRequest(`Invalid query: ${name} must be one of ${allowed.join(", ")}`, [
      { field: name, message: `must be one of ${allowed.join(", ")}` },
    ]);
  }
  return value as T;
}

/** A repeatable enum query parameter (`?state=PENDING&state=FAILED` or comma separated). */
export function queryEnumList<T extends string>(value: unknown, name: string, allowed: readonly T[]): T[] {
  const items = queryList(value);
  for (const item of items) {
    if (!allowed.includes(item as T))
      throw badRequest(`Invalid query: ${name} must be one of ${allowed.join(", ")}`, [
        { field: name, message: `must be one of ${allowed.join(", ")}` },
      ]);
  }
  return items as T[];
}

/** Case-insensitive substring match, for name/description filters and `q`. */
export function contains(haystack: string | null | undefined, needle: unknown): boolean {
  if (needle === undefined || needle === "") return true;
  return (haystack ?? "").toLowerCase().includes(String(needle).toLowerCase());
}

export { ApiError };
