/**
 * Copies that must stay together: the TypeScript-on-plugin quickstart is the quickstart's program
 * with the plugin SDK's import (each face shows the same stack), so a change to one is a change
 * to both.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { SDK_NAMES } from "../../scripts/schema";

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

describe("the Java quickstart's stand-ins for the Gradle build's resources", () => {
  it("sit in the SDK's package and name the plugin as sdk/java/build.gradle's genPulumiResources does", () => {
    const dir = path.join(EXAMPLES, "java-quickstart", "sdk-resources", ...`${SDK_NAMES.javaBasePackage}.svc`.split("."));
    const gradle = fs.readFileSync(path.join(EXAMPLES, "..", "sdk", "java", "build.gradle"), "utf8");
    const written = JSON.parse(fs.readFileSync(path.join(dir, "plugin.json"), "utf8")) as Record<string, unknown>;
    expect(written).toEqual({ resource: true, name: "svc", server: SDK_NAMES.pluginDownloadURL, version: "${svc.version}" });
    expect(gradle).toContain(`server "${SDK_NAMES.pluginDownloadURL}"`);
    expect(fs.readFileSync(path.join(dir, "version.txt"), "utf8").trim()).toBe("${svc.version}");
  });
});

describe("examples/java-quickstart/pom.xml", () => {
  it("declares the SDK resources at the package's version", () => {
    const pom = fs.readFileSync(path.join(EXAMPLES, "java-quickstart", "pom.xml"), "utf8");
    const { version } = JSON.parse(fs.readFileSync(path.join(EXAMPLES, "..", "package.json"), "utf8")) as { version: string };
    expect(pom).toContain(`<svc.version>${version}</svc.version>`);
  });
});
