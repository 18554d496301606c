/**
 * Plugin-start benchmark: the engine starts the provider plugin for every command and waits for
 * the port it prints on its first line of stdout (issue 38). Each round starts, interleaved so
 * all see the same machine, a fresh process of: the release archive's linux-amd64 executable (a
 * Node.js SEA, scripts/release/plugin.ts), today's bin/pulumi-resource-svc (a script run by the
 * `node` on PATH), bare Node.js printing a line (what any Node.js process costs before its own
 * code), and a Go plugin, the pulumi CLI's YAML language host (scripts/ensure-pulumi.sh).
 * It reports the median time to the first line of stdout of each, and the ratios to the Go plugin,
 * and for the svc plugins the time to the answer of the engine's first call (GetPluginInfo).
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
import * as grpc from "@grpc/grpc-js";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { ResourceProviderClient } from "@pulumi/pulumi/proto/provider_grpc_pb";
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

/** How long one start took: to the first line of stdout, and (`answer`) to the first gRPC answer. */
interface Start {
  port: number;
  answer?: number;
}

/**
 * Milliseconds from spawn to the first line of stdout, and with `ask` to the answer of the
 * provider's GetPluginInfo on that port, the engine's first call (a port printed early is worth
 * only what the first answer gains); the process is killed then.
 */
function timeToPort(command: string, args: string[], ask = false): Promise<Start> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const since = () => Number(process.hrtime.bigint() - started) / 1e6;
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "ignore"] });
    let out = "";
    const done = (start: Start) => {
      child.kill();
      child.on("exit", () => resolve(start));
    };
    child.stdout.on("data", (d: Buffer) => {
      if (out.includes("\n")) return;
      out += d.toString();
      if (!out.includes("\n")) return;
      const port = since();
      if (!ask) return done({ port });
      const client = new ResourceProviderClient(`127.0.0.1:${out.trim()}`, grpc.credentials.createInsecure());
      client.getPluginInfo(new Empty(), (err) => {
        const answer = since();
        client.close();
        if (err) reject(err);
        else done({ port, answer });
      });
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
    // Each svc plugin is also asked GetPluginInfo (the Go one serves another protocol: its port only).
    const contenders: Record<string, [string, string[], boolean]> = {
      sea: [path.join(work, "pulumi-resource-svc"), [], true],
      script: [path.join(REPO, "bin", "pulumi-resource-svc"), [], true],
      node: ["node", ["-e", "console.log(0)"], false],
      go: [path.join(pulumiDir, "pulumi-language-yaml"), [], false],
    };
    if (args.baseline) {
      const dir = path.join(work, "baseline");
      fs.mkdirSync(dir);
      execFileSync("tar", ["-xzf", path.resolve(args.baseline), "-C", dir]);
      contenders.baseline = [path.join(dir, "pulumi-resource-svc"), [], true];
    }
    const samples: Record<string, number[]> = {};
    const add = (key: string, ms: number | undefined) => ms !== undefined && (samples[key] ??= []).push(ms);
    for (const contender of Object.values(contenders)) await timeToPort(...contender); // warm the page cache
    for (let round = 0; round < Number(args.rounds); round++) {
      const order = Object.keys(contenders);
      if (round % 2) order.reverse();
      for (const name of order) {
        const start = await timeToPort(...contenders[name]);
        add(name, start.port);
        add(`${name} answer`, start.answer);
      }
    }
    const medians = Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, median(v)]));
    const result = { archive, baseline: args.baseline || undefined, rounds: Number(args.rounds), medianMs: medians, samples };
    const ms = (k: string) => medians[k].toFixed(0);
    console.log(
      `plugin start (median of ${args.rounds}, ms to the port / to the first answer): SEA ${ms("sea")} / ${ms("sea answer")}, ` +
        `script ${ms("script")} / ${ms("script answer")}, bare Node.js ${ms("node")}, Go plugin ${ms("go")}; ` +
        `SEA/Go ${(medians.sea / medians.go).toFixed(1)}x, script/Go ${(medians.script / medians.go).toFixed(1)}x, ` +
        `Node.js/Go ${(medians.node / medians.go).toFixed(1)}x` +
        (medians.baseline
          ? `; baseline SEA ${ms("baseline")} / ${ms("baseline answer")}, SEA/baseline ${(medians.sea / medians.baseline).toFixed(2)}x ` +
            `(first answer ${(medians["sea answer"] / medians["baseline answer"]).toFixed(2)}x)`
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
