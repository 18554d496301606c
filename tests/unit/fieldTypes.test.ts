/**
 * The public Args and Outputs interfaces generated from each kind's fields (scripts/fieldTypes.ts):
 * the committed files are current (tests/unit/generated.test.ts), and the `.d.ts` the build emits
 * keeps what TypeScript users read: a plain interface with a TSDoc on every property, the one the
 * field declares (its doc and its policy's sentence), and no zod.
 */
import * as path from "node:path";
import * as ts from "typescript";
import { declaredInputs } from "../../provider/fields/declare";
import { docOf } from "../../provider/fields/sentences";
import { kinds as allKinds, sourceFileOf, definitionOf } from "../../resources/kinds";
import { classFileOf } from "../../scripts/classes";
import { nestedSetsOf, variantSetsOf } from "../../scripts/fieldTypes";

jest.setTimeout(180_000);

const REPO = path.join(__dirname, "..", "..");

/** The declarations `npm run build` emits (tsconfig.build.json: stripInternal) for some source files, by path. */
function emitDeclarations(files: string[]): Map<string, string> {
  const configPath = path.join(REPO, "tsconfig.build.json");
  const config = ts.parseJsonConfigFileContent(ts.readConfigFile(configPath, ts.sys.readFile).config, ts.sys, REPO);
  const options = { ...config.options, emitDeclarationOnly: true, incremental: false, tsBuildInfoFile: undefined };
  const program = ts.createProgram(
    files.map((f) => path.join(REPO, f)),
    options,
  );
  const emitted = new Map<string, string>();
  for (const file of files) {
    program.emit(
      program.getSourceFile(path.join(REPO, file)),
      (name, text) => emitted.set(path.relative(path.join(REPO, "dist"), name), text),
      undefined,
      true,
    );
  }
  return emitted;
}

/** Each property of an exported interface of a `.d.ts` with its TSDoc (as one line). */
function interfaceDocs(text: string, name: string): Record<string, string> {
  const file = ts.createSourceFile("x.d.ts", text, ts.ScriptTarget.ES2022, true);
  const decl = file.statements.find((s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === name);
  if (!decl) throw new Error(`no interface ${name} in:\n${text}`);
  return Object.fromEntries(
    decl.members.map((m) => {
      const doc = ts.getJSDocCommentsAndTags(m).map((d) => ts.getTextOfJSDocComment((d as ts.JSDoc).comment) ?? "");
      return [(m.name as ts.Identifier).text, doc.join(" ").replace(/\s+/g, " ").trim()];
    }),
  );
}

/** Each shape of an exported union type alias of a `.d.ts`: its members with their TSDoc (as one line). */
function unionShapeDocs(text: string, name: string): Record<string, string>[] {
  const file = ts.createSourceFile("x.d.ts", text, ts.ScriptTarget.ES2022, true);
  const decl = file.statements.find((s): s is ts.TypeAliasDeclaration => ts.isTypeAliasDeclaration(s) && s.name.text === name);
  if (!decl || !ts.isUnionTypeNode(decl.type)) throw new Error(`no union type ${name} in:\n${text}`);
  return decl.type.types.map((shape) =>
    Object.fromEntries(
      (shape as ts.TypeLiteralNode).members.map((m) => {
        const doc = ts.getJSDocCommentsAndTags(m).map((d) => ts.getTextOfJSDocComment((d as ts.JSDoc).comment) ?? "");
        return [(m.name as ts.Identifier).text, doc.join(" ").replace(/\s+/g, " ").trim()];
      }),
    ),
  );
}

describe("the Args and Outputs generated from the fields", () => {
  const kinds = allKinds();

  it("cover every kind: each declares its fields", () => {
    expect(kinds).toEqual(expect.arrayContaining(["Vpc", "Disk", "Image"]));
    for (const kind of kinds) expect(Object.keys(definitionOf(kind).fields).length).toBeGreaterThan(0);
  });

  // Up to date with the fields: tests/unit/classes.test.ts compares every generated file.

  it("emit a .d.ts with a TSDoc on every property, the field's, and no zod", () => {
    const emitted = emitDeclarations(kinds.flatMap((k) => [sourceFileOf(k), classFileOf(k)]));
    for (const kind of kinds) {
      const { fields } = definitionOf(kind);
      const resource = emitted.get(sourceFileOf(kind).replace(/\.ts$/, ".d.ts"))!;
      const generated = emitted.get(classFileOf(kind).replace(/\.ts$/, ".d.ts"))!;
      // Then the kind's nested objects' interfaces, if it has any.
      expect(resource).toMatch(new RegExp(`export type \\{ ${kind}Args, ${kind}Outputs(, \\w+)* \\};`));
      expect(generated).toContain(`export declare class ${kind} extends CustomResource`);
      expect(resource + generated).not.toMatch(/zod/);

      // What a program declares: not an input derived from the others (it is an output only).
      const inputs = declaredInputs(fields);
      const args = interfaceDocs(generated, `${kind}Args`);
      // A synthetic id's form is documented on adoptId (spec.adoptIdDoc).
      const { adoptIdDoc } = definitionOf(kind);
      expect(Object.keys(args).sort()).toEqual([...inputs.map(([k]) => k), ...(adoptIdDoc ? ["adoptId"] : [])].sort());
      for (const [name, field] of inputs) expect(args[name]).toBe(docOf(field));
      if (adoptIdDoc) expect(args.adoptId).toBe(adoptIdDoc);

      const outputs = Object.entries(fields).filter(([, f]) => f.role !== "input" || f.output);
      const outs = interfaceDocs(generated, `${kind}Outputs`);
      expect(Object.keys(outs)).toEqual(outputs.map(([k]) => k));
      for (const [name, field] of outputs) expect(outs[name]).toBe(docOf(field));

      // Each nested object's named interfaces: a TSDoc on every member, the member's.
      for (const [, set] of nestedSetsOf(kind).filter(([, n]) => !n.names.from)) {
        for (const name of [set.names.args, set.names.outputs].filter((n): n is string => !!n)) {
          expect(resource).toMatch(new RegExp(`export type \\{[^}]*\\b${name}\\b`));
          const members = interfaceDocs(generated, name);
          expect(Object.keys(members)).toEqual(Object.keys(set.members));
          for (const [k, m] of Object.entries(set.members)) expect(members[k]).toBe(m.doc);
        }
      }

      // Each variants union on both sides: every shape's discriminator with the shape's doc, every member with its own.
      for (const [, set] of variantSetsOf(kind)) {
        for (const name of [set.names.args, set.names.outputs]) {
          expect(resource).toMatch(new RegExp(`export type \\{[^}]*\\b${name}\\b`));
          const shapes = unionShapeDocs(generated, name);
          expect(shapes.map((s) => s[set.names.discriminator])).toEqual(Object.values(set.variants).map((v) => v.doc));
          Object.values(set.variants).forEach((v, i) => {
            expect(Object.keys(shapes[i])).toEqual([set.names.discriminator, ...Object.keys(v.members)]);
            for (const [k, m] of Object.entries(v.members)) expect(shapes[i][k]).toBe(m.doc);
          });
        }
      }
    }
  });

  it("leave a derived input out of the Args and in the Outputs (Image's fileSha256)", () => {
    const emitted = emitDeclarations([classFileOf("Image")]);
    const generated = emitted.get(classFileOf("Image").replace(/\.ts$/, ".d.ts"))!;
    expect(Object.keys(interfaceDocs(generated, "ImageArgs"))).not.toContain("fileSha256");
    expect(interfaceDocs(generated, "ImageOutputs").fileSha256).toBe(docOf(definitionOf("Image").fields.fileSha256));
  });

  it("cover the nested objects and variants unions of every kind", () => {
    const unions = kinds.flatMap((k) => variantSetsOf(k).flatMap(([, set]) => [set.names.args, set.names.outputs]));
    expect(unions).toEqual(["ImageSourceArgs", "ImageSource"]);
    const names = kinds.flatMap((k) => nestedSetsOf(k).flatMap(([, set]) => [set.names.args, set.names.outputs]));
    expect(names).toEqual(
      expect.arrayContaining([
        ...["InstanceStorageEntry", "K3sPortArgs", "K3sServicePort", "K3sVolumeArgs", "K3sServiceVolume", "K3sPod"],
        ...["RecipeCommandArgs", "RecipeCommand", "RecipeFieldArgs", "RecipeField", "AppPortArgs", "AppPort"],
        ...["TemplateEnvArgs", "TemplateEnv", "TemplatePortArgs", "TemplatePort", "AppMountArgs", "Mount"],
      ]),
    );
  });
});
