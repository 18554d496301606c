/**
 * Host-start benchmark: what a dynamic-provider host loads before it can answer its first call,
 * which a refresh pays in full since no program runs beside it (bench/README.md, issue 17).
 * Each round is a fresh Node process that has loaded `@pulumi/pulumi/dynamic` (the host has it
 * already), then requires the provider's install module and the list of kinds (resources/kinds.ts) and builds the definitions of a
 * stack's kinds; it reports that step's wall time, CPU and the modules it loaded, by package.
 *
 *   npm run build && node dist/bench/hostStart.bench.js [--rounds 9] [--kinds Disk,Vpc] [--repo <dir>]
 *
 * `--repo` measures another built checkout, to compare two commits on one machine.
 */
import { execFileSync } from "node:child_process";
import * as path from "node:path";
import { environment, median, parseArgs, REPO, writeResult } from "./common";

const options = () =>
  parseArgs({
    rounds: { default: "9", help: "fresh processes (the median is recorded)" },
    kinds: { default: "Disk,Vpc", help: "the kinds whose specs are built (bench:provider's stack)" },
    repo: { default: REPO, help: "checkout whose dist/ is measured" },
    out: { default: "bench/results", help: "where the result is written" },
  });

interface Sample {
  wallMs: number;
  cpuMs: number;
  modules: Record<string, number>;
}

/** One fresh process: the step timed after the SDK's dynamic module, as the host runs it. */
function sample(repo: string, kinds: string[]): Sample {
  const script = `
    require("@pulumi/pulumi/dynamic");
    const before = new Set(Object.keys(require.cache));
    const cpu = process.cpuUsage(), t = process.hrtime.bigint();
    require(${JSON.stringify(path.join(repo, "dist/provider/dynamic/install.js"))});
    const kindList = require(${JSON.stringify(path.join(repo, "dist/resources/kinds.js"))});
    for (const kind of ${JSON.stringify(kinds)}) kindList.definitionOf(kind);
    const wallMs = Number(process.hrtime.bigint() - t) / 1e6, used = process.cpuUsage(cpu);
    const modules = {};
    for (const file of Object.keys(require.cache).filter((k) => !before.has(k))) {
      const m = /node_modules[\\\\/]((@[^\\\\/]+[\\\\/])?[^\\\\/]+)/.exec(file);
      const name = m ? m[1] : "ours";
      modules[name] = (modules[name] || 0) + 1;
    }
    console.log(JSON.stringify({ wallMs, cpuMs: (used.user + used.system) / 1000, modules }));`;
  // Run from this checkout, whose node_modules has the SDK; the measured checkout resolves its own dependencies.
  return JSON.parse(execFileSync(process.execPath, ["-e", script], { cwd: REPO, encoding: "utf8" })) as Sample;
}

function main(): void {
  const args = options();
  const kinds = args.kinds.split(",").filter(Boolean);
  const samples = Array.from({ length: Number(args.rounds) }, () => sample(path.resolve(args.repo), kinds));
  const result = {
    repo: args.repo,
    kinds,
    wallMs: median(samples.map((s) => s.wallMs)),
    cpuMs: median(samples.map((s) => s.cpuMs)),
    modules: samples[0].modules,
    rounds: samples.map(({ wallMs, cpuMs }) => ({ wallMs, cpuMs })),
  };
  const total = Object.values(result.modules).reduce((a, b) => a + b, 0);
  console.log(
    `host start: ${result.wallMs.toFixed(1)} ms wall, ${result.cpuMs.toFixed(1)} ms CPU, ${total} modules ${JSON.stringify(result.modules)} (${args.repo})`,
  );
  console.log(`recorded in ${writeResult(args.out, "hostStart", { environment: environment(), ...result })}`);
}

main();
