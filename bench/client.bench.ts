/**
 * Client benchmark: the CPU the provider's HTTP client costs its process, which is what a refresh
 * pays per resource read (bench/README.md, issue 17). Measured in this process with
 * `process.cpuUsage()` against an emulator in a child process (its CPU is not counted):
 *
 * - start: loading the client and its first request (a refresh's provider host pays it once);
 * - per request: one authenticated GET through the whole pipeline (pace, retry, error mapping,
 *   transport, lossless parse), sequential, median of `--rounds` rounds.
 *
 *   npm run build && node dist/bench/client.bench.js [--requests 2000] [--rounds 5] [--repo <dir>]
 *
 * `--repo` loads the client from another checkout's dist/ (built), to compare two commits in one
 * run on one machine; the start figure is only meaningful once per process, so each checkout runs
 * in a process of its own.
 */
import { fork } from "node:child_process";
import * as path from "node:path";
import { environment, median, parseArgs, REPO, writeResult } from "./common";

const options = () =>
  parseArgs({
    requests: { default: "2000", help: "requests per round" },
    rounds: { default: "5", help: "rounds (the median is recorded)" },
    repo: { default: REPO, help: "checkout whose dist/provider/client/client.js is measured" },
    out: { default: "bench/results", help: "where the result is written" },
  });

const cpuMs = (since: NodeJS.CpuUsage) => {
  const { user, system } = process.cpuUsage(since);
  return (user + system) / 1000;
};

/** The emulator, in a child process of its own, rate limits lifted. */
function startEmulatorProcess(): Promise<{ url: string; token: string; workspaceId: string; stop: () => void }> {
  const child = fork(__filename, ["--serve"], { stdio: ["ignore", "ignore", "inherit", "ipc"] });
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("message", (info: { url: string; token: string; workspaceId: string }) => resolve({ ...info, stop: () => child.kill() }));
  });
}

async function serve(): Promise<void> {
  const { startEmulator } = await import("pulumi-svc-emulator");
  const emu = await startEmulator({ port: 0, workflowMs: 0, seed: 7 });
  emu.services.rateLimiter.settings = { general: { burst: 1e9, perSecond: 1e9 }, lifecycle: { burst: 1e9, perSecond: 1e9 } };
  process.send!({ url: emu.url, token: emu.token, workspaceId: emu.workspaceId });
}

async function main(): Promise<void> {
  const args = options();
  const emu = await startEmulatorProcess();
  const workspace = `/v1/workspaces/${emu.workspaceId}`;
  const started = process.cpuUsage();
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the checkout to measure is chosen at run time
  const { SvcClient } = require(path.resolve(args.repo, "dist/provider/client/client.js")) as typeof import("../provider/client/client");
  const client = new SvcClient({ baseUrl: emu.url, token: emu.token, workspaceId: emu.workspaceId });
  await client.get(workspace);
  const startMs = cpuMs(started);
  const perRequest: number[] = [];
  for (let round = 0; round < Number(args.rounds); round++) {
    const since = process.cpuUsage();
    for (let i = 0; i < Number(args.requests); i++) await client.get(workspace);
    perRequest.push(cpuMs(since) / Number(args.requests));
  }
  emu.stop();
  const result = { repo: args.repo, requests: Number(args.requests), startMs, perRequestMs: median(perRequest), rounds: perRequest };
  console.log(`client: start ${startMs.toFixed(1)} ms CPU, ${result.perRequestMs.toFixed(3)} ms CPU per request (${args.repo})`);
  console.log(`recorded in ${writeResult(args.out, "client", { environment: environment(), ...result })}`);
}

(process.argv.includes("--serve") ? serve() : main()).catch((err) => {
  console.error(err);
  process.exit(1);
});
