/**
 * Property values between the provider protocol and the lifecycle.
 *
 * On the wire (a protobuf Struct) a secret is an object carrying the secret signature and its
 * value, and a value not known until `pulumi up` is the unknown sentinel string. The lifecycle
 * works on plain values and already understands the sentinel (it is the one the dynamic face
 * sees), so only secrets need translating: unwrapped on the way in, and on the way out the kind's
 * secret fields wrapped again. The engine adds the rest: an output whose input was secret is
 * recorded secret (annotateSecrets in the engine's provider client), so nothing declared secret
 * reaches the state in plaintext.
 */
import { Struct } from "google-protobuf/google/protobuf/struct_pb";

/** The key every special value carries, and the signature that marks a secret (sdk/go/common/resource/sig). */
const SIGNATURE_KEY = "4dabf18193072939515e22adb298388d";
const SECRET_SIGNATURE = "1b47061264138c4ac30d75fd1eb44270";

type Plain = Record<string, unknown>;

function isSecret(value: unknown): value is { value: unknown } {
  return !!value && typeof value === "object" && (value as Plain)[SIGNATURE_KEY] === SECRET_SIGNATURE;
}

/** A wire value with every secret unwrapped, at any depth. */
export function reveal(value: unknown): unknown {
  if (isSecret(value)) return reveal(value.value);
  if (Array.isArray(value)) return value.map(reveal);
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, reveal(v)]));
  return value;
}

export const secret = (value: unknown) => ({ [SIGNATURE_KEY]: SECRET_SIGNATURE, value });

/** The top-level members of wire properties that hold a secret anywhere in their value. */
export function secretMembers(struct: Struct | undefined): string[] {
  const holds = (value: unknown): boolean =>
    isSecret(value) || (!!value && typeof value === "object" && Object.values(value as Plain).some(holds));
  return Object.entries((struct?.toJavaScript() ?? {}) as Plain)
    .filter(([, v]) => holds(v))
    .map(([k]) => k);
}

/** Properties from the wire, as the lifecycle takes them. */
export function fromStruct(struct: Struct | undefined): Plain {
  return (reveal(struct?.toJavaScript() ?? {}) as Plain) ?? {};
}

/**
 * Properties for the wire: the named fields marked secret, undefined members left out (a Struct
 * has no undefined), everything else as is.
 */
export function toStruct(props: Plain, secretFields: readonly string[] = []): Struct {
  const out: Plain = {};
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined) continue;
    const plain = JSON.parse(JSON.stringify(value)) as unknown;
    out[key] = secretFields.includes(key) && plain !== null ? secret(plain) : plain;
  }
  return Struct.fromJavaScript(out as Parameters<typeof Struct.fromJavaScript>[0]);
}
