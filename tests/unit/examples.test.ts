/**
 * Copies that must stay together: the TypeScript-on-plugin quickstart is the quickstart's program
 * with the plugin SDK's import (each face shows the same stack), so a change to one is a change
 * to both.
 */
import * as fs from "node:fs";
import * as path from "node:path";

const EXAMPLES = path.join(__dirname, "..", "..", "examples");
/** The program below its header comment, with the package it imports named `<package>`. */
const programOf = (example: string) =>
  fs
    .readFileSync(path.join(EXAMPLES, example, "index.ts"), "utf8")
    .replace(/^\/\*\*[\s\S]*?\*\/\n/, "")
    .replace(/from "pulumi-svc(-sdk)?"/, 'from "<package>"');

describe("examples that are one program on two faces", () => {
  it("the TypeScript-on-plugin quickstart is the quickstart with pulumi-svc-sdk's import", () => {
    expect(fs.readFileSync(path.join(EXAMPLES, "ts-plugin-quickstart", "index.ts"), "utf8")).toContain('from "pulumi-svc-sdk"');
    expect(programOf("ts-plugin-quickstart")).toBe(programOf("quickstart"));
  });
});
