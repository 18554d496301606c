#!/usr/bin/env node
/**
 * `svc-policy-analyze [--stack NAME] [--security-config FILE] [--cost-config FILE] [--no-cost] [--from-export]`:
 * runs the package's policy packs (the cost pack, policy/, and the security pack, policy/security)
 * over a stack's current state, not a preview: what a nightly job reports after `pulumi refresh`
 * (docs/guides/security.md, "Over what already exists"). Run in the project directory, with the
 * same backend and passphrase as `pulumi up`.
 *
 * With pulumi 3.229 or newer the CLI's own `pulumi policy analyze` runs both packs (way.ts); older
 * CLIs, or --from-export, get the security rules run here over `pulumi stack export` and the cost
 * priced as the pack prices it. Either way the same lines are printed: the stack's cost, then each
 * violation as a preview shows it, then a count.
 *
 * Exit 0: no mandatory violation. 1: at least one (printed). 2: could not analyze (named).
 */
import { execFile, type ExecFileOptions } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { costOf } from "../estimate";
import { priceApi } from "../priceApi";
import { STANDALONE_IP_REGION } from "../pricing";
import { breakdownLines, stackLine } from "../report";
import type { ExportedResource } from "../security/subjects";
import { violationLines, violationsInState, type Violation } from "./fromExport";
import { wayFor, type Way } from "./way";

const run = promisify(execFile);
const USAGE = "usage: svc-policy-analyze [--stack NAME] [--security-config FILE] [--cost-config FILE] [--no-cost] [--from-export]";
const PACKAGE = path.join(__dirname, "..", "..", "..");
export const COST_PACK = path.join(PACKAGE, "policy");
export const SECURITY_PACK = path.join(PACKAGE, "policy", "security");

interface Options {
  stack?: string;
  securityConfig?: string;
  costConfig?: string;
  cost: boolean;
  fromExport: boolean;
}

export function parseArgs(argv: string[]): Options {
  const opts: Options = { cost: true, fromExport: false };
  for (let i = 0; i < argv.length; i++) {
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${argv[i - 1]} needs a value\n${USAGE}`);
      return v;
    };
    const arg = argv[i];
    if (arg === "--stack" || arg === "-s") opts.stack = value();
    else if (arg === "--security-config") opts.securityConfig = path.resolve(value());
    else if (arg === "--cost-config") opts.costConfig = path.resolve(value());
    else if (arg === "--no-cost") opts.cost = false;
    else if (arg === "--from-export") opts.fromExport = true;
    else throw new Error(`${arg === "--help" || arg === "-h" ? "" : `unknown argument ${arg}\n`}${USAGE}`);
  }
  return opts;
}

const pulumiArgs = (opts: Options, args: string[]) => [...args, ...(opts.stack ? ["--stack", opts.stack] : []), "--non-interactive"];

async function pulumi(args: string[], env: NodeJS.ProcessEnv = process.env, options: ExecFileOptions = {}): Promise<string> {
  const { stdout } = await run("pulumi", args, { env, maxBuffer: 256 * 1024 * 1024, encoding: "utf8", ...options });
  return String(stdout);
}

/** The stack's API settings as the SVC_* environment the packs' lookups fall back to (`pulumi policy analyze` hands a pack no stack configuration). */
async function apiEnv(opts: Options): Promise<Record<string, string>> {
  const config = JSON.parse(await pulumi(pulumiArgs(opts, ["config", "--json", "--show-secrets"]))) as Record<string, { value?: string }>;
  const env: Record<string, string> = {};
  for (const [key, name] of [
    ["svc:baseUrl", "SVC_BASE_URL"],
    ["svc:token", "SVC_TOKEN"],
    ["svc:workspaceId", "SVC_WORKSPACE_ID"],
  ])
    if (config[key]?.value !== undefined) env[name] = config[key].value!;
  return env;
}

/** organization/project/stack of the selected (or named) stack. */
async function qualifiedName(opts: Options): Promise<{ organization: string; project: string; stack: string }> {
  const name = (await pulumi(pulumiArgs(opts, ["stack", "--show-name", "--fully-qualify-stack-names"]))).trim();
  const [organization, project, stack] = name.split("/");
  return { organization, project, stack };
}

interface Report {
  lines: string[];
  violations: Array<Pick<Violation, "level">>;
}

/** `pulumi policy analyze --json`: the packs' own output (the cost) and each policy event, in the order they came. */
async function byPolicyAnalyze(opts: Options, env: NodeJS.ProcessEnv): Promise<Report> {
  const packs = [...(opts.cost ? [[COST_PACK, opts.costConfig]] : []), [SECURITY_PACK, opts.securityConfig]];
  const args = ["policy", "analyze", "--json"];
  // The CLI takes either no config file or one per pack; an empty one stands for "the defaults".
  const configs = packs.some(([, c]) => c);
  for (const [pack, config] of packs)
    args.push("--policy-pack", pack!, ...(configs ? ["--policy-pack-config", config ?? emptyConfig()] : []));
  let output: string;
  try {
    const { stdout, stderr } = await run("pulumi", pulumiArgs(opts, args), { env, maxBuffer: 256 * 1024 * 1024, encoding: "utf8" });
    output = `${stdout}\n${stderr}`;
  } catch (err) {
    // Exit 1 with events written is a finding (a mandatory violation), not a failure to analyze.
    const e = err as { stdout?: string; stderr?: string };
    output = `${e.stdout ?? ""}\n${e.stderr ?? ""}`;
    if (!output.includes('"policyEvent"')) throw err;
  }
  const lines: string[] = [];
  const violations: Report["violations"] = [];
  // What a pack prints reaches the CLI's own output, not its events: the cost pack's report is found by its form.
  const costLine = (l: string) => /^svc cost of stack |^ {2}\S.* \(\w+\): (\$[\d.,]+\/month|not priced)/.test(l);
  for (const line of output.split("\n")) {
    if (!line.startsWith("{")) {
      if (costLine(line.trimEnd())) lines.push(line.trimEnd());
      continue;
    }
    const event = JSON.parse(line) as {
      diagnosticEvent?: { message: string; severity: string };
      policyEvent?: { resourceUrn?: string; message: string; policyName: string; enforcementLevel: string };
    };
    for (const l of event.diagnosticEvent?.message.trimEnd().split("\n") ?? []) if (costLine(l)) lines.push(l);
    const p = event.policyEvent;
    if (!p) continue;
    const level = p.enforcementLevel === "mandatory" ? "mandatory" : "advisory";
    violations.push({ level });
    const [why, ...message] = p.message.trim().split("\n");
    const urn = p.resourceUrn ?? "";
    const at = urn ? `  (${urn.split("::")[2]}: ${urn.slice(urn.lastIndexOf("::") + 2)})` : "";
    lines.push(`    [${level}]  ${p.policyName}${at}`, `    ${why}`, ...message.map((m) => `    ${m.trim()}`));
  }
  return { lines, violations };
}

let empty: string | undefined;
function emptyConfig(): string {
  if (!empty) {
    empty = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "svc-policy-")), "defaults.json");
    fs.writeFileSync(empty, "{}");
  }
  return empty;
}

/** The rules run here over `pulumi stack export`, and the cost priced as the pack prices it. */
async function byStackExport(opts: Options, stackName: string): Promise<Report> {
  const exported = JSON.parse(await pulumi(pulumiArgs(opts, ["stack", "export"]))) as { deployment?: { resources?: ExportedResource[] } };
  const resources = exported.deployment?.resources ?? [];
  const lines: string[] = [];
  if (opts.cost) {
    const costConfig = opts.costConfig
      ? (JSON.parse(fs.readFileSync(opts.costConfig, "utf8")) as Record<string, { standaloneIpRegion?: string }>)
      : {};
    const region = costConfig["svc-cost"]?.standaloneIpRegion ?? STANDALONE_IP_REGION;
    const priceable = resources
      .filter((r) => !r.delete)
      .map((r) => ({ name: r.urn.slice(r.urn.lastIndexOf("::") + 2), type: r.type, props: r.outputs ?? {} }));
    try {
      const cost = await costOf(priceable, priceApi, region);
      lines.push(stackLine(stackName, cost, cost), ...breakdownLines(cost));
    } catch (err) {
      lines.push(`svc cost of stack ${stackName}: not known (${(err as Error).message.split("\n")[0]})`);
    }
  }
  const config = opts.securityConfig ? JSON.parse(fs.readFileSync(opts.securityConfig, "utf8")) : {};
  const violations = violationsInState(resources, config);
  for (const v of violations) lines.push(...violationLines(v));
  return { lines, violations };
}

async function main(): Promise<number> {
  let opts: Options;
  try {
    opts = parseArgs(process.argv.slice(2));
  } catch (err) {
    console.error((err as Error).message);
    return 2;
  }
  let way: Way;
  let report: Report;
  let stack: { organization: string; project: string; stack: string };
  try {
    const version = (await pulumi(["version"])).trim();
    way = wayFor(version, opts.fromExport);
    stack = await qualifiedName(opts);
    const env = await apiEnv(opts);
    if (way === "policy analyze") {
      // The cost pack names the stack from its environment (policy/deployment.ts); the engine does not tell it here.
      const childEnv = {
        ...process.env,
        ...env,
        PULUMI_NODEJS_STACK: stack.stack,
        PULUMI_NODEJS_PROJECT: stack.project,
        PULUMI_NODEJS_ORGANIZATION: stack.organization,
      };
      report = await byPolicyAnalyze(opts, childEnv);
    } else {
      Object.assign(process.env, env);
      report = await byStackExport(opts, stack.stack);
    }
  } catch (err) {
    const e = err as Error & { stderr?: string };
    console.error(`svc-policy-analyze: could not analyze the stack: ${(e.stderr || e.message).trim().split("\n").slice(-5).join("\n")}`);
    return 2;
  }
  const mandatory = report.violations.filter((v) => v.level === "mandatory").length;
  console.log(
    `Policies over the current state of stack ${stack.stack} (${way === "policy analyze" ? "pulumi policy analyze" : "pulumi stack export"}):`,
  );
  for (const line of report.lines) console.log(line);
  console.log(`${mandatory} mandatory, ${report.violations.length - mandatory} advisory violation(s)`);
  return mandatory ? 1 : 0;
}

if (require.main === module)
  main().then(
    (code) => process.exit(code),
    (err) => {
      console.error(err);
      process.exit(2);
    },
  );
