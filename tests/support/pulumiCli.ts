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
