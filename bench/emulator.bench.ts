/**
 * Emulator benchmark: start-up time (in-process and as a process), latency and throughput of a
 * plain authenticated GET over keep-alive HTTP, and ratios measured in the same run. See
 * bench/README.md.
 *
 *   npx tsc -p tsconfig.build.json && node dist/bench/emulator.bench.js [options]
 *   npx ts-node bench/emulator.bench.ts [options]
 *
 * Options: --runs <n> (start-ups, default 10), --requests <n> (default 2000), --warmup <n>
 * (default 300), --concurrency <n> (default 8), --in-process (serve the GET benchmark from this
 * process instead of a spawned `node packages/emulator/dist/cli.js`), --out <dir> (default bench/results).
 */
import { spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as http from "node:http";
import * as path from "node:path";
import { startEmulator } from "pulumi-svc-emulator";
import { environment, percentile, REPO, writeResult } from "./common";

// ---------------------------------------------------------------------------------------------
// Setup

const CLI = path.join(REPO, "dist", "emulator", "cli.js");

interface Options {
  runs: number;
  requests: number;
  warmup: number;
  concurrency: number;
  inProcess: boolean;
  out: string;
}

function parseOptions(argv: string[]): Options {
  const options: Options = {
    runs: 10,
    requests: 2000,
    warmup: 300,
    concurrency: 8,
    inProcess: false,
    out: path.join(REPO, "bench", "results"),
  };
  const int = (flag: string, value: string | undefined) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1) throw new Error(`${flag} needs a positive integer`);
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    const eq = argv[i].indexOf("=");
    const flag = eq < 0 ? argv[i] : argv[i].slice(0, eq);
    const value = () => (eq < 0 ? argv[++i] : argv[i].slice(eq + 1));
    switch (flag) {
      case "--runs":
        options.runs = int(flag, value());
        break;
      case "--requests":
        options.requests = int(flag, value());
        break;
      case "--warmup":
        options.warmup = int(flag, value());
        break;
      case "--concurrency":
        options.concurrency = int(flag, value());
        break;
      case "--in-process":
        options.inProcess = true;
        break;
      case "--out":
        options.out = path.resolve(value() ?? "");
        break;
      default:
        throw new Error(
          `unknown option ${flag}\nusage: emulator.bench [--runs n] [--requests n] [--warmup n] [--concurrency n] [--in-process] [--out dir]`,
        );
    }
  }
  return options;
}

// ---------------------------------------------------------------------------------------------
// Statistics

interface Summary {
  n: number;
  minMs: number;
  medianMs: number;
  meanMs: number;
  p95Ms: number;
  p99Ms: number;
  maxMs: number;
}

const round = (x: number, digits = 3) => Math.round(x * 10 ** digits) / 10 ** digits;

function summarise(samples: number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b);
  const mean = samples.reduce((s, x) => s + x, 0) / samples.length;
  return {
    n: samples.length,
    minMs: round(sorted[0]),
    medianMs: round(percentile(sorted, 50)),
    meanMs: round(mean),
    p95Ms: round(percentile(sorted, 95)),
    p99Ms: round(percentile(sorted, 99)),
    maxMs: round(sorted[sorted.length - 1]),
  };
}

// ---------------------------------------------------------------------------------------------
// (a) Start-up

async function inProcessStarts(runs: number): Promise<{ coldMs: number; samples: number[] }> {
  const once = async (seed: number) => {
    const t0 = performance.now();
    const emu = await startEmulator({ port: 0, seed });
    const ms = performance.now() - t0;
    await emu.stop();
    return ms;
  };
  // The first start in a fresh process pays for JIT warm-up; reported apart from the N runs.
  const coldMs = await once(1);
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) samples.push(await once(100 + i));
  return { coldMs, samples };
}

interface Spawned {
  child: ChildProcess;
  info: { url: string; token: string; workspaceId: string; staffToken: string };
  /** Spawn until the first JSON line was read. */
  readyMs: number;
}

function spawnCli(args: string[] = []): Promise<Spawned> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [CLI, "--port", "0", ...args], { cwd: REPO, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    const onData = (d: string) => {
      out += d;
      const nl = out.indexOf("\n");
      if (nl < 0) return;
      const readyMs = performance.now() - t0;
      child.stdout!.off("data", onData);
      child.off("exit", onExit);
      try {
        resolve({ child, info: JSON.parse(out.slice(0, nl)), readyMs });
      } catch (e) {
        child.kill("SIGKILL");
        reject(new Error(`first line of cli.js is not JSON: ${out.slice(0, nl)} (${(e as Error).message})`));
      }
    };
    const onExit = (code: number | null) => reject(new Error(`cli.js exited (${code}) before its first line: ${err}`));
    child.stdout!.setEncoding("utf8").on("data", onData);
    child.stderr!.setEncoding("utf8").on("data", (d: string) => (err += d));
    child.on("exit", onExit);
    child.on("error", reject);
  });
}

async function stopCli(s: Spawned): Promise<void> {
  if (s.child.exitCode !== null) return;
  const exited = new Promise((r) => s.child.once("exit", r));
  s.child.kill("SIGTERM");
  await exited;
}

async function processStarts(runs: number): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const s = await spawnCli(["--seed", String(200 + i)]);
    samples.push(s.readyMs);
    await stopCli(s);
  }
  return samples;
}

// ---------------------------------------------------------------------------------------------
// (b) Request latency over keep-alive HTTP

interface Target {
  url: string;
  token: string;
  workspaceId: string;
  stop(): Promise<void>;
}

async function startTarget(inProcess: boolean): Promise<Target> {
  if (inProcess) {
    const emu = await startEmulator({ port: 0, seed: 7 });
    return { url: emu.url, token: emu.token, workspaceId: emu.workspaceId, stop: () => emu.stop() };
  }
  const s = await spawnCli(["--seed", "7"]);
  return { ...s.info, stop: () => stopCli(s) };
}

class Client {
  private readonly agent: http.Agent;

  constructor(
    private readonly base: URL,
    sockets: number,
  ) {
    this.agent = new http.Agent({ keepAlive: true, maxSockets: sockets });
  }

  /** One request; resolves to its status once the whole body has arrived. */
  request(method: string, pathname: string, headers: Record<string, string> = {}, body?: string): Promise<number> {
    return new Promise((resolve, reject) => {
      const req = http.request(
        {
          host: this.base.hostname,
          port: this.base.port,
          method,
          path: pathname,
          agent: this.agent,
          headers: body ? { ...headers, "content-type": "application/json" } : headers,
        },
        (res) => {
          res.on("data", () => undefined);
          res.on("end", () => resolve(res.statusCode ?? 0));
          res.on("error", reject);
        },
      );
      req.on("error", reject);
      req.end(body);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

interface Probe {
  label: string;
  method: string;
  path: string;
  headers: Record<string, string>;
}

/** Sequential latency of each probe, interleaved in blocks so they see the same conditions. */
async function latencies(
  client: Client,
  probes: Probe[],
  requests: number,
  warmup: number,
): Promise<Map<string, { samples: number[]; totalMs: number }>> {
  const out = new Map(probes.map((p) => [p.label, { samples: [] as number[], totalMs: 0 }]));
  const hit = async (p: Probe) => {
    const t0 = performance.now();
    const status = await client.request(p.method, p.path, p.headers);
    const ms = performance.now() - t0;
    if (status !== 200) throw new Error(`${p.method} ${p.path} answered ${status}; the benchmark needs 200s`);
    return ms;
  };
  for (let i = 0; i < warmup; i++) for (const p of probes) await hit(p);
  const block = 100;
  for (let done = 0; done < requests; done += block) {
    for (const p of probes) {
      const entry = out.get(p.label)!;
      const n = Math.min(block, requests - done);
      const t0 = performance.now();
      for (let i = 0; i < n; i++) entry.samples.push(await hit(p));
      entry.totalMs += performance.now() - t0;
    }
  }
  return out;
}

/** Throughput with `concurrency` requests in flight over as many keep-alive connections. */
async function throughput(target: Target, probe: Probe, requests: number, concurrency: number): Promise<{ rps: number; totalMs: number }> {
  const client = new Client(new URL(target.url), concurrency);
  try {
    let next = 0;
    const worker = async () => {
      while (next < requests) {
        next++;
        const status = await client.request(probe.method, probe.path, probe.headers);
        if (status !== 200) throw new Error(`${probe.path} answered ${status} under load`);
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker)); // warm the connections
    next = 0;
    const t0 = performance.now();
    await Promise.all(Array.from({ length: concurrency }, worker));
    const totalMs = performance.now() - t0;
    return { rps: round((requests / totalMs) * 1000, 1), totalMs: round(totalMs, 1) };
  } finally {
    client.close();
  }
}

// ---------------------------------------------------------------------------------------------
// Report

function table(rows: Array<Array<string | number>>): string {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => String(r[c]).length)));
  return rows
    .map((r, i) => {
      const line = r.map((cell, c) => (c === 0 ? String(cell).padEnd(widths[c]) : String(cell).padStart(widths[c]))).join("  ");
      return i === 0 ? `${line}\n${widths.map((w) => "-".repeat(w)).join("  ")}` : line;
    })
    .join("\n");
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  if (!fs.existsSync(CLI)) throw new Error(`${CLI} is missing: build first (npx tsc -p tsconfig.build.json)`);
  const log = (text: string) => process.stderr.write(`${text}\n`);

  log(`bench: ${options.runs} start-ups each way...`);
  const inProc = await inProcessStarts(options.runs);
  const proc = await processStarts(options.runs);

  log(
    `bench: ${options.requests} requests per probe after ${options.warmup} warm-up, against ${options.inProcess ? "an in-process" : "a spawned"} emulator...`,
  );
  const target = await startTarget(options.inProcess);
  const base = new URL(target.url);
  const control = new Client(base, 1);
  // The general bucket (2000 burst, 1000/s per token) would throttle a benchmark; lift it.
  const lifted = await control.request(
    "POST",
    "/_emulator/settings",
    {},
    JSON.stringify({ rateLimits: { general: { burst: 1e9, perSecond: 1e9 } } }),
  );
  if (lifted !== 200) throw new Error(`could not lift the rate limits (${lifted})`);
  control.close();

  const auth = { authorization: `Bearer ${target.token}` };
  const probes: Probe[] = [
    { label: "GET /v1/workspaces/{wid}", method: "GET", path: `/v1/workspaces/${target.workspaceId}`, headers: auth },
    { label: "GET /_emulator/clock", method: "GET", path: "/_emulator/clock", headers: {} },
    { label: "GET /v1/plans", method: "GET", path: "/v1/plans", headers: auth },
  ];
  const client = new Client(base, 1);
  let measured: Awaited<ReturnType<typeof latencies>>;
  let load: Awaited<ReturnType<typeof throughput>>;
  try {
    measured = await latencies(client, probes, options.requests, options.warmup);
    load = await throughput(target, probes[0], options.requests, options.concurrency);
  } finally {
    client.close();
    await target.stop();
  }

  const inProcStart = summarise(inProc.samples);
  const procStart = summarise(proc);
  const requests = probes.map((p) => {
    const m = measured.get(p.label)!;
    return {
      label: p.label,
      path: p.path.replace(target.workspaceId, "{wid}"),
      ...summarise(m.samples),
      rps: round((m.samples.length / m.totalMs) * 1000, 1),
    };
  });
  const [get, ctl, plans] = requests;
  const ratios = {
    /** Auth + request pipeline (workflow advance, rate limit, faults, log) vs. a bare control route. */
    authGetVsControlGetMedian: round(get.medianMs / ctl.medianMs, 2),
    authGetVsControlGetP99: round(get.p99Ms / ctl.p99Ms, 2),
    /** A paged catalogue list (8 rows, sorted, cursors) vs. a single workspace read. */
    plansListVsWorkspaceGetMedian: round(plans.medianMs / get.medianMs, 2),
    /** Tail spread of the authenticated GET. */
    authGetP99VsMedian: round(get.p99Ms / get.medianMs, 2),
    /** What a separate process adds to start-up (node boot, module loading) over startEmulator(). */
    processStartVsInProcessMedian: round(procStart.medianMs / inProcStart.medianMs, 2),
    /** Throughput gained by `concurrency` connections over one. */
    concurrentVsSequentialRps: round(load.rps / get.rps, 2),
  };

  const results = {
    environment: environment(),
    options: { ...options, out: path.relative(REPO, options.out) || "." },
    startup: {
      inProcess: { ...inProcStart, coldMs: round(inProc.coldMs), samplesMs: inProc.samples.map((x) => round(x)) },
      process: { ...procStart, samplesMs: proc.map((x) => round(x)) },
    },
    requests,
    concurrent: { label: get.label, concurrency: options.concurrency, requests: options.requests, ...load },
    ratios,
  };

  const ms = (x: number) => x.toFixed(3);
  console.log("\nStart-up (ms)");
  console.log(
    table([
      ["", "runs", "median", "p95", "min", "max"],
      [
        "in-process startEmulator()",
        inProcStart.n,
        ms(inProcStart.medianMs),
        ms(inProcStart.p95Ms),
        ms(inProcStart.minMs),
        ms(inProcStart.maxMs),
      ],
      ["process: spawn -> JSON line", procStart.n, ms(procStart.medianMs), ms(procStart.p95Ms), ms(procStart.minMs), ms(procStart.maxMs)],
    ]),
  );
  console.log(`(first, cold in-process start: ${ms(inProc.coldMs)} ms, not included)`);
  console.log(`\nSequential requests over one keep-alive connection (ms; ${options.inProcess ? "in-process" : "spawned"} emulator)`);
  console.log(
    table([
      ["", "n", "median", "p95", "p99", "max", "req/s"],
      ...requests.map((r) => [r.label, r.n, ms(r.medianMs), ms(r.p95Ms), ms(r.p99Ms), ms(r.maxMs), r.rps.toFixed(1)]),
    ]),
  );
  console.log(`\nConcurrent: ${get.label} x ${options.requests} with ${options.concurrency} connections: ${load.rps.toFixed(1)} req/s`);
  console.log("\nRatios (same run)");
  console.log(table([["", "ratio"], ...Object.entries(ratios).map(([k, v]) => [k, v.toFixed(2)])]));

  const file = writeResult(options.out, "emulator", results);
  console.log(`\nresults: ${path.relative(process.cwd(), file) || file}`);
}

main().catch((err) => {
  console.error(`bench: ${(err as Error).message}`);
  process.exit(1);
});
