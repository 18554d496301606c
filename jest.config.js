/**
 * Run by scripts/test.js once per entry of the version matrix (scripts/matrix.js). An entry whose
 * SDK is not the repository's names the directory where the package is installed beside it
 * (PULUMI_SVC_PACKAGE_REPO): the tests load @pulumi/pulumi from there too, so the automation API
 * that drives the CLI is the one of the CLI's own age.
 */
const packageRepo = process.env.PULUMI_SVC_PACKAGE_REPO;
const sdk = packageRepo && `${packageRepo}/node_modules/@pulumi/pulumi`;

/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: "node",
  roots: ["<rootDir>/tests"],
  testMatch: ["**/*.test.ts"],
  transform: { "^.+\\.ts$": ["ts-jest", { tsconfig: "tsconfig.json", diagnostics: false }] },
  moduleNameMapper: sdk ? { "^@pulumi/pulumi$": sdk, "^@pulumi/pulumi/(.*)$": `${sdk}/$1` } : {},
  globalSetup: "<rootDir>/tests/globalSetup.ts",
  testTimeout: 60_000,
  // Two cores: the end-to-end files each drive the pulumi engine and a Node program.
  maxWorkers: 2,
};
