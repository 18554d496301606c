/**
 * Which pulumi CLI `npm run demo` runs. A newcomer who has pulumi installed should not wait minutes
 * for a build of another: the `pulumi` first on PATH is used when its version is in the range the
 * package supports and the plugins the demo starts are beside it. Otherwise scripts/ensure-pulumi.sh
 * obtains its `demo` set (a build the first time on a machine), and the demo says why, so a user
 * whose own CLI was passed over knows what to change.
 *
 * The range is package.json's peer dependency on @pulumi/pulumi, the one place it is declared
 * (scripts/matrix.js's floor is its lower end; tests/unit/matrix.test.ts keeps them together).
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import * as semver from "semver";

/**
 * What the demo starts beside `pulumi`: the Node.js language host (the program and the policy pack)
 * and the dynamic-provider host (the resources). A released CLI ships both, and an older one's
 * policy analyzer where its engine needs one. ensure-pulumi.sh's `demo` set builds them too
 * (tests/unit/demoCli.test.ts keeps the two lists together).
 */
export const DEMO_PLUGINS = ["pulumi-language-nodejs", "pulumi-resource-pulumi-nodejs"];

/** The `pulumi` first on PATH: where it is, the version it reports (none: it did not say), the plugins missing beside it. */
export interface FoundCli {
  path: string;
  version?: string;
  missing: string[];
}

export type CliChoice = { use: "found"; path: string; version: string } | { use: "build"; why: string };

/** The decision alone: the found CLI when it will do, else a build and the reason. */
export function chooseCli(found: FoundCli | undefined, range: string, forceBuild: boolean): CliChoice {
  if (forceBuild) return { use: "build", why: "PULUMI_SVC_FORCE_BUILD is set" };
  if (!found) return { use: "build", why: "no pulumi on PATH" };
  const { path: file, version, missing } = found;
  if (!version) return { use: "build", why: `${file} did not report its version` };
  // A CLI built from source reports a prerelease (3.200.1-dev.0): in the range as its release is.
  if (!semver.satisfies(version, range, { includePrerelease: true }))
    return { use: "build", why: `pulumi ${version} at ${file} is outside the supported range ${range}` };
  if (missing.length) return { use: "build", why: `pulumi ${version} at ${file} has no ${missing.join(" or ")} beside it` };
  return { use: "found", path: file, version };
}

/** The range of pulumi versions the package supports: its peer dependency on @pulumi/pulumi. */
export function supportedRange(repo: string): string {
  const manifest = JSON.parse(fs.readFileSync(path.join(repo, "package.json"), "utf8")) as { peerDependencies: Record<string, string> };
  return manifest.peerDependencies["@pulumi/pulumi"];
}

const isExecutable = (file: string) => {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
};

/** The version a `pulumi` reports (`v3.274.1`), without the v; undefined when it does not answer. */
function versionOf(file: string): string | undefined {
  try {
    const out = execFileSync(file, ["version"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
      env: { ...process.env, PULUMI_SKIP_UPDATE_CHECK: "true" },
      timeout: 30_000,
    });
    return semver.clean(out.trim().split("\n").pop() ?? "") ?? undefined;
  } catch {
    return undefined;
  }
}

/**
 * The first `pulumi` on `searchPath`. Its plugins are looked for beside it, then beside the file a
 * symlink names (a package manager's bin folder may link `pulumi` alone): the first folder that has
 * them all is the one found, else the PATH entry.
 */
export function findPulumi(searchPath: string): FoundCli | undefined {
  const onPath = searchPath
    .split(path.delimiter)
    .filter(Boolean)
    .map((dir) => path.join(dir, "pulumi"))
    .find(isExecutable);
  if (!onPath) return undefined;
  const candidates = [...new Set([onPath, fs.realpathSync(onPath)])].map((file) => ({
    path: file,
    missing: DEMO_PLUGINS.filter((plugin) => !isExecutable(path.join(path.dirname(file), plugin))),
  }));
  const chosen = candidates.find((c) => !c.missing.length) ?? candidates[0];
  return { ...chosen, version: versionOf(chosen.path) };
}
