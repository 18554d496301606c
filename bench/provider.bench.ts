/**
 * Provider benchmark: what pulumi-svc adds on top of the engine's floor for a dynamic resource.
 *
 * Two stacks of N resources run through the real `pulumi` CLI against one in-process emulator:
 * the svc stack (N/2 Disks + N/2 Vpcs, bench/programs/svc) and the no-op stack (N dynamic
 * resources whose provider answers at once, bench/programs/noop). Each round runs up, preview,
 * refresh and destroy on both, interleaved and alternating which goes first, so that both see the
 * same machine; the result is the median ratio svc / no-op per phase. The emulator's request log
 * gives the API requests per resource per phase. A second part times the provider's workflow
 * polling against workflows of known durations. Every stack runs on each CLI of `--cli` (by
 * default the CLIs the tests run: scripts/matrix.js), the versions taking turns within each round,
 * so their ratios come from one run on one machine. See bench/README.md. Nothing here is a test.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator, type RunningEmulator } from "pulumi-svc-emulator";
import { buildLifecycle } from "../provider/lifecycle";
import { createRuntime } from "../provider/configure/providerRuntime";
import { pollSchedule } from "../provider/client/workflows";
import { definitionOf } from "../resources/kinds";
import { apiRequestsSince, makeProject, matrixClis, pulumi, pulumiBinDir, versionOf, yamlProgram, type ProjectOptions } from "./cli";
import { parseArgs, median, environment, peakMemoryMb, PROVIDER_PROCESS, writeResult } from "./common";
const PHASES = ["up", "preview", "refresh", "destroy"] as const;
type Phase = (typeof PHASES)[number];
type StackName = "svc" | "noop" | "shaped" | "plugin";

/**
 * The stacks each round runs. The bare no-op is the engine's floor (what the issue's targets are
 * ratios to); the shaped no-op records as many outputs per resource as a Disk or Vpc does (~8,
 * with values), so svc / shaped is what the provider itself adds (its API calls and its code)
 * beyond what any resource with outputs costs the engine and the SDK.
 */
const STACKS: Record<StackName, (n: number) => ProjectOptions> = {
  svc: () => ({ program: "svc" }),
  noop: () => ({ program: "noop" }),
  shaped: () => ({ program: "noop", env: { BENCH_OUTPUTS: "6" } }),
  // The same Disks and Vpcs through the provider plugin (a YAML program): plugin / shaped is the plugin face's cost.
  plugin: (n) => ({ files: { "Pulumi.yaml": yamlProgram(n) } }),
};

/** Each phase as the CLI runs it; up and destroy skip their preview so they time the operation alone. */
const PHASE_ARGS: Record<Phase, string[]> = {
  up: ["up", "--yes", "--skip-preview"],
  preview: ["preview"],
  refresh: ["refresh", "--yes", "--skip-preview"],
  destroy: ["destroy", "--yes", "--skip-preview"],
};

const options = parseArgs({
  sizes: { default: "100,400", help: "stack sizes N, comma-separated" },
  rounds: { default: "3", help: "interleaved rounds per size" },
  workflows: { default: "250,1000,4000,16000", help: "workflow durations (ms) for the polling probe; empty to skip" },
  out: { default: "bench/results", help: "where the JSON result goes" },
  cli: { default: matrixClis(), help: "pulumi CLI versions to compare, comma-separated (scripts/ensure-pulumi.sh builds each)" },
  stacks: {
    default: "svc,noop,shaped,plugin",
    help: "the stacks each round runs (a ratio to a stack left out is not reported); svc,plugin for N=1000 skips the no-ops' minutes",
  },
  parallel: { default: "", help: "pulumi's --parallel for every phase (empty: the CLI's own default)" },
  apiWorkflowMs: {
    default: "0",
    help: "how long the emulator's workflows take during the phases (0: at once; --parallel matters where the API makes the engine wait)",
  },
});

/** What every phase adds to its command: the --parallel asked for, if any. */
const PARALLEL_ARGS = options.parallel ? ["--parallel", options.parallel] : [];

interface Cli {
  version: string;
  binDir: string;
}

/** A temporary project for one stack of size N on one CLI (bench/cli.ts). */
const projectFor = (name: StackName, n: number, emu: RunningEmulator, cli: Cli, root: string) => {
  const stack = STACKS[name](n);
  const options = { ...stack, env: { BENCH_N: String(n), ...stack.env } };
  return makeProject(`${name}-${n}-${cli.version}`, options, emu, cli.binDir, root).then((p) => ({ ...p, name }));
};

type Project = Awaited<ReturnType<typeof projectFor>>;

interface PhaseSample {
  svcMs: number;
  noopMs: number;
  shapedMs: number;
  pluginMs: number;
  /** The plugin face / the dynamic face, the same Disks and Vpcs (issue 33). */
  ratioPluginToSvc: number;
  /** The peak resident memory (VmHWM, MB) of the svc stack's dynamic-provider host, and of the plugin process. */
  svcProviderPeakMb: number;
  pluginProviderPeakMb: number;
  /** svc / bare no-op: the issue's ratio. */
  ratio: number;
  /** svc / shaped no-op: what the provider adds beyond the cost of a resource's outputs. */
  ratioShaped: number;
  /** The plugin face (YAML) / shaped no-op. */
  ratioPlugin: number;
  pluginRequestsPerResource: number;
  /** API requests the svc stack made in this phase, per resource, and by "METHOD /shape". */
  requestsPerResource: number;
  requestsByShape: Record<string, number>;
}

/** "GET /v1/disks/{id}" for "GET /v1/disks/123": counts by what a request is, not which object. */
const shapeOf = (method: string, p: string) => `${method} ${p.replace(/\/\d+(?=\/|$)/g, "/{id}")}`;

async function runPhase(phase: Phase, order: Project[], emu: RunningEmulator, n: number): Promise<PhaseSample> {
  const ms: Partial<Record<StackName, number>> = {};
  const peakMb: Partial<Record<StackName, number>> = {};
  const requestsOf: Partial<Record<StackName, ReturnType<typeof apiRequestsSince>>> = {};
  for (const project of order) {
    const seq = emu.services.requestLog.lastSeq;
    let peak = 0;
    const sampler = setInterval(() => (peak = Math.max(peak, peakMemoryMb(PROVIDER_PROCESS))), 250);
    const start = process.hrtime.bigint();
    await pulumi(project, [...PHASE_ARGS[phase], ...PARALLEL_ARGS]);
    ms[project.name] = Number(process.hrtime.bigint() - start) / 1e6;
    clearInterval(sampler);
    peakMb[project.name] = Math.round(peak);
    requestsOf[project.name] = apiRequestsSince(emu, seq);
  }
  // A stack left out of --stacks reads as NaN: its ratios are not reported.
  const at = (name: StackName) => ms[name] ?? NaN;
  const requests = requestsOf.svc ?? [];
  const requestsByShape: Record<string, number> = {};
  for (const r of requests) requestsByShape[shapeOf(r.method, r.path)] = (requestsByShape[shapeOf(r.method, r.path)] ?? 0) + 1;
  return {
    svcMs: at("svc"),
    noopMs: at("noop"),
    shapedMs: at("shaped"),
    ratio: at("svc") / at("noop"),
    ratioShaped: at("svc") / at("shaped"),
    pluginMs: at("plugin"),
    ratioPlugin: at("plugin") / at("shaped"),
    ratioPluginToSvc: at("plugin") / at("svc"),
    svcProviderPeakMb: peakMb.svc ?? NaN,
    pluginProviderPeakMb: peakMb.plugin ?? NaN,
    pluginRequestsPerResource: requestsOf.plugin ? requestsOf.plugin.length / n : NaN,
    requestsPerResource: requests.length / n,
    requestsByShape,
  };
}

interface SizeResult {
  n: number;
  cli: string;
  rounds: Array<Record<Phase, PhaseSample>>;
  medians: Record<
    Phase,
    {
      ratio: number;
      ratioShaped: number;
      ratioPlugin: number;
      ratioPluginToSvc: number;
      svcProviderPeakMb: number;
      pluginProviderPeakMb: number;
      svcMs: number;
      noopMs: number;
      shapedMs: number;
      pluginMs: number;
      requestsPerResource: number;
      pluginRequestsPerResource: number;
    }
  >;
}

/** Each CLI's result for stacks of size N: the CLIs take turns within each round (which goes first alternates). */
async function benchSize(n: number, rounds: number, emu: RunningEmulator, clis: Cli[], root: string): Promise<SizeResult[]> {
  const projectsOf = new Map<Cli, Project[]>();
  for (const cli of clis) {
    const projects: Project[] = [];
    for (const name of stackNames()) projects.push(await projectFor(name, n, emu, cli, root));
    projectsOf.set(cli, projects);
  }
  const results = new Map<Cli, SizeResult["rounds"]>(clis.map((cli) => [cli, []]));
  for (let round = 0; round < rounds; round++)
    for (const cli of [...clis.slice(round % clis.length), ...clis.slice(0, round % clis.length)])
      results.get(cli)!.push(await benchRound(n, round, rounds, emu, cli, projectsOf.get(cli)!));
  return clis.map((cli) => ({ n, cli: cli.version, rounds: results.get(cli)!, medians: mediansOf(results.get(cli)!) }));
}

async function benchRound(n: number, round: number, rounds: number, emu: RunningEmulator, cli: Cli, projects: Project[]) {
  // Each round starts with another stack, so none always runs first (or last) on the machine.
  const order = [...projects.slice(round % projects.length), ...projects.slice(0, round % projects.length)];
  const samples = {} as Record<Phase, PhaseSample>;
  for (const phase of PHASES) {
    samples[phase] = await runPhase(phase, order, emu, n);
    console.error(
      `  N=${n} pulumi ${cli.version} round ${round + 1}/${rounds} ${phase.padEnd(7)} svc ${(samples[phase].svcMs / 1000).toFixed(1)}s  no-op ${(samples[phase].noopMs / 1000).toFixed(1)}s  shaped ${(samples[phase].shapedMs / 1000).toFixed(1)}s  plugin ${(samples[phase].pluginMs / 1000).toFixed(1)}s  ratio ${samples[phase].ratio.toFixed(2)} (shaped ${samples[phase].ratioShaped.toFixed(2)}, plugin/shaped ${samples[phase].ratioPlugin.toFixed(2)})  ${samples[phase].requestsPerResource.toFixed(2)} req/resource`,
    );
  }
  const left = emu.services.store
    .table("disks")
    .all()
    .filter((d) => !(d as { seed?: boolean }).seed).length;
  if (left) throw new Error(`N=${n} round ${round + 1}: ${left} disks left after destroy`);
  return samples;
}

function mediansOf(results: SizeResult["rounds"]): SizeResult["medians"] {
  const medians = {} as SizeResult["medians"];
  for (const phase of PHASES) {
    const of = (f: (s: PhaseSample) => number) => median(results.map((r) => f(r[phase])));
    medians[phase] = {
      ratio: of((s) => s.ratio),
      ratioShaped: of((s) => s.ratioShaped),
      ratioPlugin: of((s) => s.ratioPlugin),
      ratioPluginToSvc: of((s) => s.ratioPluginToSvc),
      svcProviderPeakMb: of((s) => s.svcProviderPeakMb),
      pluginProviderPeakMb: of((s) => s.pluginProviderPeakMb),
      pluginMs: of((s) => s.pluginMs),
      pluginRequestsPerResource: of((s) => s.pluginRequestsPerResource),
      svcMs: of((s) => s.svcMs),
      noopMs: of((s) => s.noopMs),
      shapedMs: of((s) => s.shapedMs),
      requestsPerResource: of((s) => s.requestsPerResource),
    };
  }
  return medians;
}

// ---- workflow polling -------------------------------------------------------------------------

interface WorkflowProbe {
  durationMs: number;
  /** Requests the create made after its POST (workflow polls and the settle read). */
  polls: number;
  requests: number;
  /** The issue's bound for a workflow of this duration: 3 + log1.5(T / 250 ms). */
  requestBound: number;
  /** From the workflow's end to the poll that saw it. */
  noticedAfterMs: number;
  noticeBound: number;
  /** What the schedule itself predicts (provider/client/workflows.ts pollSchedule, no jitter). */
  predictedPolls: number;
}

/** One Disk created through the provider's lifecycle (no engine): what waiting on its workflow costs. */
async function probeWorkflow(durationMs: number, emu: RunningEmulator): Promise<WorkflowProbe> {
  emu.services.settings.workflowMs = durationMs;
  const runtime = createRuntime();
  const config: Record<string, string> = { "svc:baseUrl": emu.url, "svc:token": emu.token, "svc:workspaceId": emu.workspaceId };
  runtime.setSources({ get: (k) => config[k], env: {} });
  const lifecycle = buildLifecycle(definitionOf("Disk"), runtime);
  const seq = emu.services.requestLog.lastSeq;
  const { id } = await lifecycle.create({
    name: `probe-${durationMs}`,
    size: 1024 ** 3,
    backend: "LOCAL",
    region: "NA_01",
    instanceId: null,
    workspaceId: emu.workspaceId,
  });
  const requests = apiRequestsSince(emu, seq);
  const post = requests.find((r) => r.method === "POST")!;
  const polls = requests.filter((r) => r.path.startsWith("/v1/workflows/"));
  const workflow = emu.services.store
    .table("workflows")
    .all()
    .find((w) => (w as { resource?: { id: string } }).resource?.id === id) as { endsAt: number } | undefined;
  const sawEnd = Date.parse(polls[polls.length - 1]?.time ?? post.time);
  const ended = workflow ? workflow.endsAt - emu.services.clock.offset : Date.parse(post.time) + durationMs;
  await lifecycle.delete(id!, { workspaceId: emu.workspaceId });
  return {
    durationMs,
    polls: polls.length,
    requests: requests.length - 1,
    requestBound: 3 + Math.log(durationMs / 250) / Math.log(1.5),
    noticedAfterMs: Math.max(0, sawEnd - ended),
    noticeBound: Math.max(250, 0.25 * durationMs),
    predictedPolls: pollSchedule(durationMs).polls,
  };
}

/** The stacks of --stacks, in STACKS' order. */
function stackNames(): StackName[] {
  const wanted = options.stacks.split(",").filter(Boolean);
  for (const name of wanted) if (!(name in STACKS)) throw new Error(`bench: no stack "${name}"; stacks: ${Object.keys(STACKS).join(", ")}`);
  return (Object.keys(STACKS) as StackName[]).filter((name) => wanted.includes(name));
}

// ---- main -------------------------------------------------------------------------------------

async function main() {
  const sizes = options.sizes
    .split(",")
    .map(Number)
    .filter((v) => v > 0);
  const rounds = Number(options.rounds);
  const clis: Cli[] = [];
  for (const version of options.cli.split(",").filter(Boolean)) {
    const binDir = await pulumiBinDir(version);
    clis.push({ version: await versionOf(binDir), binDir });
  }
  const emu = await startEmulator({ port: 0, workflowMs: Number(options.apiWorkflowMs), seed: 7 });
  // The benchmark measures the provider, not the API's rate limits.
  emu.services.rateLimiter.settings = { general: { burst: 1e9, perSecond: 1e9 }, lifecycle: { burst: 1e9, perSecond: 1e9 } };
  // Nor the workspace's quotas (10 VPCs, 4 TiB of storage by default): room for the largest N.
  const workspaces = emu.services.store.t.workspaces;
  workspaces.update(emu.workspaceId, { quota: { ...workspaces.get(emu.workspaceId)!.quota, max_vpcs: 1e6, max_storage_bytes: 1e18 } });
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "svc-bench-"));
  // The load average before and after: ratios hold up on a busy machine, absolute times do not.
  const before = environment();
  try {
    const bySize: SizeResult[] = [];
    for (const n of sizes) {
      console.error(
        `N=${n}: ${rounds} rounds of up, preview, refresh, destroy (${stackNames().join(", ")} interleaved) on pulumi ${clis.map((c) => c.version).join(" and ")}`,
      );
      bySize.push(...(await benchSize(n, rounds, emu, clis, root)));
    }
    const workflows: WorkflowProbe[] = [];
    for (const t of options.workflows
      .split(",")
      .map(Number)
      .filter((v) => v > 0)) {
      workflows.push(await probeWorkflow(t, emu));
      const w = workflows[workflows.length - 1];
      console.error(
        `  workflow ${t} ms: ${w.requests} requests (bound ${w.requestBound.toFixed(1)}), end noticed after ${w.noticedAfterMs} ms (bound ${w.noticeBound})`,
      );
    }
    report(bySize, workflows);
    const file = writeResult(options.out, "provider", {
      environment: before,
      loadAverageAfter: environment().loadAverage,
      options,
      sizes: bySize,
      workflows,
    });
    console.log(`\nwritten ${path.relative(process.cwd(), file)}`);
  } finally {
    await emu.stop();
    fs.rmSync(root, { recursive: true, force: true });
  }
}

function report(bySize: SizeResult[], workflows: WorkflowProbe[]) {
  console.log("\nMedian ratios (same run): svc / no-op, svc / shaped no-op; API requests per svc resource:\n");
  console.log(`| N | pulumi | ${PHASES.map((p) => `${p} / no-op | ${p} / shaped | ${p} req/res`).join(" | ")} |`);
  console.log(`|---|---|${PHASES.map(() => "---|---|---").join("|")}|`);
  for (const s of bySize) {
    const cells = PHASES.map((p) =>
      [s.medians[p].ratio, s.medians[p].ratioShaped, s.medians[p].requestsPerResource].map((v) => v.toFixed(2)).join(" | "),
    );
    console.log(`| ${s.n} | ${s.cli} | ${cells.join(" | ")} |`);
  }
  console.log("\nThe plugin face (the same Disks and Vpcs from a YAML program): plugin / shaped no-op; API requests per resource:\n");
  console.log(`| N | pulumi | ${PHASES.map((p) => `${p} / shaped | ${p} req/res`).join(" | ")} |`);
  console.log(`|---|---|${PHASES.map(() => "---|---").join("|")}|`);
  for (const s of bySize)
    console.log(
      `| ${s.n} | ${s.cli} | ${PHASES.map((p) => `${s.medians[p].ratioPlugin.toFixed(2)} | ${s.medians[p].pluginRequestsPerResource.toFixed(2)}`).join(" | ")} |`,
    );
  console.log("\nThe plugin face / the dynamic face (the same Disks and Vpcs); each face's provider process at its peak (MB):\n");
  console.log(`| N | pulumi | ${PHASES.map((p) => `${p} plugin / svc | ${p} MB svc, plugin`).join(" | ")} |`);
  console.log(`|---|---|${PHASES.map(() => "---|---").join("|")}|`);
  for (const s of bySize)
    console.log(
      `| ${s.n} | ${s.cli} | ${PHASES.map((p) => `${s.medians[p].ratioPluginToSvc.toFixed(2)} | ${s.medians[p].svcProviderPeakMb}, ${s.medians[p].pluginProviderPeakMb}`).join(" | ")} |`,
    );
  if (workflows.length) {
    console.log("\nWaiting on a workflow of duration T (one Disk create through the lifecycle):\n");
    console.log("| T (ms) | requests after the POST | bound 3+log1.5(T/250ms) | end noticed after (ms) | bound max(250 ms, T/4) |");
    console.log("|---|---|---|---|---|");
    for (const w of workflows)
      console.log(`| ${w.durationMs} | ${w.requests} | ${w.requestBound.toFixed(1)} | ${w.noticedAfterMs} | ${w.noticeBound} |`);
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
