/**
 * The resource classes generated from each kind's spec and public interfaces (scripts/classes.ts):
 * the committed files are what `npm run docs` writes today, they carry what the spec declares,
 * and a program that declares resources reaches no spec, no zod and no lifecycle.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { kinds, moduleOf, sourceFileOf, definitionOf } from "../../resources/kinds";
import { classFileOf, renderClass } from "../../scripts/classes";
import { loadProgram } from "../../scripts/schema";
import { runtimeImports } from "../support/imports";

jest.setTimeout(120_000);

const REPO = path.join(__dirname, "..", "..");

describe("the generated resource classes", () => {
  const { program } = loadProgram();

  it("are up to date (run npm run docs)", () => {
    for (const kind of kinds()) expect(fs.readFileSync(path.join(REPO, classFileOf(kind)), "utf8")).toBe(renderClass(program, kind));
    const files = fs.readdirSync(path.join(REPO, "resources", "generated")).sort();
    expect(files).toEqual(
      kinds()
        .map((k) => `${moduleOf(k)}.ts`)
        .sort(),
    );
  });

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
