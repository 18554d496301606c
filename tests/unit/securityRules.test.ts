/**
 * The security pack's rules (policy/security/rules.ts), each decision as a table: what it reads,
 * both faces' type tokens, secrets and values unknown at preview (values.ts), and that the guide
 * lists every rule with its default level.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import {
  adminPortOpen,
  describe as describeFinding,
  fromAnywhere,
  instanceExposed,
  inviteAdministrator,
  plainSecret,
  RULES,
  secretLooking,
  sshPasswordLogin,
  tokenLifetime,
  tokenWorkspaceWrite,
  workspaceMfa,
  type Subject,
} from "../../policy/security/rules";
import { exportedSubject } from "../../policy/security/subjects";
import { readValue, Secret, UNKNOWN } from "../../policy/security/values";

const s = (kind: string, name: string, props: Record<string, unknown>, more: Partial<Subject> = {}): Subject => ({
  urn: `urn:pulumi:e2e::p::svc:index:${kind}::${name}`,
  name,
  kind,
  props,
  dependsOn: {},
  ...more,
});
/** The fields a rule's findings name (what the table compares). */
const fields = (findings: Array<{ field: string }>) => findings.map((f) => f.field);

describe("svc-firewall-admin-port-open", () => {
  const rule = (props: Record<string, unknown>) =>
    fields(
      adminPortOpen.decide(s("FirewallRule", "r", { type: "IPv4", protocol: "TCP", action: "ACCEPT", ...props }), adminPortOpen.defaults),
    );
  it.each<[string, Record<string, unknown>, string[]]>([
    ["SSH with no remote (the API's default is anywhere)", { portStart: 22 }, ["remote"]],
    ["SSH from 0.0.0.0/0", { portStart: 22, remote: "0.0.0.0/0" }, ["remote"]],
    ["RDP from ::/0", { type: "IPv6", portStart: 3389, remote: "::/0" }, ["remote"]],
    ["a range over PostgreSQL", { portStart: 5000, portEnd: 6000, remote: "0.0.0.0/0" }, ["remote"]],
    ["every port (no portStart)", {}, ["remote"]],
    ["UDP on an admin port", { protocol: "UDP", portStart: 3389 }, ["remote"]],
    ["SSH from an admin range", { portStart: 22, remote: "203.0.113.0/24" }, []],
    ["HTTP from anywhere", { portStart: 8080 }, []],
    ["a DROP rule", { action: "DROP", portStart: 22 }, []],
    ["ICMP", { protocol: "ICMP" }, []],
    ["a remote unknown at preview", { portStart: 22, remote: UNKNOWN }, []],
    ["a port unknown at preview", { portStart: UNKNOWN }, []],
    ["a secret remote of anywhere", { portStart: 22, remote: new Secret("0.0.0.0/0") }, ["remote"]],
  ])("%s", (_name, props, expected) => {
    expect(rule(props)).toEqual(expected);
  });

  it("names the ports and the fix; `ports` in the config replaces the list", () => {
    const [finding] = adminPortOpen.decide(
      s("FirewallRule", "db", { protocol: "TCP", action: "ACCEPT", portStart: 5432 }),
      adminPortOpen.defaults,
    );
    expect(describeFinding(s("FirewallRule", "db", {}), finding)).toBe(
      "db (FirewallRule): remote is not set (the API's default is 0.0.0.0/0 or ::/0): TCP port 5432 (PostgreSQL) accepted from anywhere. Fix: set remote to the range administrators connect from (a VPN or office CIDR), or reach the port over a VPC instead.",
    );
    expect(adminPortOpen.decide(s("FirewallRule", "db", { protocol: "TCP", action: "ACCEPT", portStart: 5432 }), { ports: [22] })).toEqual(
      [],
    );
  });

  it.each<[unknown, boolean | undefined]>([
    [undefined, true],
    ["0.0.0.0/0", true],
    ["::/0", true],
    ["10.0.0.0/8", false],
    ["0.0.0.0/1", false],
    [UNKNOWN, undefined],
  ])("remote %p is from anywhere: %p", (remote, expected) => {
    expect(fromAnywhere(remote)).toBe(expected);
  });
});

describe("svc-instance-exposed (stack)", () => {
  const web = (props: Record<string, unknown>, more: Partial<Subject> = {}) => s("Instance", "web", props, more);
  const ruleFor = (urn: string) => s("FirewallRule", "web-ssh", { instanceId: UNKNOWN }, { dependsOn: { instanceId: [urn] } });
  const decide = (subjects: Subject[]) => instanceExposed.decide(subjects, {}).map((f) => `${f.subject!.name}.${f.field}: ${f.problem}`);
  const instance = web({ firewallEnabled: true });
  it.each<[string, Subject[], RegExp[]]>([
    ["firewall on with a rule (linked by property dependency)", [instance, ruleFor(instance.urn)], []],
    ["firewall on, no rule", [instance], [/web.firewallEnabled: is true but no FirewallRule/]],
    [
      "firewall off, with a rule",
      [web({ firewallEnabled: false }), ruleFor(instance.urn)],
      [/is false while the instance has a public address/],
    ],
    ["firewall not set (default addresses)", [web({})], [/is not set while .*one IPv4 and one IPv6/]],
    ["no public address (ips: [])", [web({ ips: [] })], []],
    ["recorded with no address", [web({ ipAddresses: [] })], []],
    ["recorded addresses are named", [web({ firewallEnabled: false, ipAddresses: [{ address: "198.51.100.7" }] })], [/198\.51\.100\.7/]],
    [
      "no own address, but a floating IP the stack attaches",
      [web({ ips: [] }), s("FloatingIpAttachment", "ip", {}, { dependsOn: { instanceId: [instance.urn] } })],
      [/an attached floating IP/],
    ],
    [
      "a rule linked by id (recorded state)",
      [web({ firewallEnabled: true }, { id: "77" }), s("FirewallRule", "r", { instanceId: "77" })],
      [],
    ],
    ["firewallEnabled unknown at preview", [web({ firewallEnabled: UNKNOWN })], []],
  ])("%s", (_name, subjects, expected) => {
    const found = decide(subjects);
    expect(found).toHaveLength(expected.length);
    expected.forEach((re, i) => expect(found[i]).toMatch(re));
  });
});

describe("svc-token-lifetime and svc-token-workspace-write", () => {
  const token = (props: Record<string, unknown>) => s("ApiToken", "ci", props);
  it.each<[string, Record<string, unknown>, number, string[]]>([
    ["90 days, maximum 90", { expiresInDays: 90 }, 90, []],
    ["365 days, maximum 90", { expiresInDays: 365 }, 90, ["expiresInDays"]],
    ["365 days, maximum 365", { expiresInDays: 365 }, 365, []],
    ["recorded with no expiry (adopted)", { expiresInDays: 0, expires: null }, 90, ["expires"]],
    ["days unknown at preview", { expiresInDays: UNKNOWN }, 90, []],
  ])("lifetime: %s", (_name, props, maxDays, expected) => {
    expect(fields(tokenLifetime.decide(token(props), { maxDays }))).toEqual(expected);
  });

  it.each<[string, Record<string, unknown>, string[]]>([
    ["WRITE on WORKSPACE", { WORKSPACE: "WRITE" }, ["grants.WORKSPACE"]],
    ["READ on WORKSPACE", { WORKSPACE: "READ", INSTANCE: "WRITE" }, []],
    ["WRITE elsewhere", { APP: "WRITE" }, []],
    ["grants unknown", UNKNOWN as never, []],
  ])("grants: %s", (_name, grants, expected) => {
    expect(fields(tokenWorkspaceWrite.decide(token({ grants }), {}))).toEqual(expected);
  });
});

describe("svc-plain-secret", () => {
  const decide = (kind: string, environment: unknown, config = plainSecret.defaults) =>
    fields(plainSecret.decide(s(kind, "web", { environment }), config));
  it.each<[string, string, unknown, string[]]>([
    ["a plain password", "K3sService", { DB_PASSWORD: "hunter22", APP_ENV: "production" }, ["environment.DB_PASSWORD"]],
    ["an app's plain API key", "App", { STRIPE_API_KEY: "sk_live_1" }, ["environment.STRIPE_API_KEY"]],
    [
      "camelCase and compound names",
      "App",
      { clientSecret: "x", DBPASSWORD: "y", authToken: "z" },
      ["environment.clientSecret", "environment.DBPASSWORD", "environment.authToken"],
    ],
    ["a Pulumi secret value", "K3sService", { DB_PASSWORD: new Secret("hunter22") }, []],
    ["the whole environment secret", "K3sService", new Secret({ DB_PASSWORD: "hunter22" }), []],
    ["a value unknown at preview", "K3sService", { DB_PASSWORD: UNKNOWN }, []],
    ["a template placeholder (made by the API at deploy)", "App", { ADMIN_PASSWORD: "{{random:32}}" }, []],
    ["an empty value or null", "App", { API_TOKEN: "", SECRET: null }, []],
    ["names that only contain a short word", "K3sService", { MONKEY_COUNT: "3", TOKENIZER: "bpe", KEYBOARD: "us" }, []],
    ["no environment", "K3sService", undefined, []],
  ])("%s", (_name, kind, environment, expected) => {
    expect(decide(kind, environment)).toEqual(expected);
  });

  it("`ignore` and `names` in the config", () => {
    expect(decide("App", { SSH_PUBLIC_KEY: "ssh-ed25519 AAAA" }, { ...plainSecret.defaults, ignore: ["SSH_PUBLIC_KEY"] })).toEqual([]);
    expect(decide("App", { PIN: "1234" }, { names: ["PIN"], ignore: [] })).toEqual(["environment.PIN"]);
  });

  it.each<[string, boolean]>([
    ["DATABASE_PASSWORD", true],
    ["db-passwd", true],
    ["AWS_SECRET_ACCESS_KEY", true],
    ["GITHUB_TOKEN", true],
    ["APP_ENV", false],
    ["PORT", false],
  ])("%s looks secret: %p", (name, expected) => {
    expect(secretLooking(name, plainSecret.defaults.names)).toBe(expected);
  });
});

describe("svc-workspace-mfa, svc-invite-administrator, svc-ssh-password-login", () => {
  it.each<[unknown, string[]]>([
    [true, []],
    [false, ["mfaRequired"]],
    [undefined, ["mfaRequired"]],
    [UNKNOWN, []],
  ])("mfaRequired %p", (mfaRequired, expected) => {
    expect(fields(workspaceMfa.decide(s("Workspace", "team", { mfaRequired }), {}))).toEqual(expected);
  });

  it.each<[string, string[]]>([
    ["ADMINISTRATOR", ["accessLevel"]],
    ["EDITOR", []],
    ["VIEWER", []],
  ])("an invite as %s", (accessLevel, expected) => {
    expect(fields(inviteAdministrator.decide(s("WorkspaceInvite", "ann", { accessLevel }), {}))).toEqual(expected);
  });

  const ws = (disableSshPassword: unknown) => s("Workspace", "team", { disableSshPassword });
  const key = (to: Subject) => s("SshKey", "deploy", {}, { dependsOn: { workspaceId: [to.urn] } });
  it.each<[string, Subject[], string[]]>([
    ["keys, passwords still allowed", [ws(false), key(ws(false))], ["disableSshPassword"]],
    ["keys, passwords disabled", [ws(true), key(ws(true))], []],
    ["no keys in the workspace", [ws(false), s("SshKey", "other", {})], []],
  ])("%s", (_name, subjects, expected) => {
    expect(fields(sshPasswordLogin.decide(subjects, {}))).toEqual(expected);
  });
});

describe("reading what the engine and pulumi stack export hold", () => {
  it("keeps secrets and unknowns apart, leaves internal keys out", () => {
    const sig = "4dabf18193072939515e22adb298388d";
    const secret = "1b47061264138c4ac30d75fd1eb44270";
    expect(
      readValue({
        __provider: "exports.handler = ...",
        remote: "04da6b54-80e4-46f7-96ec-b56ff0331ba9",
        environment: { A: { [sig]: secret, value: "x" }, B: { [sig]: secret, ciphertext: "AAAA" }, C: { [sig]: secret, plaintext: '"y"' } },
        redacted: "[secret]",
      }),
    ).toEqual({
      remote: UNKNOWN,
      environment: { A: new Secret("x"), B: new Secret(undefined), C: new Secret("y") },
      redacted: new Secret(undefined),
    });
  });

  it("takes both faces' type tokens, and only svc resources", () => {
    const dynamic = exportedSubject(
      { urn: "urn:pulumi:s::p::pulumi-nodejs:dynamic/svc:FirewallRule::a", type: "pulumi-nodejs:dynamic/svc:FirewallRule", inputs: {} },
      "inputs",
    );
    const plugin = exportedSubject(
      { urn: "urn:pulumi:s::p::svc:index:FirewallRule::b", type: "svc:index:FirewallRule", outputs: {} },
      "outputs",
    );
    expect([dynamic?.kind, dynamic?.name, plugin?.kind, plugin?.name]).toEqual(["FirewallRule", "a", "FirewallRule", "b"]);
    expect(exportedSubject({ urn: "urn:pulumi:s::p::pulumi:pulumi:Stack::p-s", type: "pulumi:pulumi:Stack" }, "outputs")).toBeUndefined();
  });
});

describe("the guide", () => {
  it("lists every rule with its default level, in the table's order", () => {
    const guide = fs.readFileSync(path.join(__dirname, "..", "..", "docs", "guides", "security.md"), "utf8");
    const listed = [...guide.matchAll(/^\| `(svc-[a-z-]+)` \| (advisory|mandatory) \|/gm)].map((m) => `${m[1]} ${m[2]}`);
    expect(listed).toEqual(RULES.map((r) => `${r.name} ${r.level}`));
  });
});
