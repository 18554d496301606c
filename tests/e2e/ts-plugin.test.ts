/**
 * TypeScript through the provider plugin (examples/ts-plugin-quickstart): the quickstart with the
 * typed classes of sdk/nodejs, the package `pulumi-svc-sdk`, instead of the dynamic resources.
 * The SDK is generated TypeScript: it is compiled here as its own `npm run build` does (tsc into
 * bin/), and its package.json copied into bin/, which is the package as Pulumi providers publish
 * it; that is placed where the copied program resolves it, beside a link to this repository's
 * @pulumi/pulumi.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import type { E2E } from "./harness";
import { describePluginQuickstart } from "./plugin-quickstart";

jest.setTimeout(600_000);

const REPO = path.join(__dirname, "..", "..");
const TSC = path.join(REPO, "node_modules", ".bin", "tsc");

/** Builds sdk/nodejs into the node_modules above the copied example (`<root>/examples/<name>`), then type-checks the program against it. */
async function installSdk(e2e: E2E): Promise<void> {
  const root = path.join(e2e.dir, "..", "..");
  const modules = path.join(root, "node_modules");
  const build = path.join(root, "sdk-nodejs");
  fs.mkdirSync(modules, { recursive: true });
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
  fs.renameSync(path.join(build, "bin"), path.join(modules, "pulumi-svc-sdk"));
  // The program's own types against the SDK's declarations: the typed classes are what it compiles with.
  execFileSync(
    TSC,
    [
      "--noEmit",
      "--strict",
      "--module",
      "commonjs",
      "--target",
      "es2020",
      "--moduleResolution",
      "node",
      "--types",
      "node",
      path.join(e2e.dir, "index.ts"),
    ],
    { stdio: "pipe", cwd: e2e.dir },
  );
}

describePluginQuickstart({
  example: "ts-plugin-quickstart",
  project: "svc-ts-plugin-quickstart",
  source: "index.ts",
  description: (text) => `description: "${text}"`,
  prepare: installSdk,
  imported: (name, range) => [`new svc.Vpc("${name}"`, `range: "${range}"`],
});
