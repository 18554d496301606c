/**
 * The stacks whose state an older package recorded (tests/e2e/upgrade/*.json, written by
 * record.ts) and the current package must take over without a change (upgrade.test.ts): the three
 * TypeScript examples as users wrote them, the YAML quickstart through the provider plugin, and two
 * scenario stacks for the kinds no example declares. Together they declare every kind in
 * resources/kinds.ts (upgrade.test.ts checks).
 */
import * as path from "node:path";
import { ref, secret, type Declaration } from "../harness";

const EXAMPLES = path.resolve(__dirname, "..", "..", "..", "examples");

export interface UpgradeStack {
  /** The fixture's file name (`<name>.json`) and the project directory's prefix. */
  name: string;
  /** An example's directory; the scenario program when absent. */
  programDir?: string;
  /** The scenario program's declarations. */
  declarations?: Declaration[];
  /** Stack configuration the program reads (secret values). */
  secretConfig?: Record<string, string>;
  /** Use the emulator's operator token (Administrator-only kinds). */
  staff?: boolean;
}

const GiB = 1024 ** 3;
const plan = { lookup: "getPlanOutput", name: "plan", args: { name: "lightning-1" } };

export const UPGRADE_STACKS: UpgradeStack[] = [
  {
    name: "quickstart",
    programDir: path.join(EXAMPLES, "quickstart"),
    secretConfig: { "svc-quickstart:dbPassword": "upgrade-db-pw" },
  },
  { name: "web-tier", programDir: path.join(EXAMPLES, "web-tier"), staff: true }, // its load balancer is Administrator-only
  { name: "app-platform", programDir: path.join(EXAMPLES, "app-platform") },
  // The quickstart again in YAML: the provider plugin's state (svc:index:*), not the dynamic face's.
  {
    name: "yaml-quickstart",
    programDir: path.join(EXAMPLES, "yaml-quickstart"),
    secretConfig: { "svc-yaml-quickstart:dbPassword": "upgrade-db-pw" },
  },
  {
    name: "kinds",
    declarations: [
      plan,
      { type: "Workspace", name: "ws", args: { name: "upgrade-team" } },
      { type: "WorkspaceInvite", name: "invite", args: { workspaceId: ref("ws.id"), email: "member@example.com", accessLevel: "VIEWER" } },
      { type: "ApiToken", name: "token", args: { name: "ci-deploy", expiresInDays: 30, grants: { WORKSPACE: "READ", INSTANCE: "WRITE" } } },
      {
        type: "SshKey",
        name: "key",
        args: {
          name: "upgrade-key",
          publicKey: "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIAcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcH upgrade@host",
        },
      },
      { type: "Instance", name: "vm", args: { name: "upgrade-vm", planId: ref("plan.result.id"), region: "NA_01" } },
      {
        type: "ApiToken",
        name: "agent",
        args: { name: "vm-agent", expiresInDays: 60, grants: { INSTANCE: "READ" }, subject: "RESOURCE", subjectId: ref("vm.id") },
      },
      {
        type: "Disk",
        name: "data",
        args: { name: "upgrade-data", size: 10 * GiB, backend: "LOCAL", region: "NA_01", instanceId: ref("vm.id") },
      },
      { type: "Snapshot", name: "snap", args: { instanceId: ref("vm.id") } },
      { type: "BgpConfig", name: "bgp", args: { asn: 64512, password: secret("upgrade-bgp-secret"), maxPrefixes: 3 } },
      { type: "BgpPrefix", name: "pfx", args: { prefix: "198.51.100.0/24", configId: ref("bgp.id") } },
    ],
  },
  {
    name: "staff",
    staff: true,
    declarations: [
      { type: "Coupon", name: "welcome", args: { amount: 5_000_000, uses: 2, code: "Upgrade-2026", note: "upgrade" } },
      {
        type: "AppTemplate",
        name: "tpl",
        args: {
          name: "Upgrade Dashboard",
          description: "Internal dashboard.",
          image: "grafana/grafana:11.2.0",
          category: "MONITORING",
          environment: [{ key: "GF_SERVER_HTTP_PORT", value: "{{container_port.web}}", description: "listen port" }],
          ports: [{ name: "web", containerPort: 3000, http: true }],
        },
      },
    ],
  },
];

/** What a fixture holds: the older package's stack and the emulator it ran against, as they were left. */
export interface UpgradeFixture {
  /** The commit of this repository whose package recorded the state. */
  recordedWith: string;
  /** The emulator's URL and the project directory at recording, put back to the replay's own. */
  baseUrl: string;
  projectDir: string;
  /** `pulumi stack export` after `up`. */
  deployment: unknown;
  /** The emulator's state file (`--state`) after `up`. */
  emulator: unknown;
}

export const fixturePath = (stack: UpgradeStack) => path.join(__dirname, `${stack.name}.json`);

/** Emulator settings at recording and replay: workflows as in the other e2e files, one seed. */
export const UPGRADE_EMULATOR = { workflowMs: 150, seed: 4242 };
