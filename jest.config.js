/**
 * Five projects, each its own directory and setup:
 *
 *  - unit: pure logic and the generated files' staleness, with nothing but Node.js (`npm run test:unit`);
 *  - integration: the provider's client over real HTTP on loopback (Node.js too);
 *  - inprocess: both faces served in the test process against the emulator, called as the engine
 *    calls them (tests/support/inProcess.ts; Node.js too): a kind's permutations, once per face;
 *  - emulator: the emulator package's own tests (packages/emulator/tests; Node.js too);
 *  - e2e: the real pulumi engine, and whatever needs the toolchain it brings (the CLI and its
 *    language hosts, the object store and PostgreSQL servers): only this project's global setup
 *    obtains them (tests/globalSetup.ts).
 *
 * `npm test` (scripts/test.js) runs them all once per entry of the version matrix (scripts/matrix.js).
 * An entry whose SDK is not the repository's names the directory where the package is installed
 * beside it (PULUMI_SVC_PACKAGE_REPO): the tests load @pulumi/pulumi from there too, so the
 * automation API that drives the CLI is the one of the CLI's own age.
 */
const packageRepo = process.env.PULUMI_SVC_PACKAGE_REPO;
const sdk = packageRepo && `${packageRepo}/node_modules/@pulumi/pulumi`;

/** What every project shares: TypeScript through ts-jest, and the matrix entry's SDK. */
const project = (name, root, options = {}) => ({
  displayName: name,
  testEnvironment: "node",
  roots: [`<rootDir>/${root}`],
  testMatch: ["**/*.test.ts"],
  transform: { "^.+\\.ts$": ["ts-jest", { tsconfig: "tsconfig.json", diagnostics: false }] },
  moduleNameMapper: sdk ? { "^@pulumi/pulumi$": sdk, "^@pulumi/pulumi/(.*)$": `${sdk}/$1` } : {},
  ...options,
});

/** @type {import('jest').Config} */
module.exports = {
  projects: [
    project("unit", "tests/unit"),
    project("integration", "tests/integration"),
    project("inprocess", "tests/inprocess"),
    project("emulator", "packages/emulator/tests"),
    project("e2e", "tests/e2e", { globalSetup: "<rootDir>/tests/globalSetup.ts" }),
  ],
  testTimeout: 60_000,
  // The engine's files first, by weight (tests/support/sequencer.js): on a fresh clone jest orders by file size alone.
  testSequencer: "<rootDir>/tests/support/sequencer.js",
  // Two cores: the end-to-end files each drive the pulumi engine and a Node program.
  maxWorkers: 2,
};
