/**
 * JSON that keeps 64-bit integers exact.
 *
 * Identifiers are 64-bit integers and, by default, the emulator issues them above 2^53
 * (spec part 1, "Value conventions"), where a JavaScript number silently rounds. Integers
 * outside the safe range are therefore parsed as `bigint`, and `bigint` values are written
 * back as bare JSON integers.
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
