/**
 * What the benchmarks that drive the real `pulumi` CLI share: the CLI from the project's own
 * script, a temporary project per stack (its own PULUMI_HOME, file backend and stack config
 * pointing at an emulator), and running a command in it.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import type { RunningEmulator } from "pulumi-svc-emulator";
import { REPO } from "./common";

const execFileAsync = promisify(execFile);
const PROGRAMS = path.join(REPO, "bench", "programs");

/** The pulumi CLI of a version the project's own script provides (its directory is the script's last line). */
export async function pulumiBinDir(version?: string): Promise<string> {
  const script = path.join(REPO, "scripts", "ensure-pulumi.sh");
  const { stdout } = await execFileAsync("bash", [script, ...(version ? [version] : [])], { maxBuffer: 16 * 1024 * 1024 });
  return stdout.trim().split("\n").pop()!;
}

/** The CLI versions the tests run (scripts/matrix.js), newest first: what `--cli` compares by default. */
export function matrixClis(): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { MATRIX } = require(path.join(REPO, "scripts", "matrix.js")) as { MATRIX: Array<{ cli: string }> };
  return [...new Set(MATRIX.map((e) => e.cli))].join(",");
}

/** `pulumi version` of a CLI directory, without the v. */
export async function versionOf(binDir: string): Promise<string> {
  const { stdout } = await execFileAsync(path.join(binDir, "pulumi"), ["version"], {
    env: { ...process.env, PULUMI_SKIP_UPDATE_CHECK: "true" },
  });
  return stdout.trim().replace(/^v/, "");
}

export interface Project {
  name: string;
  dir: string;
  env: NodeJS.ProcessEnv;
}

export interface ProjectOptions {
  /** The program's directory under bench/programs; none for a program written by `files` alone. */
  program?: string;
  /** More environment for the CLI and the program (BENCH_N, ...). */
  env?: Record<string, string>;
  /** Files written into the project after the copy (a generated Pulumi.yaml). */
  files?: Record<string, string>;
}

/** A temporary project `<root>/<name>` for one program, its stack `bench` configured for `emu`. */
export async function makeProject(
  name: string,
  options: ProjectOptions,
  emu: RunningEmulator,
  binDir: string,
  root: string,
): Promise<Project> {
  const dir = path.join(root, name);
  if (options.program) fs.cpSync(path.join(PROGRAMS, options.program), dir, { recursive: true });
  else fs.mkdirSync(dir, { recursive: true });
  for (const [file, text] of Object.entries(options.files ?? {})) fs.writeFileSync(path.join(dir, file), text);
  fs.symlinkSync(path.join(REPO, "node_modules"), path.join(dir, "node_modules"), "dir");
  for (const sub of [".home", ".state"]) fs.mkdirSync(path.join(dir, sub));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PATH: `${binDir}${path.delimiter}${process.env.PATH}`,
    PULUMI_HOME: path.join(dir, ".home"),
    PULUMI_BACKEND_URL: `file://${path.join(dir, ".state")}`,
    PULUMI_CONFIG_PASSPHRASE: "bench",
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    PULUMI_NODEJS_TRANSPILE_ONLY: "true",
    PULUMI_SVC_VERBOSE: "",
    SVC_BASE_URL: "",
    SVC_TOKEN: "",
    SVC_WORKSPACE_ID: "",
    ...options.env,
  };
  const project = { name, dir, env };
  await pulumi(project, ["stack", "init", "bench"]);
  await pulumi(project, ["config", "set", "svc:baseUrl", emu.url]);
  await pulumi(project, ["config", "set", "--secret", "svc:token", emu.token]);
  await pulumi(project, ["config", "set", "svc:workspaceId", emu.workspaceId]);
  return project;
}

/** Runs `pulumi <args>` on the project's stack; its stdout, or an error carrying both streams. */
export async function pulumi(project: Project, args: string[]): Promise<string> {
  const argv = [...args, "--non-interactive", "--color", "never", ...(args[0] === "stack" ? [] : ["--stack", "bench"])];
  try {
    const { stdout } = await execFileAsync("pulumi", argv, { cwd: project.dir, env: project.env, maxBuffer: 256 * 1024 * 1024 });
    return stdout;
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; message: string };
    throw new Error(`pulumi ${args.join(" ")} (${project.name}) failed: ${e.message}\n${e.stdout ?? ""}\n${e.stderr ?? ""}`);
  }
}

/**
 * The svc stack of the benchmarks as a Pulumi YAML program (the plugin face): N/2 Disks and N/2
 * Vpcs, as bench/programs/svc declares them, named `<prefix>-disk-<i>` and `<prefix>-vpc-<i>` on ranges
 * 10.128.0.0/9 so they can stand beside the dynamic stack's. YAML has no loops, so it is written out.
 */
export function yamlProgram(n: number, prefix = "plugin"): string {
  const lines = [
    "name: bench-yaml",
    "runtime: yaml",
    "plugins:",
    "  providers:",
    "    - name: svc",
    `      path: ${path.join(REPO, "bin")}`,
    "resources:",
  ];
  for (let i = 0; i < Math.ceil(n / 2); i++)
    lines.push(
      `  disk-${i}:`,
      "    type: svc:index:Disk",
      `    properties: { name: ${prefix}-disk-${i}, size: ${1024 ** 3}, backend: LOCAL, region: NA_01 }`,
    );
  for (let i = 0; i < Math.floor(n / 2); i++)
    lines.push(
      `  vpc-${i}:`,
      "    type: svc:index:Vpc",
      `    properties: { name: ${prefix}-vpc-${i}, description: provider benchmark, range: "10.${128 + (Math.floor(i / 256) % 128)}.${i % 256}.0/24" }`,
    );
  return lines.join("\n") + "\n";
}

/** /v1 requests an emulator logged since `seq` (the control routes are the harness's own). */
export function apiRequestsSince(emu: RunningEmulator, seq: number) {
  return emu.services.requestLog.list({ since: seq }).filter((r) => r.path.startsWith("/v1/"));
}
