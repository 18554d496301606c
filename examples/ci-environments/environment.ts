/**
 * One environment (a branch's stack of the quickstart) through the Automation API: bring it up
 * behind the cost gate, check it for drift, destroy it. Each operation answers an Outcome for the
 * summary table and reports progress through `log`, one line per step a person cares about.
 *
 * The stack's configuration lives in the working copy (Pulumi.<stack>.yaml), not in the state
 * backend, so every operation sets it again: a job on another runner, with a fresh checkout,
 * reaches the same stack, workspace and API.
 */
import { spawn } from "node:child_process";
import { isDeepStrictEqual } from "node:util";
import {
  LocalWorkspace,
  type EngineEvent,
  type OpType,
  type PulumiCommand,
  type Stack,
  type StepEventMetadata,
} from "@pulumi/pulumi/automation";
import { stackName, workspaceName } from "./names";
import { ensureWorkspace, existingWorkspace, type ApiTarget, type Workspace } from "./workspaces";

export type Command = "up" | "check" | "destroy" | "select" | "report";

export interface Settings {
  /** The Pulumi program (the quickstart) every environment runs. */
  program: string;
  api: ApiTarget;
  /** The policy pack (pulumi-svc/policy): the stack's cost, and the budget. */
  policyPack: string;
  /** A --policy-pack-config file with svc-budget's maxMonthlyCost, when a budget is set. */
  budgetConfig?: string;
  /** The security pack (pulumi-svc/policy/security) and its --policy-pack-config file ({} for the defaults). */
  securityPack: string;
  securityConfig: string;
  /** svc-policy-analyze of the package: the packs over a stack's current state (`report`). */
  analyzer: string;
  /** More environment for the pulumi CLI (the Automation API passes it through). */
  envVars: Record<string, string>;
  /**
   * The pulumi CLI, found once for the run: a workspace made without it runs `pulumi version`
   * first, one CLI process per environment and command.
   */
  pulumi: PulumiCommand;
  /** Aborted on SIGINT/SIGTERM: each running pulumi is asked to stop (SIGINT) and write its state. */
  signal: AbortSignal;
}

export type Result =
  | "up"
  | "over budget"
  | "blocked by policy"
  | "no drift"
  | "drifted"
  | "destroyed"
  | "selected"
  | "compliant"
  | "violations"
  | "failed";

export interface Outcome {
  environment: string;
  stack: string;
  workspace: string;
  result: Result;
  /** What changed ("14 created"), what drifted, or why it failed. */
  detail: string;
  /** The stack's monthly estimate from svc-cost, when the operation previewed it. */
  monthlyCost?: string;
  seconds: number;
}

type Log = (line: string) => void;

interface Env {
  branch: string;
  stack: string;
  workspace: string;
  settings: Settings;
  log: Log;
}

/** A step's name and kind, e.g. "web-1 (Instance)", from its URN and type. */
const described = (urn: string, type: string) => `${urn.split("::").pop()} (${type.split(":").pop()})`;

/** What an engine operation did to a resource, as people say it. */
const DONE: Partial<Record<OpType, string>> = {
  create: "created",
  update: "updated",
  replace: "replaced",
  delete: "deleted",
};

/** Operations that mean the stack would change: after a refresh, these are the drift. */
const CHANGING: ReadonlySet<OpType> = new Set<OpType>(["create", "update", "replace", "delete", "create-replacement", "delete-replaced"]);

/**
 * The inputs the program declares that differ from what the refreshed state records (outputs echo
 * inputs as the API reports them): a dynamic provider's diff reaches the engine without field names.
 */
function changedFields(step: StepEventMetadata): string[] {
  const declared = step.new?.inputs ?? {};
  const recorded = step.old?.outputs ?? {};
  return Object.keys(declared).filter((key) => !key.startsWith("__") && !isDeepStrictEqual(declared[key], recorded[key]));
}

/** One progress line per resource the engine changed, and every error it reported. */
function progress(log: Log): (event: EngineEvent) => void {
  return (event) => {
    const step = event.resOutputsEvent?.metadata;
    // The stack and the provider are the engine's own: people follow their resources.
    if (step && DONE[step.op] && !step.type.startsWith("pulumi:")) log(`${DONE[step.op]} ${described(step.urn, step.type)}`);
    const diag = event.diagnosticEvent;
    if (diag?.severity === "error" && diag.message.trim()) log(`error: ${diag.message.trim().split("\n")[0]}`);
  };
}

/** The engine's counts as "14 created, 1 updated" (unchanged ones left out). */
function counted(changes: Record<string, number> | undefined): string {
  const parts = Object.entries(changes ?? {})
    .filter(([op]) => op !== "same")
    .map(([op, n]) => `${n} ${DONE[op as OpType] ?? op}`);
  return parts.length ? parts.join(", ") : "no change";
}

/** svc-cost prints "svc cost of stack <stack>: $X/month (...)" with the preview (docs/guides/cost-and-budget.md). */
const costOf = (stdout: string, stack: string) =>
  new RegExp(`svc cost of stack ${stack.replace(/\./g, "\\.")}: (\\S+/month)`).exec(stdout)?.[1];

/**
 * Engine events to the gate's verdicts: svc-budget's mandatory violation, and every other mandatory
 * one (the security pack's), each as its message's last line (the resource, the field and the fix).
 */
function gateVerdict(): { onEvent: (event: EngineEvent) => void; budget: () => string | undefined; security: () => string[] } {
  let budget: string | undefined;
  const security: string[] = [];
  const onEvent = (event: EngineEvent) => {
    const policy = event.policyEvent;
    if (policy?.enforcementLevel !== "mandatory") return;
    const last = policy.message
      .split("\n")
      .map((l) => l.trim())
      .filter(Boolean)
      .pop();
    if (policy.policyName === "svc-budget") budget ??= last;
    else security.push(`${policy.policyName}: ${last}`);
  };
  return { onEvent, budget: () => budget, security: () => security };
}

/**
 * The CLI's error worth showing: its `error:` line and the indented lines under it (a lock's
 * owner, for one), from the Automation API's message, which carries the whole command output.
 */
function reason(err: unknown): string {
  const lines = String((err as Error).message ?? err).split("\n");
  const at = lines.findIndex((l) => /^\s*error: /.test(l));
  if (at < 0) return lines.map((l) => l.trim()).find((l) => l && !/^(code|stdout|stderr):/.test(l)) ?? String(err);
  const details = [];
  // Indented lines under it, up to the Automation API's own trailer ("err?: Error: Command failed ...").
  for (let i = at + 1; i < lines.length && /^\s+\S/.test(lines[i]) && !/^\s*err\?:/.test(lines[i]); i++) details.push(lines[i].trim());
  return [lines[at].trim().replace(/^error: /, ""), ...details].join(" ");
}

async function withStack(env: Env, workspace: Workspace, select: boolean): Promise<Stack> {
  const { settings } = env;
  const args = { stackName: env.stack, workDir: settings.program };
  const opts = { envVars: settings.envVars, pulumiCommand: settings.pulumi };
  const stack = select ? await LocalWorkspace.selectStack(args, opts) : await LocalWorkspace.createOrSelectStack(args, opts);
  await stack.setAllConfig({
    "svc:baseUrl": { value: settings.api.baseUrl },
    "svc:token": { value: settings.api.token, secret: true },
    "svc:workspaceId": { value: workspace.id },
  });
  return stack;
}

/** Both packs; the CLI takes a config file for each or for none, so the budget's comes with the security pack's. */
const policy = (s: Settings) => ({
  policyPacks: [s.policyPack, s.securityPack],
  policyPackConfigs: s.budgetConfig ? [s.budgetConfig, s.securityConfig] : [],
});

/** Up behind the gate: a preview with the policy packs first (the budget and the security rules fail it), then the up itself. */
async function up(env: Env): Promise<Partial<Outcome>> {
  const { settings, log } = env;
  const workspace = await ensureWorkspace(settings.api, env.workspace);
  log(`workspace ${workspace.name} (${workspace.id}${workspace.created ? ", new" : ", taken back"})`);
  const stack = await withStack(env, workspace, false);
  let stdout = "";
  const gate = gateVerdict();
  try {
    const preview = await stack.preview({
      ...policy(settings),
      color: "never",
      signal: settings.signal,
      onOutput: (o) => (stdout += o),
      onEvent: gate.onEvent,
    });
    stdout = preview.stdout;
  } catch (err) {
    const verdict = gate.budget();
    if (verdict) {
      log(`over budget, nothing changed: ${verdict}`);
      return { result: "over budget", detail: verdict, monthlyCost: costOf(stdout, env.stack) };
    }
    if (gate.security().length) {
      for (const line of gate.security()) log(`blocked by policy: ${line}`);
      return { result: "blocked by policy", detail: gate.security().join("; "), monthlyCost: costOf(stdout, env.stack) };
    }
    throw err;
  }
  const monthlyCost = costOf(stdout, env.stack);
  log(`preview passed the budget gate${monthlyCost ? `: ${monthlyCost}` : ""}`);
  const result = await stack.up({ ...policy(settings), color: "never", signal: settings.signal, onEvent: progress(log) });
  return { result: "up", detail: counted(result.summary.resourceChanges), monthlyCost };
}

/** `preview --refresh --expect-no-changes`: fails when what the API has differs from the state, and names what. */
async function check(env: Env): Promise<Partial<Outcome>> {
  const { settings, log } = env;
  const workspace = await existingWorkspace(settings.api, env.workspace);
  const stack = await withStack(env, workspace, true);
  const drifted = new Map<string, Set<string>>();
  const onEvent = (event: EngineEvent) => {
    const step = event.resourcePreEvent?.metadata;
    if (!step || !CHANGING.has(step.op)) return;
    const what = described(step.urn, step.type);
    const fields = drifted.get(what) ?? new Set<string>();
    // What the guide promises: the fields that differ, or that the object is gone; the step's
    // kind only where neither names anything.
    if (step.op === "create") fields.add("gone (deleted outside Pulumi)");
    else for (const key of step.diffs?.length ? step.diffs : changedFields(step)) fields.add(key);
    if (!fields.size) fields.add(step.op);
    drifted.set(what, fields);
  };
  try {
    await stack.preview({ refresh: true, expectNoChanges: true, color: "never", signal: settings.signal, onEvent });
    log("no drift");
    return { result: "no drift", detail: "state matches the API" };
  } catch (err) {
    if (!drifted.size) throw err;
    const detail = [...drifted].map(([what, fields]) => `${what}: ${[...fields].join(", ")}`).join("; ");
    log(`drift: ${detail}`);
    return { result: "drifted", detail };
  }
}

/** Destroy, then remove the stack; the workspace stays (the API cannot delete one), empty, for the branch's next environment. */
async function destroy(env: Env): Promise<Partial<Outcome>> {
  const { settings, log } = env;
  const workspace = await existingWorkspace(settings.api, env.workspace);
  const stack = await withStack(env, workspace, true);
  const result = await stack.destroy({ color: "never", signal: settings.signal, onEvent: progress(log) });
  await stack.workspace.removeStack(env.stack);
  log(`stack removed; workspace ${workspace.name} kept, empty`);
  return { result: "destroyed", detail: counted(result.summary.resourceChanges) };
}

/**
 * Selects the stack in this working copy and writes its configuration (Pulumi.<stack>.yaml),
 * changing nothing else, so that plain `pulumi` commands work here: the recovery after a killed
 * job (`pulumi cancel`, `npx svc-recover`, `pulumi up`) in a fresh checkout.
 */
async function select(env: Env): Promise<Partial<Outcome>> {
  const workspace = await existingWorkspace(env.settings.api, env.workspace);
  await withStack(env, workspace, true);
  env.log(`selected, configuration in Pulumi.${env.stack}.yaml`);
  return { result: "selected", detail: `workspace ${workspace.id}` };
}

/**
 * The nightly policy report: `pulumi refresh` (the state takes in what changed outside Pulumi; it
 * locks the stack as an up does), then both packs over the refreshed state (svc-policy-analyze).
 */
async function report(env: Env): Promise<Partial<Outcome>> {
  const { settings, log } = env;
  const workspace = await existingWorkspace(settings.api, env.workspace);
  const stack = await withStack(env, workspace, true);
  await stack.refresh({ color: "never", signal: settings.signal });
  const args = [settings.analyzer, "--stack", env.stack, "--security-config", settings.securityConfig];
  const { code, out } = await new Promise<{ code: number | null; out: string }>((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: settings.program,
      env: { ...process.env, ...settings.envVars },
      signal: settings.signal,
    });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    child.once("error", reject);
    child.once("close", (c) => resolve({ code: c, out }));
  });
  const lines = out.trimEnd().split("\n");
  for (const line of lines) log(line);
  if (code === 2 || code === null) throw new Error(lines.pop() ?? "svc-policy-analyze failed");
  const mandatory = lines.filter((l) => l.includes("[mandatory]")).map((l) => l.trim().replace(/^\[mandatory\]\s+/, ""));
  const cost = /svc cost of stack \S+: (\S+\/month)/.exec(out)?.[1];
  return code === 0
    ? { result: "compliant", detail: lines.pop() ?? "", monthlyCost: cost }
    : { result: "violations", detail: mandatory.join("; "), monthlyCost: cost };
}

const OPERATIONS: Record<Command, (env: Env) => Promise<Partial<Outcome>>> = { up, check, destroy, select, report };

/** Runs one command on one environment; never throws: a failure is an Outcome like any other. */
export async function run(command: Command, branch: string, settings: Settings, print: (line: string) => void): Promise<Outcome> {
  const started = Date.now();
  const stack = stackName(branch);
  const env: Env = { branch, stack, workspace: workspaceName(stack), settings, log: (line) => print(`[${stack}] ${line}`) };
  env.log(`${command} started`);
  let outcome: Partial<Outcome>;
  try {
    outcome = await OPERATIONS[command](env);
  } catch (err) {
    const why = settings.signal.aborted ? `cancelled: ${reason(err)}` : reason(err);
    env.log(`failed: ${why}`);
    outcome = { result: "failed", detail: why };
  }
  return {
    environment: branch,
    stack,
    workspace: env.workspace,
    result: "failed",
    detail: "",
    ...outcome,
    seconds: Math.round((Date.now() - started) / 1000),
  };
}
