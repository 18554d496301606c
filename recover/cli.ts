#!/usr/bin/env node
/**
 * `svc-recover [--stack NAME] [--import URN ID]... [--clear URN]... [--cancel]`: makes a stack whose
 * `pulumi up` was killed (a CI job's SIGKILL) ready for the next `pulumi up`, from the stack's
 * own record (docs/guides/recovery.md). Run in the project directory, with the same
 * configuration as `pulumi up`.
 *
 * Each pending operation the killed update left in the state:
 * - creating: the object it made is found in the API (provider/lifecycle/interruptedVerdict.ts) and recorded under
 *   its id; when the API shows nothing was made, the operation is dropped; when the evidence is not
 *   unique, nothing changes for it and the two commands to choose between are printed;
 * - updating, deleting: the resource's record stays as it was; the refresh that ends the
 *   recovery reads it from the API (a deleted object leaves the stack) and clears them, as pulumi
 *   does, and `pulumi up` finishes the change; importing (a killed `pulumi import`): the refresh
 *   drops it, the object existed before;
 * - a provisional `pending-create-<time>` id of our own (provider/lifecycle/pending.ts) is resolved by the
 *   same refresh (the lifecycle's read finds the real id).
 *
 * Exit 0: ready for `pulumi up`. 1: a choice is left to a person (printed). 2: could not recover
 * (stack missing, API unreachable, ...): nothing was changed.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { ConfigSources } from "../provider/runtime/config";
import { apiProblems } from "../common/apiAccess";
import { buildLifecycle } from "../provider/lifecycle";
import { ownProperties } from "../provider/dynamic/adapter";
import type { Interrupted } from "../provider/lifecycle/interruptedVerdict";
import { pendingSince } from "../provider/lifecycle/pending";
import { createRuntime } from "../provider/configure/providerRuntime";
import { configSources } from "../provider/configure/configSources";
import { definitionOf } from "../resources/kinds";
import { kindOf } from "../provider/typeTokens";
import {
  heldLock,
  PulumiError,
  removeTornSidecars,
  Stack,
  type Exported,
  type HeldLock,
  type PendingOperation,
  type StateResource,
} from "../common/stack";

const USAGE = "usage: svc-recover [--stack NAME] [--import URN ID]... [--clear URN]... [--cancel]";

interface Options {
  stack?: string;
  imports: Map<string, string>;
  clears: Set<string>;
  cancel: boolean;
}

export function parseArgs(argv: string[]): Options {
  const opts: Options = { imports: new Map(), clears: new Set(), cancel: false };
  for (let i = 0; i < argv.length; i++) {
    const need = (n: number) => {
      if (i + n >= argv.length) throw new Error(`${argv[i]} needs ${n === 1 ? "a value" : `${n} values`}\n${USAGE}`);
      return argv.slice(i + 1, (i += n) + 1);
    };
    const arg = argv[i];
    if (arg === "--stack" || arg === "-s") opts.stack = need(1)[0];
    else if (arg === "--import") {
      const [urn, id] = need(2);
      opts.imports.set(urn, id);
    } else if (arg === "--clear") opts.clears.add(need(1)[0]);
    else if (arg === "--cancel") opts.cancel = true;
    else if (arg === "--help" || arg === "-h") throw new Error(USAGE);
    else throw new Error(`unknown argument ${arg}\n${USAGE}`);
  }
  return opts;
}

const SECRET_SIG = "4dabf18193072939515e22adb298388d";

/** A decrypted export's values with their secret envelopes opened. */
function opened(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(opened);
  if (value && typeof value === "object") {
    const v = value as Record<string, unknown>;
    if (SECRET_SIG in v) return "plaintext" in v ? opened(JSON.parse(v.plaintext as string)) : opened(v.value);
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, opened(x)]));
  }
  return value;
}

const nameOf = (urn: string) => urn.split("::").pop();
const say = (line: string) => process.stdout.write(`${line}\n`);

/**
 * Where a pending create's provider reads its configuration: an explicit provider's own
 * properties (the plugin's, or an svc.Provider on the dynamic face), else the stack config. The
 * default dynamic provider's inputs are the stack config itself (`svc:baseUrl`...), which no
 * property name matches, so its resources read the stack config.
 */
function sourcesFor(op: PendingOperation, state: Exported, config: Record<string, string>): ConfigSources {
  const ref = op.resource.provider ?? "";
  const at = ref.lastIndexOf("::");
  const provider = (state.deployment.resources ?? []).find((r) => r.urn === ref.slice(0, at) && r.id === ref.slice(at + 2));
  if (provider?.type === "pulumi:providers:svc" || provider?.type === "pulumi:providers:pulumi-nodejs")
    return configSources(opened(provider.inputs) as Record<string, unknown>, config);
  return { get: (key) => config[key], env: process.env };
}

/** When the interrupted update began, as far as the stack can tell; never later than it did. */
async function interruptedSince(
  stack: Stack,
  state: Exported,
  lockStart: number | undefined,
): Promise<{ since: number; evidence: string }> {
  if (lockStart !== undefined) return { since: lockStart, evidence: "the lock the interrupted update left" };
  const root = (state.deployment.resources ?? []).find((r) => r.type === "pulumi:pulumi:Stack");
  const candidates = [...(await stack.historyStarts()), Date.parse(root?.created ?? "")].filter(Number.isFinite);
  if (!candidates.length) return { since: 0, evidence: "nothing (no lock, no history): every object matching is a candidate" };
  return { since: Math.max(...candidates), evidence: "the stack's history (the newest update it records)" };
}

type Decision = { op: PendingOperation; outcome: Interrupted };

function printChoices(unclear: Decision[]): void {
  say("\nChoose for each, then run npx svc-recover again:");
  for (const { op, outcome } of unclear) {
    const urn = op.resource.urn;
    say(`  ${nameOf(urn)}: ${outcome.reason}`);
    for (const id of outcome.verdict === "unclear" ? outcome.candidates : [])
      say(`    it made ${id}:          npx svc-recover --import '${urn}' ${id}`);
    say(`    it made nothing (or not one to keep): npx svc-recover --clear '${urn}'`);
  }
}

/** Ends the run with an exit code, its line said: each step below stops the run by throwing one. */
class Stop {
  constructor(
    readonly code: number,
    readonly line?: string,
  ) {}
}

/** The stack's state, decrypted (`plain`: what is read) and as stored (`state`: what an edit writes back). */
interface States {
  plain: Exported;
  state: Exported;
}

/** Both exports of the stack, mending first the metadata file a kill left empty. */
async function readStates(stack: Stack, project: string, name: string | undefined): Promise<States> {
  const read = async (): Promise<States> => ({ plain: await stack.export(true), state: await stack.export(false) });
  try {
    return await read().catch(async (err: Error) => {
      // A kill while the file backend wrote the stack's metadata sidecar (common/stack.ts): mend it and read again.
      if (!/failed to load checkpoint: EOF/.test(err.message)) throw err;
      const removed = removeTornSidecars(await stack.backendUrl(), project);
      if (!removed.length) throw err;
      say(`svc-recover: the kill left the stack's metadata file empty (${removed.join(", ")}); removed it (the state itself is whole)`);
      return read();
    });
  } catch (err) {
    throw new Stop(2, `svc-recover: cannot read the stack${name ? ` ${name}` : ""}: ${(err as Error).message}`);
  }
}

/** Configuration first: an unreachable API or a rejected token stops here, before any change. */
async function ensureApiReachable(creates: PendingOperation[], plain: Exported, config: Record<string, string>): Promise<void> {
  const probed = new Map<string, Promise<string[]>>();
  for (const op of creates) {
    if (!kindOf(op.resource.type)) continue;
    const problems = await apiProblems(sourcesFor(op, plain, config), probed);
    if (problems.length)
      throw new Stop(
        2,
        `svc-recover: cannot ask the API what ${nameOf(op.resource.urn)}'s interrupted create made: ${problems.join("; ")}. Nothing was changed.`,
      );
  }
}

/** What a pending create made: the person's choice when given, else the lifecycle's judgement from the API. */
async function decide(
  op: PendingOperation,
  opts: Options,
  plain: Exported,
  config: Record<string, string>,
  since: number,
): Promise<Interrupted> {
  const urn = op.resource.urn;
  const chosen = opts.imports.get(urn);
  const kind = kindOf(op.resource.type);
  if (chosen) return { verdict: "made", id: chosen, reason: `you chose ${chosen}` };
  if (opts.clears.has(urn)) return { verdict: "nothing", reason: "you chose to clear it" };
  if (!kind) return { verdict: "unclear", reason: `${op.resource.type} is not a pulumi-svc resource`, candidates: [] };
  const runtime = createRuntime();
  runtime.setSources(sourcesFor(op, plain, config));
  try {
    // The declaration's own inputs: a dynamic resource's state carries the face's keys beside them.
    const inputs = ownProperties(opened(op.resource.inputs ?? {}) as Record<string, unknown>);
    return await buildLifecycle(definitionOf(kind), runtime).interrupted(inputs, since);
  } catch (err) {
    throw new Stop(
      2,
      `svc-recover: cannot tell what ${nameOf(urn)}'s interrupted create made: ${(err as Error).message}. Nothing was changed.`,
    );
  }
}

const VERDICT_LINE: Record<Interrupted["verdict"], (outcome: Interrupted) => string> = {
  made: (outcome) => `made ${outcome.verdict === "made" ? outcome.id : ""}: recorded`,
  nothing: () => "made nothing: cleared",
  unclear: () => "unclear: left as it is",
};

/** What the refresh that ends the recovery does with the other pending operations and provisional ids. */
function sayTheRest(ops: PendingOperation[], provisional: StateResource[]): void {
  for (const op of ops.filter((o) => o.type !== "creating"))
    say(
      op.type === "importing"
        ? `  importing ${nameOf(op.resource.urn)}: dropped by the refresh (the object existed before and is not touched): run the import again`
        : `  ${op.type} ${nameOf(op.resource.urn)}: its record is kept; the refresh reads it from the API and pulumi up finishes the change`,
    );
  for (const r of provisional) say(`  ${nameOf(r.urn)} (${r.id}): the refresh resolves the provisional id to what the attempt made`);
}

/** The changes to the stack: the interrupted update's lock ended, the decisions recorded, then one refresh. */
async function applyDecisions(
  stack: Stack,
  opts: Options,
  lock: HeldLock | undefined,
  state: Exported,
  decisions: Decision[],
  refresh: boolean,
) {
  try {
    if (lock) {
      if (!lock.provablyGone && !opts.cancel)
        throw new Stop(
          2,
          `svc-recover: the stack is locked by an update that began at ${new Date(lock.startedAt).toISOString()} (pid ${lock.pid} on ${lock.hostname}), ` +
            "which this machine cannot see ended. If it was killed, run npx svc-recover --cancel (it ends the lock, as pulumi cancel does). Nothing was changed.",
        );
      say(`  the lock of the interrupted update (pid ${lock.pid} on ${lock.hostname}) is ended (pulumi cancel)`);
      await stack.cancel();
    }
    const decided = new Map(decisions.map((d) => [d.op.resource.urn, d.outcome]));
    if (decisions.some((d) => d.outcome.verdict !== "unclear")) await stack.import(edited(state, decided));
    if (refresh) await stack.refresh();
  } catch (err) {
    if (err instanceof Stop) throw err;
    throw new Stop(2, `svc-recover: ${err instanceof PulumiError ? err.message : String(err)}`);
  }
}

/** Runs the recovery; resolves with the exit code, every line said. */
export async function recover(opts: Options): Promise<number> {
  try {
    return await recoverStack(opts);
  } catch (err) {
    if (!(err instanceof Stop)) throw err;
    if (err.line) say(err.line);
    return err.code;
  }
}

async function recoverStack(opts: Options): Promise<number> {
  const stack = new Stack(opts.stack);
  const project = /^name:\s*(\S+)/m.exec(fs.readFileSync(path.join(stack.cwd, "Pulumi.yaml"), "utf8"))?.[1] ?? "";
  const { plain, state } = await readStates(stack, project, opts.stack);
  const ops = plain.deployment.pending_operations ?? [];
  const provisional = (plain.deployment.resources ?? []).filter((r) => kindOf(r.type) && pendingSince(r.id) !== undefined);
  const stackName = opts.stack ?? (await stack.run(["stack", "--show-name"], { quiet: true })).trim();
  const lock = heldLock(await stack.backendUrl(), project, stackName);
  if (!ops.length && !provisional.length && !lock)
    throw new Stop(0, `svc-recover: stack ${stackName} has no pending operations: it is ready for pulumi up`);

  const config = await stack.config();
  const creates = ops.filter((op) => op.type === "creating");
  await ensureApiReachable(creates, plain, config);
  const { since, evidence } = await interruptedSince(stack, plain, lock?.startedAt);
  if (creates.length) say(`svc-recover: the interrupted update began at ${new Date(since).toISOString()} (from ${evidence})`);
  const decisions: Decision[] = [];
  for (const op of creates) {
    const outcome = await decide(op, opts, plain, config, since);
    decisions.push({ op, outcome });
    say(`  creating ${nameOf(op.resource.urn)}: ${VERDICT_LINE[outcome.verdict](outcome)} (${outcome.reason})`);
  }
  sayTheRest(ops, provisional);

  await applyDecisions(stack, opts, lock, state, decisions, ops.length > 0 || provisional.length > 0);
  const unclear = decisions.filter((d) => d.outcome.verdict === "unclear");
  if (unclear.length) {
    printChoices(unclear);
    return 1;
  }
  say(`svc-recover: stack ${stackName} is ready for pulumi up`);
  return 0;
}

/** The state with each decided pending create recorded (made: a resource under its id) or dropped (nothing). */
export function edited(state: Exported, decided: Map<string, Interrupted>): Exported {
  const deployment = { ...state.deployment };
  const resources = [...(deployment.resources ?? [])];
  const pending: PendingOperation[] = [];
  for (const op of deployment.pending_operations ?? []) {
    const outcome = op.type === "creating" ? decided.get(op.resource.urn) : undefined;
    if (!outcome || outcome.verdict === "unclear") pending.push(op);
    else if (outcome.verdict === "made") {
      // Outputs start as the inputs (the dynamic face's read needs its __provider there); the refresh
      // that follows records what the API reports. Its dependencies completed before it began, so
      // the end of the list keeps the state's order (dependents of a new resource cannot exist yet).
      const recorded: StateResource = { ...op.resource, id: outcome.id, outputs: { ...(op.resource.inputs ?? {}) } };
      // A replacement that deletes first keeps the old record (pendingReplacement) until its create
      // ends: the new object takes its place, where its dependents already follow it.
      const replaced = resources.findIndex((r) => r.urn === recorded.urn && r.pendingReplacement && !r.delete);
      if (replaced >= 0) resources[replaced] = recorded;
      else resources.push(recorded);
    }
  }
  deployment.resources = resources;
  deployment.pending_operations = pending;
  return { ...state, deployment };
}

if (require.main === module) {
  let opts: Options;
  try {
    opts = parseArgs(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n`);
    process.exit(2);
  }
  recover(opts).then(
    (code) => process.exit(code),
    (err) => {
      process.stderr.write(`svc-recover: ${(err as Error).stack ?? err}\n`);
      process.exit(2);
    },
  );
}
