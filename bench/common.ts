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
