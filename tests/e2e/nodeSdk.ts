/**
 * The typed classes of sdk/nodejs (the package `pulumi-svc-sdk`, the plugin face in TypeScript),
 * built as the SDK's own `npm run build` does (tsc into bin/, its package.json copied in): the
 * package as Pulumi providers publish it. Placed as `<modules>/pulumi-svc-sdk` beside a link to
 * this repository's @pulumi, so the SDK and the program share one copy of the Pulumi SDK.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

const REPO = path.join(__dirname, "..", "..");
export const TSC = path.join(REPO, "node_modules", ".bin", "tsc");

/** The SDK's sources, this checkout and its TypeScript, as one digest: what a build depends on. */
function sourcesDigest(): string {
  const hash = createHash("sha256").update(REPO);
  hash.update(fs.readFileSync(path.join(REPO, "node_modules", "typescript", "package.json")));
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else hash.update(path.relative(REPO, file)).update(fs.readFileSync(file));
    }
  };
  walk(path.join(REPO, "sdk", "nodejs"));
  return hash.digest("hex").slice(0, 16);
}

/**
 * The built SDK, once per digest of its sources: `<tmp>/svc-sdk-nodejs-<digest>/node_modules/`
 * holds it beside a link to this repository's @pulumi. tsc type-checks the whole SDK, about 14 s
 * of CPU, and each end-to-end file on the plugin face built it anew. Built aside and renamed into
 * place, so jest's workers building at once each get a whole one.
 */
function builtSdk(): string {
  const cached = path.join(os.tmpdir(), `svc-sdk-nodejs-${sourcesDigest()}`, "node_modules", "pulumi-svc-sdk");
  if (fs.existsSync(cached)) return cached;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "svc-sdk-nodejs-build-"));
  // Built beside the node_modules it is placed in, where tsc finds @pulumi/pulumi.
  const build = path.join(work, "cache", "build");
  const modules = path.join(work, "cache", "node_modules");
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
  fs.rmSync(build, { recursive: true, force: true });
  try {
    fs.renameSync(path.join(work, "cache"), path.dirname(path.dirname(cached)));
  } catch (err) {
    // Another worker placed the same build first: theirs is used.
    if (!fs.existsSync(cached)) throw err;
  }
  fs.rmSync(work, { recursive: true, force: true });
  return cached;
}

/** Places the built SDK as `<modules>/pulumi-svc-sdk` (a link), beside a link to this repository's @pulumi; returns that path. */
export function buildNodeSdk(modules: string): string {
  fs.mkdirSync(modules, { recursive: true });
  if (!fs.existsSync(path.join(modules, "@pulumi")))
    fs.symlinkSync(path.join(REPO, "node_modules", "@pulumi"), path.join(modules, "@pulumi"), "dir");
  const installed = path.join(modules, "pulumi-svc-sdk");
  fs.symlinkSync(builtSdk(), installed, "dir");
  return installed;
}
