/**
 * A resource's tests are found from its name (scripts/testsOf.js, `npm run test:kind -- <Kind>`):
 * every kind has its unit file, the emulator package's tests of its API and at least one in-process
 * or end-to-end file that is its proof (its header's `Kinds:` line names it).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { kinds } from "../../resources/kinds";
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a plain Node script, not built
const { testsOf, kindsProvedBy } = require("../../scripts/testsOf.js") as {
  testsOf(kind: string, options?: { every?: boolean }): string[];
  kindsProvedBy(text: string): string[];
};
const REPO = path.join(__dirname, "..", "..");
const E2E = path.join(REPO, "tests", "e2e");
const INPROCESS = path.join(REPO, "tests", "inprocess");
const e2eOnly = (files: string[]) => files.filter((f) => f.startsWith("tests/e2e/"));
const testFilesIn = (dir: string) => fs.readdirSync(dir).filter((f) => f.endsWith(".test.ts"));

describe("testsOf", () => {
  it.each(kinds())("finds %s's unit, emulator, and in-process or end-to-end tests", (kind) => {
    const files = testsOf(kind);
    const module = kind[0].toLowerCase() + kind.slice(1);
    expect(files[0]).toBe(`tests/unit/resources/${module}.test.ts`);
    expect(files.filter((f) => f.startsWith("packages/emulator/tests/")).length).toBeGreaterThan(0);
    expect(files.filter((f) => f.startsWith("tests/inprocess/") || f.startsWith("tests/e2e/")).length).toBeGreaterThan(0);
  });

  it("lists a kind's in-process proof, the tests/inprocess files whose header names it, before its end-to-end files", () => {
    expect(testsOf("App").filter((f) => f.startsWith("tests/inprocess/") || f.startsWith("tests/e2e/"))).toEqual([
      "tests/inprocess/apps.test.ts",
      "tests/e2e/apps.test.ts",
    ]);
    // Nothing of AppTemplate needs the engine: no end-to-end file names it.
    expect(testsOf("AppTemplate").filter((f) => f.startsWith("tests/inprocess/") || f.startsWith("tests/e2e/"))).toEqual([
      "tests/inprocess/apps.test.ts",
    ]);
  });

  it("finds, with --every, the e2e files that declare a kind, directly or through a shared module, and no other", () => {
    const e2e = testsOf("BgpPrefix", { every: true }).filter((f) => f.startsWith("tests/e2e/"));
    expect(e2e).toContain("tests/e2e/retries-go.test.ts");
    // adopt-yaml.test.ts declares nothing itself: adopt.ts's workspace (handmade.ts) has a BGP prefix.
    expect(e2e).toContain("tests/e2e/adopt-yaml.test.ts");
    expect(e2e).not.toContain("tests/e2e/vpc.test.ts");
  });

  it("lists as a kind's end-to-end proof only the files whose header names it, not those that merely declare it", () => {
    expect(e2eOnly(testsOf("Vpc"))).toEqual(["tests/e2e/vpc.test.ts"]);
    expect(testsOf("Vpc").filter((f) => f.startsWith("tests/inprocess/"))).toEqual([
      "tests/inprocess/fields.test.ts",
      "tests/inprocess/vpc.test.ts",
    ]);
    // Nothing of BgpPrefix needs the engine: its proof is tests/inprocess/network.test.ts alone.
    expect(e2eOnly(testsOf("BgpPrefix"))).toEqual([]);
    expect(testsOf("BgpPrefix").filter((f) => f.startsWith("tests/inprocess/"))).toEqual(["tests/inprocess/network.test.ts"]);
    expect(e2eOnly(testsOf("Vpc", { every: true })).length).toBeGreaterThan(e2eOnly(testsOf("Vpc")).length);
  });

  it("lists as a kind's emulator tests the files whose header names its collection, not those that merely use it", () => {
    const emulatorOnly = (files: string[]) => files.filter((f) => f.startsWith("packages/emulator/tests/"));
    expect(emulatorOnly(testsOf("Vpc"))).toEqual([
      "packages/emulator/tests/core-paging.test.ts",
      "packages/emulator/tests/part3-network-vpcs.test.ts",
    ]);
    // `firewall-rules` in the path, "firewall rules" in the header.
    expect(emulatorOnly(testsOf("FirewallRule"))).toEqual(["packages/emulator/tests/part3-network-firewall.test.ts"]);
  });

  it.each([...testFilesIn(INPROCESS).map((f) => `tests/inprocess/${f}`), ...testFilesIn(E2E).map((f) => `tests/e2e/${f}`)])(
    "%s: its Kinds: line names kinds only",
    (file) => {
      const named = kindsProvedBy(fs.readFileSync(path.join(REPO, file), "utf8"));
      expect(named.filter((k) => !kinds().includes(k))).toEqual([]);
    },
  );

  it("refuses a name that is no kind", () => {
    expect(() => testsOf("Nope")).toThrow("no kind Nope: resources/nope.ts does not exist");
  });
});
