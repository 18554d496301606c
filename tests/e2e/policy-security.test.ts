/**
 * The security pack (policy/security) through the real CLI, on both faces: a stack with one
 * violation of each rule is stopped at preview with every violation named (resource, field, fix),
 * or passes with each one listed as advisory when the configuration says so; the fixed stack
 * passes with none. Over what already exists (svc-policy-analyze): the firewall of an instance the
 * stack made is turned off in the API, `pulumi refresh` records it, and the report over the state
 * names it, through `pulumi policy analyze` and through `pulumi stack export` alike.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import { RULES } from "../../policy/security/rules";
import { PACKAGE_DIR, ref, secret, startE2E, type Declaration, type E2E, type Face } from "./harness";
import { ed25519 } from "../support/sshKeys";

jest.setTimeout(300_000);

const run = promisify(execFile);
const SECURITY = path.join(PACKAGE_DIR, "policy", "security");
const ANALYZE = path.join(PACKAGE_DIR, "dist", "policy", "analyze", "cli.js");

const PUBLIC_KEY = ed25519(7, "deploy@ci");

const lookups: Declaration[] = [
  { lookup: "getPlanOutput", name: "plan", args: { name: "lightning-2" } },
  { lookup: "getImageOutput", name: "image", args: { name: "Ubuntu 24.04 LTS" } },
];
const instance = (firewallEnabled: boolean): Declaration => ({
  type: "Instance",
  name: "web",
  args: { name: "web", planId: ref("plan.result.id"), imageId: ref("image.result.id"), region: "NA_01", firewallEnabled },
});

/** One violation of each rule (`fixed`: none), the names the pack reports them by. */
function stack(fixed: boolean): Declaration[] {
  const env = (value: string) => (fixed ? secret(value) : value);
  return [
    ...lookups,
    instance(fixed),
    {
      type: "FirewallRule",
      name: "ssh",
      args: {
        instanceId: ref("web.id"),
        type: "IPv4",
        protocol: "TCP",
        action: "ACCEPT",
        portStart: 22,
        ...(fixed ? { remote: "203.0.113.0/24" } : {}),
      },
    },
    {
      type: "ApiToken",
      name: "ci-token",
      args: { name: "ci-token", grants: { INSTANCE: "WRITE", WORKSPACE: fixed ? "READ" : "WRITE" }, expiresInDays: fixed ? 30 : 365 },
    },
    {
      type: "K3sService",
      name: "api",
      args: {
        name: "api",
        mode: "SPREAD",
        image: "nginx:1.27",
        targetInstanceIds: [ref("web.id")],
        environment: { APP_ENV: "production", DB_PASSWORD: env("hunter22") },
      },
    },
    { type: "Workspace", name: "team", args: { name: "team-space", mfaRequired: fixed, disableSshPassword: fixed } },
    { type: "SshKey", name: "deploy", args: { name: "deploy-key", publicKey: PUBLIC_KEY, workspaceId: ref("team.id") } },
    {
      type: "WorkspaceInvite",
      name: "ann",
      args: { email: "ann@example.com", accessLevel: fixed ? "EDITOR" : "ADMINISTRATOR", workspaceId: ref("team.id") },
    },
  ];
}

/** What each rule names in the violating stack: the resource (Kind) and the field. */
const NAMED: Record<string, string> = {
  "svc-firewall-admin-port-open": "ssh (FirewallRule): remote is 0.0.0.0/0: TCP port 22 (SSH) accepted from anywhere. Fix: set remote",
  "svc-instance-exposed":
    "web (Instance): firewallEnabled is false while the instance has a public address (one IPv4 and one IPv6 (the default when ips is not set)): its firewall rules are stored but not enforced. Fix: set firewallEnabled: true.",
  "svc-token-lifetime":
    "ci-token (ApiToken): expiresInDays is 365, longer than the maximum of 90 days. Fix: set expiresInDays to 90 or less",
  "svc-token-workspace-write": "ci-token (ApiToken): grants.WORKSPACE is WRITE. Fix: grant WORKSPACE READ",
  "svc-plain-secret":
    "api (K3sService): environment.DB_PASSWORD looks like a secret and is plain text. Fix: move it into a K3sSecret and list that secret in secretRefs",
  "svc-workspace-mfa": "team (Workspace): mfaRequired is false. Fix: set mfaRequired: true",
  "svc-invite-administrator": "ann (WorkspaceInvite): accessLevel is ADMINISTRATOR. Fix: invite as EDITOR",
  "svc-ssh-password-login":
    "team (Workspace): disableSshPassword is not true although the stack adds SSH keys to the workspace. Fix: set disableSshPassword: true.",
};

/** A --policy-pack-config file setting every rule to `level`. */
function allAt(e2e: E2E, level: string): string {
  const file = path.join(e2e.dir, `security-${level}.json`);
  fs.writeFileSync(file, JSON.stringify(Object.fromEntries(RULES.map((r) => [r.name, level]))));
  return file;
}

/** The CLI's output, joined: lines it wraps are compared as one. */
const oneLine = (text: string) => text.replace(/\s+/g, " ");

describe.each<[string, Face]>([
  ["TypeScript (dynamic resources)", "dynamic"],
  ["the provider plugin", "plugin"],
])("security pack on %s", (_name, face) => {
  let e2e: E2E;
  beforeAll(async () => {
    e2e = await startE2E(`policy-security-${face}`, { face });
  });
  afterAll(async () => {
    await e2e?.stop();
  });

  it("stops the preview of a stack with one violation of each rule, naming each (resource, field, fix)", async () => {
    const since = await e2e.lastSeq();
    const failure = await e2e.preview(stack(false), { policyPacks: [SECURITY] }).then(
      () => "",
      (err: Error) => err.message,
    );
    const text = oneLine(failure);
    expect(text).toMatch(/mandatory policy violations|preview failed/i);
    const kind = face === "plugin" ? "svc:index" : "pulumi-nodejs:dynamic/svc";
    for (const rule of RULES) {
      expect(text).toContain(`[${rule.level}] ${rule.name}`);
      expect(text).toContain(oneLine(NAMED[rule.name]));
    }
    expect(text).toContain(`${rule("svc-firewall-admin-port-open")} (${kind}:FirewallRule: ssh)`);
    // The plain APP_ENV beside it is not named.
    expect(text).not.toContain("environment.APP_ENV");
    expect(await e2e.mutations(since)).toEqual([]);
  });

  it("passes the same stack when every rule is advisory, listing each violation", async () => {
    const preview = await e2e.preview(stack(false), { policyPacks: [SECURITY], policyPackConfigs: [allAt(e2e, "advisory")] });
    const text = oneLine(preview.stdout);
    for (const rule of RULES) {
      expect(text).toContain(`[advisory] ${rule.name}`);
      expect(text).toContain(oneLine(NAMED[rule.name]));
    }
  });

  it("passes the fixed stack with no violation", async () => {
    const preview = await e2e.preview(stack(true), { policyPacks: [SECURITY] });
    for (const rule of RULES) expect(preview.stdout).not.toContain(rule.name);
  });
});

const rule = (name: string) => `[${RULES.find((r) => r.name === name)!.level}] ${name}`;

describe("over what already exists: a firewall turned off in the API, picked up by refresh", () => {
  let e2e: E2E;
  beforeAll(async () => {
    e2e = await startE2E("policy-security-state");
  });
  afterAll(async () => {
    await e2e?.stop();
  });

  const analyze = async (args: string[]) => {
    const env = { ...process.env, ...e2e.env };
    return run(process.execPath, [ANALYZE, "--stack", "e2e", ...args], { cwd: e2e.dir, env }).then(
      ({ stdout }) => ({ code: 0, out: stdout }),
      (err: { code: number; stdout: string; stderr: string }) => ({ code: err.code, out: err.stdout + err.stderr }),
    );
  };

  it("reports nothing mandatory over the state the fixed stack made, with its cost", async () => {
    await e2e.up([...lookups, instance(true), stack(true)[3]]);
    const report = await analyze([]);
    expect(report).toMatchObject({ code: 0 });
    expect(report.out).toContain("Policies over the current state of stack e2e (pulumi policy analyze):");
    expect(report.out).toMatch(/svc cost of stack e2e: \$[\d.]+\/month/);
    expect(report.out).toMatch(/web \(Instance\): \$[\d.]+\/month = plan lightning-2/);
    expect(report.out).toContain("0 mandatory, 0 advisory violation(s)");
  });

  // One refresh, then the report both ways it reads the state.
  it("names the instance whose firewall was turned off outside Pulumi, through pulumi policy analyze and through pulumi stack export", async () => {
    const id = await e2e.idOf("web");
    expect((await e2e.emu.api.patch(`/v1/instances/${id}`, { firewall_enabled: false })).status).toBe(200);
    await e2e.refresh();
    for (const [way, args] of [
      ["pulumi policy analyze", []],
      ["pulumi stack export", ["--from-export"]],
    ] as Array<[string, string[]]>) {
      const report = await analyze(args);
      expect({ way, code: report.code }).toEqual({ way, code: 1 });
      const text = oneLine(report.out);
      expect(text).toContain(`Policies over the current state of stack e2e (${way}):`);
      expect(text).toContain("[mandatory] svc-instance-exposed (pulumi-nodejs:dynamic/svc:Instance: web)");
      expect(text).toMatch(
        /web \(Instance\): firewallEnabled is false while the instance has a public address \([0-9a-f.:, ]+\): its firewall rules are stored but not enforced\. Fix: set firewallEnabled: true\./,
      );
      expect(text).toContain("1 mandatory, 0 advisory violation(s)");
    }
  });
});
