/**
 * CIDR and registry host normalisation, one table of cases taken from the spec, run against both
 * sides: the provider's (provider/fields/cidr.ts, provider/fields/registryHost.ts, applied at preview) and the
 * emulator's own (packages/emulator/src/cidr.ts, packages/emulator/src/registryHost.ts, the server). The emulator is the
 * oracle the provider is tested against, so the two are written independently and must agree
 * here, case by case, with the spec.
 */
import * as providerCidr from "../../provider/fields/cidr";
import * as emulatorCidr from "pulumi-svc-emulator/cidr";
import { canonicalRegistryHost as providerHost } from "../../provider/fields/registryHost";
import { canonicalRegistryHost as emulatorHost } from "pulumi-svc-emulator/registryHost";

type CidrModule = Pick<typeof providerCidr, "parseCidr" | "formatCidr" | "cidrContains" | "isRfc1918" | "parseIp" | "formatIp">;

const cidrSides: Array<[string, CidrModule]> = [
  ["provider", providerCidr],
  ["emulator", emulatorCidr],
];

/**
 * [input, canonical form or null when it is not a CIDR, the spec's words it follows]
 * Part 3, VPC: "range (RFC 1918 private CIDR, normalised to the network address)"; GET /v1/vpcs/{vid}
 * answers the "normalised range". Part 3, firewall rule: remote "Source CIDR; default 0.0.0.0/0
 * (IPv4) or ::/0 (IPv6)". Part 3, BGP prefix entry: "prefix (CIDR string)".
 */
const CIDRS: Array<[string, string | null, string]> = [
  ["10.20.0.0/16", "10.20.0.0/16", "VPC range already at its network address"],
  ["10.20.30.40/16", "10.20.0.0/16", "VPC range normalised to the network address"],
  ["192.168.7.129/25", "192.168.7.128/25", "VPC range normalised to the network address"],
  ["172.31.255.255/12", "172.16.0.0/12", "VPC range normalised to the network address"],
  ["0.0.0.0/0", "0.0.0.0/0", "firewall remote default (IPv4)"],
  ["::/0", "::/0", "firewall remote default (IPv6)"],
  ["2001:db8:0:0:1::/48", "2001:db8::/48", "BGP prefix (IPv6 CIDR string), normalised"],
  ["2001:DB8:0:0:0:0:0:1/128", "2001:db8::1/128", "IPv6 CIDR in one form"],
  ["2001:db8:0:0:1:0:0:1/128", "2001:db8::1:0:0:1/128", "IPv6 CIDR in one form (RFC 5952: the first of equal zero runs)"],
  ["203.0.113.77/24", "203.0.113.0/24", "BGP prefix (IPv4 CIDR string), normalised"],
  ["10.0.0.0/33", null, "not a CIDR: prefix beyond 32"],
  ["2001:db8::/129", null, "not a CIDR: prefix beyond 128"],
  ["10.0.0.256/8", null, "not a CIDR: octet beyond 255"],
  ["10.0.0.0/8/1", null, "not a CIDR"],
  ["1:2:3:4:5:6:7:8:9/64", null, "not a CIDR: nine groups"],
  ["2001:db8::1::/64", null, "not a CIDR: two '::'"],
  ["vpc-range", null, "not a CIDR"],
];

/** Part 3, VPC: the range must be an "RFC 1918 private CIDR". */
const PRIVATE: Array<[string, boolean]> = [
  ["10.0.0.0/8", true],
  ["10.20.0.0/16", true],
  ["172.16.0.0/12", true],
  ["172.31.4.0/24", true],
  ["192.168.0.0/16", true],
  ["172.32.0.0/16", false],
  ["192.168.0.0/15", false],
  ["8.0.0.0/8", false],
  ["0.0.0.0/0", false],
  ["fd00::/8", false],
];

/** Part 3, firewall rule: local is a "Destination CIDR inside the instance address space"; remote defaults match everything. */
const CONTAINS: Array<[string, string, boolean]> = [
  ["0.0.0.0/0", "203.0.113.7/32", true],
  ["::/0", "2001:db8::7/128", true],
  ["0.0.0.0/0", "2001:db8::7/128", false],
  ["203.0.113.0/24", "203.0.113.128/25", true],
  ["203.0.113.128/25", "203.0.113.0/24", false],
  ["203.0.113.0/24", "198.51.100.0/24", false],
];

describe.each(cidrSides)("CIDR normalisation (%s)", (_side, cidr) => {
  it.each(CIDRS)("%s -> %s (%s)", (input, canonical) => {
    const parsed = cidr.parseCidr(input);
    expect(parsed === null ? null : cidr.formatCidr(parsed)).toBe(canonical);
  });

  it.each(PRIVATE)("RFC 1918: %s is private: %s", (input, expected) => {
    expect(cidr.isRfc1918(cidr.parseCidr(input)!)).toBe(expected);
  });

  it.each(CONTAINS)("%s contains %s: %s", (outer, inner, expected) => {
    expect(cidr.cidrContains(cidr.parseCidr(outer)!, cidr.parseCidr(inner)!)).toBe(expected);
  });
});

/**
 * [input, canonical host or null, the spec's words it follows]
 * Part 1, Registry credential: the host is "canonicalised by the server when created, so aliases
 * and full URLs normalise to one form"; POST .../registries takes "registry (string, required;
 * host, full URL or alias)".
 */
const HOSTS: Array<[string, string | null, string]> = [
  ["ghcr.io", "ghcr.io", "a host"],
  ["GHCR.io", "ghcr.io", "one form (case)"],
  ["https://ghcr.io/v2/", "ghcr.io", "a full URL"],
  ["https://registry.example.com:443/team/app?tag=1#top", "registry.example.com", "a full URL with its default port"],
  [
    "http://deploy@registry.example.com:5000/v2/",
    "registry.example.com:5000",
    "a full URL with user and a port that names another registry",
  ],
  ["registry.example.com.", "registry.example.com", "one form (trailing dot)"],
  ["index.docker.io", "docker.io", "an alias"],
  ["https://registry-1.docker.io/v2/library/nginx", "docker.io", "an alias in a full URL"],
  ["docker.io", "docker.io", "the canonical form of the alias"],
  ["", null, "no host"],
  ["https://", null, "no host"],
  ["not a host", null, "no host"],
  ["-bad-.example.com", null, "no host (label)"],
];

describe.each([
  ["provider", providerHost],
  ["emulator", emulatorHost],
])("registry host canonicalisation (%s)", (_side, canonical) => {
  it.each(HOSTS)("%j -> %j (%s)", (input, expected) => {
    expect(canonical(input)).toBe(expected);
  });
});
