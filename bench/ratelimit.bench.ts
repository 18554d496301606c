/**
 * Rate-limit benchmark: K stacks of N resources started together on one API token, against an
 * emulator whose general rate limit is R requests/s (burst 20) and whose workflows take T s,
 * through the real `pulumi` CLI. Per scenario, for up and then destroy: the stacks that
 * succeeded, the wall time against the floor (the requests the stacks really need, divided by R),
 * the share of requests answered 429, requests per resource, and the provider processes' peak
 * memory. Each scenario runs once per CLI of `--cli` (by default the CLIs the tests run, newest
 * first: scripts/matrix.js), one right after the other, so the versions stand side by side in one
 * run. See bench/README.md. Nothing here is a test.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator } from "pulumi-svc-emulator";
import { apiRequestsSince, makeProject, matrixClis, pulumi, pulumiBinDir, versionOf, yamlProgram, type Project } from "./cli";
import { environment, parseArgs, peakMemoryMb, PROVIDER_PROCESS, writeResult } from "./common";

const options = parseArgs({
  scenarios: {
    default: "4x100@10/2,1x100@10/2,1x200@2/10,plugin:1x100@10/2,8x40@5/2,16x40@5/2",
    help: "KxN@R/T: K stacks of N resources at R requests/s with T-second workflows; 'plugin:' runs YAML stacks (the plugin face); a '+cap' suffix sets svc:maxRequestsPerSecond to R/K on each stack; the stacks share one pace as processes on one machine do, '+alone' gives each its own (SVC_PACE_DIR=off: processes on different machines)",
  },
  burst: { default: "20", help: "the rate limit's burst" },
  cli: {
    default: matrixClis(),
    help: "pulumi CLI versions to run each scenario with (scripts/ensure-pulumi.sh builds each), comma-separated",
  },
  out: { default: "bench/results", help: "where the JSON result goes" },
  dump: { default: "", help: "a directory to write each phase's request log to (JSON), to study the pace" },
});

interface Scenario {
  face: "dynamic" | "plugin";
  stacks: number;
  n: number;
  rate: number;
  workflowS: number;
  /** Each stack's svc:maxRequestsPerSecond (R/K: the token's limit split evenly), or null for none. */
  cap: number | null;
  /** Each stack's processes keep their pace to themselves (SVC_PACE_DIR=off), as on different machines. */
  alone: boolean;
  label: string;
}

function parseScenario(text: string): Scenario {
  const m = /^(plugin:)?(\d+)x(\d+)@([\d.]+)\/([\d.]+)(\+cap)?(\+alone)?$/.exec(text.trim());
  if (!m) throw new Error(`bench: scenario "${text}" is not KxN@R/T[+cap][+alone] (e.g. 4x100@10/2)`);
  const [stacks, rate] = [+m[2], +m[4]];
  const cap = m[6] ? rate / stacks : null;
  return { face: m[1] ? "plugin" : "dynamic", stacks, n: +m[3], rate, workflowS: +m[5], cap, alone: !!m[7], label: text.trim() };
}

/**
 * The requests the stacks really need, per phase: up sends a Disk's POST, one poll at its
 * workflow's end and its read-back, and a Vpc's POST; destroy sends a Disk's DELETE and one poll,
 * and a Vpc's DELETE (answered 204). The floor is that count divided by the rate.
 */
const NEEDED = { up: { disk: 3, vpc: 1 }, destroy: { disk: 2, vpc: 1 } };
type Phase = keyof typeof NEEDED;

/** Runs `pulumi <args>` in each project at once; per stack whether it succeeded, how long it took, and its last error lines. */
async function together(projects: Project[], args: string[]) {
  return Promise.all(
    projects.map(
      (project) =>
        new Promise<{ ok: boolean; ms: number; tail: string; rateLines: number }>((resolve) => {
          const started = Date.now();
          const child = spawn("pulumi", [...args, "--non-interactive", "--color", "never", "--stack", "bench"], {
            cwd: project.dir,
            env: project.env,
          });
          let out = "";
          child.stdout.on("data", (d) => (out += d));
          child.stderr.on("data", (d) => (out += d));
          child.on("close", (code) =>
            resolve({
              ok: code === 0,
              ms: Date.now() - started,
              tail: code === 0 ? "" : out.split("\n").slice(-15).join("\n"),
              rateLines: out.split("\n").filter((l) => /rate limit|answered 429/.test(l)).length,
            }),
          );
        }),
    ),
  );
}

function timeline(requests: Array<{ time: string; status: number }>, started: number): string {
  const seconds: Array<[number, number]> = [];
  for (const r of requests) {
    const i = Math.max(0, Math.floor((Date.parse(r.time) - started) / 1000));
    while (seconds.length <= i) seconds.push([0, 0]);
    seconds[i][r.status === 429 ? 1 : 0]++;
  }
  return seconds.map(([ok, limited]) => (limited ? `${ok}/${limited}` : `${ok}`)).join(" ");
}

async function runScenario(s: Scenario, binDir: string, root: string) {
  const emu = await startEmulator({ port: 0, workflowMs: s.workflowS * 1000, seed: 7 });
  const workspaces = emu.services.store.t.workspaces;
  workspaces.update(emu.workspaceId, { quota: { ...workspaces.get(emu.workspaceId)!.quota, max_vpcs: 1e6, max_storage_bytes: 1e18 } });
  const projects: Project[] = [];
  // A pace folder of the scenario's own: nothing learned in an earlier one carries over.
  fs.mkdirSync(root, { recursive: true });
  const paceDir = s.alone ? "off" : fs.mkdtempSync(path.join(root, "pace-"));
  for (let k = 0; k < s.stacks; k++) {
    const name = `${s.label.replace(/[^\w]+/g, "_")}-${k}`;
    const files = s.face === "plugin" ? { "Pulumi.yaml": yamlProgram(s.n, `s${k}`) } : undefined;
    const env = { BENCH_N: String(s.n), BENCH_PREFIX: `s${k}`, BENCH_RANGE: String(16 * k), SVC_PACE_DIR: paceDir };
    const project = await makeProject(name, { program: s.face === "plugin" ? undefined : "svc", env, files }, emu, binDir, root);
    // As a person who knows the token's limit and how many stacks share it would set it.
    if (s.cap !== null) await pulumi(project, ["config", "set", "svc:maxRequestsPerSecond", s.cap.toFixed(4)]);
    projects.push(project);
  }
  // The limit applies from here on: setting up the stacks is not measured.
  emu.services.rateLimiter.settings = {
    ...emu.services.rateLimiter.settings,
    general: { burst: Number(options.burst), perSecond: s.rate },
  };
  emu.services.rateLimiter.reset();
  const phases: Record<string, unknown> = {};
  try {
    for (const phase of ["up", "destroy"] as Phase[]) {
      const seq = emu.services.requestLog.lastSeq;
      let peak = 0;
      const sampler = setInterval(() => (peak = Math.max(peak, peakMemoryMb(PROVIDER_PROCESS))), 250);
      const started = Date.now();
      const runs = await together(projects, [phase, "--yes", "--skip-preview"]);
      const wallMs = Date.now() - started;
      clearInterval(sampler);
      const requests = apiRequestsSince(emu, seq);
      if (options.dump) {
        fs.mkdirSync(options.dump, { recursive: true });
        fs.writeFileSync(path.join(options.dump, `${s.label.replace(/[^\w]+/g, "_")}-${phase}.json`), JSON.stringify(requests));
      }
      const limited = requests.filter((r) => r.status === 429).length;
      const disks = Math.ceil(s.n / 2) * s.stacks;
      const vpcs = Math.floor(s.n / 2) * s.stacks;
      const floorMs = ((disks * NEEDED[phase].disk + vpcs * NEEDED[phase].vpc) / s.rate) * 1000;
      const result = {
        succeeded: runs.filter((r) => r.ok).length,
        stacks: s.stacks,
        wallMs,
        floorMs,
        wallOverFloor: wallMs / floorMs,
        requests: requests.length,
        answered429: limited,
        share429: requests.length ? limited / requests.length : 0,
        requestsPerResource: (requests.length - limited) / (s.n * s.stacks),
        providerPeakMemoryMb: Math.round(peak),
        rateLinesPerStack: runs.map((r) => r.rateLines),
        stackMs: runs.map((r) => r.ms),
        failures: runs.filter((r) => !r.ok).map((r) => r.tail),
        /** Requests answered (not 429) and answered 429 in each second of the phase: how the pace settled. */
        timeline: timeline(requests, started),
      };
      phases[phase] = result;
      console.error(
        `  ${s.label} ${phase.padEnd(7)} ${result.succeeded}/${s.stacks} ok  wall ${(wallMs / 1000).toFixed(1)}s = ${result.wallOverFloor.toFixed(2)}x floor ${(floorMs / 1000).toFixed(0)}s  429s ${(100 * result.share429).toFixed(1)}% of ${requests.length}  ${result.requestsPerResource.toFixed(2)} req/resource  peak ${result.providerPeakMemoryMb} MB`,
      );
      for (const f of result.failures) console.error(`    failed:\n${f}`);
      console.error(`    per second (answered/429): ${result.timeline}`);
    }
    const left = emu.services.store
      .table("disks")
      .all()
      .filter((d) => !(d as { seed?: boolean }).seed).length;
    return { scenario: s, phases, disksLeft: left };
  } finally {
    await emu.stop();
  }
}

async function main() {
  const scenarios = options.scenarios.split(",").filter(Boolean).map(parseScenario);
  const clis: Array<{ version: string; binDir: string }> = [];
  for (const version of options.cli.split(",").filter(Boolean)) {
    const binDir = await pulumiBinDir(version);
    clis.push({ version: await versionOf(binDir), binDir });
  }
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "svc-bench-rl-"));
  const before = environment();
  try {
    const results = [];
    for (const s of scenarios)
      for (const cli of clis) {
        console.error(
          `${s.label} on pulumi ${cli.version}: ${s.stacks} ${s.face} stack(s) of ${s.n} on one token, ${s.rate} requests/s, ${s.workflowS}s workflows${s.cap === null ? "" : `, each capped at ${s.cap.toFixed(2)}/s`}`,
        );
        results.push({ cli: cli.version, ...(await runScenario(s, cli.binDir, path.join(root, cli.version))) });
      }
    report(results);
    const file = writeResult(options.out, "ratelimit", {
      environment: before,
      loadAverageAfter: environment().loadAverage,
      options,
      results,
    });
    console.log(`\nwritten ${path.relative(process.cwd(), file)}`);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

function report(results: Array<{ cli: string } & Awaited<ReturnType<typeof runScenario>>>) {
  console.log("\n| scenario | pulumi | phase | stacks ok | wall / floor | 429s | requests / resource | provider peak MB |");
  console.log("|---|---|---|---|---|---|---|---|");
  for (const r of results)
    for (const [phase, p] of Object.entries(r.phases) as Array<[string, Record<string, number>]>)
      console.log(
        `| ${r.scenario.label} | ${r.cli} | ${phase} | ${p.succeeded}/${p.stacks} | ${p.wallOverFloor.toFixed(2)} (${(p.wallMs / 1000).toFixed(0)}s / ${(p.floorMs / 1000).toFixed(0)}s) | ${(100 * p.share429).toFixed(1)}% | ${p.requestsPerResource.toFixed(2)} | ${p.providerPeakMemoryMb} |`,
      );
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
