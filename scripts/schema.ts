/**
 * The provider plugin's package schema (schema.json, written by `npm run generate`), derived from the code so
 * that each fact stays declared once:
 *
 * - properties, their types, optionality and descriptions from each resource's public `<Kind>Args`
 *   and `<Kind>Outputs` interfaces (their TSDoc), read with the TypeScript compiler (generated from
 *   the kind's fields, scripts/fieldTypes.ts: `npm run generate` writes them first);
 * - secret fields and replace-on-change inputs from the resource's definition (`secretOutputs`, the
 *   `replace` change effects, `workspaceId` of workspace-scoped kinds);
 * - functions from the plain lookups exported by resources/lookups (a list result is `{ items }`,
 *   as the plugin and the mocks answer it);
 * - the provider's configuration from provider/runtime/config.ts (ProviderConfig's fields, checked against
 *   its `Setting` names, and the environment variable each is read from), secrecy from the plugin;
 * - in descriptions, what the schema's types cannot say: the values of a string-literal union, the
 *   keys of a map over known keys, the shapes of a union of objects (which maps to Any), why an
 *   integer of the spec is a number (provider/fields/integer.ts: WideInteger).
 *
 * tests/unit/generated.test.ts fails when the committed schema.json differs from a fresh one.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as ts from "typescript";
import { PROVIDER_SECRETS } from "../provider/runtime/config";
import { kinds, sourceFileOf, definitionOf } from "../resources/kinds";
import { WIDE_NOTE } from "../provider/fields/integer";
import { PACKAGE_NAME } from "../provider/typeTokens";

const REPO = path.resolve(__dirname, __dirname.includes(`${path.sep}dist${path.sep}`) ? "../.." : "..");
const TOKEN = (name: string) => `svc:index:${name}`;

/**
 * The project's public home, declared once: package.json's `repository`. The addresses users meet
 * outside this repository derive from it: the Go module a program `go get`s, the Java package and
 * Maven group, and where the engine downloads the plugin (`pluginDownloadURL`, the GitHub release
 * of tag v<version> holding scripts/release/plugin.ts's archives: `github://api.github.com/<owner>`
 * names the repository `pulumi-<plugin>` of that owner).
 */
const HOME = (() => {
  const manifest = JSON.parse(fs.readFileSync(path.join(REPO, "package.json"), "utf8")) as { name: string; repository: { url: string } };
  const [, owner, repository] = /github\.com\/([^/]+)\/([^/.]+)/.exec(manifest.repository.url) ?? [];
  if (!owner || repository !== manifest.name) throw new Error(`package.json's repository must be github.com/<owner>/${manifest.name}`);
  return { owner, repository, module: `github.com/${owner}/${repository}` };
})();

/**
 * Where the generated SDKs (sdk/<language>, `npm run sdks`) say they come from: package names and
 * import paths a program writes, each derived from HOME; change HOME, then run `npm run generate`.
 */
export const SDK_NAMES = {
  /** Node.js: the typed classes of the plugin face (`pulumi-svc` itself is the dynamic face). */
  nodejs: "pulumi-svc-sdk",
  python: "pulumi_svc",
  /** The module of sdk/go (its go.mod), tagged `sdk/go/v<version>`; the package is `<module>/svc`. */
  goModule: `${HOME.module}/sdk/go`,
  /** The Java package is `<base>.svc`; the Maven group is the same. GitHub's owners may hold `-`, Java's packages may not. */
  javaBasePackage: `io.github.${HOME.owner.replace(/-/g, "")}`,
  /** The Java SDK the generated Java code compiles against: the release of the pinned Java host (scripts/ensure-pulumi.sh). */
  javaSdk: "1.9.0",
  /** Where the engine fetches the plugin when a program needs it and it is not installed. */
  pluginDownloadURL: `github://api.github.com/${HOME.owner}`,
} as const;

type SchemaType = Record<string, unknown>;
interface Property extends SchemaType {
  description?: string;
  secret?: boolean;
  /** Pulumi's key (`replaceOnChanges`): tests/e2e/schema-metaschema.test.ts checks every key against the CLI's metaschema. */
  replaceOnChanges?: boolean;
}
interface ObjectType {
  properties: Record<string, Property>;
  required: string[];
}

/** The compiled program over the package's entry point, and its checker (also scripts/classes.ts's). */
export function loadProgram() {
  const configPath = path.join(REPO, "tsconfig.json");
  const config = ts.parseJsonConfigFileContent(ts.readConfigFile(configPath, ts.sys.readFile).config, ts.sys, REPO);
  const program = ts.createProgram([path.join(REPO, "index.ts")], config.options);
  return { program, checker: program.getTypeChecker() };
}

/**
 * Whether a type is the `Integer` of provider/fields/integer.ts, the one declaration of a value the spec
 * types integer (its alias, which the checker keeps on the intersection `number & {}`; the checker's
 * file names use / on every platform).
 */
const isAlias =
  (name: "Integer" | "WideInteger") =>
  (type: ts.Type): boolean =>
    type.aliasSymbol?.getName() === name &&
    !!type.aliasSymbol.declarations?.some((d) => d.getSourceFile().fileName.endsWith("/provider/fields/integer.ts"));
const isInteger = isAlias("Integer");
/** The `WideInteger` of provider/fields/integer.ts: `number`, its description saying why (WIDE_NOTE). */
const isWide = isAlias("WideInteger");

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
    if (members.every(isInteger)) return { type: "integer" };
    if (members.every(isWide)) return { type: "number" };
    if (members.every((t) => t.flags & ts.TypeFlags.NumberLike)) return { type: "number" };
    if (members.length > 1) return { $ref: "pulumi.json#/Any" };
    const [t] = members;
    if (this.checker.isArrayType(t)) {
      const [item] = this.checker.getTypeArguments(t as ts.TypeReference);
      return { type: "array", items: this.toSchema(item, names) };
    }
    const value = this.mapValue(t);
    if (value) return { type: "object", additionalProperties: this.toSchema(value, names) };
    if (t.flags & ts.TypeFlags.Object && this.checker.getPropertiesOfType(t).length)
      return { $ref: `#/types/${TOKEN(this.named(t, names))}` };
    return { $ref: "pulumi.json#/Any" };
  }

  /**
   * The value type of a map: `Record<string, T>` (an index signature), or a mapped type over keys
   * that are literals (`Partial<Record<GrantKind, T>>`), which the schema can only say as a map of
   * T. Keys mapped from declared fields (`Pick`, `Omit`) keep their declarations: an object type.
   */
  private mapValue(type: ts.Type): ts.Type | undefined {
    if (!(type.flags & ts.TypeFlags.Object)) return undefined;
    const props = this.checker.getPropertiesOfType(type);
    const index = this.checker.getIndexTypeOfType(type, ts.IndexKind.String);
    if (!props.length) return index;
    if (!((type as ts.ObjectType).objectFlags & ts.ObjectFlags.Mapped) || props.some((p) => p.declarations?.length)) return undefined;
    // The checker interns types: one value type is one object. Keys mapped to different types make
    // no map of one type: Any, described by its keys.
    const values = new Set(props.map((p) => this.checker.getTypeOfSymbol(p)));
    return values.size === 1 ? [...values][0] : this.checker.getAnyType();
  }

  /** The element a property's values are made of: an array's item, a map's value, else itself. */
  private elementOf(type: ts.Type): ts.Type {
    const members = this.plainMembers(type);
    if (members.length !== 1) return type;
    const [t] = members;
    if (this.checker.isArrayType(t)) return this.elementOf(this.checker.getTypeArguments(t as ts.TypeReference)[0]);
    const value = this.mapValue(t);
    return value ? this.elementOf(value) : type;
  }

  /**
   * What the schema's types cannot say about a property, for its description: the values a
   * string-literal union allows, the keys a mapped type takes, the shapes a union of objects takes
   * (mapped to Any). Each only when the TSDoc does not already name it all.
   */
  notes(type: ts.Type, docs: string): string[] {
    const notes: string[] = [];
    const keys = this.mappedKeys(type);
    if (keys && !mentionsAll(docs, keys)) notes.push(`Keys: ${keys.map(code).join(", ")}.`);
    const members = this.plainMembers(this.elementOf(type));
    if (members.length && members.every(isWide)) notes.push(WIDE_NOTE);
    // Sorted: the checker lists a union's members in the order it created them, not as written.
    const values = members.every((t) => t.isStringLiteral()) ? members.map((t) => (t as ts.StringLiteralType).value).sort() : [];
    const [only, ...more] = this.plainMembers(type);
    const each = only && !more.length && this.mapValue(only) ? "Each value one of" : "One of";
    if (values.length > 1 && !mentionsAll(docs, values)) notes.push(`${each}: ${values.map(code).join(", ")}.`);
    if (members.length > 1 && members.every((t) => t.flags & ts.TypeFlags.Object))
      notes.push(`One of these shapes: ${members.map((t) => this.shapeOf(t)).join("; ")}.`);
    // A description echoed from an input carries its notes already.
    return notes.filter((n) => !docs.includes(n));
  }

  /** The keys of a map over known keys (through arrays), sorted (the checker's order is its own). */
  private mappedKeys(type: ts.Type): string[] | undefined {
    const members = this.plainMembers(type);
    if (members.length !== 1) return undefined;
    const [t] = members;
    if (this.checker.isArrayType(t)) return this.mappedKeys(this.checker.getTypeArguments(t as ts.TypeReference)[0]);
    const props = this.checker.getPropertiesOfType(t);
    return this.mapValue(t) && props.length ? props.map((p) => p.getName()).sort() : undefined;
  }

  /** One member of a union of objects, compactly: `{ type: "URL", url, diskId? }` (a literal field shows its value). */
  private shapeOf(type: ts.Type): string {
    const fields = this.checker.getPropertiesOfType(type).map((p) => {
      const [only, ...more] = this.plainMembers(this.checker.getTypeOfSymbol(p));
      if (only?.isStringLiteral() && !more.length) return `${p.getName()}: "${only.value}"`;
      return `${p.getName()}${p.flags & ts.SymbolFlags.Optional ? "?" : ""}`;
    });
    return code(`{ ${fields.join(", ")} }`);
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
    const fits = (n: string) =>
      !this.types.has(n) || Object.keys(this.types.get(n)!.properties).join() === Object.keys(shape.properties).join();
    const name = declared && !declared.startsWith("__") ? declared.replace(/Args$/, "") : (names.find(fits) ?? names[names.length - 1]);
    const known = this.types.get(name);
    // An input shape and an output shape of the same name: one type with every field, required where both require it.
    if (known) {
      for (const [k, v] of Object.entries(shape.properties)) known.properties[k] ??= v;
      known.required = known.required.filter((r) => shape.required.includes(r));
    } else this.types.set(name, shape);
    return name;
  }

  /** `echoed`: properties whose descriptions stand for same-named ones without TSDoc (an output echoing an input). */
  objectOf(type: ts.Type, context: string, echoed: Record<string, Property> = {}): ObjectType {
    const properties: Record<string, Property> = {};
    const required: string[] = [];
    if (this.mapping.has(type)) return { properties, required };
    this.mapping.add(type);
    for (const prop of this.checker.getPropertiesOfType(type)) {
      const propType = this.checker.getTypeOfSymbol(prop);
      const schema: Property = { ...this.toSchema(propType, [pascal(prop.getName()), `${context}${pascal(prop.getName())}`]) };
      const docs = docsOf(prop, this.checker) || (echoed[prop.getName()]?.description ?? "");
      const description = sentences(docs, ...this.notes(propType, docs));
      if (description) schema.description = description;
      properties[prop.getName()] = schema;
      if (!(prop.flags & ts.SymbolFlags.Optional)) required.push(prop.getName());
    }
    this.mapping.delete(type);
    return { properties, required };
  }
}

const pascal = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const code = (s: string) => `\`${s}\``;
/** Whether a description names each of some words already (as whole words). */
const mentionsAll = (text: string, words: string[]) =>
  words.every((w) => new RegExp(`(^|[^\\w])${w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}($|[^\\w])`).test(text));
/** The TSDoc, then notes about the type: the TSDoc as written when there are none. */
const sentences = (docs: string, ...notes: string[]) =>
  notes.length
    ? [docs, ...notes]
        .filter(Boolean)
        .map((p) => (/[.!?)]$/.test(p) ? p : `${p}.`))
        .join(" ")
    : docs;

/**
 * A source file's export by name, through a re-export (a kind's file re-exports its generated
 * Args and Outputs); also scripts/classes.ts's and scripts/fieldTypes.ts's.
 */
export function exportOf(checker: ts.TypeChecker, file: ts.SourceFile, name: string): ts.Symbol {
  const moduleSymbol = checker.getSymbolAtLocation(file);
  const exported = moduleSymbol && checker.getExportsOfModule(moduleSymbol).find((s) => s.getName() === name);
  if (!exported) throw new Error(`${file.fileName} exports no ${name}`);
  return exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
}

/** An exported interface or type alias of a source file, by name. */
function declaredType(checker: ts.TypeChecker, file: ts.SourceFile, name: string): { type: ts.Type; symbol: ts.Symbol } {
  const symbol = exportOf(checker, file, name);
  return { type: checker.getDeclaredTypeOfSymbol(symbol), symbol };
}

/** A file of the program by its path in the repository. */
export function sourceFile(program: ts.Program, relative: string): ts.SourceFile {
  const file = program.getSourceFile(path.join(REPO, relative));
  if (!file) throw new Error(`${relative} is not part of the program`);
  return file;
}

function resourceSchema(kind: string, program: ts.Program, mapper: TypeMapper) {
  const checker = program.getTypeChecker();
  const file = sourceFile(program, sourceFileOf(kind));
  const args = declaredType(checker, file, `${kind}Args`);
  const outputs = declaredType(checker, file, `${kind}Outputs`);
  const definition = definitionOf(kind);
  const secrets = new Set(definition.secretOutputs ?? []);
  const replacing = new Set([
    ...Object.entries(definition.onChange)
      .filter(([, p]) => p.kind === "replace")
      .map(([f]) => f),
    ...(definition.workspaceScoped ? ["workspaceId"] : []),
  ]);

  const inputs = mapper.objectOf(args.type, `${kind}Args`);
  // An output that echoes an input is described once, on the input.
  const outs = mapper.objectOf(outputs.type, `${kind}Outputs`, inputs.properties);
  for (const [name, prop] of Object.entries(inputs.properties)) {
    if (secrets.has(name)) prop.secret = true;
    if (replacing.has(name)) prop.replaceOnChanges = true;
  }
  // On the outputs too: code generators read replaceOnChanges from a resource's properties
  // (pkg/codegen/schema Resource.ReplaceOnChanges), and a generated class passes them as the option.
  for (const [name, prop] of Object.entries(outs.properties)) {
    if (secrets.has(name)) prop.secret = true;
    if (replacing.has(name)) prop.replaceOnChanges = true;
  }
  return {
    description: definition.doc,
    inputProperties: inputs.properties,
    requiredInputs: inputs.required,
    properties: outs.properties,
    required: outs.required,
    // A kind a workspace holds is listed by the plugin's List (`pulumi do svc:index:<Kind> list`, plugin/list.ts).
    ...(definition.api.list ? { listInputs: LIST_INPUTS } : {}),
  };
}

/** What the plugin's List takes: the workspace, else the provider's own. */
const LIST_INPUTS = {
  type: "object",
  properties: {
    workspaceId: { type: "string", description: "The workspace whose objects to list; default the provider's (svc:workspaceId)." },
  },
};

/** The plain lookups: exported `get*` functions of resources/lookups (the `...Output` forms are program-side). */
function functionSchemas(program: ts.Program, mapper: TypeMapper) {
  const checker = program.getTypeChecker();
  const index = sourceFile(program, "resources/lookups/index.ts");
  const exported = checker
    .getExportsOfModule(checker.getSymbolAtLocation(index)!)
    .filter((s) => /^get[A-Z]/.test(s.getName()) && !s.getName().endsWith("Output"));
  const functions: Record<string, unknown> = {};
  for (const symbol of exported.sort((a, b) => a.getName().localeCompare(b.getName()))) {
    const name = symbol.getName();
    const declaration = lookupDeclaration(program, name);
    const signature = declaration && checker.getSignatureFromDeclaration(declaration);
    if (!declaration || !signature) throw new Error(`no function declaration for the lookup ${name} in resources/lookups`);
    const [param] = declaration.parameters;
    const inputs = param
      ? mapper.objectOf(checker.getNonNullableType(checker.getTypeAtLocation(param)), `${pascal(name)}Args`)
      : { properties: {}, required: [] };
    // An argument that may be left out (`args = {}`) makes every field optional.
    if (param && (param.questionToken || param.initializer)) inputs.required = [];
    const promised = checker.getAwaitedType(signature.getReturnType()) ?? signature.getReturnType();
    const item = pascal(name.replace(/^get/, "")).replace(/s$/, "");
    const outputs = checker.isArrayType(promised)
      ? {
          properties: {
            items: { type: "array", items: mapper.toSchema(checker.getTypeArguments(promised as ts.TypeReference)[0], [item]) },
          },
          required: ["items"],
        }
      : mapper.objectOf(promised, `${pascal(name)}Result`);
    const docs = checker.getSymbolAtLocation(declaration.name!);
    functions[TOKEN(name)] = { description: docs ? docsOf(docs, checker) : "", inputs, outputs };
  }
  return functions;
}

/** The area function a lookup wraps (index.ts makes both forms of it with lookupForms, which hides its signature and docs). */
function lookupDeclaration(program: ts.Program, name: string): ts.FunctionDeclaration | undefined {
  for (const file of program.getSourceFiles()) {
    if (!file.fileName.includes(`${path.sep}resources${path.sep}lookups${path.sep}`)) continue;
    const found = file.statements.find((s): s is ts.FunctionDeclaration => ts.isFunctionDeclaration(s) && s.name?.text === name);
    if (found) return found;
  }
  return undefined;
}

/** Each setting's environment fallback, from the `pick(sources, "svc:<name>", "<ENV>")` calls of provider/runtime/config.ts. */
function environmentFallbacks(file: ts.SourceFile): Map<string, string> {
  const fallbacks = new Map<string, string>();
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === "pick") {
      const [, setting, env] = node.arguments;
      if (setting && env && ts.isStringLiteral(setting) && ts.isStringLiteral(env)) fallbacks.set(setting.text, env.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return fallbacks;
}

/**
 * The provider's settings: stack config `svc:<name>` for the default provider, properties of an
 * explicit one. Names, types and TSDoc from ProviderConfig, each checked against the `Setting`
 * names; the environment fallback from where the setting is read; secrecy from the plugin.
 */
function providerSettings(program: ts.Program, mapper: TypeMapper): Record<string, Property> {
  const checker = program.getTypeChecker();
  const file = sourceFile(program, "provider/runtime/config.ts");
  const config = declaredType(checker, file, "ProviderConfig").type;
  const setting = declaredType(checker, file, "Setting").type;
  const settingNames = new Set(
    (setting.isUnion() ? setting.types : [setting]).filter((t) => t.isStringLiteral()).map((t) => (t as ts.StringLiteralType).value),
  );
  const fallbacks = environmentFallbacks(file);
  const secrets: readonly string[] = PROVIDER_SECRETS;
  const settings: Record<string, Property> = {};
  for (const prop of checker.getPropertiesOfType(config)) {
    const name = prop.getName();
    const key = `svc:${name}`;
    const env = fallbacks.get(key);
    if (!settingNames.has(key) || !env)
      throw new Error(`provider/runtime/config.ts: ProviderConfig.${name} is no Setting "${key}" read with an environment fallback`);
    settings[name] = {
      ...mapper.toSchema(checker.getTypeOfSymbol(prop), []),
      description: sentences(docsOf(prop, checker), `Falls back to the environment variable ${code(env)}.`),
      ...(secrets.includes(name) ? { secret: true } : {}),
    };
  }
  const unknown = [...settingNames].filter((k) => !settings[k.replace(/^svc:/, "")]);
  if (unknown.length) throw new Error(`settings that ProviderConfig does not declare: ${unknown.join(", ")}`);
  return settings;
}

/** `program`: one already loaded over the current sources (scripts/generate.ts shares one), else a new one. */
export function generateSchema(program: ts.Program = loadProgram().program): Record<string, unknown> {
  const checker = program.getTypeChecker();
  const mapper = new TypeMapper(checker);
  const manifest = JSON.parse(fs.readFileSync(path.join(REPO, "package.json"), "utf8")) as {
    name: string;
    version: string;
    description: string;
    license: string;
  };
  const resources: Record<string, unknown> = {};
  for (const kind of kinds()) resources[TOKEN(kind)] = resourceSchema(kind, program, mapper);
  const functions = functionSchemas(program, mapper);
  const settings = providerSettings(program, mapper);
  const types = Object.fromEntries(
    [...mapper.types.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, t]) => [TOKEN(name), { type: "object", properties: t.properties, required: t.required }]),
  );
  return {
    name: PACKAGE_NAME,
    displayName: "svc",
    version: manifest.version,
    description: manifest.description,
    license: manifest.license,
    repository: `https://${HOME.module}`,
    pluginDownloadURL: SDK_NAMES.pluginDownloadURL,
    keywords: ["pulumi", "svc", "category/infrastructure"],
    config: { variables: settings },
    provider: { description: "The svc provider: one API address, token and default workspace.", inputProperties: settings },
    resources,
    functions,
    types,
    // Laid out as Pulumi providers ship their SDKs: sdk/go with its own go.mod, sdk/python with a
    // pyproject.toml, sdk/nodejs with a package.json of the schema's version.
    meta: { supportPack: true },
    language: {
      nodejs: { packageName: SDK_NAMES.nodejs },
      python: { packageName: SDK_NAMES.python },
      go: {
        importBasePath: `${SDK_NAMES.goModule}/svc`,
        modulePath: SDK_NAMES.goModule,
        generateResourceContainerTypes: true,
      },
      java: {
        basePackage: SDK_NAMES.javaBasePackage,
        buildFiles: "gradle",
        dependencies: { "com.pulumi:pulumi": SDK_NAMES.javaSdk },
      },
    },
  };
}
