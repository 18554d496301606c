/**
 * The pulumi CLI the tests drive: scripts/ensure-pulumi.sh builds the pinned version on a fresh
 * machine (cached outside the work tree) and prints its directory last; that directory goes first
 * on PATH for this process and the ones it starts.
 */
import { execFileSync } from "node:child_process";
import * as path from "node:path";

export function ensurePulumiCli(): string {
  const script = path.join(__dirname, "..", "..", "scripts", "ensure-pulumi.sh");
  const out = execFileSync("bash", [script], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
  const dir = out.trim().split("\n").pop()!;
  process.env.PATH = `${dir}${path.delimiter}${process.env.PATH}`;
  return dir;
}
