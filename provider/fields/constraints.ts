/**
 * Building blocks for resource input schemas and API mappings, so each resource file reads as
 * its spec table: identifiers, bounded names, CIDRs, and readers for API answers.
 */
import { z } from "./zod";
import { formatCidr, isRfc1918, parseCidr } from "./cidr";
import type { Integer, WideInteger } from "./integer";

/** A zod number schema whose value is an `Integer` (provider/fields/integer.ts): its methods keep that type. */
export type ZodInteger = z._ZodNumber<ZodIntegerInternals>;
interface ZodIntegerInternals extends z.core.$ZodNumberInternals<Integer> {
  output: Integer;
}

/**
 * A number the spec types integer and that fits 32 bits in ordinary use (provider/fields/integer.ts): a
 * fraction is refused with `message`, which cites the spec; the schema says `integer`. `error`:
 * the message for a value that is not a number at all.
 */
export const zInteger = (message: string, error?: string): ZodInteger =>
  z.number(error === undefined ? undefined : { error }).int(message) as unknown as ZodInteger;

/** A zod number schema whose value is a `WideInteger` (provider/fields/integer.ts). */
export type ZodWideInteger = z._ZodNumber<ZodWideIntegerInternals>;
interface ZodWideIntegerInternals extends z.core.$ZodNumberInternals<WideInteger> {
  output: WideInteger;
}

/**
 * A number the spec types integer whose values exceed 2^31-1 (bytes, rates, micro-USD): `number`
 * in the schema, saying why; a fraction refused with `message`, which cites the spec.
 */
export const zWideInteger = (message: string, error?: string): ZodWideInteger =>
  z.number(error === undefined ? undefined : { error }).int(message) as unknown as ZodWideInteger;

/** An identifier input: a string of digits (ids exceed 2^53; never a JS number). */
export const zId = (what = "identifier") => z.string().regex(/^\d{1,20}$/, `must be the ${what} (digits)`);

/** A string of `min` to `max` characters, with the spec reference in the message. */
export const zText = (min: number, max: number, where: string) => {
  const message = min > 0 ? `must be ${min} to ${max} characters (${where})` : `must be at most ${max} characters (${where})`;
  return z.string().min(min, message).max(max, message);
};

/*
 * Only what the spec documents is refused here. Where the spec gives no limit (a name's length, a
 * list's size, a pattern), none is checked: the API decides, and its 400 reaches the user with the
 * field and the API's message (provider/errors.ts). The emulator keeps limits of its own, as any
 * server may (packages/emulator/README.md); tests/e2e/api-decides.test.ts proves the path.
 */

/**
 * Objects with exactly these (camelCase) fields, for `z.strictObject(shape, exactly("a, b"))`: a
 * snake_case or misspelt key is named in the error, with the fields it may have.
 */
export const exactly = (fields: string) => ({
  error: (issue: { code?: string; keys?: string[] }) =>
    issue.code === "unrecognized_keys" ? `unknown field ${issue.keys?.join(", ")}: the fields are ${fields}` : undefined,
});

/** A duplicate in a list, reported on the duplicate's index: `what` names the repeated thing, `where` cites the rule. */
export function noDuplicates<T>(key: (item: T) => string, what: string, where: string) {
  return (items: T[], ctx: z.RefinementCtx) => {
    const seen = new Set<string>();
    items.forEach((item, i) => {
      const k = key(item);
      if (seen.has(k)) ctx.addIssue({ code: "custom", path: [i], message: `duplicate ${what} ${k}: each may appear once (${where})` });
      seen.add(k);
    });
  };
}

/** A TCP or UDP port number, 1 to 65535. */
export const zPort = (where: string) =>
  zInteger(`must be a whole port number, 1 to 65535 (${where})`, `must be a port number, 1 to 65535 (${where})`)
    .min(1, `must be 1 to 65535 (${where})`)
    .max(65535, `must be 1 to 65535 (${where})`);

/** A port's protocol, TCP unless declared. */
export const zProtocol = (where: string) => z.enum(["TCP", "UDP"], { error: `must be TCP or UDP (${where})` }).default("TCP");

/**
 * An absolute path with no whitespace (a mount's host or container path). `what` says which side
 * (`inside the container`), `shape` names the spec's type when the rule comes from it (`AppVolumeMount`).
 */
export const zAbsolutePath = (where: string, { what, shape }: { what?: string; shape?: string } = {}) =>
  z
    .string({ error: `must be an absolute path (${where})` })
    .regex(/^\/\S*$/, `must be an absolute path${what ? ` ${what}` : ""}, starting with / (${shape ? `${where}: ${shape}` : where})`);

/** The tag of an image reference: a letter, digit or _, then up to 127 letters, digits, _, . or - (the registry grammar). */
const WHOLE_TAG = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$/;

/** An image reference with an explicit tag: the last path segment carries `:tag` (a `host:port/` prefix is no tag). */
export function hasTag(image: string): boolean {
  if (/\s|@/.test(image)) return false;
  const last = image.slice(image.lastIndexOf("/") + 1);
  const colon = last.indexOf(":");
  return colon > 0 && WHOLE_TAG.test(last.slice(colon + 1));
}

/**
 * DDoS protection is an IPv4 feature: the spec's only statement of it is the price part of a
 * floating IP, "ddos (boolean; IPv4 only)" (spec part 3, Billing and usage: estimate part shapes).
 * Returns the reason when an IPv6 address asks for it.
 */
export const ddosProblem = (family: string | undefined, ddos: boolean | undefined): string | undefined =>
  ddos && family === "IPv6"
    ? "ddos protection is for IPv4 addresses only: set ddos false for IPv6 (spec part 3, Billing and usage: FLOATING_IP ddos is IPv4 only)"
    : undefined;

/** A CIDR of a family, normalised to its network address as the API does. */
export const zCidr = (where: string, family?: "IPv4" | "IPv6") =>
  z.string().transform((v, ctx) => {
    const c = parseCidr(v);
    if (!c || (family && c.family !== family)) {
      ctx.addIssue({
        code: "custom",
        message: `must be ${family ? `an ${family}` : "a"} CIDR such as ${family === "IPv6" ? "2001:db8::/64" : "10.0.0.0/16"} (${where})`,
      });
      return z.NEVER;
    }
    return formatCidr(c);
  });

/** An RFC 1918 private IPv4 range, normalised (spec part 3, VPCs). */
export const zPrivateRange = z.string().transform((v, ctx) => {
  const c = parseCidr(v);
  if (!c || c.family !== "IPv4" || !isRfc1918(c)) {
    ctx.addIssue({
      code: "custom",
      message: "must be an RFC 1918 private range inside 10.0.0.0/8, 172.16.0.0/12 or 192.168.0.0/16 (spec part 3, VPCs)",
    });
    return z.NEVER;
  }
  return formatCidr(c);
});
