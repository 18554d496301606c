#!/usr/bin/env node
/**
 * `npm test`: builds, then runs jest once per entry of the version matrix (scripts/matrix.js),
 * each with its own toolchain, obtained here so the README's one command needs nothing installed
 * by hand:
 *
 *  - Node.js from scripts/ensure-node.sh: jest itself runs on it, and it is first on PATH for the
 *    `node` the CLI's language host, the dynamic-provider host, the plugin and policy packs start;
 *  - the pulumi CLI and its language hosts from scripts/ensure-pulumi.sh <version>, first on PATH
 *    (jest's global setup also asks for it, through PULUMI_SVC_CLI);
 *  - for an entry whose SDK is not the repository's: the package as a user installs it, `npm pack`
 *    installed beside that @pulumi/pulumi (and @pulumi/policy) in a fresh directory, which the
 *    e2e harness runs programs against (PULUMI_SVC_PACKAGE_REPO), and whose SDK the tests
 *    themselves load (jest.config.js maps @pulumi/pulumi there), so the automation API is the
 *    CLI's own age.
 *
 * It does not lint: `npm run lint` is a step of its own (.ci/run runs both), so a test run, and
 * `npm run test:kind`'s above all, waits on no eslint, knip or type check of the whole repository.
 *
 *   npm test                                   every entry (CI)
 *   npm test -- tests/e2e/k3s.test.ts          the newest entry, those files (jest's own arguments pass on)
 *   PULUMI_SVC_MATRIX=floor npm test           one entry, its files
 *
 * With `--json --outputFile=<file>` (.ci/run), the entries' jest results are merged into that
 * file: jest's own counts, summed. What each entry ran (the versions measured, not declared: a
 * difference fails the run) and its counts and time go to .pulumi-test/matrix.json, from which
 * `npm run matrix` writes the table of tested versions in docs/installation-configuration.md (scripts/matrixTable.js).
 */
const { execFileSync, spawn } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const readline = require("node:readline");
const { MATRIX, REPO_SDK } = require("./matrix");

const REPO = path.join(__dirname, "..");
const RECORD = path.join(REPO, ".pulumi-test", "matrix.json");
const JEST = path.join(REPO, "node_modules", "jest", "bin", "jest.js");

const say = (line) => console.error(`test: ${line}`);

/**
 * A run-wide Node.js compile cache (NODE_COMPILE_CACHE, Node.js 22.1 and later; 20 ignores it),
 * inherited by every node the run starts through the engine: each program and provider host
 * loads @pulumi/pulumi and the package again, and the cache spares compiling them each time. Four
 * e2e files, two runs each, measured by process accounting: 52.5 and 49.6 s of CPU without it,
 * 42.2 and 44.4 s with it. It lives in a temporary directory removed after the run, so no run
 * starts from another's; one the caller set is left as it is.
 */
function compileCache() {
  if (process.env.NODE_COMPILE_CACHE) return () => {};
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "svc-node-cache-"));
  process.env.NODE_COMPILE_CACHE = dir;
  return () => fs.rmSync(dir, { recursive: true, force: true });
}

/** Runs a script of scripts/ that prints a directory as its last stdout line; that directory. */
function ensure(script, args) {
  const out = execFileSync("bash", [path.join(__dirname, script), ...args], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
  return out.trim().split("\n").pop();
}

/** Splits jest's arguments: test paths, --json/--outputFile (which this script answers), the rest. */
function parseArgs(argv) {
  const patterns = [];
  const rest = [];
  let outputFile;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--json") continue;
    if (arg.startsWith("--outputFile=")) outputFile = arg.slice("--outputFile=".length);
    else if (arg === "--outputFile") outputFile = argv[++i];
    else if (arg.startsWith("-")) rest.push(arg);
    else patterns.push(arg);
  }
  return { patterns, rest, outputFile };
}

/**
 * A directory where the package is installed as a user installs it, beside `entry.sdk` (and
 * `entry.policy`), with `bin` and `sdk` beside its node_modules as in a checkout (the harness
 * links an example's `../../bin` and `../../sdk` there). TypeScript and ts-node are the
 * repository's, as a `pulumi new typescript` project has its own.
 */
function installPackage(entry) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `svc-matrix-${entry.name}-`));
  const packed = execFileSync("npm", ["pack", "--ignore-scripts", "--loglevel=error", "--pack-destination", dir], {
    cwd: REPO,
    encoding: "utf8",
  });
  const tarball = path.join(dir, packed.trim().split("\n").pop());
  const dev = JSON.parse(fs.readFileSync(path.join(REPO, "package.json"), "utf8")).devDependencies;
  const dependencies = {
    "pulumi-svc": `file:${tarball}`,
    "@pulumi/pulumi": entry.sdk,
    ...(entry.policy ? { "@pulumi/policy": entry.policy } : {}),
    typescript: dev.typescript,
    "ts-node": dev["ts-node"],
    "@types/node": dev["@types/node"],
  };
  fs.writeFileSync(
    path.join(dir, "package.json"),
    JSON.stringify({ name: `svc-matrix-${entry.name}`, private: true, dependencies }, null, 2),
  );
  say(`${entry.name}: installing the packed package beside @pulumi/pulumi ${entry.sdk} in ${dir}`);
  execFileSync("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"], {
    cwd: dir,
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, npm_config_update_notifier: "false" },
  });
  fs.symlinkSync(path.join(dir, "node_modules", "pulumi-svc", "bin"), path.join(dir, "bin"), "dir");
  fs.symlinkSync(path.join(REPO, "sdk"), path.join(dir, "sdk"), "dir");
  return dir;
}

/** The versions an entry's run gets, as the executables and the installed SDK answer. */
function measure(nodeDir, cliDir, packageRepo) {
  const env = { ...process.env, PULUMI_SKIP_UPDATE_CHECK: "true" };
  const node = execFileSync(path.join(nodeDir, "node"), ["--version"], { encoding: "utf8" }).trim().replace(/^v/, "");
  const cli = execFileSync(path.join(cliDir, "pulumi"), ["version"], { encoding: "utf8", env }).trim().replace(/^v/, "");
  const sdkOf = (name) =>
    JSON.parse(fs.readFileSync(path.join(packageRepo, "node_modules", name, "package.json"), "utf8")).version.replace(/^v/, "");
  return { node, cli, sdk: sdkOf("@pulumi/pulumi"), policy: sdkOf("@pulumi/policy") };
}

/** An entry's toolchain and package, obtained and checked: what its jest run needs. */
function prepare(entry) {
  const started = Date.now();
  const nodeDir = ensure("ensure-node.sh", [entry.node]);
  const cliDir = ensure("ensure-pulumi.sh", [entry.cli]);
  const packageRepo = entry.sdk === REPO_SDK ? REPO : installPackage(entry);
  const versions = measure(nodeDir, cliDir, packageRepo);
  const wrong = ["node", "cli", "sdk", "policy"].filter((k) => entry[k] && versions[k] !== entry[k]);
  if (wrong.length)
    throw new Error(
      `${entry.name}: got ${wrong.map((k) => `${k} ${versions[k]}`).join(", ")}, declared ${wrong.map((k) => entry[k]).join(", ")}`,
    );
  say(`${entry.name}: Node.js ${versions.node}, pulumi ${versions.cli}, @pulumi/pulumi ${versions.sdk}, @pulumi/policy ${versions.policy}`);
  return { entry, setupMs: Date.now() - started, nodeDir, cliDir, packageRepo, versions };
}

/**
 * Runs jest for a prepared entry; resolves with its results. With `prefix`, jest's output is
 * written line by line behind the entry's name (entries that run at the same time).
 */
function runJest({ entry, setupMs, nodeDir, cliDir, packageRepo, versions }, files, rest, prefix) {
  const started = Date.now() - setupMs; // an entry's time: its set-up and its jest run, not a wait between them
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "svc-jest-")), "results.json");
  const env = {
    ...process.env,
    PATH: [cliDir, nodeDir, process.env.PATH].join(path.delimiter),
    PULUMI_SVC_MATRIX: entry.name,
    PULUMI_SVC_CLI: entry.cli,
    SVC_PACKAGE_SDK: entry.sdk,
    ...(entry.policy ? { SVC_PACKAGE_POLICY: entry.policy } : {}),
    ...(packageRepo !== REPO ? { PULUMI_SVC_PACKAGE_REPO: packageRepo } : {}),
  };
  const workers = rest.some((a) => /^(--maxWorkers|-w)\b/.test(a)) ? [] : [`--maxWorkers=${entry.workers}`];
  const args = [JEST, ...(files === "all" ? [] : files), ...workers, ...rest, "--json", `--outputFile=${out}`];
  const child = spawn(path.join(nodeDir, "node"), args, {
    cwd: REPO,
    env,
    stdio: ["ignore", prefix ? "pipe" : "inherit", prefix ? "pipe" : "inherit"],
  });
  if (prefix)
    for (const [from, to] of [
      [child.stdout, process.stdout],
      [child.stderr, process.stderr],
    ])
      readline.createInterface({ input: from }).on("line", (line) => to.write(`[${entry.name}] ${line}\n`));
  return new Promise((resolve) => child.on("close", resolve)).then((status) => {
    let results = {};
    try {
      results = JSON.parse(fs.readFileSync(out, "utf8"));
    } catch {
      // jest wrote nothing (it could not start): counted as nothing passed.
    }
    fs.rmSync(path.dirname(out), { recursive: true, force: true });
    if (packageRepo !== REPO) fs.rmSync(packageRepo, { recursive: true, force: true });
    return { entry, versions, status, results, seconds: Math.round((Date.now() - started) / 1000) };
  });
}

/** jest's results of several runs as one: counts summed, test results concatenated. */
function merged(runs) {
  const sum = (key) => runs.reduce((n, r) => n + (r.results[key] ?? 0), 0);
  const keys = [
    "numTotalTests",
    "numPassedTests",
    "numFailedTests",
    "numPendingTests",
    "numTodoTests",
    "numTotalTestSuites",
    "numPassedTestSuites",
    "numFailedTestSuites",
  ];
  return {
    ...Object.fromEntries(keys.map((k) => [k, sum(k)])),
    success: runs.every((r) => r.status === 0 && r.results.success),
    startTime: Math.min(...runs.map((r) => r.results.startTime ?? Date.now())),
    testResults: runs.flatMap((r) => (r.results.testResults ?? []).map((t) => ({ ...t, matrix: r.entry.name }))),
  };
}

async function main() {
  const { patterns, rest, outputFile } = parseArgs(process.argv.slice(2));
  // The e2e programs, some integration and emulator tests, and the emulator itself run from dist/.
  execFileSync("npm", ["run", "build", "--silent"], { cwd: REPO, stdio: "inherit" });
  const only = process.env.PULUMI_SVC_MATRIX;
  const entries = only ? MATRIX.filter((e) => e.name === only) : patterns.length ? [MATRIX[0]] : MATRIX;
  if (!entries.length) throw new Error(`no matrix entry ${only}: ${MATRIX.map((e) => e.name).join(", ")}`);
  const filesOf = (entry) => (patterns.length ? patterns : entry.files);
  // The first entry (the whole suite) runs while the others are set up (their package installed
  // beside their SDK: a minute of npm, which after it would leave a core idle); the smoke sets
  // then run together, which on 2 cores takes less time than one after the other (their files
  // wait on the engine).
  const [first, ...others] = entries;
  const dropCache = compileCache();
  const firstRun = runJest(prepare(first), filesOf(first), rest);
  let failure;
  let prepared = [];
  try {
    prepared = others.map(prepare);
  } catch (err) {
    // An entry that could not be set up fails the run; what did run is still counted.
    failure = err;
    console.error(err);
  }
  const runs = [await firstRun];
  if (!failure) runs.push(...(await Promise.all(prepared.map((p) => runJest(p, filesOf(p.entry), rest, prepared.length > 1)))));
  dropCache();
  const all = { ...merged(runs), ...(failure ? { success: false } : {}) };
  if (outputFile) fs.writeFileSync(outputFile, JSON.stringify(all));
  const record = runs.map((r) => ({
    name: r.entry.name,
    why: r.entry.why,
    files: patterns.length ? patterns : r.entry.files,
    versions: r.versions,
    passed: r.results.numPassedTests ?? 0,
    failed: r.results.numFailedTests ?? 0,
    seconds: r.seconds,
  }));
  fs.mkdirSync(path.dirname(RECORD), { recursive: true });
  fs.writeFileSync(RECORD, JSON.stringify({ ranAt: new Date().toISOString(), entries: record }, null, 2) + "\n");
  for (const r of record)
    say(
      `${r.name}: ${r.passed} passed, ${r.failed} failed in ${r.seconds} s (Node.js ${r.versions.node}, pulumi ${r.versions.cli}, @pulumi/pulumi ${r.versions.sdk})`,
    );
  process.exitCode = all.success ? 0 : 1;
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
