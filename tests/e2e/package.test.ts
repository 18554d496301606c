/**
 * The package as a user gets it: `npm pack`, repacked under a scoped name (`@acme/pulumi-svc`),
 * installed from the tarball into a fresh project outside the repository next to that project's
 * own @pulumi/pulumi, the emulator installed on its own from its package's tarball
 * (packages/emulator, `npx svc-emulator`), and a stack brought up, previewed clean and destroyed
 * through the real pulumi engine.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { LocalWorkspace, type Stack } from "@pulumi/pulumi/automation";

jest.setTimeout(600_000);

const REPO = path.resolve(__dirname, "..", "..");
const SCOPED = "@acme/pulumi-svc";
const EMULATOR = path.join(REPO, "packages", "emulator");
/**
 * The project's @pulumi/policy where it must be older than npm's newest: 1.20 and later want
 * @pulumi/pulumi ^3.204, so beside an older SDK npm would nest a second SDK for them
 * (SVC_PACKAGE_POLICY, set by the matrix's floor: scripts/matrix.js).
 */
const POLICY = process.env.SVC_PACKAGE_POLICY;
/** The project's own SDK: the version this repository tests with, or SVC_PACKAGE_SDK (e.g. "latest") to measure another. */
const SDK =
  process.env.SVC_PACKAGE_SDK ??
  (JSON.parse(fs.readFileSync(path.join(REPO, "package.json"), "utf8")) as { devDependencies: Record<string, string> }).devDependencies[
    "@pulumi/pulumi"
  ];

/** What tsc printed when it failed, "" when it passed: a failure shows the compiler's own errors. */
const compileErrors = (compile: () => unknown): string => {
  try {
    compile();
    return "";
  } catch (err) {
    return String((err as { stdout?: string }).stdout ?? err);
  }
};

const run = (cmd: string, args: string[], cwd: string) =>
  execFileSync(cmd, args, {
    cwd,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, npm_config_update_notifier: "false" },
  });

/** npm pack of `dir` into `dest` (scripts off: dist is built already); the tarball's path. Once per directory: the cases share the tarball. */
const packed = new Map<string, string>();
function pack(dir: string, dest: string): string {
  if (!packed.has(dir)) {
    const out = run("npm", ["pack", "--ignore-scripts", "--pack-destination", dest], dir);
    packed.set(dir, path.join(dest, out.trim().split("\n").pop()!));
  }
  return packed.get(dir)!;
}

/** Starts the installed emulator package's bin and resolves its first stdout line. */
function startEmulator(cwd: string): Promise<{ child: ChildProcess; info: { url: string; token: string; workspaceId: string } }> {
  const child = spawn("npx", ["--no-install", "svc-emulator", "--port", "0"], { cwd, stdio: ["ignore", "pipe", "pipe"], detached: true });
  return new Promise((resolve, reject) => {
    let out = "";
    let err = "";
    child.stderr!.on("data", (d) => (err += d));
    child.stdout!.on("data", (d) => {
      out += d;
      const nl = out.indexOf("\n");
      if (nl >= 0) resolve({ child, info: JSON.parse(out.slice(0, nl)) });
    });
    child.on("exit", (code) => reject(new Error(`svc-emulator exited (${code}) before its first line: ${err}`)));
  });
}

/** A TypeScript program as a user writes it, reading typed outputs (Instance.boot was once undeclared). */
const PROGRAM = `
import * as pulumi from "@pulumi/pulumi";
import * as svc from "${SCOPED}";

const plan = svc.getPlanOutput({ name: "lightning-1" });
const net = new svc.Vpc("net", { name: "pkg-net", description: "from a tarball", range: "10.9.0.0/16" });
const vm = new svc.Instance("vm", { name: "pkg-vm", planId: plan.id, region: "NA_01", vpcIds: [net.id] });
export const planId: pulumi.Output<string> = plan.id;
export const vlan: pulumi.Output<number> = net.vlan;
export const boot: pulumi.Output<string> = vm.boot;
`;

/** The tsconfig.json of \`pulumi new typescript\`: strict, no skipLibCheck, no esModuleInterop. */
const STOCK_TSCONFIG = {
  compilerOptions: {
    strict: true,
    outDir: "bin",
    target: "es2020",
    module: "commonjs",
    moduleResolution: "node",
    sourceMap: true,
    experimentalDecorators: true,
    pretty: true,
    noFallthroughCasesInSwitch: true,
    noImplicitReturns: true,
    forceConsistentCasingInFileNames: true,
  },
  files: ["index.ts"],
};

describe("the package installed from a tarball under a scoped name", () => {
  let work: string;
  let project: string;
  let emulator: { child: ChildProcess; info: { url: string; token: string; workspaceId: string } } | undefined;
  let stack: Stack;
  let scoped: string;
  let pulumiEnv: Record<string, string>;

  beforeAll(() => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), "svc-package-"));
    project = path.join(work, "user-stack");
    fs.mkdirSync(project);
  });
  afterAll(async () => {
    if (emulator?.child.pid) process.kill(-emulator.child.pid, "SIGTERM");
    fs.rmSync(work, { recursive: true, force: true });
  });

  it("packs only what users run: built code, the policy pack, README, LICENSE", () => {
    const tarball = pack(REPO, work);
    const files = run("tar", ["-tzf", tarball], work).trim().split("\n");
    expect(files).toEqual(
      expect.arrayContaining([
        "package/package.json",
        "package/README.md",
        "package/LICENSE",
        "package/dist/index.js",
        "package/dist/index.d.ts",
        "package/dist/recover/cli.js",
        "package/policy/index.js",
        "package/policy/package.json",
        "package/policy/PulumiPolicy.yaml",
        "package/dist/policy/pack.js",
      ]),
    );
    expect(
      files.filter(
        (f) =>
          /^package\/(tests|bench|scripts|\.ci|examples|provider|resources|packages|emulator)\b|^package\/dist\/emulator\//.test(f) ||
          /\.map$|tsbuildinfo/.test(f),
      ),
    ).toEqual([]);
  });

  it("packs the emulator apart, as its own package: its built code, README and bin", () => {
    const files = run("tar", ["-tzf", pack(EMULATOR, work)], work)
      .trim()
      .split("\n");
    expect(files).toEqual(
      expect.arrayContaining(["package/package.json", "package/README.md", "package/dist/cli.js", "package/dist/testing.d.ts"]),
    );
    expect(files.filter((f) => /^package\/(src|tests)\//.test(f) || /\.map$|tsbuildinfo/.test(f))).toEqual([]);
    const manifest = JSON.parse(run("tar", ["-xzOf", pack(EMULATOR, work), "package/package.json"], work)) as {
      bin: Record<string, string>;
    };
    expect(manifest.bin).toEqual({ "svc-emulator": "dist/cli.js" });
  });

  it("installs beside the project's own @pulumi/pulumi with one SDK copy", () => {
    // Repack under a scoped name: nothing in the package may depend on being called pulumi-svc.
    const unpacked = path.join(work, "unpacked");
    fs.mkdirSync(unpacked);
    run("tar", ["-xzf", pack(REPO, work), "-C", unpacked], work);
    const manifest = path.join(unpacked, "package", "package.json");
    fs.writeFileSync(manifest, JSON.stringify({ ...JSON.parse(fs.readFileSync(manifest, "utf8")), name: SCOPED }, null, 2));
    scoped = pack(path.join(unpacked, "package"), work);

    const manifestOfProject = {
      name: "user-stack",
      private: true,
      main: "index.ts",
      dependencies: { [SCOPED]: `file:${scoped}`, "@pulumi/pulumi": SDK, ...(POLICY ? { "@pulumi/policy": POLICY } : {}) },
      // The emulator is a package of its own, which a user's CI installs for its tests.
      devDependencies: { "@types/node": "^20", typescript: "^5", "pulumi-svc-emulator": `file:${pack(EMULATOR, work)}` },
    };
    fs.writeFileSync(path.join(project, "package.json"), JSON.stringify(manifestOfProject, null, 2));
    fs.writeFileSync(path.join(project, "Pulumi.yaml"), "name: user-stack\nruntime:\n  name: nodejs\n  options:\n    typescript: true\n");
    fs.writeFileSync(path.join(project, "tsconfig.json"), JSON.stringify(STOCK_TSCONFIG, null, 2));
    fs.writeFileSync(path.join(project, "index.ts"), PROGRAM);
    run("npm", ["install", "--no-audit", "--no-fund"], project);
    const copies = run("npm", ["ls", "@pulumi/pulumi", "--all", "--parseable"], project).trim().split("\n").filter(Boolean);
    expect(copies).toEqual([path.join(project, "node_modules", "@pulumi", "pulumi")]);
  });

  it("type-checks under the stock pulumi new typescript tsconfig, and a misspelt lookup argument does not compile", () => {
    // One compiler run for both (each loads the SDK's and the package's types anew): the stock
    // tsconfig, extended by a file with a misspelt lookup argument. The only error is that one.
    fs.writeFileSync(
      path.join(project, "typo.ts"),
      `import * as svc from "${SCOPED}";\nexport const p = svc.getPlansOutput({ grup: "RYZEN" });\n`,
    );
    fs.writeFileSync(
      path.join(project, "tsconfig.typo.json"),
      JSON.stringify({ extends: "./tsconfig.json", files: ["index.ts", "typo.ts"] }),
    );
    const output = compileErrors(() =>
      run("npx", ["--no-install", "tsc", "--noEmit", "--pretty", "false", "-p", "tsconfig.typo.json"], project),
    );
    fs.rmSync(path.join(project, "typo.ts"));
    fs.rmSync(path.join(project, "tsconfig.typo.json"));
    const errors = output.split("\n").filter((line) => /error TS\d+/.test(line));
    expect(errors).toEqual([expect.stringMatching(/^typo\.ts\(2,\d+\): error TS\d+: .*'grup' does not exist in type/)]);
  });

  it("runs the emulator package's bin with npx svc-emulator (the same first JSON line)", async () => {
    emulator = await startEmulator(project);
    expect(emulator.info).toEqual({
      url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
      token: expect.any(String),
      workspaceId: expect.any(String),
      staffToken: expect.any(String),
    });
  });

  it("brings a stack up, previews it clean, svc-recover (npx) finds nothing pending and changes nothing, and destroys it", async () => {
    const home = path.join(work, ".pulumi-home");
    const backend = path.join(work, ".pulumi-state");
    fs.mkdirSync(home);
    fs.mkdirSync(backend);
    const envVars = (pulumiEnv = {
      PULUMI_HOME: home,
      PULUMI_BACKEND_URL: `file://${backend}`,
      PULUMI_CONFIG_PASSPHRASE: "package-e2e",
      PULUMI_SKIP_UPDATE_CHECK: "true",
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
      PULUMI_AUTOMATION_API_SKIP_VERSION_CHECK: "true",
      SVC_BASE_URL: "",
      SVC_TOKEN: "",
      SVC_WORKSPACE_ID: "",
    });
    stack = await LocalWorkspace.createOrSelectStack(
      { stackName: "dev", workDir: project },
      { workDir: project, envVars, pulumiHome: home },
    );
    const { url, token, workspaceId } = emulator!.info;
    await stack.setAllConfig({
      "svc:baseUrl": { value: url },
      "svc:token": { value: token, secret: true },
      "svc:workspaceId": { value: workspaceId },
    });

    const up = await stack.up({ color: "never" });
    expect(up.summary.resourceChanges).toEqual({ create: 3 });
    expect(up.outputs.planId.value).toMatch(/^\d+$/);
    expect(up.outputs.boot.value).toBe("DISK");
    const state = (await stack.exportStack()).deployment as { resources: Array<{ type: string; inputs: Record<string, unknown> }> };
    const vpc = state.resources.find((r) => r.type === "pulumi-nodejs:dynamic/svc:Vpc")!;
    expect(vpc.inputs.__provider).toContain(`"${SCOPED}/provider"`);

    const preview = await stack.preview({ color: "never" });
    expect(preview.changeSummary).toEqual({ same: 3 });

    // svc-recover as a user runs it after a CI job was killed, here on a stack that has nothing pending.
    const recovered = execFileSync("npx", ["--no-install", "svc-recover", "--stack", "dev"], {
      cwd: project,
      env: { ...process.env, ...pulumiEnv },
      encoding: "utf8",
    });
    expect(recovered).toMatch(/stack dev has no pending operations: it is ready for pulumi up/);
    expect((await stack.exportStack()).deployment.resources).toEqual(state.resources);

    await stack.destroy({ color: "never" });
    const inventory = (await (await fetch(`${url}/_emulator/inventory`)).json()) as { total: number };
    expect(inventory.total).toBe(0);
  });

  it("prices the stack with its policy pack where npm put it (--policy-pack node_modules/<package>/policy)", async () => {
    const preview = await stack.preview({ color: "never", policyPacks: [path.join(project, "node_modules", SCOPED, "policy")] });
    expect(preview.stdout).toMatch(/svc cost of stack dev: \$[\d.]+\/month \(\$[\d.]+\/hour\)/);
    expect(preview.stdout).toMatch(/vm \(Instance\): \$[\d.]+\/month = plan lightning-1 /);
  });

  it("installs its provider plugin with pulumi plugin install --file, and a YAML stack uses it with no plugins section", async () => {
    // As docs/installation-configuration.md says: an npm prefix holding the package and its SDK, with the launcher on top.
    const pluginDir = path.join(work, "svc-plugin");
    run(
      "npm",
      [
        "install",
        "--prefix",
        pluginDir,
        "--no-audit",
        "--no-fund",
        // What it installs, the project's install fetched a minute ago: npm's cache answers without asking the registry.
        "--prefer-offline",
        scoped,
        `@pulumi/pulumi@${SDK}`,
        ...(POLICY ? [`@pulumi/policy@${POLICY}`] : []),
      ],
      work,
    );
    fs.copyFileSync(
      path.join(pluginDir, "node_modules", SCOPED, "bin", "pulumi-resource-svc"),
      path.join(pluginDir, "pulumi-resource-svc"),
    );
    const version = (JSON.parse(fs.readFileSync(path.join(REPO, "package.json"), "utf8")) as { version: string }).version;
    execFileSync("pulumi", ["plugin", "install", "resource", "svc", version, "--file", pluginDir], {
      env: { ...process.env, ...pulumiEnv },
      stdio: "pipe",
    });

    const yamlProject = path.join(work, "yaml-stack");
    fs.mkdirSync(yamlProject);
    const program = {
      name: "yaml-stack",
      runtime: "yaml",
      resources: {
        net: { type: "svc:index:Vpc", properties: { name: "yaml-net", description: "from the installed plugin", range: "10.8.0.0/16" } },
      },
      outputs: { vlan: "${net.vlan}" },
    };
    fs.writeFileSync(path.join(yamlProject, "Pulumi.yaml"), JSON.stringify(program, null, 2));
    const yamlStack = await LocalWorkspace.createOrSelectStack(
      { stackName: "dev", workDir: yamlProject },
      { workDir: yamlProject, envVars: pulumiEnv, pulumiHome: pulumiEnv.PULUMI_HOME },
    );
    const { url, token, workspaceId } = emulator!.info;
    await yamlStack.setAllConfig({
      "svc:baseUrl": { value: url },
      "svc:token": { value: token, secret: true },
      "svc:workspaceId": { value: workspaceId },
    });
    const up = await yamlStack.up({ color: "never" });
    expect(up.summary.resourceChanges).toEqual({ create: 2 });
    expect(typeof up.outputs.vlan.value).toBe("number");
    await yamlStack.destroy({ color: "never" });
    const inventory = (await (await fetch(`${url}/_emulator/inventory`)).json()) as { total: number };
    expect(inventory.total).toBe(0);
  });
});
