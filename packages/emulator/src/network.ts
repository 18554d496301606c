/**
 * Address arithmetic shared by the networking and compute areas: CIDR parsing and
 * normalisation, RFC 1918 checks (VPC ranges), private address allocation inside a VPC, and the
 * public pools floating IPs are drawn from (documentation ranges, so nothing real is implied).
 */
import type { Services } from "./core/services";

export { parseIp, formatIp, parseCidr, formatCidr, cidrContains, isRfc1918, type Cidr } from "./cidr";
import { parseCidr, formatIp } from "./cidr";

/**
 * The next free host address in a VPC range (skipping the network address, the first host,
 * which is the gateway, and the broadcast address); null when the range is full.
 */
export function allocateInRange(range: string, taken: Iterable<string>): string | null {
  const c = parseCidr(range);
  if (!c || c.family !== "IPv4") return null;
  const used = new Set(taken);
  const size = 1n << BigInt(32 - c.prefix);
  for (let i = 2n; i < size - 1n; i++) {
    const candidate = formatIp("IPv4", c.network + i);
    if (!used.has(candidate)) return candidate;
  }
  return null;
}

/** Public pools for floating IPs (RFC 5737 / RFC 3849 documentation ranges). */
const POOLS = { IPv4: ["203.0.113.0/24", "198.51.100.0/24", "192.0.2.0/24"], IPv6: ["2001:db8:5c::/48"] } as const;

/** A public address of the family no floating IP holds yet. */
export function allocatePublicAddress(services: Services, family: "IPv4" | "IPv6"): string {
  const used = new Set(services.store.t.floatingIps.all().map((ip) => ip.address));
  for (const pool of POOLS[family]) {
    const c = parseCidr(pool)!;
    const bits = (family === "IPv4" ? 32 : 128) - c.prefix;
    const span = family === "IPv4" ? (1n << BigInt(bits)) - 2n : 1n << 32n;
    for (let attempt = 0; attempt < 4096; attempt++) {
      const offset = family === "IPv4" ? BigInt(services.store.rng.int(2, Number(span))) : BigInt(services.store.rng.next32()) + 1n;
      const candidate = formatIp(family, c.network + offset);
      if (!used.has(candidate)) return candidate;
    }
  }
  throw new Error(`internal: the ${family} floating IP pools are exhausted`);
}
