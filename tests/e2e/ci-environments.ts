/**
 * CI at team scale (examples/ci-environments), the cases each shared state backend runs
 * (ci-environments-s3.test.ts: a real S3-compatible object store; ci-environments-postgres.test.ts:
 * a real PostgreSQL server): the driver on the Automation API brings four
 * per-branch environments of the quickstart up at once on one token, under a tight rate limit,
 * with the state on the backend. Two working
 * copies stand for two CI runners: each its own checkout and PULUMI_HOME, both logged in to the
 * same backend. A second job on a stack that is being updated is refused by the backend's lock and
 * nothing is lost; the drift check from the other runner finds nothing where nothing changed
 * and names exactly the one out-of-band change; the budget gate stops an environment before anything is made; destroy from
 * the other runner empties the API. A missing bucket or an unreachable store is named before
 * anything is created.
 *
 * The whole flow runs on one backend. What does not depend on where the state is (four at once
 * under the rate limit, the budget gate, the cancelled job) proves nothing more on a second one,
 * which runs the part that does: one environment's state written, locked, read by the other
 * runner and destroyed from it, and the backend's own refusals (`scope: "state"`).
 */
import { spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startTestEmulator, type TestEmulator } from "pulumi-svc-emulator/testing";
import { stackName, workspaceName } from "../../examples/ci-environments/names";

/** A shared state backend under test: what the cases need of it. */
export interface SharedState {
  /** The backend URL every runner logs in to (made ready by `start`). */
  url: string;
  /** How the CLI names a lock object in its refusal (credentials masked). */
  lockUrl: string;
  /** The environment the CLI needs for it (credentials). */
  env: Record<string, string>;
  /** The state's object keys under a prefix. */
  keys(prefix: string): Promise<string[]>;
  /** Backend URLs that cannot be used, each with what the driver must say of it. */
  unusable: Array<[string, () => Promise<{ url: string; named: RegExp }>]>;
  stop(): Promise<void>;
}

jest.setTimeout(900_000);

/**
 * The API's rate limit for the whole file (one token: the driver, the stacks' providers and their
 * policy packs share it). Tight enough that the run meets 429s (asserted: each provider learns its
 * pace from them), which the providers ride out. Measured on the 2-core machine: 7 429s in the
 * four-at-once up, six destroys at once pass; before the request limiter (issue 17) 15/s burst 40
 * was the tightest that passed, and six destroys at once at 10/s failed on a 429.
 */
const RATE_LIMIT = { burst: 20, perSecond: 10 };

const REPO = path.resolve(__dirname, "..", "..");
const DRIVER = path.join(REPO, "examples", "ci-environments", "driver.ts");
const ALL_BRANCHES = ["main", "feature/login-form", "fix-42", "release/2.0"];
/** The branch whose second job meets the lock: in both scopes. */
const LOCKED = "fix-42";
const PASSPHRASE = "ci-e2e-passphrase";

/** One CI runner: a fresh checkout of the quickstart, its own PULUMI_HOME, logged in to the shared bucket. */
interface Runner {
  program: string;
  home: string;
  root: string;
}

interface Run {
  code: number | null;
  out: string;
}

/**
 * The cases, on the backend `start` makes ready (called in beforeAll): `what` it is, and the names
 * of its `unusable` URLs (jest names its tests before any runs).
 */
export function ciEnvironmentCases(what: string, unusable: string[], start: () => Promise<SharedState>, scope: "whole" | "state"): void {
  const whole = scope === "whole";
  const BRANCHES = whole ? ALL_BRANCHES : [LOCKED];
  const STACKS = BRANCHES.map(stackName);
  /** Every environment the cases make, for the destroy at the end. */
  const MADE = whole ? [...STACKS, "too-big", "cancelled"] : STACKS;
  let emu: TestEmulator;
  let store: SharedState;
  let runnerA: Runner;
  let runnerB: Runner;

  function makeRunner(name: string): Runner {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), `svc-e2e-ci-${name}-`));
    const program = path.join(root, "quickstart");
    fs.cpSync(path.join(REPO, "examples", "quickstart"), program, {
      recursive: true,
      filter: (src) => !/node_modules|Pulumi\.[^/]+\.yaml$/.test(src),
    });
    fs.symlinkSync(path.join(REPO, "node_modules"), path.join(program, "node_modules"), "dir");
    const home = path.join(root, ".pulumi-home");
    fs.mkdirSync(home);
    return { program, home, root };
  }

  function baseEnv(runner: Runner): NodeJS.ProcessEnv {
    return {
      ...process.env,
      ...store.env,
      PULUMI_HOME: runner.home,
      PULUMI_CONFIG_PASSPHRASE: PASSPHRASE,
      PULUMI_SKIP_UPDATE_CHECK: "true",
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
      PULUMI_AUTOMATION_API_SKIP_VERSION_CHECK: "true",
      PULUMI_NODEJS_TRANSPILE_ONLY: "true",
      PULUMI_BACKEND_URL: "",
      SVC_BASE_URL: emu.emu.url,
      SVC_TOKEN: emu.emu.token,
    };
  }

  /** What a test sees while a command runs: everything printed so far, and the process (to signal it). */
  type Watch = (text: string, child: ChildProcess) => void;

  /** Runs a command to its end (output interleaved as printed); `watch` sees each chunk as it arrives. */
  function exec(cmd: string, args: string[], env: NodeJS.ProcessEnv, cwd: string, watch?: Watch): Promise<Run> {
    return new Promise((resolve, reject) => {
      const child = spawn(cmd, args, { env, cwd, stdio: ["ignore", "pipe", "pipe"] });
      let out = "";
      const take = (d: Buffer) => {
        out += d;
        watch?.(out, child);
      };
      child.stdout.on("data", take);
      child.stderr.on("data", take);
      child.once("error", reject);
      child.once("close", (code) => resolve({ code, out }));
    });
  }

  /** The driver as a CI job runs it (ts-node, from the runner's checkout of the quickstart). */
  function driver(runner: Runner, args: string[], opts: { env?: NodeJS.ProcessEnv; watch?: Watch } = {}): Promise<Run> {
    const argv = ["-r", require.resolve("ts-node/register/transpile-only"), DRIVER, ...args, "--program", runner.program];
    // ts-node looks for tsconfig.json from the working directory: a checkout's root in CI, here a temporary one.
    const env = { ...baseEnv(runner), TS_NODE_PROJECT: path.join(REPO, "tsconfig.json"), ...opts.env };
    return exec(process.execPath, argv, env, runner.root, opts.watch);
  }

  /** The run ended with this exit code (else fails showing what the driver printed). */
  function expectExit(run: Run, code: number): void {
    if (run.code !== code) throw new Error(`the driver exited ${run.code}, expected ${code}; it printed:\n${run.out.slice(-6000)}`);
  }

  const inventory = async () =>
    (await emu.control.get("/_emulator/inventory")).body as {
      total: number;
      resources: Record<string, Array<{ name: string; workspaceId: string }>>;
    };
  /** Everything the API holds apart from workspaces (which the API cannot delete). */
  const nonWorkspaces = async () =>
    Object.entries((await inventory()).resources).filter(([table, rows]) => table !== "workspaces" && rows.length);
  const workspaceIdOf = async (stack: string) =>
    (await emu.api.get("/v1/workspaces", { name: workspaceName(stack) })).body.items[0]?.id as string | undefined;
  /** The stack's state files in the bucket (DIY backend, project mode: .pulumi/stacks/<project>/<stack>.json). */
  const stateKeys = async () => (await store.keys(".pulumi/stacks/")).filter((k) => k.endsWith(".json"));

  beforeAll(async () => {
    [emu, store] = await Promise.all([startTestEmulator({ workflowMs: 150, seed: 4242 }), start()]);
    await emu.control.post("/_emulator/settings", { rateLimits: { general: RATE_LIMIT } });
    runnerA = makeRunner("a");
    runnerB = makeRunner("b");
    for (const runner of [runnerA, runnerB]) {
      const login = await exec("pulumi", ["login", store.url], baseEnv(runner), runner.root);
      expect(login.out).toContain(`Logged in`);
    }
  });

  afterAll(async () => {
    await Promise.all([emu?.stop(), store?.stop()]);
    for (const runner of [runnerA, runnerB]) if (runner) fs.rmSync(runner.root, { recursive: true, force: true });
  });

  describe(`examples/ci-environments: per-branch environments from CI, the state in ${what}`, () => {
    it(`brings ${whole ? "four environments up at once on one token" : "an environment up"}; a second job on it is refused by the lock and nothing is lost`, async () => {
      // The branch `fix-42` comes back to a workspace an earlier environment left (the API cannot
      // delete one); a slow service create there (40 s, longer than the second job takes to reach
      // the lock: start, preview behind the gate, up) keeps its update holding the lock meanwhile.
      const heldWorkspace = (await emu.api.post("/v1/workspaces", { name: workspaceName("fix-42") })).body.id as string;
      await emu.control.post("/_emulator/faults", {
        kind: "slow",
        method: "POST",
        path: `/v1/workspaces/${heldWorkspace}/k3s/services`,
        delayMs: 40_000,
        times: 1,
      });
      const since = (await emu.control.get("/_emulator/requests?since=999999999")).body.lastSeq as number;

      let second: Promise<Run> | undefined;
      const first = driver(runnerA, ["up", ...BRANCHES, "--budget", "500"], {
        // Once fix-42 has made its first resource, its update holds the stack's lock.
        watch: (out) => {
          if (!second && out.includes("[fix-42] created ")) second = driver(runnerB, ["up", "fix-42", "--budget", "500"]);
        },
      });
      const a = await first;
      if (!second) throw new Error(`fix-42 made nothing, so no second job was started; the driver printed:\n${a.out.slice(-6000)}`);
      const b = await second!;

      // The second job: refused by the DIY backend's lock, which names the lock object and its owner.
      expectExit(b, 1);
      expect(b.out).toMatch(/\[fix-42\] failed: .*the stack is currently locked by 1 lock\(s\)/);
      expect(b.out).toContain(`${store.lockUrl}/.pulumi/locks/`);
      expect(b.out).toMatch(/fix-42\s+fix-42\s+ci-fix-42\s+failed/);

      // The first: every environment up, progress per environment, a summary table.
      expectExit(a, 0);
      for (const [i, stack] of STACKS.entries()) {
        expect(a.out).toContain(`[${stack}] created web-1 (Instance)`);
        expect(a.out).toMatch(
          new RegExp(`${BRANCHES[i].replace(/[./]/g, "\\$&")}\\s+${stack}\\s+${workspaceName(stack)}\\s+up\\s+\\$[\\d.]+/month`),
        );
      }
      expect(a.out).toContain(`[fix-42] workspace ci-fix-42 (${heldWorkspace}, taken back)`);

      // One k3s cluster per workspace: four workspaces, each with the whole quickstart.
      const { resources } = await inventory();
      for (const stack of STACKS) {
        const ws = await workspaceIdOf(stack);
        const inWorkspace = (table: string) => resources[table].filter((r) => r.workspaceId === ws);
        expect(
          inWorkspace("instances")
            .map((r) => r.name)
            .sort(),
        ).toEqual(["web-1", "web-2"]);
        expect(inWorkspace("k3sClusters")).toHaveLength(1);
        expect(inWorkspace("k3sServices").map((r) => r.name)).toEqual(["web"]);
      }

      // The state is in the object store, and no lock is left behind.
      expect(await stateKeys()).toEqual(STACKS.map((s) => `.pulumi/stacks/svc-quickstart/${s}.json`).sort());
      expect(await store.keys(".pulumi/locks/")).toEqual([]);

      // The limit was met: the API answered 429s, and they were waited out (four at once meet it).
      if (!whole) return;
      const limited = ((await emu.control.get(`/_emulator/requests?since=${since}`)).body.requests as Array<{ status: number }>).filter(
        (r) => r.status === 429,
      );
      expect(limited.length).toBeGreaterThan(0);
    });

    // One check for both answers: the environments nobody touched read as no drift, and the one
    // changed outside Pulumi names exactly the changed field and nothing else (a check before the
    // change would prove no more, at four more refreshes).
    it("the other runner (a fresh checkout, no stack files) reads the same state: no drift, and an out-of-band change named exactly", async () => {
      // `select` gives this checkout the stack's configuration, so plain pulumi commands work here (the recovery in the workflow files).
      expectExit(await driver(runnerB, ["select", "fix-42"]), 0);
      const output = await exec("pulumi", ["stack", "output", "clusterStatus"], baseEnv(runnerB), runnerB.program);
      expect(output).toEqual({ code: 0, out: "ACTIVE\n" });

      // Someone renames an instance of one environment in the API, outside Pulumi.
      const ws = await workspaceIdOf("fix-42");
      const web1 = (await emu.api.get(`/v1/workspaces/${ws}/instances`, { name: "web-1" })).body.items[0];
      expect((await emu.api.patch(`/v1/instances/${web1.id}`, { name: "web-1-hotfix" })).status).toBe(200);

      const drift = await driver(runnerB, ["check", ...BRANCHES]);
      expectExit(drift, 1);
      expect(drift.out).toMatch(/\[fix-42\] drift: web-1 \(Instance\): name\n/);
      expect(drift.out.match(/\[fix-42\] drift: /g)).toHaveLength(1);
      expect(drift.out).toMatch(/fix-42\s+fix-42\s+ci-fix-42\s+drifted/);
      for (const stack of STACKS.filter((s) => s !== LOCKED)) {
        expect(drift.out).toContain(`[${stack}] no drift`);
        expect(drift.out).toMatch(new RegExp(`\\s${stack.replace(/\./g, "\\.")}\\s+ci-${stack.replace(/\./g, "\\.")}\\s+no drift`));
      }
    });

    if (whole)
      it("the budget gate stops an environment whose estimate is over it, before anything is made", async () => {
        const before = await nonWorkspaces();
        const gated = await driver(runnerA, ["up", "too-big", "--budget", "10"]);
        expectExit(gated, 1);
        expect(gated.out).toMatch(
          /\[too-big\] over budget, nothing changed: estimated \$[\d.]+\/month exceeds the budget maxMonthlyCost \$10\.00\/month/,
        );
        expect(gated.out).toMatch(/too-big\s+too-big\s+ci-too-big\s+over budget/);
        expect(await nonWorkspaces()).toEqual(before);
      });

    if (whole)
      it("a cancelled job (SIGINT to the driver, as a CI runner sends) stops its pulumi cleanly; the next up completes the environment, nothing duplicated", async () => {
        let signalled = false;
        const cancelled = await driver(runnerA, ["up", "cancelled"], {
          watch: (out, child) => {
            if (!signalled && out.includes("[cancelled] created ")) signalled = child.kill("SIGINT");
          },
        });
        expectExit(cancelled, 1);
        expect(cancelled.out).toContain("SIGINT: asking every running pulumi to stop and write its state");
        expect(cancelled.out).toMatch(/\[cancelled\] failed: cancelled: /);
        expect(cancelled.out).toMatch(/cancelled\s+cancelled\s+ci-cancelled\s+failed/);
        // The lock is released, so the next job is not refused; it finishes what the first began.
        expect(await store.keys(".pulumi/locks/")).toEqual([]);
        const resumed = await driver(runnerA, ["up", "cancelled"]);
        expectExit(resumed, 0);
        const ws = await workspaceIdOf("cancelled");
        const { resources } = await inventory();
        expect(
          resources.instances
            .filter((r) => r.workspaceId === ws)
            .map((r) => r.name)
            .sort(),
        ).toEqual(["web-1", "web-2"]);
        expect(resources.k3sClusters.filter((r) => r.workspaceId === ws)).toHaveLength(1);
      });

    it("destroys every environment from the other runner: the API holds nothing but the environments' empty workspaces", async () => {
      const destroyed = await driver(runnerB, ["destroy", ...MADE]);
      expectExit(destroyed, 0);
      for (const stack of MADE)
        expect(destroyed.out).toMatch(new RegExp(`\\s${stack.replace(/\./g, "\\.")}\\s+ci-${stack.replace(/\./g, "\\.")}\\s+destroyed`));
      expect(await nonWorkspaces()).toEqual([]);
      expect((await inventory()).resources.workspaces.map((w) => w.name).sort()).toEqual(MADE.map(workspaceName).sort());
      expect(await stateKeys()).toEqual([]);
    });
  });

  describe("examples/ci-environments: a state backend that cannot be used is named before anything is made", () => {
    it.each(unusable)("%s", async (name) => {
      const make = store.unusable.find(([n]) => n === name)![1];
      const { url, named } = await make();
      const workspacesBefore = (await inventory()).resources.workspaces.length;
      const run = await driver(runnerA, ["up", "never-made"], { env: { PULUMI_BACKEND_URL: url } });
      expectExit(run, 2);
      expect(run.out).toMatch(named);
      expect(run.out).toContain(url);
      expect((await inventory()).resources.workspaces.length).toBe(workspacesBefore);
      expect(await nonWorkspaces()).toEqual([]);
    });
  });
}
