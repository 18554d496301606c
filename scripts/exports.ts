/**
 * index.ts, generated from the registry's list of kinds so a kind is listed once: each kind's
 * generated class (scripts/classes.ts) and every public `...Args` type its file exports (the `<Kind>Args` first, then the shapes
 * it uses, in file order), then the lookups.
 *
 *   npm run docs            rewrite index.ts (and the README's table)
 *   (tests/unit/docs.test.ts fails when index.ts is out of date)
 *
 * TypeScript cannot export from a list at run time, hence a generated file; resources/registry.ts
 * stays the only place a kind is listed.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { kinds, moduleOf, sourceFileOf } from "../resources/registry";

const REPO = path.resolve(__dirname, "..", __dirname.includes(`${path.sep}dist${path.sep}`) ? ".." : "");

/** The public argument types a resource file exports: `export interface XArgs` / `export type XArgs` / `export type { XArgs }`. */
function argsTypesOf(kind: string): string[] {
  const text = fs.readFileSync(path.join(REPO, sourceFileOf(kind)), "utf8");
  const declared = [
    ...text.matchAll(/^export (?:interface|type) (\w+Args)\b/gm),
    // Re-exported generated interfaces (a kind whose fields are declared once): `export type { VpcArgs, VpcOutputs };`
    ...[...text.matchAll(/^export type \{([^}]*)\}/gm)].flatMap((m) => [...m[1].matchAll(/\b(\w+Args)\b/g)]),
  ].map((m) => m[1]);
  const own = `${kind}Args`;
  if (!declared.includes(own)) throw new Error(`${sourceFileOf(kind)} exports no ${own}`);
  return [own, ...declared.filter((name) => name !== own)];
}

export function renderIndex(): string {
  const lines = [
    "/**",
    " * pulumi-svc: Pulumi resources for the svc infrastructure-hosting API.",
    " *",
    " * Generated from the kinds in resources/registry.ts by `npm run docs` (scripts/exports.ts): do not edit.",
    " */",
    // The class from its generated file (which loads no spec), the Args types from the kind's file.
    ...kinds().flatMap((kind) => [
      `export { ${kind} } from "./resources/generated/${moduleOf(kind)}";`,
      `export type { ${argsTypesOf(kind).join(", ")} } from "./resources/${moduleOf(kind)}";`,
    ]),
    "// Lookups (plain and Output forms).",
    'export * from "./resources/lookups";',
  ];
  return `${lines.join("\n")}\n`;
}

/** Where the generated file lives. */
export const INDEX_FILE = path.join(REPO, "index.ts");

if (require.main === module) {
  fs.writeFileSync(INDEX_FILE, renderIndex());
  console.log("index.ts regenerated");
}
