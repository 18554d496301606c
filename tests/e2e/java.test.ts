/**
 * The quickstart as a Java program (examples/java-quickstart) on the generated Java SDK (sdk/java,
 * compiled in by its pom.xml), run by the Java language host that scripts/ensure-pulumi.sh builds
 * (pulumi-language-java, which runs `mvn compile exec:java`). Maven and a JDK come from the
 * machine; com.pulumi:pulumi and the Maven plugins from Maven Central into ~/.m2 (outside the work
 * tree). Each operation starts Maven twice (plugin discovery, then the program), so this is the
 * slowest language.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { describePluginQuickstart } from "./plugin-quickstart";

jest.setTimeout(900_000);

const REPO = path.join(__dirname, "..", "..");

describePluginQuickstart({
  example: "java-quickstart",
  project: "svc-java-quickstart",
  source: "src/main/java/quickstart/App.java",
  description: (text) => `.description("${text}")`,
  // Download what Maven needs and compile once, so a missing dependency fails here, plainly.
  prepare: async (e2e) => {
    execFileSync("mvn", ["--batch-mode", "--quiet", "compile"], { cwd: e2e.dir, stdio: ["ignore", "pipe", "pipe"] });
  },
});

describe("examples/java-quickstart/pom.xml", () => {
  it("declares the SDK resources at the package's version", () => {
    const pom = fs.readFileSync(path.join(REPO, "examples", "java-quickstart", "pom.xml"), "utf8");
    const { version } = JSON.parse(fs.readFileSync(path.join(REPO, "package.json"), "utf8"));
    expect(pom).toContain(`<svc.version>${version}</svc.version>`);
  });
});
