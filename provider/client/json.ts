/**
 * JSON that keeps 64-bit integers exact, for the provider's client. The emulator package has its own
 * copy (packages/emulator/src/core/json.ts); tests/unit/json.test.ts pins the two together.
 *
 * Identifiers are 64-bit integers (spec part 1, "Value conventions"): strings in most responses,
 * but bare integers in request bodies and in a few responses (a BGP prefix id). Integers outside
 * JavaScript's safe range parse as `bigint`; `bigint` values are written as bare JSON integers.
 */
import { parse, stringify, isInteger, isSafeNumber } from "lossless-json";

function parseNumber(text: string): number | bigint {
  if (isInteger(text) && !isSafeNumber(text)) return BigInt(text);
  return Number(text);
}

export function parseJson(text: string): unknown {
  return parse(text, null, parseNumber);
}

export function stringifyJson(value: unknown): string {
  return stringify(value) ?? "null";
}
