/**
 * `npm run schema`: the provider plugin's package schema (schema.json), derived from the code so
 * that each fact stays declared once:
 *
 * - properties, their types, optionality and descriptions from each resource's public `<Kind>Args`
 *   and `<Kind>Outputs` interfaces (their TSDoc), read with the TypeScript compiler;
 * - secret fields and replace-on-change inputs from the resource's spec (`secretOutputs`, the
 *   `replace` policies, `workspaceId` of workspace-scoped kinds);
 * - functions from the plain lookups exported by resources/lookups (a list result is `{ items }`,
 *   as the plugin and the mocks answer it);
 * - the provider's configuration from provider/config.ts's settings.
 *
 * tests/unit/schema.test.ts fails when the committed schema.json differs from a fresh one.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as ts from "typescript";
import { kinds, sourceFileOf, specFor } from "../resources/registry";

const REPO = path.resolve(__dirname, __dirname.includes(`${path.sep}dist${path.sep}`) ? "../.." : "..");
const TOKEN = (name: string) => `svc:index:${name}`;

type SchemaType = Record<string, unknown>;
interface Property extends SchemaType {
  description?: string;
}
interface ObjectType {
  properties: Record<string, Property>;
  required: string[];
}

/** The compiled program over the package's entry point, and its checker. */
function load() {
  const configPath = path.join(REPO, "tsconfig.json");
  const config = ts.parseJsonConfigFileContent(ts.readConfigFile(configPath, ts.sys.readFile).config, ts.sys, REPO);
  const program = ts.createProgram([path.join(REPO, "index.ts")], config.options);
  return { program, checker: program.getTypeChecker() };
}

const docsOf = (symbol: ts.Symbol, checker: ts.TypeChecker) => ts.displayPartsToString(symbol.getDocumentationComment(checker)).trim();

/** The TypeScript types to schema types, collecting named object types on the way. */
class TypeMapper {
  readonly types = new Map<string, ObjectType>();
  /** Object types being mapped: a type that contains itself (none does today) maps to Any there. */
  private readonly mapping = new Set<ts.Type>();
  constructor(private readonly checker: ts.TypeChecker) {}

  /** `pulumi.Input<T>` is T | Promise<T> | Output<T>: keep T; drop undefined and null. */
  private plainMembers(type: ts.Type): ts.Type[] {
    const members = type.isUnion() ? type.types : [type];
    return members.filter((t) => {
      if (t.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Null | ts.TypeFlags.Void)) return false;
      const name = t.getSymbol()?.getName();
      return name !== "Promise" && name !== "OutputInstance" && name !== "Output";
    });
  }

  /** `names`: what to call an anonymous object type, first choice first (`Timeouts`, then `VpcArgsTimeouts`). */
  toSchema(type: ts.Type, names: string[]): SchemaType {
    const members = this.plainMembers(type);
    if (!members.length) return { $ref: "pulumi.json#/Any" };
    if (members.every((t) => t.flags & ts.TypeFlags.BooleanLike)) return { type: "boolean" };
    if (members.every((t) => t.flags & ts.TypeFlags.StringLike)) return { type: "string" };
    if (members.every((t) => t.flags & ts.TypeFlags.NumberLike)) return { type: "number" };
    if (members.length > 1) return { $ref: "pulumi.json#/Any" };
    const [t] = members;
    if (this.checker.isArrayType(t)) {
      const [item] = this.checker.getTypeArguments(t as ts.TypeReference);
      return { type: "array", items: this.toSchema(item, names) };
    }
    if (t.flags & ts.TypeFlags.Object) {
      const props = this.checker.getPropertiesOfType(t);
      const index = this.checker.getIndexTypeOfType(t, ts.IndexKind.String);
      if (!props.length && index) return { type: "object", additionalProperties: this.toSchema(index, names) };
      if (props.length) return { $ref: `#/types/${TOKEN(this.named(t, names))}` };
    }
    return { $ref: "pulumi.json#/Any" };
  }

  /**
   * A named object type: its declared name (without an `Args` suffix: SDKs add their own), else
   * the first of `names` not already taken by a different shape. Generic aliases (`Omit<...>`)
   * count as anonymous.
   */
  private named(type: ts.Type, names: string[]): string {
    const alias = type.aliasSymbol && !type.aliasTypeArguments?.length ? type.aliasSymbol.getName() : undefined;
    const declared = alias ?? type.getSymbol()?.getName();
    const shape = this.objectOf(type, names[names.length - 1]);
    const fits = (n: string) => !this.types.has(n) || Object.keys(this.types.get(n)!.properties).join() === Object.keys(shape.properties).join();
    const name = declared && !declared.startsWith("__") ? declared.replace(/Args$/, "") : (names.find(fits) ?? names[names.length - 1]);
    const known = this.types.get(name);
    // An input shape and an output shape of the same name: one type with every field, required where both require it.
    if (known) {
      for (const [k, v] of Object.entries(shape.properties)) known.properties[k] ??= v;
      known.required = known.required.filter((r) => shape.required.includes(r));
    } else this.types.set(name, shape);
    return name;
  }

  objectOf(type: ts.Type, context: string): ObjectType {
    const properties: Record<string, Property> = {};
    const required: string[] = [];
    if (this.mapping.has(type)) return { properties, required };
    this.mapping.add(type);
    for (const prop of this.checker.getPropertiesOfType(type)) {
      const decl = prop.valueDeclaration ?? prop.declarations?.[0];
      if (!decl) continue;
      const propType = this.checker.getTypeOfSymbolAtLocation(prop, decl);
      const schema: Property = { ...this.toSchema(propType, [pascal(prop.getName()), `${context}${pascal(prop.getName())}`]) };
      const description = docsOf(prop, this.checker);
      if (description) schema.description = description;
      properties[prop.getName()] = schema;
      if (!(prop.flags & ts.SymbolFlags.Optional)) required.push(prop.getName());
    }
    this.mapping.delete(type);
    return { properties, required };
  }
}

const pascal = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** An exported interface or type alias of a source file, by name. */
function declaredType(checker: ts.TypeChecker, file: ts.SourceFile, name: string): { type: ts.Type; symbol: ts.Symbol } {
  const moduleSymbol = checker.getSymbolAtLocation(file);
  const symbol = moduleSymbol && checker.getExportsOfModule(moduleSymbol).find((s) => s.getName() === name);
  if (!symbol) throw new Error(`${file.fileName} exports no ${name}`);
  return { type: checker.getDeclaredTypeOfSymbol(symbol), symbol };
}

function sourceFile(program: ts.Program, relative: string): ts.SourceFile {
  const file = program.getSourceFile(path.join(REPO, relative));
  if (!file) throw new Error(`${relative} is not part of the program`);
  return file;
}

function resourceSchema(kind: string, program: ts.Program, mapper: TypeMapper) {
  const checker = program.getTypeChecker();
  const file = sourceFile(program, sourceFileOf(kind));
  const args = declaredType(checker, file, `${kind}Args`);
  const outputs = declaredType(checker, file, `${kind}Outputs`);
  const classSymbol = checker.getExportsOfModule(checker.getSymbolAtLocation(file)!).find((s) => s.getName() === kind);
  const spec = specFor(kind);
  const secrets = new Set(spec.secretOutputs ?? []);
  const replacing = new Set([...Object.entries(spec.policies).filter(([, p]) => p.kind === "replace").map(([f]) => f), ...(spec.workspaceScoped ? ["workspaceId"] : [])]);

  const inputs = mapper.objectOf(args.type, `${kind}Args`);
  const outs = mapper.objectOf(outputs.type, `${kind}Outputs`);
  for (const [name, prop] of Object.entries(inputs.properties)) {
    if (secrets.has(name)) prop.secret = true;
    if (replacing.has(name)) prop.replaceOnChange = true;
  }
  for (const [name, prop] of Object.entries(outs.properties)) {
    if (secrets.has(name)) prop.secret = true;
    // An output that echoes an input is described once, on the input.
    if (!prop.description && inputs.properties[name]?.description) prop.description = inputs.properties[name].description;
  }
  return {
    description: classSymbol ? docsOf(classSymbol, checker) : "",
    inputProperties: inputs.properties,
    requiredInputs: inputs.required,
    properties: outs.properties,
    required: outs.required,
  };
}

/** The plain lookups: exported `get*` functions of resources/lookups (the `...Output` forms are program-side). */
function functionSchemas(program: ts.Program, mapper: TypeMapper) {
  const checker = program.getTypeChecker();
  const index = sourceFile(program, "resources/lookups/index.ts");
  const exported = checker.getExportsOfModule(checker.getSymbolAtLocation(index)!).filter((s) => /^get[A-Z]/.test(s.getName()) && !s.getName().endsWith("Output"));
  const functions: Record<string, unknown> = {};
  for (const symbol of exported.sort((a, b) => a.getName().localeCompare(b.getName()))) {
    const name = symbol.getName();
    const declaration = lookupDeclaration(program, name);
    const signature = declaration && checker.getSignatureFromDeclaration(declaration);
    if (!declaration || !signature) throw new Error(`no function declaration for the lookup ${name} in resources/lookups`);
    const [param] = declaration.parameters;
    const inputs = param ? mapper.objectOf(checker.getNonNullableType(checker.getTypeAtLocation(param)), `${pascal(name)}Args`) : { properties: {}, required: [] };
    // An argument that may be left out (`args = {}`) makes every field optional.
    if (param && (param.questionToken || param.initializer)) inputs.required = [];
    const promised = checker.getAwaitedType(signature.getReturnType()) ?? signature.getReturnType();
    const item = pascal(name.replace(/^get/, "")).replace(/s$/, "");
    const outputs = checker.isArrayType(promised)
      ? { properties: { items: { type: "array", items: mapper.toSchema(checker.getTypeArguments(promised as ts.TypeReference)[0], [item]) } }, required: ["items"] }
      : mapper.objectOf(promised, `${pascal(name)}Result`);
    const docs = checker.getSymbolAtLocation(declaration.name!);
    functions[TOKEN(name)] = { description: docs ? docsOf(docs, checker) : "", inputs, outputs };
  }
  return functions;
}

/** The area function a lookup wraps (index.ts re-exports it through plainForm, which hides its signature and docs). */
function lookupDeclaration(program: ts.Program, name: string): ts.FunctionDeclaration | undefined {
  for (const file of program.getSourceFiles()) {
    if (!file.fileName.includes(`${path.sep}resources${path.sep}lookups${path.sep}`)) continue;
    const found = file.statements.find((s): s is ts.FunctionDeclaration => ts.isFunctionDeclaration(s) && s.name?.text === name);
    if (found) return found;
  }
  return undefined;
}

/** The provider's settings: stack config `svc:<name>` for the default provider, properties of an explicit one. */
const PROVIDER_SETTINGS: Record<string, Property> = {
  baseUrl: { type: "string", description: "Base URL of the API (https; plain http only to a loopback address). Falls back to SVC_BASE_URL." },
  token: { type: "string", secret: true, description: "API token. Falls back to SVC_TOKEN." },
  workspaceId: { type: "string", description: "Default workspace of workspace-scoped resources. Falls back to SVC_WORKSPACE_ID." },
};

export function generateSchema(): Record<string, unknown> {
  const { program, checker } = load();
  const mapper = new TypeMapper(checker);
  const manifest = JSON.parse(fs.readFileSync(path.join(REPO, "package.json"), "utf8")) as { name: string; version: string; description: string; license: string };
  const resources: Record<string, unknown> = {};
  for (const kind of kinds()) resources[TOKEN(kind)] = resourceSchema(kind, program, mapper);
  const functions = functionSchemas(program, mapper);
  const types = Object.fromEntries(
    [...mapper.types.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([name, t]) => [TOKEN(name), { type: "object", properties: t.properties, required: t.required }]),
  );
  return {
    name: "svc",
    displayName: "svc",
    version: manifest.version,
    description: manifest.description,
    license: manifest.license,
    keywords: ["pulumi", "svc", "category/infrastructure"],
    config: { variables: PROVIDER_SETTINGS },
    provider: { description: "The svc provider: one API address, token and default workspace.", inputProperties: PROVIDER_SETTINGS },
    resources,
    functions,
    types,
    language: {
      nodejs: { packageName: manifest.name },
      python: { packageName: "pulumi_svc" },
    },
  };
}

if (require.main === module) {
  const schema = generateSchema();
  fs.writeFileSync(path.join(REPO, "schema.json"), `${JSON.stringify(schema, null, 2)}\n`);
  const count = (k: string) => Object.keys(schema[k] as object).length;
  console.log(`schema.json: ${count("resources")} resources, ${count("functions")} functions, ${count("types")} types`);
}
