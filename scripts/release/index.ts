/**
 * `npm run release`: writes release/ from the checkout, versioned from package.json, and prints
 * each file it wrote with its size. One step per channel (a module here, `(outDir, version) =>
 * Promise<string[]>`), then SHA256SUMS over every file under the output directory.
 *
 *   npm run release                              every step into release/ (the plugin's archives at its top,
 *                                                where `pulumi plugin install --server` looks)
 *   npm run release -- --only python,go          just those steps
 *   npm run release -- --out /tmp/r              somewhere else
 *
 * .NET: no step. No .NET SDK can be obtained on the machines this is built on, so sdk/dotnet is
 * not packed (docs/installation-configuration.md says what a .NET user does meanwhile).
 */
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO, type Step } from "./common";
import { go } from "./go";
import { maven } from "./maven";
import { nodejs } from "./nodejs";
import { pluginArchives } from "./plugin";
import { python } from "./python";

/** Every step, in the order they run (a new channel is one line here). */
export const STEPS: Record<string, Step> = { plugin: pluginArchives, nodejs, python, go, maven };

const human = (bytes: number) =>
  bytes >= 1 << 20 ? `${(bytes / (1 << 20)).toFixed(1)} MiB` : bytes >= 1024 ? `${(bytes / 1024).toFixed(1)} KiB` : `${bytes} B`;

function filesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
}

/** SHA256SUMS (sha256sum's format, paths relative to `outDir`) over every other file under it. */
export function writeChecksums(outDir: string): string {
  const sums = path.join(outDir, "SHA256SUMS");
  const lines = filesUnder(outDir)
    .filter((f) => f !== sums)
    .map((f) => `${createHash("sha256").update(fs.readFileSync(f)).digest("hex")}  ${path.relative(outDir, f).split(path.sep).join("/")}`);
  fs.writeFileSync(sums, lines.join("\n") + "\n");
  return sums;
}

export interface ReleaseOptions {
  outDir: string;
  version: string;
  /** Step names to run; every step when absent. */
  only?: string[];
  /** Called with each file as its step finishes (the CLI prints it). */
  onFile?: (file: string) => void;
}

/** Runs the steps into `outDir` and writes SHA256SUMS; returns every file written. */
export async function release({ outDir, version, only, onFile }: ReleaseOptions): Promise<string[]> {
  const names = only ?? Object.keys(STEPS);
  const unknown = names.filter((n) => !(n in STEPS));
  if (unknown.length) throw new Error(`no release step ${unknown.join(", ")} (steps: ${Object.keys(STEPS).join(", ")})`);
  fs.mkdirSync(outDir, { recursive: true });
  const written: string[] = [];
  for (const name of names) {
    const files = await STEPS[name](outDir, version);
    for (const f of files) onFile?.(f);
    written.push(...files);
  }
  const sums = writeChecksums(outDir);
  onFile?.(sums);
  return [...written, sums];
}

/** Whether CHANGELOG.md's text has the section of `version` (`## 0.1.0`, or `## 0.1.0 (...)`): a release says what it holds. */
export function changelogHasSection(changelog: string, version: string): boolean {
  return new RegExp(`^## ${version.replace(/[.+]/g, "\\$&")}(?: |$)`, "m").test(changelog);
}

function parseArgs(argv: string[]): { outDir: string; only?: string[] } {
  let outDir = path.join(REPO, "release");
  let only: string[] | undefined;
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split(/=(.*)/s, 2);
    const value = () => inline ?? argv[++i] ?? "";
    if (flag === "--out") outDir = path.resolve(value());
    else if (flag === "--only") only = value().split(",").filter(Boolean);
    else throw new Error(`unknown argument ${argv[i]} (use --only <step>[,<step>] and --out <dir>)`);
  }
  return { outDir, only };
}

async function main(): Promise<void> {
  const { outDir, only } = parseArgs(process.argv.slice(2));
  const { version } = JSON.parse(fs.readFileSync(path.join(REPO, "package.json"), "utf8")) as { version: string };
  if (!changelogHasSection(fs.readFileSync(path.join(REPO, "CHANGELOG.md"), "utf8"), version))
    throw new Error(`CHANGELOG.md has no "## ${version}" section: say what ${version} holds before releasing it`);
  const started = Date.now();
  console.log(`release ${version} into ${outDir}`);
  await release({
    outDir,
    version,
    only,
    onFile: (f) => console.log(`${human(fs.statSync(f).size).padStart(10)}  ${path.relative(outDir, f)}`),
  });
  console.log(`done in ${((Date.now() - started) / 1000).toFixed(1)}s`);
}

if (require.main === module) {
  main().catch((err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
