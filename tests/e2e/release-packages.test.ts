/**
 * Each language's package from `npm run release` (scripts/release/), installed as a user of that
 * language installs it, in a fresh directory outside the repository, then the quickstart through
 * the real pulumi CLI against the emulator: up, a clean preview, destroy, nothing left.
 *
 *  - Python: the wheel, `pip install`ed into a fresh virtualenv (its dependencies from PyPI,
 *    through pip's cache).
 *  - Go: `go get <module>@v<version>` with release/go first on GOPROXY and no replace. A module
 *    cache of its own (GOMODCACHE), fed from the machine's download cache, so the SDK can only come
 *    from release/go, never from an earlier run; Go's build cache is the machine's.
 *  - Java: the quickstart's pom names release/maven as a repository and depends on the artifact,
 *    instead of compiling sdk/java's sources in. The repository's id is new each run, so Maven
 *    takes the jar from this release, not one ~/.m2 kept from an earlier run.
 *  - TypeScript: `npm install` of the SDK tarball into the program (its own node_modules).
 *
 * The plugin is this checkout's bin/pulumi-resource-svc, named by path in Pulumi.yaml as the
 * quickstarts name it (the self-contained plugin archives have their own test).
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { stripVTControlCharacters } from "node:util";
import { release } from "../../scripts/release";
import { escapeModulePath } from "../../scripts/release/go";
import { MAVEN_ARTIFACT } from "../../scripts/release/maven";
import { SDK_NAMES } from "../../scripts/schema";
import { changes, startE2E, type E2E } from "./harness";
import { describePluginQuickstart } from "./plugin-quickstart";
import { PYTHON_PROGRAM } from "./pythonSdk";

jest.setTimeout(900_000);

const REPO = path.join(__dirname, "..", "..");
const VERSION = (JSON.parse(fs.readFileSync(path.join(REPO, "package.json"), "utf8")) as { version: string }).version;
/** release/ for this file: a temp directory, built once (beforeAll) with the steps tested here. */
const OUT = fs.mkdtempSync(path.join(os.tmpdir(), "svc-release-packages-"));
const run = (file: string, args: string[], cwd: string, env: Record<string, string> = {}) =>
  execFileSync(file, args, { cwd, env: { ...process.env, ...env }, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });

/** The Go module cache of this file (see the header), in a temp directory of its own. */
const GO_MODCACHE = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "svc-release-gomod-")), "mod");
const machineGo = (name: string) => execFileSync("go", ["env", name], { encoding: "utf8" }).trim();
const GO_ENV = {
  GOMODCACHE: GO_MODCACHE,
  // release/go first; then what the machine already downloaded (a module cache's download
  // directory is a proxy of its own), then the machine's proxy.
  GOPROXY: `file://${OUT}/go,file://${machineGo("GOMODCACHE")}/cache/download,${machineGo("GOPROXY")}`,
  GONOSUMDB: SDK_NAMES.goModule,
  // -trimpath: the build cache keys a package by its directory otherwise, and this module cache
  // is new each run, so every build compiled the Pulumi SDK and its dependencies again (one
  // go-quickstart build with a fresh module cache: 66 s without it, 12 s with it).
  GOFLAGS: "-mod=mod -buildvcs=false -trimpath",
};

beforeAll(async () => {
  await release({ outDir: OUT, version: VERSION, only: ["python", "go", "maven", "nodejs"] });
});
afterAll(() => {
  fs.rmSync(OUT, { recursive: true, force: true });
  if (fs.existsSync(GO_MODCACHE)) run("go", ["clean", "-modcache"], os.tmpdir(), { GOMODCACHE: GO_MODCACHE });
  fs.rmSync(path.dirname(GO_MODCACHE), { recursive: true, force: true });
});

describe("release/", () => {
  it("lists every file it holds in SHA256SUMS, with its right sum", () => {
    const listed = fs
      .readFileSync(path.join(OUT, "SHA256SUMS"), "utf8")
      .trim()
      .split("\n")
      .map((l) => l.split("  ")[1])
      .sort();
    const files = fs
      .readdirSync(OUT, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && e.name !== "SHA256SUMS")
      .map((e) => path.relative(OUT, path.join(e.parentPath, e.name)))
      .sort();
    expect(listed).toEqual(files);
    expect(run("sha256sum", ["--check", "--quiet", "SHA256SUMS"], OUT)).toBe("");
    for (const f of [
      `python/${SDK_NAMES.python}-${VERSION}-py3-none-any.whl`,
      `python/${SDK_NAMES.python}-${VERSION}.tar.gz`,
      `nodejs/pulumi-svc-${VERSION}.tgz`,
      `nodejs/pulumi-svc-emulator-${VERSION}.tgz`,
      `nodejs/${SDK_NAMES.nodejs}-${VERSION}.tgz`,
      `go/${escapeModulePath(SDK_NAMES.goModule)}/@v/v${VERSION}.zip`,
      `maven/${MAVEN_ARTIFACT.groupId.replace(/\./g, "/")}/svc/${VERSION}/svc-${VERSION}-sources.jar`,
    ])
      expect(files).toContain(f);
  });
});

describe("Python: pip install of the wheel into a fresh virtualenv", () => {
  let e2e: E2E;
  let work: string;

  beforeAll(async () => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), "svc-release-python-"));
    const venv = path.join(work, "venv");
    run(process.env.PULUMI_SVC_PYTHON || "python3", ["-m", "venv", venv], work);
    const wheel = path.join(OUT, "python", `${SDK_NAMES.python}-${VERSION}-py3-none-any.whl`);
    run(path.join(venv, "bin", "pip"), ["install", "--disable-pip-version-check", "-q", wheel], work);
    const program = path.join(work, "program");
    fs.mkdirSync(program);
    const project = {
      name: "svc-release-python",
      runtime: { name: "python", options: { virtualenv: venv } },
      plugins: { providers: [{ name: "svc", path: path.join(REPO, "bin") }] },
    };
    fs.writeFileSync(path.join(program, "Pulumi.yaml"), JSON.stringify(project, null, 2));
    fs.writeFileSync(path.join(program, "__main__.py"), PYTHON_PROGRAM);
    e2e = await startE2E("release-python", { programDir: program });
  });
  afterAll(async () => {
    await e2e?.stop();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it("installs the release's version, with its plugin's name and version", () => {
    const python = path.join(work, "venv", "bin", "python");
    const script = `import importlib.metadata as m, importlib.resources as r; print(m.version("${SDK_NAMES.python}")); print(r.files("${SDK_NAMES.python}").joinpath("pulumi-plugin.json").read_text())`;
    const [installed, ...plugin] = run(python, ["-c", script], work).trim().split("\n");
    expect(installed).toBe(VERSION);
    expect(JSON.parse(plugin.join("\n"))).toEqual({ resource: true, name: "svc", version: VERSION, server: SDK_NAMES.pluginDownloadURL });
  });

  it("comes up with resources and an invoke, previews clean, and destroys everything", async () => {
    const result = await e2e.up([]);
    expect(changes(result)).toEqual({ create: 3 });
    const outputs = await e2e.outputs();
    expect(outputs.plan_id.value).toMatch(/^\d+$/);
    const vpc = (await e2e.emu.api.get(`/v1/vpcs/${await e2e.idOf("net")}`)).body;
    expect(outputs.vlan.value).toBe(vpc.vlan);
    expect(vpc.description).toBe("from python");
    // The schema's integers are Python ints (the plan's cpu, the VLAN tag, max_prefixes); the wide ASN a float, exact.
    expect(outputs.types.value).toEqual(["int", "int", "int", "float"]);
    const bgp = (await e2e.emu.api.get(`/v1/workspaces/${e2e.emu.workspaceId}/bgp`)).body;
    expect({ asn: bgp.data.asn, maxPrefixes: bgp.data.max_prefixes }).toEqual({ asn: 4200000000, maxPrefixes: 50 });
    expect((await e2e.preview()).changeSummary).toEqual({ same: 3 });
    await e2e.destroy();
    expect((await e2e.inventoryTotal()).total).toBe(0);
  });
});

describe("Go: go get of the module from release/go as GOPROXY, no replace", () => {
  describePluginQuickstart({
    example: "go-quickstart",
    project: "svc-go-quickstart",
    source: "main.go",
    description: (text) => `Description: pulumi.String("${text}")`,
    env: GO_ENV,
    lifecycleOnly: true,
    prepare: async (e2e) => {
      // The example requires the SDK at v0.0.0 through a replace: drop both, as a user's go.mod has neither.
      run("go", ["mod", "edit", `-dropreplace=${SDK_NAMES.goModule}`, `-droprequire=${SDK_NAMES.goModule}`], e2e.dir, GO_ENV);
      expect(fs.readFileSync(path.join(e2e.dir, "go.mod"), "utf8")).not.toContain("replace");
      run("go", ["get", `${SDK_NAMES.goModule}@v${VERSION}`], e2e.dir, GO_ENV);
      expect(fs.readFileSync(path.join(e2e.dir, "go.mod"), "utf8")).toContain(`${SDK_NAMES.goModule} v${VERSION}`);
      // Where the build takes the SDK from: the module cache, filled from release/go.
      const dir = run("go", ["list", "-m", "-f", "{{.Dir}}", SDK_NAMES.goModule], e2e.dir, GO_ENV).trim();
      expect(dir).toBe(path.join(GO_MODCACHE, `${escapeModulePath(SDK_NAMES.goModule)}@v${VERSION}`));
      run("go", ["build", "-o", os.devNull, "."], e2e.dir, GO_ENV);
    },
  });
});

/**
 * Maven's JVM for these short runs (the Java language host starts Maven twice per operation):
 * compiled by C1 alone, with the serial collector. `mvn help:evaluate`, measured twice each:
 * 2.1 s wall and 3.5 s CPU as it comes, 1.4 s and 1.8 s so. Not for the release's own build
 * (scripts/release/maven.ts), whose compile of the whole SDK is what C2 is for.
 */
const MAVEN_ENV = { MAVEN_OPTS: "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC" };

describe("Java: the pom depends on the artifact in release/maven", () => {
  describePluginQuickstart({
    example: "java-quickstart",
    project: "svc-java-quickstart",
    source: "src/main/java/quickstart/App.java",
    description: (text) => `.description("${text}")`,
    env: MAVEN_ENV,
    lifecycleOnly: true,
    prepare: async (e2e) => {
      const pomFile = path.join(e2e.dir, "pom.xml");
      let pom = fs.readFileSync(pomFile, "utf8");
      const cut = (re: RegExp) => {
        if (!re.test(pom)) throw new Error(`pom.xml has no ${re}`);
        pom = pom.replace(re, "");
      };
      // No SDK sources compiled in, nor the resources its Gradle build would write: the jar has both.
      cut(/\s*<resources>[\s\S]*?<\/resources>/);
      cut(/\s*<plugin>\s*<groupId>org\.codehaus\.mojo<\/groupId>\s*<artifactId>build-helper-maven-plugin<\/artifactId>[\s\S]*?<\/plugin>/);
      fs.rmSync(path.join(e2e.dir, "sdk-resources"), { recursive: true });
      const repository = `svc-release-${process.pid}-${Date.now()}`;
      pom = pom.replace(
        "<dependencies>",
        `<repositories>\n    <repository><id>${repository}</id><url>file://${OUT}/maven</url></repository>\n  </repositories>\n\n  <dependencies>\n    <dependency><groupId>${MAVEN_ARTIFACT.groupId}</groupId><artifactId>${MAVEN_ARTIFACT.artifactId}</artifactId><version>${VERSION}</version></dependency>`,
      );
      fs.writeFileSync(pomFile, pom);
      // Maven takes a release version as immutable: a copy an earlier build left in the local
      // repository (~/.m2) would be used instead of this release's, whatever repository it names.
      const localRepo = stripVTControlCharacters(
        run(
          "mvn",
          ["--batch-mode", "--quiet", "help:evaluate", "-Dexpression=settings.localRepository", "-DforceStdout"],
          e2e.dir,
          MAVEN_ENV,
        ),
      ).trim();
      fs.rmSync(path.join(localRepo, ...MAVEN_ARTIFACT.groupId.split("."), MAVEN_ARTIFACT.artifactId, VERSION), {
        recursive: true,
        force: true,
      });
      // Resolve and compile once, so a missing artifact fails here, plainly; Maven records which
      // repository each artifact it fetched came from beside it (_remote.repositories).
      run("mvn", ["--batch-mode", "--quiet", "compile"], e2e.dir, MAVEN_ENV);
      const fetched = path.join(localRepo, ...MAVEN_ARTIFACT.groupId.split("."), MAVEN_ARTIFACT.artifactId, VERSION);
      expect(fs.existsSync(path.join(fetched, `${MAVEN_ARTIFACT.artifactId}-${VERSION}.jar`))).toBe(true);
      const remote = fs.readFileSync(path.join(fetched, "_remote.repositories"), "utf8");
      expect(remote).toContain(`${MAVEN_ARTIFACT.artifactId}-${VERSION}.jar>${repository}=`);
    },
  });
});

describe("TypeScript: npm install of the SDK tarball", () => {
  describePluginQuickstart({
    example: "ts-plugin-quickstart",
    project: "svc-ts-plugin-quickstart",
    source: "index.ts",
    description: (text) => `description: "${text}"`,
    lifecycleOnly: true,
    prepare: async (e2e) => {
      // The harness links the checkout's node_modules into the program: this one installs its own.
      fs.unlinkSync(path.join(e2e.dir, "node_modules"));
      const tarball = path.join(OUT, "nodejs", `${SDK_NAMES.nodejs}-${VERSION}.tgz`);
      run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", tarball, "typescript@5", "@types/node@20"], e2e.dir);
      const installed = JSON.parse(fs.readFileSync(path.join(e2e.dir, "node_modules", SDK_NAMES.nodejs, "package.json"), "utf8"));
      expect(installed.version).toBe(VERSION);
    },
  });
});
