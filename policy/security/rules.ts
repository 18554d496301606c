/**
 * The security rules of the pack `pulumi-svc-security` (policy/security), one entry each: its
 * name, the one-line why (from the spec's own facts), the fix, its default enforcement level, its
 * configuration and its decision. Each decision is a pure function of the resources it reads (and
 * its configuration), answering findings: which field, what is wrong, how to fix it. pack.ts
 * wires them to the engine, analyze/ to a stack's current state; tests/unit/securityRules.test.ts
 * runs each as a table. docs/guides/security.md lists them; a test pins that list to this table.
 *
 * Resources are read as both faces show them: the kind from the type token (policy/pricing.ts
 * `kindOf`), the properties as values.ts reads them (secrets and unknowns kept apart). A value not
 * known yet never makes a finding: the rule decides once it is known (at the up, or the next
 * preview).
 */
import { isSecret, isUnknown, members, reveal } from "./values";

export type Level = "advisory" | "mandatory";

/** A resource as the rules see it. */
export interface Subject {
  urn: string;
  /** The resource's name in the program. */
  name: string;
  /** The svc kind (Instance, FirewallRule, ...). */
  kind: string;
  props: Record<string, unknown>;
  /** Its id where the engine shows one (a recorded resource), for links between resources. */
  id?: string;
  /** The URNs each property was computed from (the engine's property dependencies). */
  dependsOn: Record<string, string[]>;
}

/** What a rule found on one resource. */
export interface Finding {
  /** The resource at fault (a stack rule names it; a resource rule's is the one checked). */
  subject?: Subject;
  /** The property path, e.g. `environment.DB_PASSWORD`. */
  field: string;
  problem: string;
  fix: string;
}

interface RuleBase<C> {
  name: string;
  /** One line: why it matters, from the spec. */
  why: string;
  level: Level;
  /** JSON schema properties of the rule's configuration (besides enforcementLevel). */
  configSchema: Record<string, object>;
  defaults: C;
}

export interface ResourceRule<C = object> extends RuleBase<C> {
  scope: "resource";
  kinds: string[];
  decide(subject: Subject, config: C): Finding[];
}

/** A rule that spans resources: the engine runs it once the whole plan (or state) is known. */
export interface StackRule<C = object> extends RuleBase<C> {
  scope: "stack";
  decide(subjects: Subject[], config: C): Finding[];
}

export type Rule = ResourceRule<never> | StackRule<never>;

// ---------------------------------------------------------------------------------------------
// Firewall rules open to anywhere on an administrative port

/** Ports people administer a machine or a database through, by default (config `ports` replaces them). */
const ADMIN_PORTS: Record<number, string> = {
  22: "SSH",
  3389: "RDP",
  3306: "MySQL",
  5432: "PostgreSQL",
  1433: "SQL Server",
  1521: "Oracle",
  27017: "MongoDB",
  6379: "Redis",
  9200: "Elasticsearch",
  2375: "Docker API",
};

/**
 * Whether a source CIDR is everywhere: absent (spec part 3, Firewall rules: remote defaults to
 * 0.0.0.0/0 or ::/0) or a /0 of either family.
 */
export function fromAnywhere(remote: unknown): boolean | undefined {
  const value = reveal(remote);
  if (isUnknown(value)) return undefined;
  if (value === undefined || value === null || value === "") return true;
  return typeof value === "string" && /\/0+$/.test(value.trim());
}

/** The ports a TCP or UDP rule matches: portStart to portEnd, one port without portEnd, every port without portStart (spec part 3). */
function portRange(props: Record<string, unknown>): [number, number] | undefined {
  const start = reveal(props.portStart);
  const end = reveal(props.portEnd);
  if (isUnknown(start) || isUnknown(end)) return undefined;
  if (typeof start !== "number") return [1, 65535];
  return [start, typeof end === "number" ? end : start];
}

export interface AdminPortConfig {
  ports: number[];
}

export const adminPortOpen: ResourceRule<AdminPortConfig> = {
  name: "svc-firewall-admin-port-open",
  scope: "resource",
  kinds: ["FirewallRule"],
  why: "An ACCEPT rule from anywhere (no remote, 0.0.0.0/0, ::/0) on an administrative port lets the whole internet try SSH, RDP or a database's login.",
  level: "mandatory",
  configSchema: { ports: { type: "array", items: { type: "integer", minimum: 1, maximum: 65535 } } },
  defaults: { ports: Object.keys(ADMIN_PORTS).map(Number) },
  decide(subject, config) {
    const p = subject.props;
    if (reveal(p.action) !== "ACCEPT" || !["TCP", "UDP"].includes(reveal(p.protocol) as string)) return [];
    const range = portRange(p);
    if (!range || !fromAnywhere(p.remote)) return [];
    const open = config.ports.filter((port) => port >= range[0] && port <= range[1]).sort((a, b) => a - b);
    if (!open.length) return [];
    const named = open.map((port) => (ADMIN_PORTS[port] ? `${port} (${ADMIN_PORTS[port]})` : `${port}`)).join(", ");
    const remote = reveal(p.remote);
    return [
      {
        field: "remote",
        problem: `${remote ? `is ${remote}` : "is not set (the API's default is 0.0.0.0/0 or ::/0)"}: ${reveal(p.protocol)} port${open.length > 1 ? "s" : ""} ${named} accepted from anywhere`,
        fix: "set remote to the range administrators connect from (a VPN or office CIDR), or reach the port over a VPC instead",
      },
    ];
  },
};

// ---------------------------------------------------------------------------------------------
// Instances with a public address and no firewall in force

/**
 * Whether an instance has a public address: its recorded addresses where known, else what it asks
 * for (spec part 2, Instances: with `ips` omitted a plan grants one IPv4 and one IPv6), or a
 * floating IP the stack attaches to it.
 */
function publicAddress(instance: Subject, attached: boolean): string | undefined {
  if (attached) return "an attached floating IP";
  const recorded = reveal(instance.props.ipAddresses);
  if (Array.isArray(recorded)) {
    const addresses = recorded.map((ip) => reveal(members(ip).address)).filter((a) => typeof a === "string");
    return addresses.length ? addresses.join(", ") : undefined;
  }
  const asked = reveal(instance.props.ips);
  if (isUnknown(asked)) return undefined;
  if (asked === undefined || asked === null) return "one IPv4 and one IPv6 (the default when ips is not set)";
  return Array.isArray(asked) && asked.length ? `${asked.length} floating IP(s) (ips)` : undefined;
}

/** Whether `from` refers to `to`: by its property dependency, or by id where both are known. */
function refersTo(from: Subject, property: string, to: Subject): boolean {
  if (from.dependsOn[property]?.includes(to.urn)) return true;
  const value = reveal(from.props[property]);
  return to.id !== undefined && typeof value === "string" && value === to.id;
}

export const instanceExposed: StackRule<object> = {
  name: "svc-instance-exposed",
  scope: "stack",
  why: "Firewall rules are enforced only while the instance's firewallEnabled is true, and traffic is dropped by default only once a rule exists (spec part 3, Firewall rules): a public instance without both takes every port from the internet.",
  level: "mandatory",
  configSchema: {},
  defaults: {},
  decide(subjects) {
    const rules = subjects.filter((s) => s.kind === "FirewallRule");
    const attachments = subjects.filter((s) => s.kind === "FloatingIpAttachment");
    const findings: Finding[] = [];
    for (const instance of subjects.filter((s) => s.kind === "Instance")) {
      const address = publicAddress(
        instance,
        attachments.some((a) => refersTo(a, "instanceId", instance)),
      );
      if (!address) continue;
      const enabled = reveal(instance.props.firewallEnabled);
      if (isUnknown(enabled)) continue;
      if (enabled !== true)
        findings.push({
          subject: instance,
          field: "firewallEnabled",
          problem: `is ${enabled === undefined ? "not set" : enabled} while the instance has a public address (${address}): its firewall rules are stored but not enforced`,
          fix: "set firewallEnabled: true",
        });
      else if (!rules.some((r) => refersTo(r, "instanceId", instance)))
        findings.push({
          subject: instance,
          field: "firewallEnabled",
          problem: `is true but no FirewallRule of this stack is for the instance, which has a public address (${address}): nothing is dropped until the first rule exists`,
          fix: "add FirewallRules (instanceId: this instance) that ACCEPT only what it serves",
        });
    }
    return findings;
  },
};

// ---------------------------------------------------------------------------------------------
// API tokens

export interface TokenLifetimeConfig {
  maxDays: number;
}

export const tokenLifetime: ResourceRule<TokenLifetimeConfig> = {
  name: "svc-token-lifetime",
  scope: "resource",
  kinds: ["ApiToken"],
  why: "An API token works until it expires or is deleted, and its plaintext cannot be shown again (spec part 1, Tokens): a long-lived one is a long-lived leak.",
  level: "advisory",
  configSchema: { maxDays: { type: "integer", minimum: 7, maximum: 365 } },
  defaults: { maxDays: 90 },
  decide(subject, config) {
    const expires = reveal(subject.props.expires);
    const days = reveal(subject.props.expiresInDays);
    // A recorded token with no expiry (one made outside Pulumi and adopted): spec part 1, `expires` null.
    if (expires === null)
      return [
        {
          field: "expires",
          problem: "is null: the token never expires",
          fix: `replace it with a token of expiresInDays <= ${config.maxDays}`,
        },
      ];
    if (typeof days === "number" && days > config.maxDays)
      return [
        {
          field: "expiresInDays",
          problem: `is ${days}, longer than the maximum of ${config.maxDays} days`,
          fix: `set expiresInDays to ${config.maxDays} or less and rotate it (a change replaces the token)`,
        },
      ];
    return [];
  },
};

export const tokenWorkspaceWrite: ResourceRule<object> = {
  name: "svc-token-workspace-write",
  scope: "resource",
  kinds: ["ApiToken"],
  why: "WRITE on WORKSPACE lets a token change the workspace itself, beyond the resources it was made for (spec part 1, Grants map).",
  level: "mandatory",
  configSchema: {},
  defaults: {},
  decide(subject) {
    if (reveal(members(subject.props.grants).WORKSPACE) !== "WRITE") return [];
    return [
      {
        field: "grants.WORKSPACE",
        problem: "is WRITE",
        fix: "grant WORKSPACE READ (or leave it out) and WRITE only on the kinds the token manages (INSTANCE, APP, ...)",
      },
    ];
  },
};

// ---------------------------------------------------------------------------------------------
// Secret-looking values in plain environments

export interface PlainSecretConfig {
  /** Words that make a variable's name look secret, matched against the name's parts. */
  names: string[];
  /** Variable names never reported (a public key, say). */
  ignore: string[];
}

/** The parts of a variable name: DB_PASSWORD, db-password, dbPassword -> DB, PASSWORD. */
const nameParts = (name: string) =>
  name
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toUpperCase()
    .split(/[^A-Z0-9]+/)
    .filter(Boolean);

/**
 * Whether a variable's name looks secret: one of its parts is a listed word, or contains one of
 * six letters or more (DBPASSWORD, CLIENTSECRET); shorter words (KEY, TOKEN) only as a whole part.
 */
export function secretLooking(name: string, words: string[]): boolean {
  const upper = words.map((w) => w.toUpperCase());
  return nameParts(name).some((part) => upper.some((w) => part === w || (w.length >= 6 && part.includes(w))));
}

/** A value worth reporting: a plain, non-empty string that is not only template placeholders (resolved by the API at deploy). */
const plainText = (v: unknown) => typeof v === "string" && v.trim() !== "" && !/^(\s*\{\{[^}]+\}\}\s*)+$/.test(v);

export const plainSecret: ResourceRule<PlainSecretConfig> = {
  name: "svc-plain-secret",
  scope: "resource",
  kinds: ["K3sService", "App"],
  why: "A service's or an app's environment is sent and stored as plain text, in the API and in the stack's state; a K3sSecret's values are never returned (spec part 3) and a Pulumi secret is encrypted in state.",
  level: "mandatory",
  configSchema: { names: { type: "array", items: { type: "string" } }, ignore: { type: "array", items: { type: "string" } } },
  defaults: { names: ["PASSWORD", "PASSWD", "SECRET", "TOKEN", "KEY", "APIKEY", "CREDENTIAL", "CREDENTIALS", "PRIVATE"], ignore: [] },
  decide(subject, config) {
    const environment = subject.props.environment;
    if (isSecret(environment)) return [];
    const fix =
      subject.kind === "K3sService"
        ? "move it into a K3sSecret and list that secret in secretRefs, or pass it as a Pulumi secret (config --secret, pulumi.secret)"
        : "pass it as a Pulumi secret (config --secret, pulumi.secret, fn::secret)";
    return Object.entries(members(environment))
      .filter(([name, value]) => !config.ignore.includes(name) && secretLooking(name, config.names) && !isSecret(value) && plainText(value))
      .map(([name]) => ({ field: `environment.${name}`, problem: "looks like a secret and is plain text", fix }));
  },
};

// ---------------------------------------------------------------------------------------------
// Workspaces, invites and SSH

export const workspaceMfa: ResourceRule<object> = {
  name: "svc-workspace-mfa",
  scope: "resource",
  kinds: ["Workspace"],
  why: "A workspace can require two-factor authentication of all its members (spec part 1, Authentication 7: mfa_required); without it one stolen password reaches everything in it.",
  level: "advisory",
  configSchema: {},
  defaults: {},
  decide(subject) {
    const required = reveal(subject.props.mfaRequired);
    if (required === true || isUnknown(required)) return [];
    return [
      {
        field: "mfaRequired",
        problem: required === false ? "is false" : "is not set",
        fix: "set mfaRequired: true once every member has two-factor authentication (the API refuses it before: spec part 1, Workspaces)",
      },
    ];
  },
};

export const inviteAdministrator: ResourceRule<object> = {
  name: "svc-invite-administrator",
  scope: "resource",
  kinds: ["WorkspaceInvite"],
  why: "An ADMINISTRATOR creates instances, workspace tokens and invites and deletes what the workspace holds (spec part 1, Tokens and Invites): the highest role an invite can give.",
  level: "advisory",
  configSchema: {},
  defaults: {},
  decide(subject) {
    if (reveal(subject.props.accessLevel) !== "ADMINISTRATOR") return [];
    return [
      {
        field: "accessLevel",
        problem: "is ADMINISTRATOR",
        fix: "invite as EDITOR (or VIEWER) unless the person must manage members and tokens",
      },
    ];
  },
};

export const sshPasswordLogin: StackRule<object> = {
  name: "svc-ssh-password-login",
  scope: "stack",
  why: "With SSH keys in a workspace, disable_ssh_password turns off password logins on its instances (spec part 1, Workspaces); left off, a guessed root password still opens them.",
  level: "advisory",
  configSchema: {},
  defaults: {},
  decide(subjects) {
    const keys = subjects.filter((s) => s.kind === "SshKey");
    return subjects
      .filter((s) => s.kind === "Workspace" && keys.some((k) => refersTo(k, "workspaceId", s)))
      .filter((ws) => {
        const disabled = reveal(ws.props.disableSshPassword);
        return disabled !== true && !isUnknown(disabled);
      })
      .map((ws) => ({
        subject: ws,
        field: "disableSshPassword",
        problem: "is not true although the stack adds SSH keys to the workspace",
        fix: "set disableSshPassword: true",
      }));
  },
};

/** Every rule, in the order the documentation lists them. */
export const RULES: Rule[] = [
  adminPortOpen,
  instanceExposed,
  tokenLifetime,
  tokenWorkspaceWrite,
  plainSecret,
  workspaceMfa,
  inviteAdministrator,
  sshPasswordLogin,
] as Rule[];

/** One finding as people read it: the resource, the field, what is wrong, the fix. */
export function describe(subject: Subject, finding: Finding): string {
  const at = finding.subject ?? subject;
  return `${at.name} (${at.kind}): ${finding.field} ${finding.problem}. Fix: ${finding.fix}.`;
}
