/**
 * IP address and CIDR arithmetic: parsing, canonical text, containment and the RFC 1918 check,
 * for the provider's preview checks (VPC ranges, firewall CIDRs, BGP prefixes). The emulator has
 * its own (packages/emulator/src/cidr.ts), written apart on purpose as the oracle these are tested against;
 * tests/unit/normalisation.test.ts holds the two to the same answers.
 */
export interface Cidr {
  family: "IPv4" | "IPv6";
  /** Network address as a bigint. */
  network: bigint;
  prefix: number;
}

function parseIpv4(text: string): bigint | null {
  const parts = text.split(".");
  if (parts.length !== 4) return null;
  let v = 0n;
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p) || Number(p) > 255) return null;
    v = (v << 8n) | BigInt(Number(p));
  }
  return v;
}

function parseIpv6(text: string): bigint | null {
  if (!/^[0-9a-fA-F:]+$/.test(text) || text.split("::").length > 2) return null;
  const [head, tail] = text.includes("::") ? text.split("::") : [text, null];
  const h = head ? head.split(":") : [];
  const t = tail ? tail.split(":") : [];
  const missing = 8 - h.length - t.length;
  if (tail === null ? h.length !== 8 : missing < 1) return null;
  const groups = [...h, ...Array(tail === null ? 0 : missing).fill("0"), ...t];
  let v = 0n;
  for (const g of groups) {
    if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return null;
    v = (v << 16n) | BigInt(parseInt(g, 16));
  }
  return v;
}

export function parseIp(text: string): { family: "IPv4" | "IPv6"; value: bigint } | null {
  const v4 = parseIpv4(text);
  if (v4 !== null) return { family: "IPv4", value: v4 };
  const v6 = parseIpv6(text);
  if (v6 !== null) return { family: "IPv6", value: v6 };
  return null;
}

export function formatIp(family: "IPv4" | "IPv6", value: bigint): string {
  if (family === "IPv4") return [24n, 16n, 8n, 0n].map((s) => String((value >> s) & 255n)).join(".");
  const groups: string[] = [];
  for (let s = 112n; s >= 0n; s -= 16n) groups.push(((value >> s) & 0xffffn).toString(16));
  // Compress the longest run of zero groups.
  let best = { start: -1, len: 0 };
  for (let i = 0; i < 8; ) {
    if (groups[i] !== "0") {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === "0") j++;
    if (j - i > best.len && j - i > 1) best = { start: i, len: j - i };
    i = j;
  }
  if (best.start < 0) return groups.join(":");
  return `${groups.slice(0, best.start).join(":")}::${groups.slice(best.start + best.len).join(":")}`;
}

/** Parses "a.b.c.d/n" or "x::/n"; a bare address is a host route (/32 or /128). */
export function parseCidr(text: string): Cidr | null {
  const [addr, len, extra] = text.trim().split("/");
  if (extra !== undefined) return null;
  const ip = parseIp(addr);
  if (!ip) return null;
  const max = ip.family === "IPv4" ? 32 : 128;
  const prefix = len === undefined ? max : /^\d{1,3}$/.test(len) ? Number(len) : NaN;
  if (!Number.isInteger(prefix) || prefix < 0 || prefix > max) return null;
  const hostBits = BigInt(max - prefix);
  const network = (ip.value >> hostBits) << hostBits;
  return { family: ip.family, network, prefix };
}

/** The canonical text of a CIDR: the network address (host bits cleared) and the prefix. */
export function formatCidr(c: Cidr): string {
  return `${formatIp(c.family, c.network)}/${c.prefix}`;
}

const RFC1918 = ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16"].map((c) => parseCidr(c)!);

export function cidrContains(outer: Cidr, inner: Cidr): boolean {
  if (outer.family !== inner.family || inner.prefix < outer.prefix) return false;
  const max = outer.family === "IPv4" ? 32n : 128n;
  const shift = max - BigInt(outer.prefix);
  return inner.network >> shift === outer.network >> shift;
}

export function isRfc1918(c: Cidr): boolean {
  return c.family === "IPv4" && RFC1918.some((r) => cidrContains(r, c));
}
