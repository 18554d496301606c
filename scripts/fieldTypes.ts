/**
 * The public `<Kind>Args` and `<Kind>Outputs` interfaces of each kind, from its fields
 * (provider/fields/declare.ts), generated into resources/generated/<module>.ts:
 *
 * - each property's TSDoc is `docOf(field)`: the field's doc, then what a change does, written from
 *   its effect (so the TSDoc users hover, the schema's description and diff cannot disagree);
 * - each property's type is what the TypeScript checker says the field's schema takes (Args, as a
 *   `pulumi.Input`) or gives (Outputs), optional where that includes `undefined`.
 *
 * Generated rather than a mapped type over the field set: declaration emit keeps a mapped type as
 * a reference to the field set, whose type is zod's, so the published `.d.ts` would lose the plain
 * interface users read today and reach zod. The same `.d.ts` as a hand-written interface, with
 * nothing to keep in step by hand.
 *
 *   npm run generate        rewrite the generated files (scripts/classes.ts renders them)
 *   (tests/unit/generated.test.ts fails when one is out of date)
 *
 * `npm run generate` runs this from the sources without type-checking them first (ts-node): a
 * kind's first generated file does not exist yet, and its resource file imports it.
 */
import * as ts from "typescript";
import * as path from "node:path";
import { declaredInputs } from "../provider/fields/declare";
import { type Nested, type Variants } from "../provider/fields/objectInputs";
import { docOf } from "../provider/fields/sentences";
import { moduleOf, sourceFileOf, definitionOf } from "../resources/kinds";
import { exportOf, sourceFile } from "./schema";

const membersOf = (type: ts.Type): readonly ts.Type[] => (type.isUnion() ? type.types : [type]);
const FLAGS = ts.TypeFormatFlags.NoTruncation | ts.TypeFormatFlags.UseAliasDefinedOutsideCurrentScope;

/** Which interface a type is written for: a kind's Args (what a program passes) or its Outputs. */
type Side = "args" | "outputs";

/** A nested object of a kind (provider/fields/objectInputs.ts `nested`) as the checker sees it, for the side being written. */
interface NestedType {
  readonly name?: string;
  readonly type: ts.Type;
  /** Written inline (no name) with each member a `pulumi.Input` (the Args side of `inputMembers`). */
  readonly inputMembers?: boolean;
}

/** A variants union of a kind (provider/fields/objectInputs.ts `variants`): its name and its shapes, for the side being written. */
interface VariantsType {
  readonly name: string;
  readonly shapes: readonly ts.Type[];
}

/** How the types of one side of a kind are written: nested objects and variants unions by their names. */
interface Writer {
  readonly checker: ts.TypeChecker;
  readonly side: Side;
  readonly nested: readonly NestedType[];
  readonly variants: readonly VariantsType[];
}

/**
 * A type as users write it. `wrap`: inside a kind's Args, where each array element and map value is
 * itself a `pulumi.Input` (a program passes outputs inside lists and maps).
 */
function render(w: Writer, types: readonly ts.Type[], wrap: boolean): string {
  return renderParts(w, types, wrap).join(" | ");
}

/** The members of a union as written, each once (`boolean` for `false | true`). */
function renderParts(w: Writer, types: readonly ts.Type[], wrap: boolean): string[] {
  const { checker } = w;
  const same = (a: ts.Type, b: ts.Type) => checker.isTypeAssignableTo(a, b) && checker.isTypeAssignableTo(b, a);
  // A variants union by its name, where every one of its shapes is among the members.
  const named = w.variants.filter((v) => v.shapes.every((shape) => types.some((t) => same(t, shape))));
  const rest = types.filter((t) => !named.some((v) => v.shapes.some((shape) => same(t, shape))));
  // null last, as people write `string | null` (the checker lists it first).
  const members = [...rest.filter((t) => !(t.flags & ts.TypeFlags.Null)), ...rest.filter((t) => t.flags & ts.TypeFlags.Null)];
  // The checker keeps `boolean` as `false | true`: said as users write it, where its first half stands.
  const both = members.filter((t) => t.flags & ts.TypeFlags.BooleanLiteral).length === 2;
  let saidBoolean = false;
  const texts: string[] = named.map((v) => v.name);
  for (const t of members) {
    if (both && t.flags & ts.TypeFlags.BooleanLiteral) {
      if (!saidBoolean) texts.push("boolean");
      saidBoolean = true;
    } else texts.push(renderOne(w, t, wrap));
  }
  return texts;
}

function renderOne(w: Writer, type: ts.Type, wrap: boolean): string {
  const { checker } = w;
  if (checker.isArrayType(type)) {
    const [element] = checker.getTypeArguments(type as ts.TypeReference);
    const parts = renderParts(w, membersOf(element), wrap);
    if (wrap) return `pulumi.Input<${parts.join(" | ")}>[]`;
    return parts.length > 1 ? `(${parts.join(" | ")})[]` : `${parts[0]}[]`;
  }
  const value =
    type.flags & ts.TypeFlags.Object && !checker.getPropertiesOfType(type).length && checker.getIndexTypeOfType(type, ts.IndexKind.String);
  if (wrap && value) return `Record<string, pulumi.Input<${render(w, membersOf(value), wrap)}>>`;
  if (type.flags & ts.TypeFlags.Object && checker.getPropertiesOfType(type).length && !checker.isTupleType(type)) {
    // A nested field set by its interface's name; an object without one inline, as prettier writes it.
    const same = w.nested.find((n) => checker.isTypeAssignableTo(type, n.type) && checker.isTypeAssignableTo(n.type, type));
    if (same?.name) return same.name;
    // An unnamed nested object whose members a program may pass as outputs: inline, each member a `pulumi.Input`.
    const inputs = wrap && same?.inputMembers;
    // A type of TypeScript's own library (`Partial<Record<...>>`: ApiToken's grants) as written, not spelled out.
    if (type.aliasSymbol?.declarations?.some((d) => d.getSourceFile().hasNoDefaultLib)) return checker.typeToString(type, undefined, FLAGS);
    const props = checker.getPropertiesOfType(type).map((p) => {
      const { text, optional } = typeText(w, checker.getTypeOfSymbol(p), false);
      return `${p.getName()}${optional || p.flags & ts.SymbolFlags.Optional ? "?" : ""}: ${inputs ? `pulumi.Input<${text}>` : text}`;
    });
    return `{ ${props.join("; ")} }`;
  }
  return checker.typeToString(type, undefined, FLAGS);
}

/** A property's type text, `undefined` left out (it makes the property optional instead). */
function typeText(w: Writer, type: ts.Type, wrap: boolean): { text: string; optional: boolean } {
  // An output type given explicitly (`input<S, true, T>`) reaches here as `NoInfer<T>`: said as T.
  const members = membersOf(type.flags & ts.TypeFlags.Substitution ? (type as ts.SubstitutionType).baseType : type);
  const defined = members.filter((t) => !(t.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Void)));
  return { text: render(w, defined, wrap) || "unknown", optional: defined.length < members.length };
}

/** A type-only member (`__input`, `__output`) of a property of a value's type. */
function typeMember(checker: ts.TypeChecker, owner: ts.Type, property: string, member: string, where: string): ts.Type {
  const symbol = checker.getPropertyOfType(owner, property);
  const memberSymbol = symbol && checker.getPropertyOfType(checker.getTypeOfSymbol(symbol), member);
  if (!memberSymbol) throw new Error(`${where}.${property} has no ${member}`);
  return checker.getTypeOfSymbol(memberSymbol);
}

/** The nested objects and variants unions a kind's file exports (provider/fields/objectInputs.ts), by export name, in file order. */
export function namedSetsOf(kind: string): [string, Nested | Variants][] {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the module definitionOf has loaded already
  const exported = require(path.join(__dirname, "..", "resources", moduleOf(kind)!)) as Record<string, unknown>;
  return Object.entries(exported).filter((e): e is [string, Nested | Variants] =>
    ["nested", "variants"].includes((e[1] as { role?: string } | undefined)?.role ?? ""),
  );
}

/** The nested objects a kind's file exports (provider/fields/objectInputs.ts `nested`), by export name, in file order. */
export function nestedSetsOf(kind: string): [string, Nested][] {
  return namedSetsOf(kind).filter((e): e is [string, Nested] => e[1].role === "nested");
}

/** The variants unions a kind's file exports (provider/fields/objectInputs.ts `variants`), by export name, in file order. */
export function variantSetsOf(kind: string): [string, Variants][] {
  return namedSetsOf(kind).filter((e): e is [string, Variants] => e[1].role === "variants");
}

/** A kind's nested objects and variants unions: their members' types on each side, and the writers that name them. */
function nestedOf(program: ts.Program, kind: string) {
  const checker = program.getTypeChecker();
  const file = sourceFile(program, sourceFileOf(kind));
  const sets = nestedSetsOf(kind).map(([exportName, set]) => {
    const type = checker.getTypeOfSymbol(exportOf(checker, file, exportName));
    const where = `${sourceFileOf(kind)}: ${exportName}`;
    const side = (member: "__input" | "__output") => checker.getTypeOfSymbol(checker.getPropertyOfType(type, member)!);
    const members = checker.getTypeOfSymbol(checker.getPropertyOfType(type, "members")!);
    return {
      set,
      args: side("__input"),
      outputs: side("__output"),
      memberType: (k: string, m: string) => typeMember(checker, members, k, m, where),
    };
  });
  const unions = variantSetsOf(kind).map(([exportName, set]) => {
    const type = checker.getTypeOfSymbol(exportOf(checker, file, exportName));
    const where = `${sourceFileOf(kind)}: ${exportName}`;
    const side = (member: "__input" | "__output") => checker.getTypeOfSymbol(checker.getPropertyOfType(type, member)!);
    const shapes = checker.getTypeOfSymbol(checker.getPropertyOfType(type, "variants")!);
    const shapeMembers = (tag: string) => typeMember(checker, shapes, tag, "members", where);
    return {
      set,
      args: membersOf(side("__input")),
      outputs: membersOf(side("__output")),
      memberType: (tag: string, k: string, m: string) => typeMember(checker, shapeMembers(tag), k, m, where),
    };
  });
  const writer = (side: Side): Writer => ({
    checker,
    side,
    nested: sets.map((n) => ({ name: n.set.names[side], type: n[side], inputMembers: side === "args" && n.set.names.inputMembers })),
    variants: unions.map((u) => ({ name: u.set.names[side], shapes: u[side] })),
  });
  return { sets, unions, writer };
}

/** The named interfaces of a kind's nested objects (each member plain, as a program writes it inside a list). */
function nestedInterfaces(program: ts.Program, kind: string): string[] {
  const { sets, writer } = nestedOf(program, kind);
  const lines: string[] = [];
  for (const { set, memberType } of sets) {
    if (set.names.from) continue;
    for (const side of ["args", "outputs"] as const) {
      const name = set.names[side];
      if (!name) continue;
      const w = writer(side);
      const members = Object.entries(set.members).map(([k, m]) => {
        const wrap = side === "args" && !!set.names.inputMembers;
        const { text, optional } = typeText(w, memberType(k, side === "args" ? "__input" : "__output"), wrap);
        return [tsdoc(m.doc, "  "), ...property(k, optional, text, wrap)];
      });
      const what = side === "args" ? "as a program passes it" : "as recorded";
      lines.push(tsdoc(`${set.names.doc} (${what}).`, ""), `export interface ${name} {`, ...members.flat(), "}", "");
    }
  }
  lines.push(...variantAliases(program, kind));
  // Interfaces another kind's file declares: imported from it.
  const imports = sets.flatMap(({ set }) =>
    set.names.from
      ? [`import type { ${[set.names.args, set.names.outputs].filter(Boolean).join(", ")} } from "../${set.names.from}";`, ""]
      : [],
  );
  return [...imports, ...lines];
}

/**
 * The type aliases of a kind's variants unions, one shape per member of the union, each member of
 * a shape with its TSDoc (the discriminator's: the shape's doc), as prettier writes them.
 */
function variantAliases(program: ts.Program, kind: string): string[] {
  const { unions, writer } = nestedOf(program, kind);
  const lines: string[] = [];
  for (const { set, memberType } of unions) {
    for (const side of ["args", "outputs"] as const) {
      const w = writer(side);
      const shapes = Object.entries(set.variants).map(([tag, v]) => {
        const members = Object.entries(v.members).map(([k, m]) => {
          const wrap = side === "args";
          const { text, optional } = typeText(w, memberType(tag, k, side === "args" ? "__input" : "__output"), wrap);
          return [tsdoc(m.doc, "      "), ...property(k, optional, text, wrap).map((l) => `    ${l}`)];
        });
        return ["  | {", tsdoc(v.doc, "      "), `      ${set.names.discriminator}: ${JSON.stringify(tag)};`, ...members.flat(), "    }"];
      });
      const what = side === "args" ? "as a program passes it" : "as recorded";
      const body = shapes.flat();
      body[body.length - 1] += ";";
      lines.push(tsdoc(`${set.names.doc} (${what}).`, ""), `export type ${set.names[side]} =`, ...body, "");
    }
  }
  return lines;
}

/** The type-only member (`__input`, `__output`) of each field of the exported `<module>Fields`. */
function memberTypes(program: ts.Program, kind: string): (field: string, member: "__input" | "__output") => ts.Type {
  const checker = program.getTypeChecker();
  const name = `${moduleOf(kind)}Fields`;
  const set = checker.getTypeOfSymbol(exportOf(checker, sourceFile(program, sourceFileOf(kind)), name));
  return (field, member) => typeMember(checker, set, field, member, `${sourceFileOf(kind)}: ${name}`);
}

/** The members of a union written as text, split where they are not nested in brackets. */
function topLevelUnion(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    if ("<{([".includes(text[i])) depth++;
    else if (">})]".includes(text[i])) depth--;
    else if (depth === 0 && text.startsWith(" | ", i)) {
      parts.push(text.slice(start, i));
      start = i + 3;
    }
  }
  return [...parts, text.slice(start)];
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
 * An interface member as prettier writes it (lint's `prettier --check` reads the generated files):
 * on one line when it fits the repository's 140 columns, else a long union one member per line, or
 * a type `Outer<Inner>` broken around its one argument (ApiToken's grants). A longer type is
 * refused rather than written unformatted.
 */
function property(name: string, optional: boolean, text: string, input: boolean): string[] {
  const head = `  ${name}${optional ? "?" : ""}:`;
  const type = input ? `pulumi.Input<${text}>` : text;
  const line = `${head} ${type};`;
  if (line.length <= 140) return [line];
  const parts = topLevelUnion(text);
  if (parts.length >= 2) {
    const members = parts.map((p) => `    | ${p}`);
    return input ? [`${head} pulumi.Input<`, ...members, "  >;"] : [head, ...members.slice(0, -1), `${members[members.length - 1]};`];
  }
  const [, outer, inner] = /^([\w.]+)<(.*)>$/.exec(type) ?? [];
  if (inner !== undefined && !hasTopLevelComma(inner) && `    ${inner}`.length <= 140) return [`${head} ${outer}<`, `    ${inner}`, "  >;"];
  throw new Error(`${name}: the type ${type} is too long for a line of the generated file; declare the field with a shorter one`);
}

function tsdoc(doc: string, indent: string): string {
  if (doc.includes("*/")) throw new Error(`a field's doc cannot contain "*/": ${doc}`);
  return `${indent}/** ${doc} */`;
}

/**
 * The `<Kind>Args` and `<Kind>Outputs` interfaces of a kind, as lines of its generated file (scripts/classes.ts writes them above the class).
 */
export function fieldInterfaces(program: ts.Program, kind: string): string[] {
  const { fields } = definitionOf(kind);
  const typeOf = memberTypes(program, kind);
  const { writer } = nestedOf(program, kind);
  const all = Object.entries(fields);
  // Args: the kind's own inputs, then workspaceId (where CommonArgs's users have always found it); no derived input.
  const inputs = declaredInputs(fields);
  const outputs = all.filter(([, f]) => f.role !== "input" || f.output);
  const args = inputs.map(([name, field]) => {
    const { text, optional } = typeText(writer("args"), typeOf(name, "__input"), true);
    return [tsdoc(docOf(field), "  "), ...property(name, optional, text, true)];
  });
  // A synthetic id (a membership's "<a>:<b>") says its form where adoptId is documented, before workspaceId as it was declared.
  const { adoptIdDoc } = definitionOf(kind);
  if (adoptIdDoc)
    args.splice(args.length - inputs.filter(([, f]) => f.role === "workspace").length, 0, [
      `  /** ${adoptIdDoc} */`,
      "  adoptId?: pulumi.Input<string>;",
    ]);
  const outs = outputs.map(([name, field]) => {
    const { text, optional } = typeText(writer("outputs"), typeOf(name, "__output"), false);
    return [tsdoc(docOf(field), "  "), ...property(name, optional, text, false)];
  });
  return [
    ...nestedInterfaces(program, kind),
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
