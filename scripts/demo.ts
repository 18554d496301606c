/**
 * `npm run demo`: the main job. Runs the quickstart (top-level Pulumi.yaml -> examples/quickstart)
 * with the real pulumi CLI: prints what it will cost (`pulumi preview --policy-pack policy`, the
 * package's policy pack), `pulumi up`, prints the outputs, shows that `pulumi preview` then
 * reports no changes, and destroys the stack.
 *
 * Against the embedded emulator by default; against a real API when SVC_BASE_URL and SVC_TOKEN
 * (and SVC_WORKSPACE_ID) are set. The stack lives in a temporary local file backend.
 */
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { LocalWorkspace, type OutputMap } from "@pulumi/pulumi/automation";
import { startEmulator, type RunningEmulator } from "pulumi-svc-emulator";
import { chooseCli, findPulumi, supportedRange } from "./demoCli";

const REPO = path.resolve(__dirname, "..", "..");
const POLICY_PACK = path.join(REPO, "policy");
const STACK = "demo";

const say = (text: string) => console.log(`\n\x1b[1m== ${text}\x1b[0m`);
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)}s`;

/** The directory a scripts/ensure-*.sh prints last (it obtains the tool once per machine). */
function ensure(script: string, ...args: string[]): string {
  const out = execFileSync("bash", [path.join(REPO, "scripts", script), ...args], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  return out.trim().split("\n").pop()!;
}

/**
 * The folder of the pulumi CLI the demo runs: the one on PATH when it will do (scripts/demoCli.ts),
 * else `version` with only the hosts the demo runs (ensure-pulumi.sh's `demo` set: a first demo
 * builds no more). Says which CLI in one line, and first why it is not the user's.
 */
function pulumiDir(version: string): string {
  const range = supportedRange(REPO);
  const choice = chooseCli(findPulumi(process.env.PATH ?? ""), range, Boolean(process.env.PULUMI_SVC_FORCE_BUILD));
  if (choice.use === "found") {
    console.log(`  using pulumi ${choice.version} at ${choice.path} (on PATH; the package supports ${range})`);
    return path.dirname(choice.path);
  }
  console.log(`  ${choice.why}: scripts/ensure-pulumi.sh builds pulumi ${version} (once per machine, minutes the first time)`);
  const dir = ensure("ensure-pulumi.sh", version, "demo");
  console.log(`  using pulumi ${version} at ${path.join(dir, "pulumi")}`);
  return dir;
}

/**
 * The folders to put first on PATH: the tests' default Node.js (the first entry of
 * scripts/matrix.js), which the programs, providers and policy pack the CLI starts run on, then the
 * CLI. Node.js comes first: a user's pulumi may sit in a folder with an older `node` (/usr/local/bin).
 */
function ensureToolchain(): string[] {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { MATRIX } = require(path.join(REPO, "scripts", "matrix.js")) as { MATRIX: Array<{ node: string; cli: string }> };
  const cli = pulumiDir(MATRIX[0].cli);
  return [ensure("ensure-node.sh", MATRIX[0].node), cli];
}

/** The pack's cost report among a preview's diagnostics: the stack's line and the one per resource. */
function costReport(previewOutput: string): string[] {
  const diagnostics = previewOutput.slice(previewOutput.indexOf("Diagnostics:"));
  return diagnostics.split("\n").filter((line) => /svc cost of stack |\(\w+\): \$[\d.]+\/month = |: not priced \(/.test(line));
}

function printOutputs(outputs: OutputMap): void {
  for (const [key, { value, secret }] of Object.entries(outputs)) {
    console.log(`  ${key}: ${secret ? "[secret]" : JSON.stringify(value, null, 2).replace(/\n/g, "\n  ")}`);
  }
}

async function main(): Promise<void> {
  const started = Date.now();
  say("pulumi CLI and Node.js");
  process.env.PATH = [...ensureToolchain(), process.env.PATH].join(path.delimiter);

  let emulator: RunningEmulator | undefined;
  let target: { url: string; token: string; workspaceId: string };
  if (process.env.SVC_BASE_URL && process.env.SVC_TOKEN) {
    if (!process.env.SVC_WORKSPACE_ID) throw new Error("SVC_WORKSPACE_ID is needed with SVC_BASE_URL and SVC_TOKEN");
    target = { url: process.env.SVC_BASE_URL, token: process.env.SVC_TOKEN, workspaceId: process.env.SVC_WORKSPACE_ID };
    say(`target: the API at ${target.url}`);
  } else {
    emulator = await startEmulator({ port: 0, workflowMs: 400 });
    target = emulator;
    say(`target: the embedded emulator at ${emulator.url} (workflows take 400 ms)`);
  }

  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-svc-demo-"));
  const envVars: Record<string, string> = {
    PULUMI_BACKEND_URL: `file://${path.join(scratch, "state")}`,
    PULUMI_HOME: path.join(scratch, "home"),
    PULUMI_CONFIG_PASSPHRASE: process.env.PULUMI_CONFIG_PASSPHRASE ?? "pulumi-svc-demo",
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    // The program is type-checked by `npm run lint`; transpile it only, for a quicker start.
    PULUMI_NODEJS_TRANSPILE_ONLY: "true",
  };
  fs.mkdirSync(path.join(scratch, "state"));
  fs.mkdirSync(path.join(scratch, "home"));

  const stack = await LocalWorkspace.createOrSelectStack(
    { stackName: STACK, workDir: REPO },
    { workDir: REPO, envVars, pulumiHome: envVars.PULUMI_HOME },
  );
  let failed = false;
  try {
    await stack.setAllConfig({
      "svc:baseUrl": { value: target.url },
      "svc:token": { value: target.token, secret: true },
      "svc:workspaceId": { value: target.workspaceId },
      "svc-quickstart:dbPassword": { value: randomBytes(12).toString("base64url"), secret: true },
    });

    say("what it will cost: pulumi preview --policy-pack policy");
    const estimate = await stack.preview({ policyPacks: [POLICY_PACK], color: "never" });
    const report = costReport(estimate.stdout);
    if (!report.length) failed = true;
    console.log(report.length ? report.join("\n") : "  the policy pack printed no estimate");

    say("pulumi up");
    const upStarted = Date.now();
    const up = await stack.up({ onOutput: (s) => process.stdout.write(s), color: "always" });
    const upMs = Date.now() - upStarted;
    say(`outputs (pulumi up took ${seconds(upMs)})`);
    printOutputs(up.outputs);

    say("pulumi preview (expecting no changes)");
    const preview = await stack.preview({ color: "always" });
    const changes = Object.entries(preview.changeSummary).filter(([op, n]) => op !== "same" && n > 0);
    if (changes.length) {
      failed = true;
      console.log(`  preview reports changes: ${JSON.stringify(preview.changeSummary)}`);
    } else {
      console.log(`  no changes: ${preview.changeSummary.same} resources unchanged`);
    }

    say("pulumi destroy");
    await stack.destroy({ onOutput: (s) => process.stdout.write(s), color: "always" });
    if (emulator) {
      const inventory = (await (await fetch(`${emulator.url}/_emulator/inventory`)).json()) as { total: number };
      console.log(`  emulator inventory after destroy: ${inventory.total} live resources`);
      if (inventory.total !== 0) failed = true;
    }
    say(
      `done in ${seconds(Date.now() - started)}: up ${seconds(upMs)}, preview ${changes.length ? "had changes" : "clean"}, destroy complete`,
    );
  } finally {
    await stack.workspace.removeStack(STACK).catch(() => undefined);
    fs.rmSync(scratch, { recursive: true, force: true });
    await emulator?.stop();
  }
  if (failed) process.exitCode = 1;
}

main().catch((err) => {
  console.error(`\ndemo failed: ${(err as Error).message}`);
  process.exit(1);
});
