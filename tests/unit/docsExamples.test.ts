/**
 * The examples the reference pages show (docs/examples, scripts/docsPages.ts) are checked, not
 * prose: each TypeScript example compiles against the package as a program imports it (the
 * repository's tsconfig maps `pulumi-svc` to index.ts), and each YAML example names types,
 * properties, functions and their arguments the plugin's schema.json declares, with every
 * required input set and every `${...}` reference pointing at something the file declares.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as ts from "typescript";
import { parse } from "yaml";
import { kinds, moduleOf } from "../../resources/kinds";
import { EXAMPLES_DIR, lookupsOf, type PackageSchema } from "../../scripts/docsPages";

jest.setTimeout(120_000);

const REPO = path.join(__dirname, "..", "..");
const DIR = path.join(REPO, EXAMPLES_DIR);
const schema = JSON.parse(fs.readFileSync(path.join(REPO, "schema.json"), "utf8")) as PackageSchema & {
  resources: Record<string, { requiredInputs?: string[] }>;
};
const examples = fs.readdirSync(DIR).sort();
const bases = [...kinds().map((k) => moduleOf(k)!), ...lookupsOf(schema)];

describe("docs/examples", () => {
  it("holds a TypeScript and a YAML example for every resource and lookup, and nothing else", () => {
    expect(examples).toEqual(bases.flatMap((b) => [`${b}.ts`, `${b}.yaml`]).sort());
  });

  it("TypeScript examples compile against the package", () => {
    const configPath = path.join(REPO, "tsconfig.json");
    const config = ts.parseJsonConfigFileContent(ts.readConfigFile(configPath, ts.sys.readFile).config, ts.sys, REPO);
    const files = examples.filter((f) => f.endsWith(".ts")).map((f) => path.join(DIR, f));
    const program = ts.createProgram(files, { ...config.options, noEmit: true });
    // The examples' own diagnostics: the package they import is type-checked by npm run lint, and
    // checking it again here, as getPreEmitDiagnostics does, took two thirds of this file's time.
    const errors = [...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics()]
      .concat(
        files.flatMap((f) => [
          ...program.getSyntacticDiagnostics(program.getSourceFile(f)),
          ...program.getSemanticDiagnostics(program.getSourceFile(f)),
        ]),
      )
      .map((d) => ts.formatDiagnostic(d, { getCanonicalFileName: (f) => f, getCurrentDirectory: () => REPO, getNewLine: () => "\n" }));
    expect(errors).toEqual([]);
    // Each example is the program a reader copies: it imports the package by its published name.
    for (const f of files) expect(fs.readFileSync(f, "utf8")).toContain('import * as svc from "pulumi-svc";');
  });

  describe.each(bases)("%s.yaml", (base) => {
    const doc = parse(fs.readFileSync(path.join(DIR, `${base}.yaml`), "utf8")) as {
      config?: Record<string, unknown>;
      variables?: Record<string, { "fn::invoke"?: { function: string; arguments?: Record<string, unknown>; return?: string } }>;
      resources?: Record<string, { type: string; properties?: Record<string, unknown> }>;
    };
    const resources = doc.resources ?? {};
    const variables = doc.variables ?? {};

    it("declares the page's resource or calls its lookup", () => {
      const isKind = kinds().some((k) => moduleOf(k) === base);
      if (isKind) expect(Object.values(resources).map((r) => r.type)).toContain(`svc:index:${kinds().find((k) => moduleOf(k) === base)}`);
      else expect(Object.values(variables).map((v) => v["fn::invoke"]?.function)).toContain(`svc:index:${base}`);
    });

    it("names only what schema.json declares, with every required input", () => {
      for (const [name, r] of Object.entries(resources)) {
        const declared = schema.resources[r.type];
        expect({ name, type: r.type, known: Boolean(declared) }).toEqual({ name, type: r.type, known: true });
        const props = Object.keys(r.properties ?? {});
        expect(props.filter((p) => !(p in declared.inputProperties))).toEqual([]);
        expect((declared.requiredInputs ?? []).filter((p) => !props.includes(p))).toEqual([]);
      }
      for (const v of Object.values(variables)) {
        const invoke = v["fn::invoke"];
        if (!invoke) continue;
        const fn = schema.functions[invoke.function];
        expect({ function: invoke.function, known: Boolean(fn) }).toEqual({ function: invoke.function, known: true });
        const args = Object.keys(invoke.arguments ?? {});
        expect(args.filter((a) => !(a in (fn.inputs?.properties ?? {})))).toEqual([]);
        expect((fn.inputs?.required ?? []).filter((a) => !args.includes(a))).toEqual([]);
        if (invoke.return) expect(Object.keys(fn.outputs.properties)).toContain(invoke.return);
      }
    });

    it("refers only to what it declares, and to properties they have", () => {
      const text = fs.readFileSync(path.join(DIR, `${base}.yaml`), "utf8");
      for (const [, name, prop] of text.matchAll(/\$\{([\w-]+)(?:\.(\w+))?/g)) {
        if (doc.config && name in doc.config) continue;
        const r = resources[name];
        const v = variables[name]?.["fn::invoke"];
        expect({ name, declared: Boolean(r || v) }).toEqual({ name, declared: true });
        if (!prop) continue;
        const names = r
          ? ["id", "urn", ...Object.keys(schema.resources[r.type].properties)]
          : v!.return
            ? []
            : Object.keys(schema.functions[v!.function].outputs.properties);
        expect({ name, prop, known: names.includes(prop) }).toEqual({ name, prop, known: true });
      }
    });
  });
});
