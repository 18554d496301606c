/**
 * The resource classes generated from each kind's spec and public interfaces (scripts/classes.ts):
 * they carry what the spec declares (that the committed files are current is
 * tests/unit/generated.test.ts's), and a program that declares resources reaches no spec, no zod and no lifecycle.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { kinds, sourceFileOf, definitionOf } from "../../resources/kinds";
import { classFileOf } from "../../scripts/classes";
import { runtimeImports } from "../support/imports";

jest.setTimeout(120_000);

const REPO = path.join(__dirname, "..", "..");

describe("the generated resource classes", () => {
  it("carry the spec's kind, doc and secrets", () => {
    for (const kind of kinds()) {
      const text = fs.readFileSync(path.join(REPO, classFileOf(kind)), "utf8");
      const definition = definitionOf(kind);
      expect(text).toContain(`kind: "${kind}",`);
      expect(text).toContain(`/** ${definition.doc} */\nexport class ${kind} extends CustomResource`);
      expect(text).toMatch(new RegExp(`secretOutputs: \\[${(definition.secretOutputs ?? []).map((s) => `"${s}"`).join(", ")}\\]`));
    }
  });

  it("leave a program that declares resources without any spec, zod or lifecycle", () => {
    const loaded = runtimeImports("index.ts");
    expect(loaded).toContain("resources/generated/vpc.ts");
    expect(loaded).toContain("provider/dynamic/classSupport.ts");
    const specFiles = kinds().map(sourceFileOf);
    expect([...loaded].filter((m) => specFiles.includes(m) || m === "zod" || m.startsWith("provider/lifecycle"))).toEqual([]);
  });
});
