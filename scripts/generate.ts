/**
 * `npm run generate`: every file generated from the kinds' field sets and the lookups, in one
 * pass, stopping at the first compiler error:
 *
 *   1. resources/generated/<module>.ts (scripts/classes.ts) and index.ts (scripts/exports.ts),
 *      from the sources as they are, type errors and all (a new kind's resource file imports a
 *      generated file that does not exist yet: this process runs under ts-node without type-checking);
 *   2. the build (`tsc -p tsconfig.build.json`), which must now pass: any compiler error stops here;
 *   3. schema.json (scripts/schema.ts), from the program as written in step 1;
 *   4. the reference pages (scripts/docsPages.ts), the generated sections of docs/_index.md (the
 *      lists of pages, the reference table: scripts/reference.ts) and the provider's settings table
 *      in docs/installation-configuration.md;
 *   5. the SDKs under sdk/ (scripts/sdks.sh, which needs the pulumi CLI; `--no-sdks` skips it).
 *
 * `generatedFiles()` is the one entry point that says what each file should hold: this command
 * writes it, and tests/unit/generated.test.ts fails when any committed file differs from it (the
 * SDKs' staleness is tests/e2e/sdks.test.ts: it needs the CLI).
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import type * as ts from "typescript";
import { kinds } from "../resources/kinds";
import { classFileOf, renderClass } from "./classes";
import { docsPages, lookupPagesList, type PackageSchema, resourcePagesList, settingsTable } from "./docsPages";
import { renderIndex } from "./exports";
import { referenceTable } from "./reference";
import { generateSchema, loadProgram } from "./schema";

const REPO = path.resolve(__dirname, "..", __dirname.includes(`${path.sep}dist${path.sep}`) ? ".." : "");

/** Where the generated sections live (between `<!-- <name>:start -->` and `<!-- <name>:end -->`). */
export const INDEX_PAGE = "docs/_index.md";
/** Where the provider's settings table lives. */
export const INSTALL_PAGE = "docs/installation-configuration.md";

/** A text with the section between `<!-- <name>:start -->` and `<!-- <name>:end -->` replaced. */
export function withSection(text: string, name: string, content: string, file: string): string {
  const [start, end] = [`<!-- ${name}:start -->`, `<!-- ${name}:end -->`];
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from < 0 || to < from) throw new Error(`${file} lacks the ${start} ... ${end} markers`);
  return `${text.slice(0, from + start.length)}\n${content}\n${text.slice(to)}`;
}

const read = (file: string) => fs.readFileSync(path.join(REPO, file), "utf8");

/** The generated classes and index.ts, from a program over the sources as they are. */
export function codeFiles(program: ts.Program): Map<string, string> {
  const files = new Map<string, string>();
  for (const kind of kinds()) files.set(classFileOf(kind), renderClass(program, kind));
  files.set("index.ts", renderIndex());
  return files;
}

/** schema.json, the reference pages and docs/_index.md, from a program whose generated code is current. */
export function documentFiles(program?: ts.Program): Map<string, string> {
  const schema = generateSchema(program);
  const files = new Map<string, string>([["schema.json", `${JSON.stringify(schema, null, 2)}\n`]]);
  for (const [file, text] of docsPages(schema as unknown as PackageSchema)) files.set(file, text);
  let index = read(INDEX_PAGE);
  index = withSection(index, "resource-pages", resourcePagesList(schema as unknown as PackageSchema), INDEX_PAGE);
  index = withSection(index, "lookup-pages", lookupPagesList(schema as unknown as PackageSchema), INDEX_PAGE);
  index = withSection(index, "reference", referenceTable(), INDEX_PAGE);
  files.set(INDEX_PAGE, index);
  files.set(INSTALL_PAGE, withSection(read(INSTALL_PAGE), "settings", settingsTable(schema as unknown as PackageSchema), INSTALL_PAGE));
  return files;
}

/**
 * Every generated file (but the SDKs) as a fresh generation writes it. Computed over the committed
 * sources in one program: when the committed generated code is current (which this checks too), the
 * schema read from it is the one a fresh generation would read.
 */
export function generatedFiles(): Map<string, string> {
  const { program } = loadProgram();
  return new Map([...codeFiles(program), ...documentFiles(program)]);
}

/** The directories whose every file is generated: a file no generation writes there is stale. */
export const GENERATED_DIRS = ["resources/generated", "docs/resources", "docs/lookups"];

/** Writes the files, and removes from the generated directories they write into any file they do not hold (a removed kind's). */
function write(files: Map<string, string>): void {
  const written = [...files.keys()];
  for (const dir of GENERATED_DIRS.filter((d) => written.some((f) => f.startsWith(`${d}/`)) && fs.existsSync(path.join(REPO, d)))) {
    for (const f of fs.readdirSync(path.join(REPO, dir))) if (!files.has(`${dir}/${f}`)) fs.rmSync(path.join(REPO, dir, f));
  }
  for (const [file, text] of files) {
    fs.mkdirSync(path.dirname(path.join(REPO, file)), { recursive: true });
    fs.writeFileSync(path.join(REPO, file), text);
  }
}

function run(step: string, command: string, args: string[]): void {
  const started = Date.now();
  const result = spawnSync(command, args, { cwd: REPO, stdio: "inherit" });
  if (result.status !== 0) {
    console.error(`generate: ${step} failed (exit ${result.status ?? result.signal}); nothing after it was generated`);
    process.exit(1);
  }
  console.log(`generate: ${step} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
}

function main(): void {
  const started = Date.now();
  const code = codeFiles(loadProgram().program);
  write(code);
  console.log(`generate: ${kinds().length} classes and index.ts`);
  run("build", process.execPath, [require.resolve("typescript/bin/tsc"), "-p", "tsconfig.build.json"]);
  const docs = documentFiles();
  write(docs);
  console.log(`generate: schema.json, ${[...docs.keys()].filter((f) => f.startsWith("docs/")).length} docs pages`);
  if (!process.argv.includes("--no-sdks")) run("SDKs", "bash", ["scripts/sdks.sh"]);
  console.log(`generate: done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

if (require.main === module) main();
