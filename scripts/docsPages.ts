/**
 * The reference pages under docs/: one per resource kind (docs/resources/<module>.md) and one per
 * lookup (docs/lookups/<name>.md), generated so that no fact is written twice:
 *
 * - types, required inputs, descriptions and secrecy from the package schema (scripts/schema.ts,
 *   itself read from the kinds' fields and the lookups' declarations);
 * - what a change does from the definition's effects (provider/fields/changeEffects.ts: replace, the
 *   update request, or a named update step), defaults from the fields' zod schemas;
 * - API endpoints from the kind's file header (scripts/reference.ts);
 * - the examples from docs/examples/<module>.ts and .yaml (lookups: <name>.ts and .yaml), which
 *   tests/unit/docsExamples.test.ts type-checks against the package and checks against the schema.
 *
 *   npm run generate        writes them (scripts/generate.ts)
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { ChangeEffect } from "../provider/fields/changeEffects";
import type { Field } from "../provider/fields/declare";
import { kinds, moduleOf, sourceFileOf, definitionOf } from "../resources/kinds";
import { endpointsOf } from "./reference";

const REPO = path.resolve(__dirname, "..", __dirname.includes(`${path.sep}dist${path.sep}`) ? ".." : "");
/** Where the examples the pages show live (relative to the repository). */
export const EXAMPLES_DIR = "docs/examples";

type SchemaType = { type?: string; $ref?: string; items?: SchemaType; additionalProperties?: SchemaType };
type Property = SchemaType & { description?: string; secret?: boolean };
interface ObjectSchema {
  properties: Record<string, Property>;
  required?: string[];
}
interface ResourceSchema {
  description: string;
  inputProperties: Record<string, Property>;
  requiredInputs?: string[];
  properties: Record<string, Property>;
}
interface FunctionSchema {
  description: string;
  inputs?: ObjectSchema;
  outputs: ObjectSchema;
}
/** The parts of schema.json the pages read. */
export interface PackageSchema {
  config: { variables: Record<string, Property> };
  resources: Record<string, ResourceSchema>;
  functions: Record<string, FunctionSchema>;
  types: Record<string, ObjectSchema>;
}

const TYPE_PREFIX = "#/types/svc:index:";
const tokenName = (token: string) => token.replace(/^svc:index:/, "");

/** A schema type as a reader writes it: `string`, `number[]`, `map of string`, a link to a nested type. */
function typeOf(t: SchemaType): string {
  if (t.$ref?.startsWith(TYPE_PREFIX)) {
    const name = t.$ref.slice(TYPE_PREFIX.length);
    return `[${name}](#${name.toLowerCase()})`;
  }
  if (t.$ref) return "any";
  if (t.type === "array" && t.items) return `${typeOf(t.items)}[]`;
  if (t.type === "object" && t.additionalProperties) return `map of ${typeOf(t.additionalProperties)}`;
  return t.type ?? "any";
}

/** The nested types a set of properties reaches (through arrays, maps and other nested types), in order of first use. */
function nestedTypes(schema: PackageSchema, properties: Property[], seen = new Set<string>()): string[] {
  const refs = (t: SchemaType | undefined): string[] =>
    !t ? [] : t.$ref?.startsWith(TYPE_PREFIX) ? [t.$ref.slice(TYPE_PREFIX.length)] : [...refs(t.items), ...refs(t.additionalProperties)];
  for (const name of properties.flatMap(refs)) {
    if (seen.has(name)) continue;
    seen.add(name);
    nestedTypes(schema, Object.values(schema.types[`svc:index:${name}`]?.properties ?? {}), seen);
  }
  return [...seen];
}

/** A table cell: one line, pipes escaped. */
const cell = (text: string | undefined) => (text ? text.replace(/\|/g, "\\|").replace(/\s*\n\s*/g, " ") : "");

/** What a change of a field does, as short as a table cell: the long sentence is in its description. */
function onChangeCell(effect: ChangeEffect | undefined): string {
  switch (effect?.kind) {
    case "replace":
      return "replace";
    case "updateRequest":
      return "in place (update request)";
    case "step":
      return `in place (\`${effect.step}\` step)`;
    case "remember":
      return "recorded only";
    case "depends":
      return "in place or replace, by the change";
    case "ignore":
    case undefined:
      return "no diff";
  }
}

/**
 * The zod default of a field's schema, as JSON (`"WORKSPACE"`, `true`, `[]`), through the wrappers
 * around it (optional, nullable, a pipe's input); undefined when it declares none.
 */
function defaultOf(field: Field | undefined): string | undefined {
  if (!field || field.role !== "input") return undefined;
  type Def = { type?: string; innerType?: { _zod: { def: Def } }; in?: { _zod: { def: Def } }; defaultValue?: unknown };
  let def = (field.schema as unknown as { _zod: { def: Def } })._zod.def;
  for (let depth = 0; depth < 8; depth++) {
    if (def.type === "default" || def.type === "prefault") return `\`${JSON.stringify(def.defaultValue)}\``;
    const next = def.innerType ?? def.in;
    if (!next) return undefined;
    def = next._zod.def;
  }
  return undefined;
}

function propertyTable(schema: PackageSchema, props: Record<string, Property>, required: string[]): string[] {
  return [
    "| Name | Type | Required | Description |",
    "|---|---|---|---|",
    ...Object.entries(props).map(
      ([name, p]) =>
        `| \`${name}\` | ${typeOf(p)} | ${required.includes(name) ? "yes" : "no"} | ${cell(p.description)}${p.secret ? " **Secret.**" : ""} |`,
    ),
  ];
}

function nestedSection(schema: PackageSchema, properties: Property[]): string[] {
  const names = nestedTypes(schema, properties);
  if (!names.length) return [];
  return [
    "## Nested types",
    "",
    ...names.flatMap((name) => {
      const t = schema.types[`svc:index:${name}`];
      return [`### ${name}`, "", ...propertyTable(schema, t.properties, t.required ?? []), ""];
    }),
  ];
}

/** An example file's text, without a trailing newline; a missing example fails the generation. */
function example(file: string): string {
  const full = path.join(REPO, EXAMPLES_DIR, file);
  if (!fs.existsSync(full)) throw new Error(`${EXAMPLES_DIR}/${file} is missing: every page shows a checked example`);
  return fs.readFileSync(full, "utf8").trimEnd();
}

function examplesSection(base: string): string[] {
  return [
    "## Example",
    "",
    "TypeScript (dynamic resources, the package itself):",
    "",
    "```typescript",
    example(`${base}.ts`),
    "```",
    "",
    "YAML (the provider plugin; other languages use the generated SDKs under sdk/ with the same names):",
    "",
    "```yaml",
    example(`${base}.yaml`),
    "```",
    "",
  ];
}

const GENERATED = (from: string) => `<!-- Generated by \`npm run generate\` (scripts/docsPages.ts) from ${from}: do not edit. -->`;

/** The page of one resource kind. */
function resourcePage(schema: PackageSchema, kind: string): string {
  const definition = definitionOf(kind);
  const resource = schema.resources[`svc:index:${kind}`];
  if (!resource) throw new Error(`schema.json has no svc:index:${kind}: run the schema generation first`);
  const effects: Record<string, ChangeEffect> = {
    ...definition.onChange,
    ...(definition.workspaceScoped ? { workspaceId: { kind: "replace" } as ChangeEffect } : {}),
  };
  const required = resource.requiredInputs ?? [];
  const inputs = Object.entries(resource.inputProperties).map(([name, p]) => {
    const fallback = name === "workspaceId" && definition.workspaceScoped ? "`svc:workspaceId`" : undefined;
    const dflt = defaultOf(definition.fields[name]) ?? fallback ?? "";
    return `| \`${name}\` | ${typeOf(p)} | ${required.includes(name) ? "yes" : "no"} | ${dflt} | ${onChangeCell(effects[name])} | ${cell(p.description)}${p.secret ? " **Secret.**" : ""} |`;
  });
  // An output that echoes an input is described once, under Inputs.
  const outputs = Object.entries(resource.properties).map(
    ([name, p]) =>
      `| \`${name}\` | ${typeOf(p)} | ${p.secret ? "yes" : ""} | ${name in resource.inputProperties ? "The input, as recorded." : cell(p.description)} |`,
  );
  const endpoints = endpointsOf(sourceFileOf(kind));
  const module = moduleOf(kind)!;
  const id = definition.adoptIdDoc ? definition.adoptIdDoc.replace(/^Adopt [^:]*: /, "") : "the object's id in the API (digits)";
  return [
    GENERATED(`${sourceFileOf(kind)} and ${EXAMPLES_DIR}/${module}.*`),
    "",
    `# ${kind}`,
    "",
    resource.description,
    "",
    `Declared in [${sourceFileOf(kind)}](../../${sourceFileOf(kind)}); token \`svc:index:${kind}\`.${
      definition.retainOnDelete ? " The API has no delete: `pulumi destroy` only forgets it." : ""
    }`,
    "",
    ...(endpoints.length ? ["API endpoints:", "", ...endpoints.map((e) => `- \`${e}\``), ""] : []),
    ...examplesSection(module),
    "## Inputs",
    "",
    "Every resource also takes the common options `timeouts` and `adoptId` (below). What a change does:",
    "_replace_ recreates the resource; _in place_ sends the update request or the named update step.",
    "",
    "| Name | Type | Required | Default | On change | Description |",
    "|---|---|---|---|---|---|",
    ...inputs,
    "",
    "## Outputs",
    "",
    "Every input is also an output; `id` is the object's id. Secret outputs are marked secret in state.",
    "",
    "| Name | Type | Secret | Description |",
    "|---|---|---|---|",
    ...outputs,
    "",
    ...nestedSection(schema, [...Object.values(resource.inputProperties), ...Object.values(resource.properties)]),
    "## Import",
    "",
    "Through the provider plugin (YAML and the SDKs), `pulumi import` adopts an existing object and prints its declaration:",
    "",
    "```sh",
    `pulumi import svc:index:${kind} <name> <id>`,
    "```",
    "",
    `where \`<id>\` is ${id}. In a program (either face), the \`import\` resource option takes in an object that`,
    "matches every declared input, with no write; `adoptId` takes an object over and changes it to the",
    "declaration. `pulumi import` (the command) cannot adopt a dynamic resource: on the TypeScript",
    "face use the option or `adoptId` ([resource options and limits](../guides/options-and-limits.md)).",
    "",
  ].join("\n");
}

/** The page of one lookup (the plain function's name: getPlan). */
function lookupPage(schema: PackageSchema, name: string): string {
  const fn = schema.functions[`svc:index:${name}`];
  if (!fn) throw new Error(`schema.json has no function svc:index:${name}`);
  const inputs = fn.inputs ?? { properties: {}, required: [] };
  const list = Object.keys(fn.outputs.properties).join() === "items";
  return [
    GENERATED(`resources/lookups and ${EXAMPLES_DIR}/${name}.*`),
    "",
    `# ${name}`,
    "",
    ...(fn.description ? [fn.description, ""] : []),
    `Two forms in TypeScript: \`svc.${name}(args)\` returns a Promise, \`svc.${name}Output(args)\` takes Inputs and`,
    `returns an Output. Through the plugin the function is \`svc:index:${name}\`${
      list ? " and answers `{ items }` (TypeScript returns the array itself)" : ""
    }.`,
    "",
    ...examplesSection(name),
    "## Arguments",
    "",
    ...(Object.keys(inputs.properties).length ? propertyTable(schema, inputs.properties, inputs.required ?? []) : ["None."]),
    "",
    "## Result",
    "",
    ...propertyTable(schema, fn.outputs.properties, fn.outputs.required ?? []),
    "",
    ...nestedSection(schema, [...Object.values(inputs.properties), ...Object.values(fn.outputs.properties)]),
  ].join("\n");
}

/** The lookups' names, as the schema lists them. */
export const lookupsOf = (schema: PackageSchema) => Object.keys(schema.functions).map(tokenName);

/** Every page: its path in the repository, then its text. */
export function docsPages(schema: PackageSchema): Map<string, string> {
  const pages = new Map<string, string>();
  for (const kind of kinds()) pages.set(`docs/resources/${moduleOf(kind)}.md`, resourcePage(schema, kind));
  for (const name of lookupsOf(schema)) pages.set(`docs/lookups/${name}.md`, lookupPage(schema, name));
  return pages;
}

const firstSentence = (text: string) => (text ? `: ${cell(text.split(/(?<=\.)\s/)[0])}` : "");

/** The resource pages for docs/_index.md: a line each, with the kind's first sentence. */
export const resourcePagesList = (schema: PackageSchema) =>
  kinds()
    .map((k) => `- [${k}](resources/${moduleOf(k)}.md)${firstSentence(schema.resources[`svc:index:${k}`].description)}`)
    .join("\n");

/** The lookup pages for docs/_index.md: a line each, with the lookup's first sentence. */
export const lookupPagesList = (schema: PackageSchema) =>
  lookupsOf(schema)
    .map((n) => `- [${n}](lookups/${n}.md)${firstSentence(schema.functions[`svc:index:${n}`].description)}`)
    .join("\n");

/**
 * The provider's settings for docs/installation-configuration.md: the schema's, which scripts/schema.ts
 * reads from provider/runtime/config.ts with the environment variable each falls back to (its description's
 * last sentence, written there).
 */
export function settingsTable(schema: PackageSchema): string {
  const FALLBACK = / ?Falls back to the environment variable `(\w+)`\.$/;
  return [
    "| Stack config | Explicit provider property | Environment fallback | Type | Secret | Description |",
    "|---|---|---|---|---|---|",
    ...Object.entries(schema.config.variables).map(([name, p]) => {
      const env = p.description?.match(FALLBACK)?.[1];
      if (!env) throw new Error(`schema.json: setting ${name} names no environment fallback`);
      return `| \`svc:${name}\` | \`${name}\` | \`${env}\` | ${typeOf(p)} | ${p.secret ? "yes" : ""} | ${cell(p.description!.replace(FALLBACK, ""))} |`;
    }),
  ].join("\n");
}
