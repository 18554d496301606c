/**
 * A resource's tests are found from its name (scripts/testsOf.js, `npm run test:kind -- <Kind>`):
 * every kind has its unit file, the emulator package's tests of its API and at least one end-to-end file.
 */
import { kinds } from "../../resources/kinds";
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a plain Node script, not built
const { testsOf } = require("../../scripts/testsOf.js") as { testsOf(kind: string): string[] };

describe("testsOf", () => {
  it.each(kinds())("finds %s's unit, emulator and end-to-end tests", (kind) => {
    const files = testsOf(kind);
    const module = kind[0].toLowerCase() + kind.slice(1);
    expect(files[0]).toBe(`tests/unit/resources/${module}.test.ts`);
    expect(files.filter((f) => f.startsWith("packages/emulator/tests/")).length).toBeGreaterThan(0);
    expect(files.filter((f) => f.startsWith("tests/e2e/")).length).toBeGreaterThan(0);
  });

  it("finds the e2e files that declare a kind, directly or through a shared module, and no other", () => {
    const e2e = testsOf("BgpPrefix").filter((f) => f.startsWith("tests/e2e/"));
    expect(e2e).toContain("tests/e2e/network.test.ts");
    // adopt-yaml.test.ts declares nothing itself: adopt.ts's workspace (handmade.ts) has a BGP prefix.
    expect(e2e).toContain("tests/e2e/adopt-yaml.test.ts");
    expect(e2e).not.toContain("tests/e2e/vpc.test.ts");
  });

  it("refuses a name that is no kind", () => {
    expect(() => testsOf("Nope")).toThrow("no kind Nope: resources/nope.ts does not exist");
  });
});
