/**
 * release/nodejs/: the npm tarballs a user installs — pulumi-svc (the dynamic resources and the
 * plugin script), pulumi-svc-emulator, and pulumi-svc-sdk, the plugin face's typed classes built
 * from sdk/nodejs as Pulumi providers publish their SDKs (tsc into bin/, package.json beside it).
 * The first two pack the checkout as it is built (`npm run release` builds first); their version
 * is their package.json's, so it must be the release's.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { SDK_NAMES } from "../schema";
import { inScratch, REPO, run, type Step } from "./common";

const TSC = path.join(REPO, "node_modules", ".bin", "tsc");

/** `npm pack` of `dir` into `into`, without lifecycle scripts (the checkout is already built); returns the tarball. */
function pack(dir: string, into: string, args: string[] = []): string {
  const packed = JSON.parse(
    run("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", into, ...args], { cwd: dir }),
  ) as Array<{
    filename: string;
  }>;
  return path.join(into, packed[0].filename);
}

function versionOf(packageJson: string): string {
  return (JSON.parse(fs.readFileSync(packageJson, "utf8")) as { version: string }).version;
}

/** sdk/nodejs compiled in a scratch copy at `version`, packed into `into`. */
async function packSdk(into: string, version: string): Promise<string> {
  return inScratch("sdk-nodejs", async (scratch) => {
    const build = path.join(scratch, "sdk");
    fs.cpSync(path.join(REPO, "sdk", "nodejs"), build, { recursive: true });
    // The SDK compiles against this checkout's @pulumi/pulumi (its dependency, resolved from above the copy).
    fs.mkdirSync(path.join(scratch, "node_modules"));
    fs.symlinkSync(path.join(REPO, "node_modules", "@pulumi"), path.join(scratch, "node_modules", "@pulumi"), "dir");
    const manifest = JSON.parse(fs.readFileSync(path.join(build, "package.json"), "utf8"));
    if (manifest.name !== SDK_NAMES.nodejs) throw new Error(`sdk/nodejs is ${manifest.name}, not ${SDK_NAMES.nodejs}`);
    manifest.version = version;
    manifest.pulumi = { ...manifest.pulumi, version };
    run(TSC, ["-p", path.join(build, "tsconfig.json"), "--types", "node", "--typeRoots", path.join(REPO, "node_modules", "@types")]);
    fs.writeFileSync(path.join(build, "bin", "package.json"), JSON.stringify(manifest, null, 2) + "\n");
    fs.copyFileSync(path.join(build, "README.md"), path.join(build, "bin", "README.md"));
    fs.copyFileSync(path.join(REPO, "LICENSE"), path.join(build, "bin", "LICENSE"));
    return pack(path.join(build, "bin"), into);
  });
}

export const nodejs: Step = async (outDir, version) => {
  const into = path.join(outDir, "nodejs");
  fs.mkdirSync(into, { recursive: true });
  for (const manifest of [path.join(REPO, "package.json"), path.join(REPO, "packages", "emulator", "package.json")])
    if (versionOf(manifest) !== version)
      throw new Error(`${path.relative(REPO, manifest)} is at ${versionOf(manifest)}, the release at ${version}`);
  if (!fs.existsSync(path.join(REPO, "dist", "index.js")) || !fs.existsSync(path.join(REPO, "packages", "emulator", "dist", "index.js")))
    throw new Error("the checkout is not built: run `npm run build` first (`npm run release` does)");
  return [pack(REPO, into), pack(REPO, into, ["-w", "pulumi-svc-emulator"]), await packSdk(into, version)];
};
