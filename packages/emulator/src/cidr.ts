/**
 * The emulator's own IP address and CIDR arithmetic, written from the spec (part 3: a VPC range
 * is an RFC 1918 CIDR "normalised to the network address"; firewall remote/local are CIDRs
 * defaulting to 0.0.0.0/0 or ::/0; BGP prefixes are CIDR strings) and deliberately independent of
 * the provider's provider/fields/cidr.ts: the emulator is the oracle the provider is tested against, so
 * a normalisation bug must not pass on both sides at once.
 *
 * Addresses are handled as arrays of fixed-width words (4 octets, 8 hextets); the bigint value
 * is derived for the address pools that count through a range.
 */
export type IpFamily = "IPv4" | "IPv6";

export interface Cidr {
  family: IpFamily;
  /** Network address as a bigint. */
  network: bigint;
  prefix: number;
}

/** Word layout of each family: how many words, how many bits each, how they are written. */
const LAYOUT = {
  IPv4: { words: 4, bits: 8, radix: 10 },
  IPv6: { words: 8, bits: 16, radix: 16 },
} as const;

const totalBits = (family: IpFamily) => LAYOUT[family].words * LAYOUT[family].bits;

function octets(text: string): number[] | null {
  const match = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (!match) return null;
  const words = match.slice(1).map(Number);
  return words.every((w) => w <= 255) ? words : null;
}

const HEXTET = /^[0-9a-f]{1,4}$/i;

function hextets(text: string): number[] | null {
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const side = (part: string) => (part === "" ? [] : part.split(":"));
  const left = side(halves[0]);
  const right = halves.length === 2 ? side(halves[1]) : [];
  if (![...left, ...right].every((g) => HEXTET.test(g))) return null;
  const given = left.length + right.length;
  // "::" stands for at least one zero group; without it all eight groups are written out.
  if (halves.length === 2 ? given > 7 : given !== 8) return null;
  const zeros = halves.length === 2 ? 8 - given : 0;
  return [...left, ...Array<string>(zeros).fill("0"), ...right].map((g) => parseInt(g, 16));
}

function toValue(family: IpFamily, words: number[]): bigint {
  const width = BigInt(LAYOUT[family].bits);
  return words.reduce((value, word) => (value << width) | BigInt(word), 0n);
}

function toWords(family: IpFamily, value: bigint): number[] {
  const { words, bits } = LAYOUT[family];
  const mask = (1n << BigInt(bits)) - 1n;
  return Array.from({ length: words }, (_, i) => Number((value >> BigInt(bits * (words - 1 - i))) & mask));
}

export function parseIp(text: string): { family: IpFamily; value: bigint } | null {
  const v4 = octets(text);
  if (v4) return { family: "IPv4", value: toValue("IPv4", v4) };
  const v6 = hextets(text);
  if (v6) return { family: "IPv6", value: toValue("IPv6", v6) };
  return null;
}

/** The longest run (two groups or more) of zero hextets, the first of equals (RFC 5952 §4.2). */
function longestZeroRun(words: number[]): { at: number; length: number } | null {
  let best: { at: number; length: number } | null = null;
  let at = -1;
  words.forEach((word, i) => {
    if (word !== 0) return void (at = -1);
    if (at < 0) at = i;
    const length = i - at + 1;
    if (length >= 2 && (!best || length > best.length)) best = { at, length };
  });
  return best;
}

/** Canonical text: dotted decimal, or lower-case hextets with the longest zero run as "::". */
export function formatIp(family: IpFamily, value: bigint): string {
  const words = toWords(family, value);
  if (family === "IPv4") return words.join(".");
  const hex = (ws: number[]) => ws.map((w) => w.toString(LAYOUT.IPv6.radix)).join(":");
  const run = longestZeroRun(words);
  if (!run) return hex(words);
  return `${hex(words.slice(0, run.at))}::${hex(words.slice(run.at + run.length))}`;
}

function networkOf(family: IpFamily, value: bigint, prefix: number): bigint {
  const hostBits = BigInt(totalBits(family) - prefix);
  return (value >> hostBits) << hostBits;
}

/** "a.b.c.d/n" or "x::/n" with host bits cleared; a bare address is a host route (/32 or /128). */
export function parseCidr(text: string): Cidr | null {
  const parts = text.trim().split("/");
  if (parts.length > 2) return null;
  const ip = parseIp(parts[0]);
  if (!ip) return null;
  const max = totalBits(ip.family);
  if (parts.length === 2 && !/^\d{1,3}$/.test(parts[1])) return null;
  const prefix = parts.length === 2 ? Number(parts[1]) : max;
  if (prefix > max) return null;
  return { family: ip.family, network: networkOf(ip.family, ip.value, prefix), prefix };
}

export function formatCidr(c: Cidr): string {
  return `${formatIp(c.family, c.network)}/${c.prefix}`;
}

/** Whether every address of `inner` lies in `outer`. */
export function cidrContains(outer: Cidr, inner: Cidr): boolean {
  return (
    outer.family === inner.family && inner.prefix >= outer.prefix && networkOf(inner.family, inner.network, outer.prefix) === outer.network
  );
}

/** The private IPv4 blocks of RFC 1918 §3. */
const PRIVATE_BLOCKS: Cidr[] = [
  { family: "IPv4", network: toValue("IPv4", [10, 0, 0, 0]), prefix: 8 },
  { family: "IPv4", network: toValue("IPv4", [172, 16, 0, 0]), prefix: 12 },
  { family: "IPv4", network: toValue("IPv4", [192, 168, 0, 0]), prefix: 16 },
];

export function isRfc1918(c: Cidr): boolean {
  return PRIVATE_BLOCKS.some((block) => cidrContains(block, c));
}
