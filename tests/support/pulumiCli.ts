/**
 * The pulumi CLI the tests drive: scripts/ensure-pulumi.sh builds it on a fresh machine (cached
 * outside the work tree, one folder per version) and prints its directory last; that directory
 * goes first on PATH for this process and the ones it starts. The version is the matrix entry's
 * (PULUMI_SVC_CLI, set by scripts/test.js), else the script's default, the newest.
 */
import { execFileSync } from "node:child_process";
import * as path from "node:path";

export function ensurePulumiCli(): string {
  const script = path.join(__dirname, "..", "..", "scripts", "ensure-pulumi.sh");
  const version = process.env.PULUMI_SVC_CLI;
  const out = execFileSync("bash", [script, ...(version ? [version] : [])], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
  const dir = out.trim().split("\n").pop()!;
  process.env.PATH = `${dir}${path.delimiter}${process.env.PATH}`;
  return dir;
}

/** The version of the `pulumi` on PATH, without its "v". */
export function pulumiVersion(): string {
  return execFileSync("pulumi", ["version"], { encoding: "utf8", env: { ...process.env, PULUMI_SKIP_UPDATE_CHECK: "true" } })
    .trim()
    .replace(/^v/, "");
}

/** Whether a dotted version is at least `min` (3.174.0 >= 3.163.0). */
export function versionAtLeast(version: string, min: string): boolean {
  const [a, b] = [version, min].map((v) => v.split(/[.-]/).slice(0, 3).map(Number));
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] > b[i];
  return true;
}
