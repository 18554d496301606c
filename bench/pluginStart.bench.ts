/**
 * Plugin-start benchmark: the engine starts the provider plugin for every command and waits for
 * the port it prints on its first line of stdout (issue 38). Each round starts, interleaved so
 * all see the same machine, a fresh process of: the release archive's linux-amd64 executable (a
 * Node.js SEA, scripts/release/plugin.ts), today's bin/pulumi-resource-svc (a script run by the
 * `node` on PATH), and a Go plugin, the pulumi CLI's YAML language host (scripts/ensure-pulumi.sh).
 * It reports the median time to the first line of stdout of each, and the ratios to the Go plugin.
 * Each starts with no argument (no engine address: nothing is logged to an engine), with `node`
 * on PATH as the engine's own PATH would have it.
 *
 *   npm run bench:plugin                                          # builds the archives first (about 1.5 min)
 *   node dist/bench/pluginStart.bench.js --archive release/pulumi-resource-svc-v0.1.0-linux-amd64.tar.gz
 *   node dist/bench/pluginStart.bench.js --archive <after>.tar.gz --baseline <before>.tar.gz   # a change's effect, one run
 */
import { execFileSync, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { archiveName, pluginArchives } from "../scripts/release/plugin";
import { environment, median, parseArgs, REPO, writeResult } from "./common";

const options = () =>
  parseArgs({
    rounds: { default: "15", help: "fresh processes of each (the median is recorded)" },
    archive: { default: "", help: "a linux-amd64 archive to measure (default: build them now into a temporary directory)" },
    baseline: { default: "", help: "an earlier linux-amd64 archive, measured in the same rounds (a change's effect as one run's ratio)" },
    cli: { default: "3.274.1", help: "the pulumi CLI whose pulumi-language-yaml is the Go plugin" },
    out: { default: "bench/results", help: "where the result is written" },
  });

/** Milliseconds from spawn to the first line of stdout; the process is killed then. */
function timeToPort(command: string, args: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "ignore"] });
    let out = "";
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      if (!out.includes("\n")) return;
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      child.kill();
      child.on("exit", () => resolve(ms));
    });
    child.on("error", reject);
    child.on("exit", (code) => {
      if (!out.includes("\n")) reject(new Error(`${command} exited with ${code} before printing a line`));
    });
  });
}

async function main(): Promise<void> {
  const args = options();
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "svc-plugin-start-"));
  try {
    let archive = args.archive;
    if (!archive) {
      const version = (JSON.parse(fs.readFileSync(path.join(REPO, "package.json"), "utf8")) as { version: string }).version;
      await pluginArchives(work, version);
      archive = path.join(work, archiveName(version, { os: "linux", arch: "amd64" }));
    }
    execFileSync("tar", ["-xzf", path.resolve(archive), "-C", work]);
    const pulumiDir = execFileSync("bash", [path.join(REPO, "scripts", "ensure-pulumi.sh"), args.cli], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
    })
      .trim()
      .split("\n")
      .pop()!;
    const contenders: Record<string, [string, string[]]> = {
      sea: [path.join(work, "pulumi-resource-svc"), []],
      script: [path.join(REPO, "bin", "pulumi-resource-svc"), []],
      go: [path.join(pulumiDir, "pulumi-language-yaml"), []],
    };
    if (args.baseline) {
      const dir = path.join(work, "baseline");
      fs.mkdirSync(dir);
      execFileSync("tar", ["-xzf", path.resolve(args.baseline), "-C", dir]);
      contenders.baseline = [path.join(dir, "pulumi-resource-svc"), []];
    }
    const samples: Record<string, number[]> = Object.fromEntries(Object.keys(contenders).map((k) => [k, []]));
    for (const [command, argv] of Object.values(contenders)) await timeToPort(command, argv); // warm the page cache
    for (let round = 0; round < Number(args.rounds); round++) {
      const order = Object.keys(contenders);
      if (round % 2) order.reverse();
      for (const name of order) samples[name].push(await timeToPort(...contenders[name]));
    }
    const medians = Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, median(v)]));
    const result = { archive, baseline: args.baseline || undefined, rounds: Number(args.rounds), medianMs: medians, samples };
    console.log(
      `plugin start (median of ${args.rounds}, ms to the port): SEA ${medians.sea.toFixed(0)}, script ${medians.script.toFixed(0)}, ` +
        `Go plugin ${medians.go.toFixed(0)}; SEA/Go ${(medians.sea / medians.go).toFixed(1)}x, script/Go ${(medians.script / medians.go).toFixed(1)}x` +
        (medians.baseline
          ? `; baseline SEA ${medians.baseline.toFixed(0)}, SEA/baseline ${(medians.sea / medians.baseline).toFixed(2)}x`
          : ""),
    );
    console.log(`recorded in ${writeResult(args.out, "pluginStart", { environment: environment(), ...result })}`);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
