/**
 * index.ts, generated from the list of kinds (resources/kinds.ts) so a kind is listed once: each kind's
 * generated class (scripts/classes.ts) and the public argument types its fields declare (the
 * `<Kind>Args`, then the `args` names of its nested objects and variants unions, in file order),
 * then the explicit provider and the lookups.
 *
 *   npm run generate        rewrite index.ts, with every other generated file
 *   (tests/unit/generated.test.ts fails when index.ts is out of date)
 *
 * TypeScript cannot export from a list at run time, hence a generated file; resources/kinds.ts
 * stays the only place a kind is listed.
 */
import { kinds, moduleOf } from "../resources/kinds";
import { namedSetsOf } from "./fieldTypes";

/**
 * The public argument types of a kind, as its fields name them: its `<Kind>Args`, then the `args`
 * of each nested object and variants union its file exports (one another kind's file declares,
 * `from`, is exported with that kind).
 */
function argsTypesOf(kind: string): string[] {
  const shapes = namedSetsOf(kind).flatMap(([, set]) =>
    (set.role === "nested" && set.names.from) || !set.names.args ? [] : [set.names.args],
  );
  return [`${kind}Args`, ...shapes];
}

export function renderIndex(): string {
  const lines = [
    "/**",
    " * pulumi-svc: Pulumi resources for the svc infrastructure-hosting API.",
    " *",
    " * Generated from the kinds in resources/kinds.ts by `npm run generate` (scripts/exports.ts): do not edit.",
    " */",
    // The class from its generated file (which loads no definition), the Args types from the kind's file.
    ...kinds().flatMap((kind) => [
      `export { ${kind} } from "./resources/generated/${moduleOf(kind)}";`,
      `export type { ${argsTypesOf(kind).join(", ")} } from "./resources/${moduleOf(kind)}";`,
    ]),
    "// The explicit provider ({ provider } on any resource or lookup).",
    'export { Provider } from "./provider/dynamic/explicitProvider";',
    'export type { ProviderArgs } from "./provider/dynamic/explicitProvider";',
    "// Lookups (plain and Output forms).",
    'export * from "./resources/lookups";',
  ];
  return `${lines.join("\n")}\n`;
}
