/**
 * The public `<Kind>Args` and `<Kind>Outputs` interfaces of each kind whose fields are declared
 * once (provider/fields.ts), generated into resources/generated/<module>.ts:
 *
 * - each property's TSDoc is `docOf(field)`: the field's doc, then what a change does, written from
 *   its policy (so the TSDoc users hover, the schema's description and diff cannot disagree);
 * - each property's type is what the TypeScript checker says the field's schema takes (Args, as a
 *   `pulumi.Input`) or gives (Outputs), optional where that includes `undefined`.
 *
 * Generated rather than a mapped type over the field set: declaration emit keeps a mapped type as
 * a reference to the field set, whose type is zod's, so the published `.d.ts` would lose the plain
 * interface users read today and reach zod. The same `.d.ts` as a hand-written interface, with
 * nothing to keep in step by hand.
 *
 *   npm run docs            rewrite the generated files (scripts/classes.ts writes them)
 *   (tests/unit/fieldTypes.test.ts fails when one is out of date)
 *
 * `npm run docs` compiles once without stopping at type errors before running this: a kind's
 * first generated file does not exist yet, and its resource file imports it.
 */
import * as ts from "typescript";
import { docOf, type Field, type FieldSet } from "../provider/fields";
import { kinds, moduleOf, sourceFileOf, specFor } from "../resources/registry";
import { exportOf, sourceFile } from "./schema";

/** The kinds whose fields are declared once (the others still declare their Args by hand). */
export const kindsWithFields = () => kinds().filter((kind) => specFor(kind).fields);

const membersOf = (type: ts.Type): readonly ts.Type[] => (type.isUnion() ? type.types : [type]);
const FLAGS = ts.TypeFormatFlags.NoTruncation | ts.TypeFormatFlags.UseAliasDefinedOutsideCurrentScope;

/**
 * A type as users write it. `input`: inside Args, where each array element and map value is
 * itself a `pulumi.Input` (a program passes outputs inside lists and maps).
 */
function render(checker: ts.TypeChecker, types: readonly ts.Type[], input: boolean): string {
  // null last, as people write `string | null` (the checker lists it first).
  const members = [...types.filter((t) => !(t.flags & ts.TypeFlags.Null)), ...types.filter((t) => t.flags & ts.TypeFlags.Null)];
  // The checker keeps `boolean` as `false | true`: said as users write it, where its first half stands.
  const both = members.filter((t) => t.flags & ts.TypeFlags.BooleanLiteral).length === 2;
  let saidBoolean = false;
  const texts: string[] = [];
  for (const t of members) {
    if (both && t.flags & ts.TypeFlags.BooleanLiteral) {
      if (!saidBoolean) texts.push("boolean");
      saidBoolean = true;
    } else texts.push(renderOne(checker, t, input));
  }
  return texts.join(" | ");
}

function renderOne(checker: ts.TypeChecker, type: ts.Type, input: boolean): string {
  if (input && checker.isArrayType(type)) {
    const [element] = checker.getTypeArguments(type as ts.TypeReference);
    return `pulumi.Input<${render(checker, membersOf(element), input)}>[]`;
  }
  const value =
    type.flags & ts.TypeFlags.Object && !checker.getPropertiesOfType(type).length && checker.getIndexTypeOfType(type, ts.IndexKind.String);
  if (input && value) return `Record<string, pulumi.Input<${render(checker, membersOf(value), input)}>>`;
  // Objects with declared fields print inline: a nested field set with its own named interface is the next step.
  // The checker ends an inline object's last member with "; }", prettier (lint) with " }".
  return checker.typeToString(type, undefined, FLAGS).replace(/; }/g, " }");
}

/** A property's type text, `undefined` left out (it makes the property optional instead). */
function typeText(checker: ts.TypeChecker, type: ts.Type, input: boolean): { text: string; optional: boolean } {
  // An output type given explicitly (`input<S, true, T>`) reaches here as `NoInfer<T>`: said as T.
  const members = membersOf(type.flags & ts.TypeFlags.Substitution ? (type as ts.SubstitutionType).baseType : type);
  const defined = members.filter((t) => !(t.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Void)));
  return { text: render(checker, defined, input) || "unknown", optional: defined.length < members.length };
}

/** The type-only member (`__input`, `__output`) of each field of the exported `<module>Fields`. */
function memberTypes(program: ts.Program, kind: string): (field: string, member: "__input" | "__output") => ts.Type {
  const checker = program.getTypeChecker();
  const name = `${moduleOf(kind)}Fields`;
  const set = checker.getTypeOfSymbol(exportOf(checker, sourceFile(program, sourceFileOf(kind)), name));
  return (field, member) => {
    const fieldSymbol = checker.getPropertyOfType(set, field);
    const memberSymbol = fieldSymbol && checker.getPropertyOfType(checker.getTypeOfSymbol(fieldSymbol), member);
    if (!memberSymbol) throw new Error(`${sourceFileOf(kind)}: ${name}.${field} has no ${member}`);
    return checker.getTypeOfSymbol(memberSymbol);
  };
}

/** Whether a list of type arguments has more than one (a comma outside any brackets). */
function hasTopLevelComma(text: string): boolean {
  let depth = 0;
  for (const c of text) {
    if ("<({[".includes(c)) depth++;
    else if (">)}]".includes(c)) depth--;
    else if (c === "," && depth === 0) return true;
  }
  return false;
}

/**
 * A property as prettier writes it (lint's `prettier --check` reads the generated files): on one
 * line when it fits the repository's 140 columns, else a type `Outer<Inner>` broken around its one
 * argument, as prettier breaks it. A longer type is refused rather than written unformatted.
 */
function property(head: string, type: string): string[] {
  const line = `  ${head}: ${type};`;
  if (line.length <= 140) return [line];
  const [, outer, inner] = /^([\w.]+)<(.*)>$/.exec(type) ?? [];
  if (inner !== undefined && !hasTopLevelComma(inner) && `    ${inner}`.length <= 140)
    return [`  ${head}: ${outer}<`, `    ${inner}`, "  >;"];
  throw new Error(`${head}: the type ${type} is too long for a line of the generated file; declare the field with a shorter one`);
}

function tsdoc(field: Field, indent: string): string {
  const doc = docOf(field);
  if (doc.includes("*/")) throw new Error(`a field's doc cannot contain "*/": ${doc}`);
  return `${indent}/** ${doc} */`;
}

/**
 * The `<Kind>Args` and `<Kind>Outputs` interfaces of a kind whose fields are declared once, as
 * lines of its generated file (scripts/classes.ts writes them above the class).
 */
export function fieldInterfaces(program: ts.Program, kind: string): string[] {
  const checker = program.getTypeChecker();
  const fields = specFor(kind).fields as FieldSet;
  const typeOf = memberTypes(program, kind);
  const all = Object.entries(fields);
  // Args: the kind's own inputs, then workspaceId (where it was when WorkspaceScopedArgs declared it).
  const inputs = [...all.filter(([, f]) => f.role === "input"), ...all.filter(([, f]) => f.role === "workspace")];
  const outputs = all.filter(([, f]) => f.role !== "input" || f.output);
  const args = inputs.map(([name, field]) => {
    const { text, optional } = typeText(checker, typeOf(name, "__input"), true);
    return [tsdoc(field, "  "), ...property(`${name}${optional ? "?" : ""}`, `pulumi.Input<${text}>`)];
  });
  // A synthetic id (a membership's "<a>:<b>") says its form where adoptId is documented, before workspaceId as it was declared.
  const { adoptIdDoc } = specFor(kind);
  if (adoptIdDoc)
    args.splice(args.length - inputs.filter(([, f]) => f.role === "workspace").length, 0, [
      `  /** ${adoptIdDoc} */`,
      "  adoptId?: pulumi.Input<string>;",
    ]);
  const outs = outputs.map(([name, field]) => {
    const { text, optional } = typeText(checker, typeOf(name, "__output"), false);
    return [tsdoc(field, "  "), ...property(`${name}${optional ? "?" : ""}`, text)];
  });
  return [
    `/** The arguments of a \`${kind}\`. */`,
    `export interface ${kind}Args extends CommonArgs {`,
    ...args.flat(),
    "}",
    "",
    `/** What a \`${kind}\` records: its outputs, each also a typed property of the class. */`,
    `export interface ${kind}Outputs extends Record<string, unknown> {`,
    ...outs.flat(),
    "}",
    "",
  ];
}
