/**
 * Logical names from the API's names: a slug of the object's own name, or, for the kinds the API
 * gives no name, one made from the objects it ties (a firewall rule `web-1-tcp-80`, a membership
 * `db-1-in-app-net`). Unique across the import, and the same from run to run for the same
 * workspace: a name more than one object would take is qualified by its kind (`vpc-web`,
 * `instance-web`), and where that is not enough, by the object's id. Pure functions, tested as a
 * table (tests/unit/importer/names.test.ts).
 */

/** An object to name: its kind, id, the API's name, and its declaration (the inputs that tie it to others). */
export interface Nameable {
  kind: string;
  id: string;
  apiName?: string;
  declaration: Record<string, unknown>;
  outputs: Record<string, unknown>;
}

/** Lower-case letters, digits and single hyphens, starting with a letter (`Web Server #1` -> `web-server-1`). */
export function slug(text: string): string {
  const s = text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return /^[a-z]/.test(s) ? s : `x-${s}`;
}

/** The kind as a slug: `NetLoadBalancerMember` -> `net-load-balancer-member`. */
const kindSlug = (kind: string) => kind.replace(/([a-z0-9])([A-Z])/g, "$1-$2").toLowerCase();

type Lookup = (kind: string, id: unknown) => string;

/** How each nameless kind is named from what it ties, by the names already given to those objects. */
const FROM_TIES: Record<string, (o: Nameable, nameOf: Lookup) => string> = {
  FirewallRule: ({ declaration: d }, nameOf) => {
    const ports = d.portStart === undefined ? "" : `-${d.portStart}${d.portEnd === undefined ? "" : `-${d.portEnd}`}`;
    return `${nameOf("Instance", d.instanceId)}-${String(d.protocol)}${ports}${d.type === "IPv6" ? "-v6" : ""}`;
  },
  VpcAttachment: ({ declaration: d }, nameOf) => `${nameOf("Instance", d.instanceId)}-in-${nameOf("Vpc", d.vpcId)}`,
  FloatingIp: ({ outputs }) => `ip-${String(outputs.address)}`,
  FloatingIpAttachment: ({ declaration: d }, nameOf) => `${nameOf("FloatingIp", d.ipId)}-on-${nameOf("Instance", d.instanceId)}`,
  K3sCluster: () => "cluster",
  K3sNode: ({ declaration: d }, nameOf) => `${nameOf("Instance", d.instanceId)}-node`,
  NetLoadBalancerMember: ({ declaration: d }, nameOf) =>
    `${nameOf("NetLoadBalancer", d.loadBalancerId)}-${nameOf("Instance", d.instanceId)}`,
  BgpConfig: () => "bgp",
  BgpPrefix: ({ outputs }) => `bgp-${String(outputs.prefix)}`,
  RegistryCredential: ({ outputs }) => String(outputs.registry),
  Snapshot: ({ outputs }) => `snapshot-${String(outputs.name)}`,
};

/** Names the generated programs use for themselves (the config object, the SDK modules, Go's context): never a resource's. */
const RESERVED = ["config", "cfg", "pulumi", "svc", "ctx", "err"];

/** Kinds named from others' names go after those: attachments after what they attach. */
const ORDER = ["FloatingIp", "FirewallRule", "VpcAttachment", "FloatingIpAttachment", "K3sNode", "NetLoadBalancerMember"];

/**
 * A unique logical name for each object (same order as given). Objects a tie names but the import
 * leaves out are named by their kind and id (`instance-7301`).
 */
export function logicalNames(objects: Nameable[]): string[] {
  const rank = (o: Nameable) => ORDER.indexOf(o.kind);
  const byKey = new Map<string, string>();
  const key = (kind: string, id: unknown) => `${kind}:${String(id)}`;
  const nameOf: Lookup = (kind, id) => byKey.get(key(kind, id)) ?? `${kindSlug(kind)}-${String(id)}`;
  // Own names first, then the tied kinds in ORDER, so a name is there before another is made from it.
  for (const tier of [-1, ...ORDER.map((_, i) => i)]) {
    const these = objects.filter((o) => rank(o) === tier);
    const bases = these.map((o): [Nameable, string] => [
      o,
      slug(FROM_TIES[o.kind]?.(o, nameOf) ?? o.apiName ?? `${kindSlug(o.kind)}-${o.id}`),
    ]);
    for (const [o, name] of unique(bases, new Set([...RESERVED, ...byKey.values()]))) byKey.set(key(o.kind, o.id), name);
  }
  return objects.map((o) => byKey.get(key(o.kind, o.id))!);
}

/**
 * The final names of one tier: a base name more than one object takes, or one an earlier tier
 * took, is qualified by the kind, then by the id where the kind is not enough.
 */
function unique(tier: Array<[Nameable, string]>, taken: Set<string>): Array<[Nameable, string]> {
  const clash = (names: Array<[Nameable, string]>, name: string) => taken.has(name) || names.filter(([, n]) => n === name).length > 1;
  const qualified = tier.map(([o, base]): [Nameable, string] => [o, clash(tier, base) ? `${kindSlug(o.kind)}-${base}` : base]);
  return qualified.map(([o, name]) => [o, clash(qualified, name) ? `${name}-${o.id}` : name]);
}
