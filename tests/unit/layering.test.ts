/**
 * The house's layers (ARCHITECTURE.md, the map), read from every module's imports: static `import`
 * and `export ... from`, `require("...")` and `import("...")` of a relative path, type-only ones
 * included (a type names what it comes from as much as a value does). Three rules, each a table:
 * a module imports from its own layer or below; the lifecycle and what it stands on know no face;
 * provider/'s modules, as files and as folders, import each other without a cycle. A new file in
 * provider/ must find its row.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import * as ts from "typescript";

const REPO = path.join(__dirname, "..", "..");

/**
 * The layers, top to bottom; a module's layer is the first row naming a prefix of its path. Files
 * of no row (tests/, docs/, examples/, packages/) stand outside the layering.
 */
const LAYERS: Array<[layer: string, paths: string[]]> = [
  ["the faces and the tools", ["index.ts", "dynamic/", "plugin/", "importer/", "recover/", "policy/", "scripts/", "bench/"]],
  ["what the tools share", ["common/"]],
  ["the resources", ["resources/"]],
  ["the dynamic face's support", ["provider/dynamic/"]],
  ["what each face's configure sets up", ["provider/configure/"]],
  ["the lifecycle", ["provider/lifecycle/"]],
  ["a definition and an operation's context", ["provider/definition.ts", "provider/context.ts", "provider/metering.ts"]],
  ["the client and the fields", ["provider/client/", "provider/fields/"]],
  ["the process's settings, the engine's presence, progress", ["provider/runtime/"]],
  ["the facts every layer reads", ["provider/errors.ts", "provider/packageName.ts", "provider/typeTokens.ts"]],
];

/** Modules that know no face: none imports the dynamic face's support (issue 45). */
const FACELESS: Array<[modules: string, face: string]> = [
  ["provider/lifecycle/", "provider/dynamic/"],
  ["provider/configure/", "provider/dynamic/"],
  ["provider/client/", "provider/dynamic/"],
  ["provider/fields/", "provider/dynamic/"],
  ["provider/runtime/", "provider/dynamic/"],
];

/** The grains at which provider/ has no import cycle: a module is a file, or a folder (a file at provider/'s root is its own). */
const GRAINS: Array<[grain: string, moduleOf: (file: string) => string]> = [
  ["file", (file) => file],
  ["folder", (file) => file.split("/").slice(0, 2).join("/")],
];

const sources = execFileSync("git", ["ls-files", "-z", "*.ts"], { cwd: REPO, encoding: "utf8" })
  .split("\0")
  .filter((file) => file && !file.endsWith(".d.ts"));

/** Where a relative specifier leads from `file`: a .ts file, a folder's index.ts, or the path as written. */
function resolved(file: string, specifier: string): string {
  const base = path.posix.join(path.posix.dirname(file), specifier);
  return [`${base}.ts`, `${base}/index.ts`].find((f) => fs.existsSync(path.join(REPO, f))) ?? base;
}

/** Every module each file imports, by path. */
const imports: Array<[from: string, to: string]> = sources.flatMap((file) =>
  ts
    .preProcessFile(fs.readFileSync(path.join(REPO, file), "utf8"), true, true)
    .importedFiles.filter(({ fileName }) => fileName.startsWith("."))
    .map(({ fileName }): [string, string] => [file, resolved(file, fileName)]),
);

const layerOf = (file: string): number => LAYERS.findIndex(([, paths]) => paths.some((p) => file === p || file.startsWith(p)));

/** The cycles among modules: each as its path, first module last again. */
function cycles(edges: Array<[string, string]>): string[] {
  const next = new Map<string, Set<string>>();
  for (const [from, to] of edges) if (from !== to) next.set(from, (next.get(from) ?? new Set()).add(to));
  const found: string[] = [];
  const done = new Set<string>();
  const visit = (module: string, trail: string[]) => {
    if (trail.includes(module)) return found.push([...trail.slice(trail.indexOf(module)), module].join(" → "));
    if (done.has(module)) return;
    for (const to of next.get(module) ?? []) visit(to, [...trail, module]);
    done.add(module);
  };
  for (const module of next.keys()) visit(module, []);
  return found;
}

describe("the layers", () => {
  it("reads the imports of every module", () => {
    expect(imports.length).toBeGreaterThan(1000);
  });

  it("gives every file in provider/ a layer, and every row a file", () => {
    expect(sources.filter((file) => file.startsWith("provider/") && layerOf(file) < 0)).toEqual([]);
    expect(LAYERS.flatMap(([, paths]) => paths).filter((p) => !sources.some((file) => file === p || file.startsWith(p)))).toEqual([]);
  });

  it("no module imports from a layer above its own", () => {
    const upward = imports
      .filter(([from, to]) => layerOf(from) >= 0 && layerOf(to) >= 0 && layerOf(to) < layerOf(from))
      .map(([from, to]) => `${from} (${LAYERS[layerOf(from)][0]}) imports ${to} (${LAYERS[layerOf(to)][0]})`);
    expect(upward).toEqual([]);
  });

  it.each(FACELESS)("nothing under %s imports %s", (modules, face) => {
    expect(imports.filter(([from, to]) => from.startsWith(modules) && to.startsWith(face))).toEqual([]);
  });

  it.each(GRAINS)("provider/'s modules, each a %s, import each other without a cycle", (_grain, moduleOf) => {
    const within = imports.filter(([from, to]) => from.startsWith("provider/") && to.startsWith("provider/"));
    expect(cycles(within.map(([from, to]) => [moduleOf(from), moduleOf(to)]))).toEqual([]);
  });
});
