/**
 * What the benchmarks share: where the project is, the machine a result was measured on, medians
 * and percentiles, and how a result is recorded in bench/results/.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parseArgs as parseNodeArgs } from "node:util";

/** The project root: the nearest directory with package.json (works from bench/ and dist/bench/). */
function projectRoot(): string {
  let dir = __dirname;
  while (!fs.existsSync(path.join(dir, "package.json"))) {
    const up = path.dirname(dir);
    if (up === dir) throw new Error("bench: cannot find the project root (package.json)");
    dir = up;
  }
  return dir;
}

export const REPO = projectRoot();

/** The machine a result was measured on: numbers are per machine, ratios travel. */
export function environment() {
  return {
    node: process.version,
    platform: `${os.platform()} ${os.arch()}`,
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? "unknown",
    loadAverage: os.loadavg().map((l) => Math.round(l * 100) / 100),
  };
}

/** Nearest-rank percentile of sorted samples. */
export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

export const median = (samples: number[]) =>
  percentile(
    [...samples].sort((a, b) => a - b),
    50,
  );

/** The parent of a process (the fourth field of /proc/<pid>/stat, after the command's parenthesis). */
const parentOf = (pid: number): number => Number(fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ")[1]);

/** Whether a process descends from this benchmark (its CLIs' provider processes, not another run's on the same machine). */
function ours(pid: number): boolean {
  for (let p = pid; p > 1; p = parentOf(p)) if (p === process.pid) return true;
  return false;
}

/** The highest peak resident memory (VmHWM, MB) among this benchmark's processes whose command line matches. */
export function peakMemoryMb(pattern: RegExp): number {
  let peak = 0;
  for (const pid of fs.readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8");
      if (!pattern.test(cmd) || !ours(Number(pid))) continue;
      const hwm = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
      if (hwm) peak = Math.max(peak, Number(hwm[1]) / 1024);
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return peak;
}

/** The provider processes: the dynamic-provider host and the plugin. */
export const PROVIDER_PROCESS = /dynamic-provider|pulumi-resource-svc/;

/** Writes `bench/results/<timestamp>[-<name>].json`; returns its path. */
export function writeResult(dir: string, name: string, result: object): string {
  const timestamp = new Date().toISOString();
  fs.mkdirSync(path.resolve(REPO, dir), { recursive: true });
  const file = path.resolve(REPO, dir, `${timestamp.replace(/[:.]/g, "-")}${name ? `-${name}` : ""}.json`);
  fs.writeFileSync(file, JSON.stringify({ timestamp, ...result }, null, 2) + "\n");
  return file;
}

/** `--name value` options with defaults; `--help` prints them. */
export function parseArgs<K extends string>(spec: Record<K, { default: string; help: string }>): Record<K, string> {
  const { values } = parseNodeArgs({
    options: { ...Object.fromEntries(Object.keys(spec).map((k) => [k, { type: "string" as const }])), help: { type: "boolean" as const } },
  });
  if (values.help) {
    for (const [k, v] of Object.entries(spec) as Array<[K, { default: string; help: string }]>)
      console.log(`  --${k} <value>  ${v.help} (default ${v.default})`);
    process.exit(0);
  }
  return Object.fromEntries(
    Object.entries(spec).map(([k, v]) => [k, (values as Record<string, unknown>)[k] ?? (v as { default: string }).default]),
  ) as Record<K, string>;
}
