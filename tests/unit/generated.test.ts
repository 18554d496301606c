/**
 * Every generated file is what `npm run generate` (scripts/generate.ts) writes from the code today:
 * the resource classes (resources/generated), index.ts, schema.json, the reference pages
 * (docs/resources, docs/lookups), docs/_index.md's generated sections (the lists of pages and the
 * reference table) and the settings table of docs/installation-configuration.md. One fresh generation, compared file by file; a file left in a generated
 * directory that no generation writes (a removed kind's) is stale too. The SDKs under sdk/ need the
 * pulumi CLI: tests/e2e/sdks.test.ts.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { GENERATED_DIRS, generatedFiles } from "../../scripts/generate";
import { kinds, moduleOf } from "../../resources/kinds";

jest.setTimeout(120_000);

const REPO = path.join(__dirname, "..", "..");
const fresh = generatedFiles();
const FIX = "stale: run `npm run generate` and commit what it writes";

describe("the generated files", () => {
  it.each([...fresh.keys()])("%s is up to date (npm run generate)", (file) => {
    const committed = fs.existsSync(path.join(REPO, file)) ? fs.readFileSync(path.join(REPO, file), "utf8") : `(missing) ${FIX}`;
    expect(committed).toBe(fresh.get(file));
  });

  it.each(GENERATED_DIRS)("%s holds only generated files", (dir) => {
    const files = fs.readdirSync(path.join(REPO, dir)).map((f) => `${dir}/${f}`);
    expect(files.filter((f) => !fresh.has(f))).toEqual([]);
  });

  it("cover every kind's class and page, schema.json, index.ts, docs/_index.md and the settings table", () => {
    const expected = [
      ...kinds().flatMap((k) => [`resources/generated/${moduleOf(k)}.ts`, `docs/resources/${moduleOf(k)}.md`]),
      "index.ts",
      "schema.json",
      "docs/_index.md",
      "docs/installation-configuration.md",
    ];
    expect(expected.filter((f) => !fresh.has(f))).toEqual([]);
    // The schema as JSON too (what tests/unit/schema.test.ts reads its facts from).
    expect(JSON.parse(fs.readFileSync(path.join(REPO, "schema.json"), "utf8"))).toEqual(JSON.parse(fresh.get("schema.json")!));
  });
});
