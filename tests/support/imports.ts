/**
 * What a module of this repository loads at run time, read from the sources (no build): which
 * process pays for which package is a fact tests pin (tests/unit/classes.test.ts: a program that
 * declares resources reaches no spec or zod; tests/unit/plugin/start.test.ts: the plugin process
 * does not load the SDK's index).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as ts from "typescript";

const REPO = path.join(__dirname, "..", "..");

/**
 * Every module a file loads at run time, followed through relative imports: `import type` and
 * `export type` are erased by the compiler, so they are not followed. Packages by name, or with
 * `specifiers`, as imported (`@pulumi/pulumi/output` apart from `@pulumi/pulumi`, the index).
 */
export function runtimeImports(entry: string, options: { specifiers?: boolean } = {}): Set<string> {
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
        const name = target.startsWith("@") ? target.split("/").slice(0, 2).join("/") : target.split("/")[0];
        seen.add(options.specifiers ? target : name);
        continue;
      }
      const base = path.join(path.dirname(file), target);
      visit(fs.existsSync(path.join(REPO, `${base}.ts`)) ? `${base}.ts` : path.join(base, "index.ts"));
    }
  };
  visit(entry);
  return seen;
}
