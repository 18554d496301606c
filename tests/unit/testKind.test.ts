/**
 * `npm run test:kind -- <Kind>` (scripts/testKind.ts): a kind's tests are found by one pattern
 * from its module name, tests/{unit/resources,inprocess}/<module>.test.ts, with no lookup.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { kinds, moduleOf } from "../../resources/kinds";
import { jestArgsOf } from "../../scripts/testKind";

const REPO = path.join(__dirname, "..", "..");
const testFilesIn = (dir: string) =>
  fs
    .readdirSync(path.join(REPO, dir))
    .filter((f) => f.endsWith(".test.ts"))
    .map((f) => `${dir}/${f}`);
const candidates = [...testFilesIn("tests/unit/resources"), ...testFilesIn("tests/inprocess"), ...testFilesIn("tests/unit")];
/** The files jest would run: its last argument is the pattern, matched against each test file's path. */
const found = (kind: string) => candidates.filter((f) => new RegExp(jestArgsOf(kind).at(-1)!).test(path.join(REPO, f)));

describe("test:kind", () => {
  it("runs the unit and inprocess projects only, never the engine's", () => {
    expect(jestArgsOf("Disk").slice(0, 4)).toEqual(["--selectProjects", "unit", "inprocess", "--"]);
  });

  it("finds a kind's files by its module name: Disk's unit and in-process files, and no other", () => {
    expect(found("Disk")).toEqual(["tests/unit/resources/disk.test.ts", "tests/inprocess/disk.test.ts"]);
  });

  it.each(kinds())("finds %s's unit file and its in-process file, and nothing else", (kind) => {
    const name = kind[0].toLowerCase() + kind.slice(1);
    expect(found(kind)).toEqual([`tests/unit/resources/${name}.test.ts`, `tests/inprocess/${name}.test.ts`]);
  });

  it.each(kinds())("%s has its unit file and its in-process file, named by its module", (kind) => {
    const name = moduleOf(kind)!;
    const has = (file: string) => fs.existsSync(path.join(REPO, file));
    expect({ kind, unit: has(`tests/unit/resources/${name}.test.ts`) }).toEqual({ kind, unit: true });
    expect({ kind, inprocess: has(`tests/inprocess/${name}.test.ts`) }).toEqual({ kind, inprocess: true });
  });

  it("refuses a name that is no kind, naming the kinds", () => {
    expect(() => jestArgsOf("Nope")).toThrow(`no kind "Nope"; the kinds (resources/kinds.ts): ${kinds().join(", ")}`);
    expect(() => jestArgsOf("disk")).toThrow(/no kind "disk"/);
  });
});
