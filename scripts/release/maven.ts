/**
 * release/maven/: a Maven repository holding the Java SDK (sdk/java) as
 * `<SDK_NAMES.javaBasePackage>:svc:<version>` — its jar, sources jar and pom, with the metadata
 * and checksums `mvn deploy` writes — so a program's pom names the repository and depends on the
 * artifact like any library. sdk/java ships Gradle build files only; the pom here is written in a
 * scratch directory, with the generated Gradle build's coordinates, dependencies and the two
 * resources its `genPulumiResources` task writes (version.txt, plugin.json), and built with the
 * machine's Maven and JDK. Nothing is installed into ~/.m2 (maven.install.skip), so a program
 * finds the SDK only in the repository it names.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { SDK_NAMES } from "../schema";
import { inScratch, REPO, run, type Step } from "./common";

export const MAVEN_ARTIFACT = { groupId: SDK_NAMES.javaBasePackage, artifactId: "svc" } as const;

/** `group:artifact:version` of each `implementation(...)` in the generated build.gradle. */
function gradleDependencies(gradle: string): Array<{ groupId: string; artifactId: string; version: string }> {
  return [...gradle.matchAll(/^\s*implementation\("([^:"]+):([^:"]+):([^:"]+)"\)/gm)].map(([, groupId, artifactId, version]) => ({
    groupId,
    artifactId,
    version,
  }));
}

function pom(version: string, gradle: string): string {
  const deps = gradleDependencies(gradle);
  const pulumi = deps.find((d) => d.groupId === "com.pulumi" && d.artifactId === "pulumi");
  if (pulumi?.version !== SDK_NAMES.javaSdk)
    throw new Error(`sdk/java/build.gradle depends on com.pulumi:pulumi ${pulumi?.version}, not ${SDK_NAMES.javaSdk}`);
  const plugin = (artifactId: string, v: string, extra = "") =>
    `      <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>${artifactId}</artifactId><version>${v}</version>${extra}</plugin>`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
         xsi:schemaLocation="http://maven.apache.org/POM/4.0.0 http://maven.apache.org/xsd/maven-4.0.0.xsd">
  <modelVersion>4.0.0</modelVersion>
  <groupId>${MAVEN_ARTIFACT.groupId}</groupId>
  <artifactId>${MAVEN_ARTIFACT.artifactId}</artifactId>
  <version>${version}</version>
  <packaging>jar</packaging>
  <name>svc</name>
  <description>The Pulumi SDK of the svc provider plugin (pulumi-svc), generated from its schema</description>
  <licenses>
    <license><name>The Apache License, Version 2.0</name><url>http://www.apache.org/licenses/LICENSE-2.0.txt</url></license>
  </licenses>
  <properties>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
    <maven.compiler.release>11</maven.compiler.release>
  </properties>
  <dependencies>
${deps.map((d) => `    <dependency><groupId>${d.groupId}</groupId><artifactId>${d.artifactId}</artifactId><version>${d.version}</version></dependency>`).join("\n")}
  </dependencies>
  <build>
    <plugins>
${plugin("maven-compiler-plugin", "3.13.0")}
${plugin("maven-resources-plugin", "3.3.1")}
${plugin("maven-surefire-plugin", "3.5.2")}
${plugin("maven-jar-plugin", "3.4.2")}
${plugin("maven-source-plugin", "3.3.1", "<executions><execution><id>sources</id><goals><goal>jar-no-fork</goal></goals></execution></executions>")}
${plugin("maven-install-plugin", "3.1.3")}
${plugin("maven-deploy-plugin", "3.1.3")}
    </plugins>
  </build>
</project>
`;
}

function filesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name));
}

export const maven: Step = async (outDir, version) => {
  const into = path.join(outDir, "maven");
  fs.mkdirSync(into, { recursive: true });
  const sdk = path.join(REPO, "sdk", "java");
  await inScratch("sdk-java", async (scratch) => {
    fs.writeFileSync(path.join(scratch, "pom.xml"), pom(version, fs.readFileSync(path.join(sdk, "build.gradle"), "utf8")));
    fs.cpSync(path.join(sdk, "src", "main", "java"), path.join(scratch, "src", "main", "java"), { recursive: true });
    // What build.gradle's genPulumiResources writes: the SDK finds its plugin's name and version there.
    const resources = path.join(scratch, "src", "main", "resources", ...`${SDK_NAMES.javaBasePackage}.svc`.split("."));
    fs.mkdirSync(resources, { recursive: true });
    fs.writeFileSync(path.join(resources, "version.txt"), version);
    fs.writeFileSync(
      path.join(resources, "plugin.json"),
      JSON.stringify({ resource: true, name: "svc", server: SDK_NAMES.pluginDownloadURL, version }, null, 2),
    );
    run(
      "mvn",
      [
        "--batch-mode",
        "--quiet",
        "deploy",
        "-Dmaven.test.skip=true",
        "-Dmaven.install.skip=true",
        `-DaltDeploymentRepository=release::file://${path.resolve(into)}`,
      ],
      { cwd: scratch },
    );
  });
  const base = path.join(into, ...MAVEN_ARTIFACT.groupId.split("."), MAVEN_ARTIFACT.artifactId);
  const jar = path.join(base, version, `${MAVEN_ARTIFACT.artifactId}-${version}.jar`);
  if (!fs.existsSync(jar)) throw new Error(`mvn deploy wrote no ${path.relative(outDir, jar)}`);
  return filesUnder(base);
};
