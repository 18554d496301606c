/**
 * Per-branch environments of the quickstart from CI, several at once on one API token.
 *
 *   npx ts-node examples/ci-environments/driver.ts up feature/login fix-42 --budget 100
 *   npx ts-node examples/ci-environments/driver.ts check feature/login      # drift
 *   npx ts-node examples/ci-environments/driver.ts destroy feature/login fix-42
 *   npx ts-node examples/ci-environments/driver.ts select feature/login      # config for plain pulumi
 *
 * Needs: SVC_BASE_URL and SVC_TOKEN (a user's token: it makes each environment's workspace),
 * PULUMI_CONFIG_PASSPHRASE, the `pulumi` CLI on PATH, logged in to the state backend every job
 * shares (`pulumi login s3://...`, or PULUMI_BACKEND_URL). Prints a line per step of each
 * environment, prefixed with its stack, and a summary table at the end. Exits 0 when every
 * environment ended as asked (up, no drift, destroyed, selected), 1 when one did not (over budget, drifted,
 * failed), 2 when nothing could start (bad arguments, backend or API not usable).
 *
 * docs/guides/ci.md says how it fits a pipeline; github-actions.yml and
 * gitlab-ci.yml beside it are the examples.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { LocalWorkspace, PulumiCommand } from "@pulumi/pulumi/automation";
import { run, type Command, type Outcome, type Result, type Settings } from "./environment";
import { stackName } from "./names";
import { summaryTable } from "./report";
import { checkApi } from "./workspaces";

/** What each command counts as success. */
const SUCCESS: Record<Command, Result> = { up: "up", check: "no drift", destroy: "destroyed", select: "selected", report: "compliant" };

const USAGE = `usage: driver.ts <up|check|destroy|select|report> <environment>... [--budget <USD per month>] [--security-config <file>] [--parallel <n>] [--program <dir>] [--policy-pack <dir>]`;

interface Args {
  command: Command;
  environments: string[];
  budget?: number;
  parallel: number;
  program: string;
  policyPack?: string;
  securityConfig?: string;
}

class UsageError extends Error {}

function parseArgs(argv: string[]): Args {
  const [command, ...rest] = argv;
  if (!command || !(command in SUCCESS)) throw new UsageError(`unknown command ${JSON.stringify(command ?? "")}`);
  const args: Args = {
    command: command as Command,
    environments: [],
    parallel: Infinity,
    program: path.join(__dirname, "..", "quickstart"),
  };
  const number = (flag: string, value: string | undefined) => {
    const n = Number(value);
    if (!value || !Number.isFinite(n) || n <= 0)
      throw new UsageError(`${flag} needs a positive number, not ${JSON.stringify(value ?? "")}`);
    return n;
  };
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i];
    if (arg === "--budget") args.budget = number(arg, rest[++i]);
    else if (arg === "--parallel") args.parallel = Math.floor(number(arg, rest[++i]));
    else if (arg === "--program") args.program = path.resolve(rest[++i] ?? "");
    else if (arg === "--policy-pack") args.policyPack = path.resolve(rest[++i] ?? "");
    else if (arg === "--security-config") args.securityConfig = path.resolve(rest[++i] ?? "");
    else if (arg.startsWith("--")) throw new UsageError(`unknown option ${arg}`);
    else args.environments.push(arg);
  }
  if (!args.environments.length) throw new UsageError("name at least one environment (a branch name)");
  const stacks = args.environments.map(stackName);
  const twice = stacks.find((s, i) => stacks.indexOf(s) !== i);
  if (twice) throw new UsageError(`two environments make the same stack ${twice}`);
  return args;
}

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new UsageError(`${name} is not set`);
  return value;
}

/** The directory of the package as the program resolves it: its policy packs and svc-policy-analyze are there. */
const packageDir = (program: string) => path.dirname(require.resolve("pulumi-svc/package.json", { paths: [program] }));

/** The backend URL the CLI will use: PULUMI_BACKEND_URL, else what `pulumi login` recorded in PULUMI_HOME. */
function backendUrl(): string | undefined {
  if (process.env.PULUMI_BACKEND_URL) return process.env.PULUMI_BACKEND_URL;
  const home = process.env.PULUMI_HOME ?? path.join(os.homedir(), ".pulumi");
  try {
    return (JSON.parse(fs.readFileSync(path.join(home, "credentials.json"), "utf8")) as { current?: string }).current;
  } catch {
    return undefined;
  }
}

/** A URL with any password in it replaced (a postgres:// URL may carry one; PGPASSWORD is the better place). */
const redacted = (url: string) => url.replace(/^([a-z0-9+]+:\/\/[^:@/]+):[^@/]*@/i, "$1:****@");

/**
 * "bucket <name> at <endpoint>" for an object-store URL and "database <name> at <host>" for a
 * PostgreSQL one (the CLI's errors name neither), else the URL; never a password.
 */
function describeBackend(url: string | undefined): string {
  if (!url) return "the state backend (no `pulumi login` and no PULUMI_BACKEND_URL)";
  const shown = redacted(url);
  const pg = /^postgres:\/\/(?:[^@/]*@)?([^/?]*)\/?([^?]*)/.exec(url);
  if (pg) return `the state backend ${shown} (database ${pg[2] || "(PGDATABASE)"} at ${pg[1] || "(PGHOST)"})`;
  const parsed = /^(s3|gs|azblob):\/\/([^/?]+)[^?]*(?:\?(.*))?$/.exec(url);
  if (!parsed) return `the state backend ${shown}`;
  const endpoint = new URLSearchParams(parsed[3] ?? "").get("endpoint");
  return `the state backend ${shown} (bucket ${parsed[2]}${endpoint ? ` at ${endpoint}` : ""})`;
}

/** The backend every job shares must answer before anything is made (a wrong bucket is found here, not halfway). */
async function checkBackend(program: string, envVars: Record<string, string>, pulumiCommand: PulumiCommand): Promise<void> {
  const url = backendUrl();
  const workspace = await LocalWorkspace.create({ workDir: program, envVars, pulumiCommand });
  try {
    await workspace.whoAmI();
  } catch (err) {
    const lines = String((err as Error).message)
      .split("\n")
      .filter((l) => /^\s*(error|caused by)/i.test(l))
      .map((l) => l.trim().replace(/^error: /, ""));
    throw new Error(`${describeBackend(url)} cannot be used: ${lines.join("; ") || (err as Error).message}`);
  }
  console.log(`state backend: ${url ? redacted(url) : "(the CLI's default)"}`);
}

/** Runs `work` on every item, at most `limit` at a time, answers in the items' order. */
async function pool<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) results[i] = await work(items[i]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/**
 * The first SIGINT or SIGTERM asks every running pulumi to stop (SIGINT: finish the steps in flight,
 * write the state, release the lock). Later ones change nothing: a CI runner follows its SIGINT with
 * SIGTERM and then SIGKILL, and every second until then is one more for pulumi to write its state.
 */
function cancellation(): AbortSignal {
  const controller = new AbortController();
  const stop = (signal: string) => {
    if (controller.signal.aborted) return console.log(`${signal}: still waiting for pulumi to write its state`);
    console.log(`${signal}: asking every running pulumi to stop and write its state`);
    controller.abort();
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
  return controller.signal;
}

async function main(): Promise<number> {
  let args: Args;
  let settings: Settings;
  try {
    args = parseArgs(process.argv.slice(2));
    const api = { baseUrl: required("SVC_BASE_URL"), token: required("SVC_TOKEN") };
    // The program's own SVC_* fallbacks must not differ from the stack configuration the driver sets.
    const envVars = { SVC_BASE_URL: "", SVC_TOKEN: "", SVC_WORKSPACE_ID: "" };
    required("PULUMI_CONFIG_PASSPHRASE");
    // The policy packs' config files, in one directory removed when the driver exits.
    const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "ci-environments-"));
    process.on("exit", () => fs.rmSync(scratch, { recursive: true, force: true }));
    let budgetConfig: string | undefined;
    if (args.budget !== undefined) {
      budgetConfig = path.join(scratch, "budget.json");
      fs.writeFileSync(budgetConfig, JSON.stringify({ "svc-budget": { enforcementLevel: "mandatory", maxMonthlyCost: args.budget } }));
    }
    const pulumi = await PulumiCommand.get();
    await checkBackend(args.program, envVars, pulumi);
    await checkApi(api).catch((err: Error) => {
      throw new Error(`the API at ${api.baseUrl} cannot be used: ${err.message}`);
    });
    const pkg = packageDir(args.program);
    const policyPack = args.policyPack ?? path.join(pkg, "policy");
    // The security pack at its defaults unless a file says otherwise (the CLI wants a file per pack or none).
    const securityConfig = args.securityConfig ?? path.join(scratch, "security.json");
    if (!args.securityConfig) fs.writeFileSync(securityConfig, "{}");
    settings = {
      program: args.program,
      api,
      policyPack,
      budgetConfig,
      securityPack: path.join(pkg, "policy", "security"),
      securityConfig,
      analyzer: path.join(pkg, "dist", "policy", "analyze", "cli.js"),
      envVars,
      pulumi,
      signal: cancellation(),
    };
  } catch (err) {
    console.error(err instanceof UsageError ? `${err.message}\n${USAGE}` : (err as Error).message);
    return 2;
  }
  const budget = args.budget === undefined ? "no budget" : `budget $${args.budget}/month`;
  console.log(`${args.command}: ${args.environments.length} environment(s), ${budget}`);
  const outcomes: Outcome[] = await pool(args.environments, args.parallel, (env) => run(args.command, env, settings, console.log));
  console.log(`\n${summaryTable(outcomes)}`);
  return outcomes.every((o) => o.result === SUCCESS[args.command]) ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err);
    process.exit(2);
  },
);
