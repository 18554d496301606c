/**
 * The resource classes generated from each kind's spec and public interfaces (scripts/classes.ts):
 * they carry what the spec declares (that the committed files are current is
 * tests/unit/generated.test.ts's), and a program that declares resources reaches no spec, no zod and no lifecycle.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as ts from "typescript";
import { kinds, sourceFileOf, definitionOf } from "../../resources/kinds";
import { classFileOf } from "../../scripts/classes";

jest.setTimeout(120_000);

const REPO = path.join(__dirname, "..", "..");

/**
 * Every module a file loads at run time, followed through relative imports: `import type` and
 * `export type` are erased by the compiler, so they are not followed. Packages by name.
 */
function runtimeImports(entry: string): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    if (!file.endsWith(".ts")) return;
    const source = ts.createSourceFile(file, fs.readFileSync(path.join(REPO, file), "utf8"), ts.ScriptTarget.ES2022);
    for (const st of source.statements) {
      const typeOnly =
        (ts.isImportDeclaration(st) && st.importClause?.isTypeOnly) ||
        (ts.isImportDeclaration(st) &&
          st.importClause?.namedBindings &&
          ts.isNamedImports(st.importClause.namedBindings) &&
          !st.importClause.name &&
          st.importClause.namedBindings.elements.every((e) => e.isTypeOnly)) ||
        (ts.isExportDeclaration(st) && st.isTypeOnly);
      const spec = (ts.isImportDeclaration(st) || ts.isExportDeclaration(st)) && st.moduleSpecifier;
      if (typeOnly || !spec || !ts.isStringLiteral(spec)) continue;
      const target = spec.text;
      if (!target.startsWith(".")) {
        seen.add(target.startsWith("@") ? target.split("/").slice(0, 2).join("/") : target.split("/")[0]);
        continue;
      }
      const base = path.join(path.dirname(file), target);
      visit(fs.existsSync(path.join(REPO, `${base}.ts`)) ? `${base}.ts` : path.join(base, "index.ts"));
    }
  };
  visit(entry);
  return seen;
}

describe("the generated resource classes", () => {
  it("carry the spec's kind, doc and secrets", () => {
    for (const kind of kinds()) {
      const text = fs.readFileSync(path.join(REPO, classFileOf(kind)), "utf8");
      const definition = definitionOf(kind);
      expect(text).toContain(`kind: "${kind}",`);
      expect(text).toContain(`/** ${definition.doc} */\nexport class ${kind} extends DynamicResource`);
      expect(text).toMatch(new RegExp(`secretOutputs: \\[${(definition.secretOutputs ?? []).map((s) => `"${s}"`).join(", ")}\\]`));
    }
  });

  it("leave a program that declares resources without any spec, zod or lifecycle", () => {
    const loaded = runtimeImports("index.ts");
    expect(loaded).toContain("resources/generated/vpc.ts");
    expect(loaded).toContain("provider/resource.ts");
    const specFiles = kinds().map(sourceFileOf);
    expect([...loaded].filter((m) => specFiles.includes(m) || m === "zod" || m.startsWith("provider/lifecycle"))).toEqual([]);
  });
});
