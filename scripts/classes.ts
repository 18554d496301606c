/**
 * The exported resource classes, generated into resources/generated/<module>.ts from what each
 * kind declares once: its kind and `doc` (the spec), its output names (the fields of its public
 * `<Kind>Outputs`, in order), its secret outputs (the spec's `secretOutputs`) and the inputs among
 * them (fields of `<Kind>Args`, made secret in state whatever the caller passed), and any input a
 * program settles itself (resources/inProgram.ts).
 *
 * A generated class holds these as literals and imports only the SDK, provider/resource.ts (with
 * the shim) and, as types, the kind's interfaces: a program that declares resources never loads a
 * spec, zod or the lifecycle; the provider process loads those by kind (resources/registry.ts).
 *
 *   npm run docs            rewrite the generated classes (and index.ts, the README's table)
 *   (tests/unit/docs.test.ts fails when one is out of date)
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as ts from "typescript";
import { declaredInputs, outputNamesOf, type FieldSet } from "../provider/fields";
import { inProgram } from "../resources/inProgram";
import { kinds, moduleOf, sourceFileOf, specFor } from "../resources/registry";
import { fieldInterfaces } from "./fieldTypes";
import { exportOf, loadProgram, sourceFile } from "./schema";

const REPO = path.resolve(__dirname, "..", __dirname.includes(`${path.sep}dist${path.sep}`) ? ".." : "");

/** Where a kind's generated class lives (relative to the repository). */
export const classFileOf = (kind: string) => `resources/generated/${moduleOf(kind)}.ts`;

/** The property names of an interface a kind's file exports, in declaration order. */
function propertyNames(program: ts.Program, kind: string, name: string): string[] {
  const checker = program.getTypeChecker();
  const symbol = exportOf(checker, sourceFile(program, sourceFileOf(kind)), name);
  return checker.getPropertiesOfType(checker.getDeclaredTypeOfSymbol(symbol)).map((p) => p.getName());
}

/**
 * `  key: [...],` as prettier writes it (lint's `prettier --check` reads the generated files): on
 * one line when it fits the repository's 140 columns, else one name per line.
 */
function listMember(key: string, names: readonly string[]): string[] {
  const quoted = names.map((n) => JSON.stringify(n));
  const line = `  ${key}: [${quoted.join(", ")}],`;
  return line.length <= 140 ? [line] : [`  ${key}: [`, ...quoted.map((q) => `    ${q},`), "  ],"];
}

/**
 * What the class registers and marks secret: for a kind whose fields are declared once, from its
 * field set; otherwise from its hand-written `<Kind>Args` and `<Kind>Outputs`.
 */
function namesOf(program: ts.Program, kind: string): { inputs: Set<string>; outputs: string[] } {
  const fields = specFor(kind).fields as FieldSet | undefined;
  if (fields) return { inputs: new Set(declaredInputs(fields).map(([k]) => k)), outputs: outputNamesOf(fields) };
  return { inputs: new Set(propertyNames(program, kind, `${kind}Args`)), outputs: propertyNames(program, kind, `${kind}Outputs`) };
}

/** The generated file of one kind: its Args and Outputs where its fields are declared once, and its class. */
export function renderClass(program: ts.Program, kind: string): string {
  const spec = specFor(kind);
  const module = moduleOf(kind)!;
  const fields = Boolean(spec.fields);
  const { inputs, outputs } = namesOf(program, kind);
  const secretOutputs = spec.secretOutputs ?? [];
  const settles = kind in inProgram;
  if (spec.doc.includes("*/")) throw new Error(`${kind}'s doc cannot contain "*/"`);
  return [
    `/** Generated from ${sourceFileOf(kind)} by \`npm run docs\` (scripts/classes.ts): do not edit. */`,
    'import type * as pulumi from "@pulumi/pulumi";',
    'import { Resource as DynamicResource } from "@pulumi/pulumi/dynamic";',
    `import { type ClassShape, ${fields ? "type CommonArgs, " : ""}type OutputProperties, superArgs } from "../../provider/resource";`,
    ...(settles ? ['import { inProgram } from "../inProgram";'] : []),
    ...(fields ? [] : [`import type { ${kind}Args, ${kind}Outputs } from "../${module}";`]),
    "",
    ...(fields ? fieldInterfaces(program, kind) : []),
    "const SHAPE: ClassShape = {",
    `  kind: ${JSON.stringify(kind)},`,
    ...listMember("outputs", outputs),
    ...listMember("secretOutputs", secretOutputs),
    ...listMember(
      "secretInputs",
      secretOutputs.filter((k) => inputs.has(k)),
    ),
    "};",
    "",
    `/** ${spec.doc} */`,
    `export class ${kind} extends DynamicResource {`,
    `  constructor(name: string, args: ${kind}Args, opts?: pulumi.CustomResourceOptions) {`,
    `    super(...superArgs(SHAPE, name, ${settles ? `inProgram.${kind}(args)` : "args"}, opts));`,
    "  }",
    "}",
    "",
    `/** Typed properties: one \`Output\` per field of \`${kind}Outputs\`. */`,
    `export interface ${kind} extends OutputProperties<${kind}Outputs> {}`,
    "",
  ].join("\n");
}

if (require.main === module) {
  const { program } = loadProgram();
  fs.mkdirSync(path.join(REPO, "resources", "generated"), { recursive: true });
  for (const kind of kinds()) fs.writeFileSync(path.join(REPO, classFileOf(kind)), renderClass(program, kind));
  console.log(`resources/generated: ${kinds().length} classes regenerated`);
}
