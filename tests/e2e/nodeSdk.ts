/**
 * The typed classes of sdk/nodejs (the package `pulumi-svc-sdk`, the plugin face in TypeScript),
 * built as the SDK's own `npm run build` does (tsc into bin/, its package.json copied in): the
 * package as Pulumi providers publish it. Placed as `<modules>/pulumi-svc-sdk` beside a link to
 * this repository's @pulumi, so the SDK and the program share one copy of the Pulumi SDK.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";

const REPO = path.join(__dirname, "..", "..");
export const TSC = path.join(REPO, "node_modules", ".bin", "tsc");

/** Builds the SDK into `<modules>/pulumi-svc-sdk`; returns that directory. */
export function buildNodeSdk(modules: string): string {
  const build = path.join(modules, "..", `sdk-nodejs-build-${process.pid}`);
  fs.mkdirSync(modules, { recursive: true });
  if (!fs.existsSync(path.join(modules, "@pulumi")))
    fs.symlinkSync(path.join(REPO, "node_modules", "@pulumi"), path.join(modules, "@pulumi"), "dir");
  fs.cpSync(path.join(REPO, "sdk", "nodejs"), build, { recursive: true });
  execFileSync(
    TSC,
    ["-p", path.join(build, "tsconfig.json"), "--types", "node", "--typeRoots", path.join(REPO, "node_modules", "@types")],
    {
      stdio: "pipe",
    },
  );
  fs.copyFileSync(path.join(build, "package.json"), path.join(build, "bin", "package.json"));
  const installed = path.join(modules, "pulumi-svc-sdk");
  fs.renameSync(path.join(build, "bin"), installed);
  fs.rmSync(build, { recursive: true, force: true });
  return installed;
}
