#!/usr/bin/env node
/**
 * `svc-import`: brings an existing workspace under Pulumi (docs/guides/adopting.md). Run in the
 * project directory with the same configuration as `pulumi up` (the stack's svc:* config, else
 * SVC_* in the environment):
 *
 *   svc-import --file import.json [--kind K]... [--name GLOB]...   the import file for `pulumi import --file`
 *   svc-import --dynamic <dir>    [--kind K]... [--name GLOB]... [--retain]   the dynamic face's index.ts
 *   svc-import --finish <program> [--out <file>] [--retain]        completes what `pulumi import` generated
 *
 * Lists what the workspace holds through the API (reads only), writes one file, prints what it
 * did and the config secrets to set. Exit 0 on success; otherwise one line saying why, and nothing
 * written: 1 when there is nothing to import, 2 for bad input, configuration, access or API.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { createRuntime } from "../provider/configure/providerRuntime";
import { apiProblems } from "../common/apiAccess";
import { Stack } from "../common/stack";
import { discover, ImportError, type Discovery, type Selection } from "./discover";
import { dynamicProgram } from "./dynamicProgram";
import { finishProgram, importedOf } from "./finish";
import { importFileOf } from "./importFile";
import { KIND_TAKE } from "./kinds";
import { languageOf, LANGUAGES } from "./languages";

const USAGE =
  "usage: svc-import (--file <import.json> | --dynamic <dir> | --finish <program file> [--out <file>]) [--kind KIND]... [--name GLOB]... [--retain] [--stack NAME]";

export interface Options extends Selection {
  mode?: { file: string } | { dynamic: string } | { finish: string };
  /** --finish: where the finished program goes (default: in place). */
  out?: string;
  retain: boolean;
  stack?: string;
}

export function parseArgs(argv: string[]): Options {
  const opts: Options = { retain: false, kinds: [], names: [] };
  const setMode = (mode: Options["mode"]) => {
    if (opts.mode) throw new ImportError(`give one of --file, --dynamic and --finish\n${USAGE}`);
    opts.mode = mode;
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined || v.startsWith("--")) throw new ImportError(`${arg} needs a value\n${USAGE}`);
      return v;
    };
    if (arg === "--file") setMode({ file: value() });
    else if (arg === "--dynamic") setMode({ dynamic: value() });
    else if (arg === "--finish") setMode({ finish: value() });
    else if (arg === "--kind") opts.kinds!.push(...value().split(","));
    else if (arg === "--name") opts.names!.push(value());
    else if (arg === "--out") opts.out = value();
    else if (arg === "--retain") opts.retain = true;
    else if (arg === "--stack" || arg === "-s") opts.stack = value();
    else if (arg === "--help" || arg === "-h") throw new ImportError(help());
    else throw new ImportError(`unknown argument ${arg}\n${USAGE}`);
  }
  if (!opts.mode) throw new ImportError(`say what to write: --file, --dynamic or --finish\n${USAGE}`);
  if ("finish" in opts.mode && (opts.kinds!.length || opts.names!.length))
    throw new ImportError("--finish completes what was imported: --kind and --name choose what to import, before pulumi import");
  if (opts.out && !("finish" in opts.mode)) throw new ImportError("--out goes with --finish: where the finished program goes");
  if ("file" in opts.mode && opts.retain)
    throw new ImportError("--retain goes with --finish (or --dynamic): pulumi import --file has no place for it");
  return opts;
}

function help(): string {
  const never = Object.entries(KIND_TAKE).flatMap(([k, t]) => (t.take === "default" ? [] : [`  ${k}: ${t.why}`]));
  return [USAGE, "", "Kinds not taken unless named with --kind, or never:", ...never].join("\n");
}

const say = (line = "") => process.stdout.write(`${line}\n`);

/** The stack's configuration where the directory is a Pulumi project with a stack; else none (the SVC_* environment serves). */
async function stackConfig(stack: Stack): Promise<Record<string, string>> {
  if (!fs.existsSync(path.join(stack.cwd, "Pulumi.yaml"))) return {};
  try {
    return await stack.config();
  } catch {
    return {};
  }
}

export async function run(opts: Options): Promise<number> {
  const stack = new Stack(opts.stack);
  if (opts.mode && "finish" in opts.mode) return finish(stack, opts.mode.finish, opts.out ?? opts.mode.finish, opts.retain);
  const config = await stackConfig(stack);
  const sources = { get: (key: string) => config[key], env: process.env };
  const problems = await apiProblems(sources);
  if (problems.length) throw new ImportError(problems.join("; "));
  const runtime = createRuntime();
  runtime.setSources(sources);
  const workspaceId = runtime.defaultWorkspace();
  if (!workspaceId) throw new ImportError("name the workspace to adopt: set svc:workspaceId (or SVC_WORKSPACE_ID)");
  const found = await discover(runtime, workspaceId, opts);
  if (!found.adopted.length) {
    const asked = [opts.kinds?.length ? `kinds ${opts.kinds.join(", ")}` : "", opts.names?.length ? `names ${opts.names.join(", ")}` : ""];
    const scope = asked.filter(Boolean).join(" and ") || "the kinds svc-import takes";
    process.stderr.write(`svc-import: nothing to import: workspace ${workspaceId} holds no object of ${scope}; nothing was written\n`);
    return 1;
  }
  summarize(found);
  if (opts.mode && "file" in opts.mode) {
    fs.writeFileSync(opts.mode.file, `${JSON.stringify(importFileOf(found), null, 2)}\n`);
    say(`wrote ${opts.mode.file}. Next, in the project directory (its Pulumi.yaml names the svc plugin):`);
    say(`  pulumi import --file ${opts.mode.file} --protect=false --out <program file> --yes`);
    say(`  npx svc-import --finish <program file>${opts.retain ? " --retain" : ""}`);
  } else if (opts.mode && "dynamic" in opts.mode) {
    fs.mkdirSync(opts.mode.dynamic, { recursive: true });
    const file = path.join(opts.mode.dynamic, "index.ts");
    fs.writeFileSync(file, dynamicProgram(found, { retain: opts.retain }));
    say(`wrote ${file}: the first pulumi up takes each resource in with its import option, writing nothing`);
  }
  secretsToSet(
    found.adopted.flatMap((a) =>
      a.secrets.map((s) => ({ key: s.key, sets: `${a.kind} ${a.name}: ${s.field}${s.mapKey ? `.${s.mapKey}` : ""}` })),
    ),
  );
  return 0;
}

function summarize(d: Discovery): void {
  const byKind = new Map<string, number>();
  for (const a of d.adopted) byKind.set(a.kind, (byKind.get(a.kind) ?? 0) + 1);
  const where = `workspace ${d.workspace.id}${d.workspace.name ? ` (${d.workspace.name})` : ""}`;
  say(`svc-import: ${where}: ${d.adopted.length} objects of ${byKind.size} kinds: ${[...byKind].map(([k, n]) => `${n} ${k}`).join(", ")}`);
  const references = d.adopted.reduce((n, a) => n + a.references.length, 0);
  say(`  ${references} references between them`);
  if (d.leftOut.length) {
    say(`  left out, ${d.leftOut.length}:`);
    for (const l of d.leftOut) say(`    ${l.kind} ${l.apiName ?? l.id}: ${l.why}`);
  }
  for (const l of d.literal) say(`  ${l.name}.${l.field} names ${l.kind} ${l.value}, which this import leaves out: kept as a literal id`);
}

function secretsToSet(secrets: Array<{ key: string; sets: string }>): void {
  if (!secrets.length) return;
  say("Set these config secrets (the API never reads them back, so they are not carried over):");
  for (const s of secrets) say(`  pulumi config set --secret ${s.key} <value>   # ${s.sets}`);
}

async function finish(stack: Stack, file: string, out: string, retain: boolean): Promise<number> {
  const language = languageOf(file);
  if (!language)
    throw new ImportError(`${file}: not a program svc-import knows (${LANGUAGES.map((l) => l.extensions.join(" ")).join(", ")})`);
  if (!fs.existsSync(file)) throw new ImportError(`${file}: no such file (pulumi import --out ${file} writes it)`);
  let state;
  try {
    state = await stack.export();
  } catch (err) {
    throw new ImportError(`cannot read the stack${stack.name ? ` ${stack.name}` : ""}: ${(err as Error).message.split("\n")[0]}`);
  }
  const imported = importedOf(state.deployment.resources ?? []);
  if (!imported.length) throw new ImportError("the stack holds no svc resource: run pulumi import --file first");
  const done = finishProgram(language, fs.readFileSync(file, "utf8"), imported, { retain });
  fs.writeFileSync(out, done.text);
  say(
    `svc-import: finished ${file}${out === file ? "" : ` into ${out}`} (${language.name}), from the ${imported.length} svc resources of the stack`,
  );
  say(
    `  references: ${done.native.length} written by pulumi import, ${done.added.length} added here${done.added.length ? `: ${done.added.join(", ")}` : ""}`,
  );
  for (const l of done.left) say(`  left literal: ${l}`);
  if (done.retained) say(`  retainOnDelete on ${done.retained} resources: pulumi destroy leaves them in the workspace`);
  secretsToSet(done.secrets);
  say("Then run pulumi up once: it changes nothing and writes nothing, and records the dependencies between the imported resources.");
  return 0;
}

/** Runs the command; resolves with the exit code (its one line of failure printed). */
export async function main(argv: string[]): Promise<number> {
  try {
    return await run(parseArgs(argv));
  } catch (err) {
    const message = err instanceof ImportError ? err.message : `${(err as Error).message ?? err}`;
    process.stderr.write(`svc-import: ${message}\n`);
    return 2;
  }
}

// The client keeps connections alive: exit once done rather than wait for them to close.
if (require.main === module) void main(process.argv.slice(2)).then((code) => process.exit(code));
