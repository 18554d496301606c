/**
 * Property values as the security rules read them: plain JSON, with two things @pulumi/policy's
 * own view loses kept apart. A Pulumi secret is a `Secret` (the policy SDK unwraps secrets, so a
 * rule could not tell `pulumi.secret("x")` from "x"); a value the engine does not know yet (a
 * preview of something built from another resource's output) is `UNKNOWN`, where the SDK throws
 * on access.
 *
 * The same reader takes what the engine sends a policy pack (its protobuf Struct as JSON) and
 * what `pulumi stack export` writes: both mark a secret with the same signature key, the export
 * with its value encrypted (`ciphertext`) or shown (`plaintext`, --show-secrets).
 */

/** A value the engine does not know yet. */
export const UNKNOWN: unique symbol = Symbol("unknown");
export type Unknown = typeof UNKNOWN;

/** A Pulumi secret; `value` is undefined where it is encrypted (an export without --show-secrets). */
export class Secret {
  constructor(readonly value: unknown) {}
}

/** Pulumi's wire signatures (sdk/go/common/resource/sig: the same in every SDK). */
const SIG_KEY = "4dabf18193072939515e22adb298388d";
const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";
const UNKNOWN_STRING = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
/** What `pulumi policy analyze --file` shows for a secret it cannot decrypt. */
const REDACTED = "[secret]";

/** Wire JSON (engine or export) to values with `Secret` and `UNKNOWN`; internal keys (`__provider`) left out. */
export function readValue(raw: unknown): unknown {
  if (raw === UNKNOWN_STRING) return UNKNOWN;
  if (raw === REDACTED) return new Secret(undefined);
  if (raw === null || typeof raw !== "object") return raw;
  if (Array.isArray(raw)) return raw.map(readValue);
  const obj = raw as Record<string, unknown>;
  if (obj[SIG_KEY] === SECRET_SIG) {
    if ("value" in obj) return new Secret(readValue(obj.value));
    if ("plaintext" in obj) return new Secret(typeof obj.plaintext === "string" ? readValue(safeJson(obj.plaintext)) : undefined);
    return new Secret(undefined);
  }
  return Object.fromEntries(
    Object.entries(obj)
      .filter(([k]) => !k.startsWith("__"))
      .map(([k, v]) => [k, readValue(v)]),
  );
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export const isUnknown = (v: unknown): v is Unknown => v === UNKNOWN;
export const isSecret = (v: unknown): v is Secret => v instanceof Secret;

/** The value under a secret (a rule that only needs the value, such as a port, sees through it). */
export const reveal = (v: unknown): unknown => (v instanceof Secret ? v.value : v);

/** A record's members, or {} for anything that is not a known object. */
export function members(v: unknown): Record<string, unknown> {
  const plain = reveal(v);
  return plain && typeof plain === "object" && !Array.isArray(plain) && !isUnknown(plain) ? (plain as Record<string, unknown>) : {};
}
