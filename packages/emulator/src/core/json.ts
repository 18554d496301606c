/**
 * JSON that keeps 64-bit integers exact, as the API speaks it.
 *
 * Identifiers are 64-bit integers (spec part 1, "Value conventions"): strings in most responses,
 * but bare integers in request bodies and in a few responses (a BGP prefix id). Integers outside
 * JavaScript's safe range parse as `bigint`; `bigint` values are written as bare JSON integers.
 *
 * The provider's client has its own copy (provider/client/json.ts): the emulator is a package of its own
 * and the provider depends on it only for tests. tests/unit/json.test.ts pins the two together.
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
