/**
 * Runs once before the test files: makes the pulumi CLI available for the end-to-end suite
 * (scripts/ensure-pulumi.sh builds the pinned version on a fresh machine) and puts it on PATH
 * for the workers; makes the S3-compatible object store the shared-state tests start
 * (scripts/ensure-s3.sh) and the PostgreSQL server (scripts/ensure-postgres.sh) and tells them
 * where they are, so two files never build one at once.
 */
import { execFileSync } from "node:child_process";
import * as path from "node:path";
import { ensurePulumiCli } from "./support/pulumiCli";

export default async function globalSetup(): Promise<void> {
  if (process.env.PULUMI_SVC_SKIP_ENSURE === "1") return;
  process.env.PULUMI_SVC_PULUMI_DIR = ensurePulumiCli();
  const s3 = path.join(__dirname, "..", "scripts", "ensure-s3.sh");
  process.env.PULUMI_SVC_S3_SERVER = execFileSync("bash", [s3], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] })
    .trim()
    .split("\n")
    .pop()!;
  const postgres = path.join(__dirname, "..", "scripts", "ensure-postgres.sh");
  process.env.PULUMI_SVC_POSTGRES_BIN = execFileSync("bash", [postgres], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] })
    .trim()
    .split("\n")
    .pop()!;
}
