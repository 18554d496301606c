/** A release says what it holds: CHANGELOG.md has the section of package.json's version, which `npm run release` requires. */
import * as fs from "node:fs";
import * as path from "node:path";
import { changelogHasSection } from "../../scripts/release";

const REPO = path.join(__dirname, "..", "..");
const read = (file: string) => fs.readFileSync(path.join(REPO, file), "utf8");

describe("the changelog's sections", () => {
  it("has the section of package.json's version", () => {
    const { version } = JSON.parse(read("package.json")) as { version: string };
    expect(changelogHasSection(read("CHANGELOG.md"), version)).toBe(true);
  });

  it.each([
    ["## 0.1.0\n", "0.1.0", true],
    ["## 0.1.0 (unreleased)\n", "0.1.0", true],
    ["### 0.1.0\n", "0.1.0", false],
    ["## 0.1.01\n", "0.1.0", false],
    ["## 0x1y0\n", "0.1.0", false],
    ["text\n## 1.0.0-rc.1+b\n", "1.0.0-rc.1+b", true],
  ])("%j holds the section of %s: %s", (text, version, expected) => {
    expect(changelogHasSection(text, version)).toBe(expected);
  });
});
