/**
 * The emulator's own tests: the API over real HTTP on loopback, the command line, the store. Run
 * alone with `npm test` in this package, or as the `emulator` project of the repository's suite.
 */
/** @type {import('jest').Config} */
module.exports = {
  displayName: "emulator",
  testEnvironment: "node",
  roots: ["<rootDir>/tests"],
  testMatch: ["**/*.test.ts"],
  transform: { "^.+\\.ts$": ["ts-jest", { tsconfig: "<rootDir>/tsconfig.json", diagnostics: false }] },
  testTimeout: 60_000,
};
