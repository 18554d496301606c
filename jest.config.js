/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: "node",
  roots: ["<rootDir>/tests"],
  testMatch: ["**/*.test.ts"],
  transform: { "^.+\\.ts$": ["ts-jest", { tsconfig: "tsconfig.json", diagnostics: false }] },
  globalSetup: "<rootDir>/tests/globalSetup.ts",
  testTimeout: 60_000,
  // Two cores: the end-to-end files each drive the pulumi engine and a Node program.
  maxWorkers: 2,
};
