/**
 * End-to-end harness: the real `pulumi` CLI (through the automation API) with a local file
 * backend, driving the scenario program in tests/e2e/program against an in-process emulator.
 *
 * Each test file gets its own temporary project directory (its node_modules links back to this
 * repository, so `pulumi-svc` resolves exactly as in a user's project), its own PULUMI_HOME,
 * backend and stack. Nothing leaves loopback: update checks and plugin downloads are off.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import {
  LocalWorkspace,
  PulumiCommand,
  type PreviewOptions,
  type Stack,
  type UpOptions,
  type UpResult,
  type PreviewResult,
  type DestroyOptions,
  type DestroyResult,
  type RefreshResult,
  type EngineEvent,
  type OutputMap,
  type UpdateSummary,
} from "@pulumi/pulumi/automation";
import { diyDir } from "../../common/stack";
import { startTestEmulator, type TestEmulator } from "pulumi-svc-emulator/testing";
import { buildNodeSdk } from "./nodeSdk";
import { secretsProvidersOf, stateDecrypter, type Decrypt } from "./stateSecrets";
import { startTransit, type Transit } from "./transit";

const execFileAsync = promisify(execFile);
const REPO = path.resolve(__dirname, "..", "..");
const PROGRAM = path.join(__dirname, "program");
/** Where the scenario program reads its declarations (tests/e2e/program/index.js). */
const SCENARIO_FILE = "scenario.json";
/**
 * Where programs find the package (its node_modules, bin and sdk): this repository, or for a
 * matrix entry on another SDK the directory scripts/test.js installed the packed package in.
 */
const PACKAGE_REPO = process.env.PULUMI_SVC_PACKAGE_REPO ?? REPO;
/** The package as programs load it: this repository, or its installed copy (the policy pack, svc-recover). */
export const PACKAGE_DIR = PACKAGE_REPO === REPO ? REPO : path.join(PACKAGE_REPO, "node_modules", "pulumi-svc");

export interface Declaration {
  type?: string;
  lookup?: string;
  name: string;
  args?: Record<string, unknown>;
  opts?: Record<string, unknown>;
  /** Not a stack output (each resource is one by default). */
  unexported?: boolean;
}

export interface StateResource {
  urn: string;
  type: string;
  id?: string;
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown>;
  initErrors?: string[];
}

export interface LoggedRequest {
  seq: number;
  method: string;
  path: string;
  status: number;
  body: unknown;
}

export const ref = (target: string) => ({ $ref: target });
export const secret = (value: unknown) => ({ $secret: value });

/** The message an operation failed with, or "" when it succeeded (to match several rules in one failure). */
export const failureOf = (operation: Promise<unknown>): Promise<string> =>
  operation.then(
    () => "",
    (err: Error) => err.message,
  );

/** Pulumi's marker of a secret value in exported state (the envelope's signature key and value). */
const SECRET_SIG_KEY = "4dabf18193072939515e22adb298388d";
const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

/** Whether a state value is marked secret (an envelope rather than the value itself). */
export const markedSecret = (value: unknown) =>
  !!value && typeof value === "object" && (value as Record<string, unknown>)[SECRET_SIG_KEY] === SECRET_SIG;

/** The value inside a secret envelope (decrypted state holds it as `plaintext` JSON or as `value`); other values as they are. */
export const plain = (value: unknown) =>
  markedSecret(value) ? ((value as { value?: unknown }).value ?? JSON.parse((value as { plaintext: string }).plaintext)) : value;

/** The engine's count of changes by kind ("create", "update", "replace", "same", ...). */
export const changes = (result: { summary: { resourceChanges?: Record<string, number> } }) => result.summary.resourceChanges ?? {};

/** Logged requests as "METHOD /path" lines. */
export const writes = (requests: LoggedRequest[]) => requests.map((r) => `${r.method} ${r.path}`);

/** A request that changes something through the API (the emulator's controls are not). */
const isMutation = (r: LoggedRequest) => r.method !== "GET" && r.path.startsWith("/v1/");

export interface E2E {
  emu: TestEmulator;
  stack: Stack;
  dir: string;
  /** The stack's `secrets_providers`, for a deployment recorded elsewhere that is imported into it. */
  secretsProviders(): { type: string; state: unknown };
  /** The environment the CLI runs with (home, backend, the key service of its secrets): for running pulumi or a bin by hand. */
  env: Record<string, string>;
  /** Declares the resources for the next operation, without running one (a test that runs the CLI itself). */
  declare(resources: Declaration[]): Promise<void>;
  /** Declares the resources and runs `pulumi up` (with `options`: --refresh, --target, --plan...); returns the result (throws on failure). */
  up(resources: Declaration[], options?: Omit<UpOptions, "onOutput">): Promise<UpResult>;
  /**
   * `pulumi up` expected to fail: returns the error text (stdout+stderr). `continueOnError`
   * keeps the engine launching independent steps after the first failure.
   */
  upFails(resources: Declaration[], opts?: Omit<UpOptions, "onOutput">): Promise<string>;
  preview(resources?: Declaration[], options?: Omit<PreviewOptions, "onOutput">): Promise<PreviewResult>;
  refresh(): Promise<RefreshResult>;
  /** `pulumi destroy` (with `options`: runProgram, for delete hooks). */
  destroy(options?: Omit<DestroyOptions, "onOutput">): Promise<DestroyResult>;
  /** The stack's resources as recorded in state (secrets decrypted). */
  state(): Promise<StateResource[]>;
  /** The stack's outputs (`pulumi stack output`, twice: an up through the harness reads none). */
  outputs(): Promise<OutputMap>;
  /** One resource of the state by its Pulumi name. */
  resource(name: string): Promise<StateResource>;
  /** The API id of a resource in state (standalone: `names.map(e2e.idOf)` works). */
  idOf(name: string): Promise<string>;
  /** The recorded outputs of a resource in state. */
  outputsOf(name: string): Promise<Record<string, unknown>>;
  /** The raw state file as the backend stores it (secrets as ciphertext). */
  rawState(): Promise<string>;
  /** Requests the emulator logged after `since` (seq). */
  requests(since?: number): Promise<LoggedRequest[]>;
  /** Mutating /v1 requests (POST, PUT, PATCH, DELETE) after `since`. */
  mutations(since?: number): Promise<LoggedRequest[]>;
  /** Runs `pulumi up` and returns its result with the requests it made and the mutating ones among them. */
  upLogged(resources: Declaration[]): Promise<{ result: UpResult; mutations: LoggedRequest[]; requests: LoggedRequest[] }>;
  lastSeq(): Promise<number>;
  /**
   * Saves the stack's checkpoint as it is now; the function returned writes it back, with no CLI
   * process (an up of nothing is an engine run). The file backend replaces `<stack>.json` whole
   * on every write (cachedExport), so that one file is the stack's state.
   */
  saveState(): Promise<() => Promise<void>>;
  /** Everything the CLI printed during this file's operations (progress lines included). */
  output(): string;
  inventoryTotal(): Promise<{ total: number; resources: Record<string, unknown[]> }>;
  /** Runs the pulumi CLI itself in the project (`pulumi import ...`) on this stack; returns what it printed. */
  cli(args: string[]): Promise<string>;
  stop(): Promise<void>;
}

function pulumiEnv(home: string, backend: string, transit: Transit, verbose = false): Record<string, string> {
  return {
    PULUMI_HOME: home,
    PULUMI_BACKEND_URL: `file://${backend}`,
    // The stack's secrets: kept by the transit stand-in (transit.ts), no passphrase to derive a key from.
    ...transit.env,
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    PULUMI_AUTOMATION_API_SKIP_VERSION_CHECK: "true",
    PULUMI_NODEJS_TRANSPILE_ONLY: "true",
    // Go programs (the Go language host builds one per operation): a build cache keyed by module,
    // not by directory, so the SDK a checkout or a fresh module cache holds is compiled once.
    GOFLAGS: "-trimpath",
    // The provider reads its configuration from stack config; make sure the environment of the
    // machine running the tests does not leak in.
    SVC_BASE_URL: "",
    SVC_TOKEN: "",
    SVC_WORKSPACE_ID: "",
    // The provider's progress: quiet by default (what a person sees), every step when verbose.
    PULUMI_SVC_VERBOSE: verbose ? "1" : "",
  };
}

/**
 * A fresh project directory holding a copy of a program (default: the scenario program), whose
 * node_modules resolves to this repository's (or `packageRepo`'s), as `pulumi-svc` would in a user's
 * project. An example is copied to `<tmp>/examples/<name>` beside a `<tmp>/bin` and a `<tmp>/sdk`
 * that are that checkout's, so an example's relative paths (the plugin at `../../bin`, a generated SDK under
 * `../../sdk`) find them as they do in place.
 */
function makeProjectDir(prefix: string, programDir: string = PROGRAM, packageRepo: string = PACKAGE_REPO): { dir: string; root: string } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), `svc-e2e-${prefix}-`));
  const inExamples = path.relative(path.join(REPO, "examples"), programDir);
  const dir = inExamples.startsWith("..") ? root : path.join(root, "examples", inExamples);
  fs.mkdirSync(dir, { recursive: true });
  if (dir !== root) for (const shared of ["bin", "sdk"]) fs.symlinkSync(path.join(packageRepo, shared), path.join(root, shared), "dir");
  fs.cpSync(programDir, dir, {
    recursive: true,
    filter: (src) => !/(^|\/)(node_modules|Pulumi\.[^/]+\.yaml)$/.test(src) || src === programDir,
  });
  fs.symlinkSync(path.join(packageRepo, "node_modules"), path.join(dir, "node_modules"), "dir");
  return { dir, root };
}

/** The resource types this package records: the dynamic face's and the plugin's. */
export const isSvcType = (type: string) => type.startsWith("pulumi-nodejs:dynamic/svc:") || type.startsWith("svc:index:");

export interface E2EOptions {
  workflowMs?: number;
  seed?: number;
  /** Run this program directory (an example) instead of the scenario program. */
  programDir?: string;
  /** Use the emulator's staff/operator token as svc:token (Administrator-only resources). */
  staff?: boolean;
  /** Share another E2E's emulator (a second stack, e.g. with the staff token); it is left running on stop. */
  emulator?: TestEmulator;
  /** Run the provider with PULUMI_SVC_VERBOSE=1: every step's progress line, as before it was quiet by default. */
  verbose?: boolean;
  /** More environment for the CLI and the programs it runs (PYTHONPATH for a generated SDK). */
  env?: Record<string, string>;
  /** The checkout whose package the program runs (its node_modules, bin and sdk): another one's records state with an older package. */
  packageRepo?: string;
  /**
   * Which face the scenario program declares its resources on: the dynamic resources of
   * `pulumi-svc` (default), or the typed classes of sdk/nodejs over the provider plugin.
   */
  face?: Face;
  /** Stack config set by property path (`pulumi config set --path`), such as `pulumi:autonaming.pattern`: one CLI process. */
  configPaths?: Record<string, string>;
}

export type Face = "dynamic" | "plugin";

/**
 * The scenario program on the plugin face: sdk/nodejs built beside it and named in its config
 * (`scenario:sdk`, which it requires instead of pulumi-svc), and the plugin of this checkout named
 * in its Pulumi.yaml, as a user's project names it.
 */
function onPluginFace(dir: string, root: string): Record<string, { value: string }> {
  const sdk = buildNodeSdk(path.join(root, ".sdk", "node_modules"));
  fs.appendFileSync(
    path.join(dir, "Pulumi.yaml"),
    `plugins:\n  providers:\n    - name: svc\n      path: ${path.join(PACKAGE_REPO, "bin")}\n`,
  );
  return { "scenario:sdk": { value: sdk } };
}

/**
 * The folder where a stack's provider processes share their pace (provider/client/paceStore.ts): what one
 * run learns from 429s paces the runs after it for a minute, as on a user's machine.
 */
const paceDirOf = (e2e: Pick<E2E, "dir">): string => path.join(e2e.dir, ".pace");

/**
 * The automation API follows each up, refresh and destroy with `pulumi stack history` (the
 * result's summary), and each up with `pulumi stack output` twice (its outputs): three more CLI
 * processes per up, each loading and decrypting the state, about as long as a small up itself.
 * Through the harness an operation's summary comes from its own event stream instead, and
 * outputs only when a test asks (`e2e.outputs()`). Calls to `stack` made outside the harness's
 * operations (a test's own `stack.up` with policy packs) keep the automation API's behaviour.
 */
function leanOperations(stack: Stack): <T>(run: (onEvent: (event: EngineEvent) => void) => Promise<T>) => Promise<T> {
  const original = { info: stack.info.bind(stack), outputs: stack.outputs.bind(stack) };
  type Op = { changes?: UpdateSummary["resourceChanges"] };
  let current: Op | undefined;
  stack.info = async (showSecrets?: boolean) =>
    current
      ? ({ kind: "update", result: "succeeded", resourceChanges: current.changes } as unknown as UpdateSummary)
      : original.info(showSecrets);
  stack.outputs = async () => (current ? {} : original.outputs());
  return async (run) => {
    const op: Op = (current = {});
    try {
      return await run((event) => {
        if (event.summaryEvent) op.changes = event.summaryEvent.resourceChanges;
      });
    } finally {
      current = undefined;
    }
  };
}

/** The file backend's checkpoint of the stack (`<backend>/.pulumi/stacks/<project>/<stack>.json`, common/stack.ts). */
async function checkpointFile(stack: Stack, backendUrl: string): Promise<string> {
  return path.join(diyDir(backendUrl, "stacks", (await stack.workspace.projectSettings()).name)!, `${stack.name.split("/").pop()}.json`);
}

/** Whether the stack's checkpoint records any resource (read from the file: no CLI process). */
async function recordsResources(stack: Stack, backendUrl: string): Promise<boolean> {
  try {
    const { checkpoint } = JSON.parse(fs.readFileSync(await checkpointFile(stack, backendUrl), "utf8")) as {
      checkpoint?: { latest?: { resources?: unknown[] } };
    };
    return (checkpoint?.latest?.resources?.length ?? 0) > 0;
  } catch {
    return true; // unreadable (torn by a kill): let destroy say what it finds
  }
}

/**
 * The stack's state as `pulumi stack export --show-secrets` prints it, read from the file
 * backend's checkpoint (`<stack>.json`: its `checkpoint.latest` is the deployment), secrets opened
 * here (./stateSecrets.ts): no CLI process, where an export was one after nearly every step (each
 * `idOf` reads state). Parsed again only when the file changed, whoever wrote it (the harness, a
 * test's own CLI run, a killed up: the file backend replaces the file whole, tests/e2e/kill.ts).
 */
function checkpointState(
  stack: Stack,
  backendUrl: string,
  stackConfigFile: string,
  transit: Transit,
): () => Promise<{ resources?: StateResource[] }> {
  let cached: { text: string; deployment: Promise<{ resources?: StateResource[] }> } | undefined;
  let decrypter: Decrypt | undefined;
  const open = (value: unknown, decrypt: Decrypt): unknown => {
    if (Array.isArray(value)) return value.map((v) => open(v, decrypt));
    if (!value || typeof value !== "object") return value;
    const { ciphertext } = value as { ciphertext?: string };
    if (markedSecret(value) && typeof ciphertext === "string") return { [SECRET_SIG_KEY]: SECRET_SIG, plaintext: decrypt(ciphertext) };
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, open(v, decrypt)]));
  };
  const parse = async (text: string) => {
    const deployment = (JSON.parse(text) as { checkpoint?: { latest?: { resources?: StateResource[] } } }).checkpoint?.latest ?? {};
    if (!text.includes('"ciphertext"')) return deployment;
    decrypter ??= stateDecrypter(stackConfigFile, transit);
    return open(deployment, decrypter) as { resources?: StateResource[] };
  };
  return async () => {
    let text: string;
    try {
      text = await fs.promises.readFile(await checkpointFile(stack, backendUrl), "utf8");
    } catch {
      return {}; // no checkpoint yet: nothing recorded
    }
    if (cached?.text !== text) cached = { text, deployment: parse(text) };
    return cached.deployment;
  };
}

/**
 * The pulumi CLI on PATH, found once per test file (jest gives each file its own modules): a
 * workspace made without it runs `pulumi version` first, a CLI process for every stack.
 */
let pulumiOnPath: Promise<PulumiCommand> | undefined;

export async function startE2E(name: string, options: E2EOptions = {}): Promise<E2E> {
  const emu = options.emulator ?? (await startTestEmulator({ workflowMs: options.workflowMs ?? 150, seed: options.seed ?? 4242 }));
  const { dir, root } = makeProjectDir(name, options.programDir, options.packageRepo);
  const home = path.join(dir, ".pulumi-home");
  const backend = path.join(dir, ".pulumi-state");
  fs.mkdirSync(home);
  fs.mkdirSync(backend);
  // Emulators made from one seed share their token, and a port comes free for the next test: a
  // pace learned here (paceStore.ts) stays with this stack unless the test shares it on purpose.
  const paceDir = { SVC_PACE_DIR: paceDirOf({ dir }) };
  const transit = await startTransit();
  const envVars = { ...pulumiEnv(home, backend, transit, options.verbose), ...paceDir, ...options.env };
  // The directory is new: create, not createOrSelect, whose `stack select` is a CLI process that fails first.
  const stack = await LocalWorkspace.createStack(
    { stackName: "e2e", workDir: dir },
    {
      workDir: dir,
      envVars,
      pulumiHome: home,
      secretsProvider: transit.secretsProvider,
      pulumiCommand: await (pulumiOnPath ??= PulumiCommand.get()),
    },
  );
  await stack.setAllConfig({
    "svc:baseUrl": { value: emu.emu.url },
    "svc:token": { value: options.staff ? emu.emu.staffToken : emu.emu.token, secret: true },
    "svc:workspaceId": { value: emu.workspaceId },
    ...(options.face === "plugin" ? onPluginFace(dir, root) : {}),
  });
  if (options.configPaths)
    await stack.setAllConfig(Object.fromEntries(Object.entries(options.configPaths).map(([k, value]) => [k, { value }])), true);
  // A file beside the program, not stack config: `pulumi config set` is a CLI process per
  // operation, and config reaches every dynamic provider and the default provider's state (a
  // declared secret would have to travel as secret config). The program marks `$secret` values.
  const setResources = async (resources: Declaration[]) => fs.promises.writeFile(path.join(dir, SCENARIO_FILE), JSON.stringify(resources));
  const logs: string[] = [];
  const onOutput = (out: string) => logs.push(out);
  const lean = leanOperations(stack);
  const stackConfigFile = path.join(dir, "Pulumi.e2e.yaml");
  const deployment = checkpointState(stack, `file://${backend}`, stackConfigFile, transit);

  const control = async (p: string) => {
    const res = await emu.control.get(p);
    return res.body;
  };

  const e2e: E2E = {
    emu,
    stack,
    dir,
    env: envVars,
    secretsProviders: () => secretsProvidersOf(stackConfigFile, transit),
    declare: setResources,
    async up(resources, options = {}) {
      await setResources(resources);
      return lean((onEvent) => stack.up({ onOutput, onEvent, color: "never", ...options }));
    },
    async upFails(resources, opts = {}) {
      await setResources(resources);
      try {
        await lean((onEvent) => stack.up({ onOutput, onEvent, color: "never", ...opts }));
      } catch (err) {
        return String((err as Error).message);
      }
      throw new Error("expected pulumi up to fail, but it succeeded");
    },
    async preview(resources, options = {}) {
      if (resources) await setResources(resources);
      return stack.preview({ onOutput, color: "never", diff: true, ...options });
    },
    refresh: () => lean((onEvent) => stack.refresh({ onOutput, onEvent, color: "never" })),
    destroy: (options = {}) => lean((onEvent) => stack.destroy({ onOutput, onEvent, color: "never", ...options })),
    async state() {
      const resources = (await deployment()).resources ?? [];
      return resources.filter((r) => isSvcType(r.type));
    },
    outputs: () => stack.outputs(),
    async resource(resourceName) {
      const found = (await e2e.state()).find((r) => r.urn.endsWith(`::${resourceName}`));
      if (!found) throw new Error(`no resource ${resourceName} in the stack's state`);
      return found;
    },
    idOf: async (resourceName) => (await e2e.resource(resourceName)).id!,
    outputsOf: async (resourceName) => (await e2e.resource(resourceName)).outputs,
    async rawState() {
      const files: string[] = [];
      const walk = (d: string) => {
        for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
          const p = path.join(d, entry.name);
          if (entry.isDirectory()) walk(p);
          else if (entry.name.endsWith(".json")) files.push(fs.readFileSync(p, "utf8"));
        }
      };
      walk(backend);
      return files.join("\n");
    },
    async requests(since = 0) {
      return ((await control(`/_emulator/requests?since=${since}`)) as { requests: LoggedRequest[] }).requests;
    },
    async mutations(since = 0) {
      return (await e2e.requests(since)).filter(isMutation);
    },
    async upLogged(resources) {
      const since = await e2e.lastSeq();
      const result = await e2e.up(resources);
      const requests = await e2e.requests(since);
      return { result, requests, mutations: requests.filter(isMutation) };
    },
    async lastSeq() {
      return ((await control("/_emulator/requests?since=999999999")) as { lastSeq: number }).lastSeq;
    },
    async inventoryTotal() {
      return (await control(`/_emulator/inventory`)) as { total: number; resources: Record<string, unknown[]> };
    },
    async saveState() {
      const file = await checkpointFile(stack, `file://${backend}`);
      const saved = await fs.promises.readFile(file);
      return () => fs.promises.writeFile(file, saved);
    },
    output: () => logs.join(""),
    async cli(args) {
      const env = { ...process.env, ...envVars };
      const argv = [...args, "--stack", "e2e", "--non-interactive", "--color", "never"];
      const { stdout, stderr } = await execFileAsync("pulumi", argv, { cwd: dir, env, maxBuffer: 64 * 1024 * 1024 });
      logs.push(stdout, stderr);
      return stdout + stderr;
    },
    async stop() {
      try {
        // Most files end with their own destroy: another would be an engine run that finds nothing.
        if (await recordsResources(stack, `file://${backend}`)) await lean((onEvent) => stack.destroy({ onEvent, color: "never" }));
      } catch {
        // A test that failed midway; the emulator goes away anyway.
      }
      if (!options.emulator) await emu.stop();
      await transit.stop();
      stopLeftovers(root);
      if (process.env.PULUMI_SVC_KEEP_E2E !== "1") fs.rmSync(root, { recursive: true, force: true });
    },
  };
  return e2e;
}

/**
 * Ends processes still running for a project directory: the CLI's YAML language host
 * (`pulumi-language-yaml -root=<dir>`) outlives an engine that stopped on a failed up, re-parented
 * to init (two were left per suite run). Linux: read from /proc.
 */
function stopLeftovers(root: string): void {
  let pids: string[];
  try {
    pids = fs.readdirSync("/proc").filter((entry) => /^\d+$/.test(entry));
  } catch {
    return;
  }
  for (const pid of pids) {
    try {
      const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8");
      if (cmdline.includes(`-root=${root}`)) process.kill(Number(pid), "SIGTERM");
    } catch {
      // Gone already, or not ours to read.
    }
  }
}
