/**
 * What the release steps share: where the checkout is, how a tool runs (its output kept, and shown
 * when it fails), where tools are cached outside the work tree, and a scratch directory per step.
 */
import { execFileSync, type ExecFileSyncOptions } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

/** The checkout: two levels up from scripts/release/ (or from dist/scripts/release/, compiled). */
export const REPO = (() => {
  let dir = __dirname;
  while (!fs.existsSync(path.join(dir, "schema.json")) || !fs.existsSync(path.join(dir, "sdk"))) {
    const up = path.dirname(dir);
    if (up === dir) throw new Error(`no checkout above ${__dirname}`);
    dir = up;
  }
  return dir;
})();

/** One release channel: writes its files under `outDir` (release/) and returns their paths. */
export type Step = (outDir: string, version: string) => Promise<string[]>;

/** The cache shared with scripts/ensure-*.sh: `${PULUMI_SVC_CACHE:-${XDG_CACHE_HOME:-~/.cache}/pulumi-svc}`. */
export function cacheRoot(): string {
  return process.env.PULUMI_SVC_CACHE || path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache"), "pulumi-svc");
}

/** Runs a tool, returning its stdout; a failure names the command and carries its stderr and stdout. */
export function run(file: string, args: string[], options: ExecFileSyncOptions = {}): string {
  try {
    return execFileSync(file, args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], maxBuffer: 64 << 20, ...options }).toString();
  } catch (err) {
    const e = err as { stdout?: Buffer | string; stderr?: Buffer | string; message: string };
    const tail = (s: Buffer | string | undefined) =>
      String(s ?? "")
        .split("\n")
        .slice(-40)
        .join("\n");
    throw new Error(`${file} ${args.join(" ")} failed: ${e.message}\n${tail(e.stderr)}\n${tail(e.stdout)}`);
  }
}

/** A scratch directory outside the work tree, removed when `work` is done. */
export async function inScratch<T>(name: string, work: (dir: string) => Promise<T>): Promise<T> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `svc-release-${name}-`));
  try {
    return await work(dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Replaces `from` in a file, failing when it is not there (a generated file changed shape). */
export function replaceIn(file: string, from: string | RegExp, to: string): void {
  const text = fs.readFileSync(file, "utf8");
  if (typeof from === "string" ? !text.includes(from) : !from.test(text)) throw new Error(`${file} has no ${String(from)}`);
  fs.writeFileSync(file, text.replace(from, to));
}
