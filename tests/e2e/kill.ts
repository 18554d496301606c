/**
 * A `pulumi up` killed as a CI runner kills it (SIGKILL to its process group), at a point chosen
 * from the emulator's request log rather than by time; `svc-recover` run as a person runs it; and
 * the measure of the result: the stack's state against the emulator's inventory.
 */
import { execFile, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { diyDir, type Deployment } from "../../common/stack";
import { PACKAGE_DIR, type E2E, type LoggedRequest } from "./harness";
import { setTimeout as sleep } from "node:timers/promises";

/** svc-recover as the package ships it (the installed copy on another SDK of the matrix). */
const RECOVER = path.join(PACKAGE_DIR, "dist", "recover", "cli.js");

/** Long enough that no workflow started during the killed run ends before the kill. */
const SLOW_WORKFLOW_MS = 600_000;

/** An accepted (2xx) write to the API whose path matches. */
export const accepted = (method: string, pathPattern: RegExp) => (r: LoggedRequest) =>
  r.method === method && pathPattern.test(r.path) && r.status < 300;

/** Processes whose working directory is the project (the provider hosts the engine started there). */
function processesIn(dir: string): Array<{ pid: number; cmd: string }> {
  const real = fs.realpathSync(dir);
  const found: Array<{ pid: number; cmd: string }> = [];
  for (const entry of fs.readdirSync("/proc").filter((e) => /^\d+$/.test(e))) {
    try {
      if (fs.realpathSync(`/proc/${entry}/cwd`) !== real) continue;
      found.push({ pid: Number(entry), cmd: fs.readFileSync(`/proc/${entry}/cmdline`, "utf8").replace(/\0/g, " ") });
    } catch {
      // Gone, or not ours to read.
    }
  }
  return found;
}

const isProviderHost = (cmd: string) => /dynamic-provider|pulumi-resource-svc/.test(cmd);

/**
 * Runs `pulumi <command>` (up or destroy) with slow workflows, kills its process group with SIGKILL
 * once `until` holds for the requests logged since it started, waits for the provider hosts to
 * leave on their own (they must not keep calling the API unseen), then lets the API finish what it
 * accepted. Returns the requests of the killed run.
 */
export async function killedRun(
  e2e: E2E,
  command: "up" | "destroy",
  until: (requests: LoggedRequest[]) => boolean | Promise<boolean>,
): Promise<LoggedRequest[]> {
  await e2e.emu.control.post("/_emulator/settings", { workflowMs: SLOW_WORKFLOW_MS });
  const since = await e2e.lastSeq();
  const child = spawn("pulumi", [command, "--yes", "--skip-preview", "--non-interactive", "--color", "never", "--stack", "e2e"], {
    cwd: e2e.dir,
    env: { ...process.env, ...e2e.env },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  let exited = false;
  const exit = new Promise<void>((resolve) => child.on("exit", () => resolve(void (exited = true))));
  try {
    for (;;) {
      if (await until(await e2e.requests(since))) break;
      if (exited) throw new Error(`pulumi ${command} ended before the kill point:\n${output}`);
      await sleep(50);
    }
  } catch (err) {
    // Leave nothing running for the next test: the run ends, and workflows are quick again.
    if (!exited) process.kill(-child.pid!, "SIGKILL");
    await e2e.emu.control.post("/_emulator/settings", { workflowMs: 150 });
    throw err;
  }
  process.kill(-child.pid!, "SIGKILL");
  await exit;
  // Nothing keeps working unseen: the hosts leave by themselves (the test's timeout bounds this).
  while (processesIn(e2e.dir).some((p) => isProviderHost(p.cmd))) await sleep(200);
  const requests = await e2e.requests(since);
  await e2e.emu.control.post("/_emulator/settings", { workflowMs: 150 });
  await e2e.emu.control.post("/_emulator/clock", { advanceMs: SLOW_WORKFLOW_MS });
  return requests;
}

/** A killed `pulumi up` (killedRun). */
export const killedUp = (e2e: E2E, until: (requests: LoggedRequest[]) => boolean | Promise<boolean>) => killedRun(e2e, "up", until);

/**
 * The pending operations the stack records, as "type name", read from the backend's checkpoint
 * file itself, not through `pulumi stack export`. The file backend replaces `<stack>.json` whole but
 * writes its sidecar `<stack>.json.attrs` in place, so a kill can land mid-write, and a read while a
 * run is live can too. Either way every pulumi command fails with "failed to load checkpoint: EOF"
 * until svc-recover removes the torn sidecar (common/stack.ts, removeTornSidecars). That happened
 * in CI: the recover tests' next command failed and took the rest of the file with it.
 */
export async function pendingOf(e2e: E2E): Promise<string[]> {
  const project = (await e2e.stack.workspace.projectSettings()).name;
  const file = path.join(diyDir(e2e.env.PULUMI_BACKEND_URL, "stacks", project)!, `${e2e.stack.name.split("/").pop()}.json`);
  const { checkpoint } = JSON.parse(fs.readFileSync(file, "utf8")) as { checkpoint: { latest?: Deployment } };
  const ops = checkpoint.latest?.pending_operations ?? [];
  return ops.map((op) => `${op.type} ${op.resource.urn.split("::").pop()}`).sort();
}

/** Runs svc-recover in the project as a person would; its exit code and what it printed. */
export function svcRecover(e2e: E2E, args: string[] = [], env: Record<string, string> = {}): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile("node", [RECOVER, ...args], { cwd: e2e.dir, env: { ...process.env, ...e2e.env, ...env } }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, output: stdout + stderr }),
    );
  });
}

export { expectAllGone, expectStateMatchesInventory } from "./inventory";
