/**
 * The registry (resources/registry.ts): every kind names a module that declares it, found from the
 * table alone, and an unknown kind is refused with a message that says why it may appear.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { kinds, sourceFileOf, specFor } from "../../../resources/registry";

const ROOT = path.resolve(__dirname, "../../..");

describe("resources/registry.ts", () => {
  it.each(kinds())("loads the spec of %s from the file it names", (kind) => {
    expect(specFor(kind).kind).toBe(kind);
    expect(fs.existsSync(path.join(ROOT, sourceFileOf(kind)))).toBe(true);
  });

  it("lists every resource file of resources/ once", () => {
    const files = fs.readdirSync(path.join(ROOT, "resources")).filter((f) => f.endsWith(".ts") && f !== "registry.ts");
    expect(kinds().map(sourceFileOf).sort()).toEqual(files.map((f) => `resources/${f}`).sort());
  });

  it("refuses a kind it does not know", () => {
    expect(() => specFor("Teapot")).toThrow('pulumi-svc has no resource kind "Teapot" (state written by another version of pulumi-svc?)');
  });
});
