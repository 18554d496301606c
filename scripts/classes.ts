/**
 * The exported resource classes, generated into resources/generated/<module>.ts from what each
 * kind declares once: its kind and `doc` (the definition), its output names (its output fields, in
 * order), its secret outputs (the definition's `secretOutputs`) and the declared inputs among them
 * (made secret in state whatever the caller passed), and any input a program settles itself
 * (resources/inProgram.ts). Above the class, its `<Kind>Args` and `<Kind>Outputs` (scripts/fieldTypes.ts).
 *
 * A generated class holds these as literals and imports only the SDK, provider/dynamic/classSupport.ts (with
 * the `__provider` text) and, as types, the kind's interfaces: a program that declares resources never loads a
 * definition, zod or the lifecycle; the provider process loads those by kind (resources/kinds.ts).
 *
 *   npm run generate        rewrite the generated classes, with every other generated file
 *   (tests/unit/generated.test.ts fails when one is out of date)
 */
import type * as ts from "typescript";
import { declaredInputs, outputNamesOf } from "../provider/fields/declare";
import { inProgram } from "../resources/inProgram";
import { moduleOf, sourceFileOf, definitionOf } from "../resources/kinds";
import { fieldInterfaces } from "./fieldTypes";

/** Where a kind's generated class lives (relative to the repository). */
export const classFileOf = (kind: string) => `resources/generated/${moduleOf(kind)}.ts`;

/**
 * `  key: [...],` as prettier writes it (lint's `prettier --check` reads the generated files): on
 * one line when it fits the repository's 140 columns, else one name per line.
 */
function listMember(key: string, names: readonly string[]): string[] {
  const quoted = names.map((n) => JSON.stringify(n));
  const line = `  ${key}: [${quoted.join(", ")}],`;
  return line.length <= 140 ? [line] : [`  ${key}: [`, ...quoted.map((q) => `    ${q},`), "  ],"];
}

/** The generated file of one kind: its Args and Outputs, from its fields, and its class. */
export function renderClass(program: ts.Program, kind: string): string {
  const definition = definitionOf(kind);
  // What the class registers and marks secret: its output fields, and the declared inputs among the secrets.
  const inputs = new Set(declaredInputs(definition.fields).map(([k]) => k));
  const outputs = outputNamesOf(definition.fields);
  const secretOutputs = definition.secretOutputs ?? [];
  const settles = kind in inProgram;
  if (definition.doc.includes("*/")) throw new Error(`${kind}'s doc cannot contain "*/"`);
  const interfaces = fieldInterfaces(program, kind);
  // A field the spec types integer is written `Integer` or `WideInteger` (provider/fields/integer.ts): imported where one is.
  const code = interfaces.filter((line) => !line.trimStart().startsWith("/**"));
  const integers = ["Integer", "WideInteger"].filter((name) => code.some((line) => new RegExp(`\\b${name}\\b`).test(line)));
  return [
    `/** Generated from ${sourceFileOf(kind)} by \`npm run generate\` (scripts/classes.ts): do not edit. */`,
    'import type * as pulumi from "@pulumi/pulumi";',
    'import { CustomResource } from "@pulumi/pulumi/resource";',
    'import { type ClassShape, type CommonArgs, type OutputProperties, superArgs } from "../../provider/dynamic/classSupport";',
    ...(integers.length ? [`import type { ${integers.join(", ")} } from "../../provider/fields/integer";`] : []),
    ...(settles ? ['import { inProgram } from "../inProgram";'] : []),
    "",
    ...interfaces,
    "const SHAPE: ClassShape = {",
    `  kind: ${JSON.stringify(kind)},`,
    ...(definition.autonamed ? ["  autonamed: true,"] : []),
    ...listMember("outputs", outputs),
    ...listMember("secretOutputs", secretOutputs),
    ...listMember(
      "secretInputs",
      secretOutputs.filter((k) => inputs.has(k)),
    ),
    "};",
    "",
    `/** ${definition.doc} */`,
    `export class ${kind} extends CustomResource {`,
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
