import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["dist/**", "packages/*/dist/**", "sdk/**", "node_modules/**", "coverage/**", "**/*.js", "!scripts/**/*.js"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["scripts/**/*.js"],
    languageOptions: {
      globals: { require: "readonly", module: "writable", __dirname: "readonly", process: "readonly", console: "readonly" },
    },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
  {
    // Each resource class takes its typed properties from its outputs interface by declaration
    // merging (`export interface Vpc extends OutputProperties<VpcOutputs> {}`): the merge is the
    // point, and its interface is empty by design. The class declares no fields, so nothing is
    // left uninitialised (what no-unsafe-declaration-merging guards against).
    files: ["resources/generated/*.ts"],
    rules: {
      "@typescript-eslint/no-unsafe-declaration-merging": "off",
      "@typescript-eslint/no-empty-object-type": ["error", { allowInterfaces: "with-single-extends" }],
    },
  },
  {
    // What the provider process loads must not pull in the SDK's index (671 modules, ~300 ms before
    // a refresh's first read; bench/README.md): values come from @pulumi/pulumi/dynamic and
    // @pulumi/pulumi/output, types from anywhere. Lookups run in the program, which has the SDK.
    files: ["resources/*.ts", "provider/**/*.ts", "dynamic/**/*.ts"],
    ignores: ["provider/fields/zod.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          paths: [
            {
              name: "@pulumi/pulumi",
              allowTypeImports: true,
              message: "import values from @pulumi/pulumi/dynamic or /output: the provider process must not load the SDK's index",
            },
            {
              // provider/fields/zod.ts keeps zod's 64 locales out of the provider host's start (issue 17).
              name: "zod",
              allowTypeImports: true,
              message: "import { z } from provider/fields/zod.ts: it loads zod without its locales",
            },
          ],
        },
      ],
    },
  },
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/no-explicit-any": "error",
      "no-constant-condition": ["error", { checkLoops: false }],
    },
  },
);
