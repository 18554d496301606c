/**
 * TypeScript through the provider plugin (examples/ts-plugin-quickstart): the quickstart with the
 * typed classes of sdk/nodejs, the package `pulumi-svc-sdk`, instead of the dynamic resources.
 * The SDK is generated TypeScript, built as published (./nodeSdk.ts) where the copied program
 * resolves it.
 */
import { execFileSync } from "node:child_process";
import * as path from "node:path";
import type { E2E } from "./harness";
import { buildNodeSdk, TSC } from "./nodeSdk";
import { describePluginQuickstart } from "./plugin-quickstart";

jest.setTimeout(600_000);

/** Builds sdk/nodejs into the node_modules above the copied example (`<root>/examples/<name>`), then type-checks the program against it. */
async function installSdk(e2e: E2E): Promise<void> {
  buildNodeSdk(path.join(e2e.dir, "..", "..", "node_modules"));
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
