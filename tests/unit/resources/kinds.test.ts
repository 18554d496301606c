/**
 * The list of kinds (resources/kinds.ts): every kind names a module that declares it, found from the
 * table alone, and an unknown kind is refused with a message that says why it may appear. Each
 * resource file keeps the recipe's numbered sections (resources/README.md).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { kinds, moduleOf, sourceFileOf, definitionOf } from "../../../resources/kinds";

const ROOT = path.resolve(__dirname, "../../..");

describe("resources/kinds.ts", () => {
  it.each(kinds())("loads the definition of %s from the file it names", (kind) => {
    expect(definitionOf(kind).kind).toBe(kind);
    expect(fs.existsSync(path.join(ROOT, sourceFileOf(kind)))).toBe(true);
  });

  // The class is generated from the definition (scripts/classes.ts, provider/dynamic/classSupport.ts superArgs): its type token is the definition's kind.
  it.each(kinds())("names the class of %s after its kind", (kind) => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- each kind's generated class, found from the list alone
    const module = require(path.join(ROOT, "resources", "generated", moduleOf(kind)!)) as Record<string, unknown>;
    expect(typeof module[kind]).toBe("function");
  });

  // A replacement that keeps a natural key must delete the old holder first, or the create is refused
  // (by the API, or by conflict itself): replaceOnChanges can now replace any kind on any field.
  it.each(kinds().filter((k) => definitionOf(k).api.conflict))("declares %s's natural key, as its conflict check finds it", (kind) => {
    const definition = definitionOf(kind);
    expect(definition.uniqueKey !== undefined || definition.deleteFirst === true).toBe(true);
  });

  it("lists every resource file of resources/ once", () => {
    const notKinds = ["kinds.ts", "inProgram.ts"];
    const files = fs.readdirSync(path.join(ROOT, "resources")).filter((f) => f.endsWith(".ts") && !notKinds.includes(f));
    expect(kinds().map(sourceFileOf).sort()).toEqual(files.map((f) => `resources/${f}`).sort());
  });

  // resources/README.md: every file reads in the same order, its sections numbered as they come.
  it.each(kinds())("numbers the sections of %s's file 1 to 4 in reading order", (kind) => {
    const text = fs.readFileSync(path.join(ROOT, sourceFileOf(kind)), "utf8");
    const headers = [...text.matchAll(/^\/\/ (\d)\. ([^.:]+)/gm)].map((m) => `${m[1]}. ${m[2]}`);
    expect(headers.map((h) => h.slice(0, 2))).toEqual(["1.", "2.", "3.", "4."]);
    expect(headers.slice(1)).toEqual(["2. API mapping", "3. The definition", "4. The public Args"]);
    expect(headers[0]).toMatch(/^1\. Inputs/);
  });

  it("refuses a kind it does not know", () => {
    expect(() => definitionOf("Teapot")).toThrow(
      'pulumi-svc has no resource kind "Teapot" (state written by another version of pulumi-svc?)',
    );
  });
});
