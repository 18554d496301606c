/**
 * The versions of Node.js, the pulumi CLI and @pulumi/pulumi the tests run on (issue 29), declared
 * once: `npm test` (scripts/test.js) runs each entry's files with that Node.js (the tests, and the
 * programs, providers and policy packs the CLI starts), that CLI first on PATH and that SDK, and
 * The table of tested versions (docs/installation-configuration.md) is written from what those runs measured
 * (scripts/matrixTable.js).
 *
 *  - newest: what users install today, the whole suite. The SDK is this repository's own
 *    devDependency (package.json), the CLI the default of scripts/ensure-pulumi.sh.
 *  - node22: the newest CLI and SDK on Node.js 22, the oldest Node.js @pulumi/pulumi 3.276 takes
 *    (`engines: node >=22`).
 *  - floor: the oldest of each the package supports (the peer range `>=3.163.0 <4`,
 *    `engines: node >=20`), with @pulumi/policy 1.15, the newest whose peer range takes
 *    @pulumi/pulumi 3.163 (1.20 and 1.21 want ^3.204).
 *
 * The smoke set runs on the floor: both quickstarts (their VPC unnamed: autonaming on both
 * faces), the package installed from its tarball,
 * the upgrade from an older package (one stack per face: upgrade.test.ts), the policy pack and
 * svc-recover (one kill of each command: recover.test.ts). Node.js 22 gets the quickstarts
 * (NODE_SMOKE): the program, the dynamic-provider host and the plugin, each a Node.js process the
 * engine starts. The policy pack and svc-recover run on Node.js 20 (floor) and 24 (newest), and
 * what the tarball holds and the state's shape do not change with the Node.js release. An entry
 * with an SDK other than the repository's runs against the package as a user installs it (`npm pack`, then npm
 * install beside that SDK: scripts/test.js).
 */
const fs = require("node:fs");
const path = require("node:path");

const REPO = path.join(__dirname, "..");
const manifest = JSON.parse(fs.readFileSync(path.join(REPO, "package.json"), "utf8"));
/** The repository's own SDK (the newest on npm when it was last raised). */
const REPO_SDK = manifest.devDependencies["@pulumi/pulumi"];

const SMOKE = [
  "tests/e2e/example-quickstart.test.ts",
  "tests/e2e/example-yaml-quickstart.test.ts",
  "tests/e2e/package.test.ts",
  "tests/e2e/upgrade.test.ts",
  "tests/e2e/policy.test.ts",
  "tests/e2e/recover.test.ts",
];

const NODE_SMOKE = ["tests/e2e/example-quickstart.test.ts", "tests/e2e/example-yaml-quickstart.test.ts"];

/**
 * `workers`: the jest workers an entry runs with on the two cores CI has (jest.config.js says two,
 * for a bare jest run). An end-to-end file waits on the engine's chain of processes (CLI, language
 * host, program, provider) about a third of the time: twelve e2e files, one quiet run each, took
 * 280 s with two workers (13% of the CPU idle) and 240 s with three (3% idle). The smoke entries
 * run together after the first, two workers each. Tried once, node22 on one and the floor on three
 * made the floor's files slower under the contention (package.test.ts 153 s against 134 s,
 * policy.test.ts 80 s against 54 s) and its phase no shorter. A test run's own --maxWorkers wins
 * (scripts/test.js).
 *
 * @type {Array<{ name: string, node: string, cli: string, sdk: string, policy?: string, files: "all" | string[], workers: number, why: string }>}
 */
const MATRIX = [
  { name: "newest", node: "24.21.0", cli: "3.274.1", sdk: REPO_SDK, files: "all", workers: 3, why: "the newest of each (the default)" },
  {
    name: "node22",
    node: "22.23.3",
    cli: "3.274.1",
    sdk: REPO_SDK,
    files: NODE_SMOKE,
    workers: 2,
    why: "Node.js 22, the oldest the newest SDK takes",
  },
  {
    name: "floor",
    node: "20.20.2",
    cli: "3.163.0",
    sdk: "3.163.0",
    policy: "1.15.0",
    files: SMOKE,
    workers: 2,
    why: "the oldest the package supports",
  },
];

module.exports = { MATRIX, SMOKE, NODE_SMOKE, REPO_SDK };
