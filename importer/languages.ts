/**
 * What `svc-import --finish` needs to know of each language Pulumi's code generation writes a
 * program in, as one table: how a declaration of a resource reads (its logical name, its variable,
 * where its text ends), how a string literal, a reference and a config secret are written, where
 * the config object is declared and how `retainOnDelete` is added. The generated code is regular
 * (one declaration per resource, each as the generator lays it out), so these are patterns on its
 * text, not a parser of each language; tests/unit/importer/finish.test.ts runs each on what
 * `pulumi import` printed for that language.
 */

/** One resource's declaration in the program's text. */
export interface Declaration {
  /** Its logical name (the first argument, or the YAML key). */
  name: string;
  /** The variable that holds it, or undefined where the generator declared none (Go's `_`). */
  variable?: string;
  /** [start, end) of the whole declaration in the text. */
  start: number;
  end: number;
}

export interface Language {
  name: string;
  extensions: string[];
  declarations(text: string): Declaration[];
  /** A string literal's forms in this language's generated code (Go wraps it in pulumi.String). */
  literal(value: string): RegExp;
  reference(variable: string, logicalName: string, by: "id" | "name"): string;
  /** The variable a declaration gets when the finisher must name one the generator left unnamed. */
  variableFor(logicalName: string): string;
  /** The declaration with a variable (Go: `_, err =` becomes `web_1, err :=`). */
  named(declaration: string, variable: string): string;
  configRead(key: string): string;
  /** The text with the config object declared (and, for YAML, each key), once. */
  declareConfig(text: string, keys: string[]): string;
  /** One declaration's text with `retainOnDelete` set. */
  retained(declaration: string): string;
  /**
   * The text with each whole number the generator wrote in exponent form written as an integer,
   * where its generator does so: YAML's (pulumi-yaml formats every number with Go's
   * `strconv.FormatFloat(v, 'g', -1, 64)`, whatever the schema types it, so a disk of 20 GiB reads
   * `size: 2.147483648e+10` and any value from 1,000,000 up has an exponent).
   */
  wholeNumbers?(text: string): string;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The index just past the bracket closing the one at `open`, skipping string literals. */
function closing(text: string, open: number): number {
  const pairs: Record<string, string> = { "(": ")", "{": "}", "[": "]" };
  const stack: string[] = [];
  for (let i = open; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"' || ch === "'" || ch === "`") {
      for (i++; i < text.length && text[i] !== ch; i++) if (text[i] === "\\") i++;
      continue;
    }
    if (pairs[ch]) stack.push(pairs[ch]);
    else if (ch === stack[stack.length - 1]) {
      stack.pop();
      if (!stack.length) return i + 1;
    }
  }
  throw new Error(`unbalanced brackets from offset ${open}`);
}

/** Declarations found by a pattern matching from a declaration's start to its name (group 1: variable, 2: name); the call is the first `(` on. */
function calls(text: string, pattern: RegExp, tail: RegExp = /^;?/): Declaration[] {
  return [...text.matchAll(pattern)].map((m) => {
    const open = text.indexOf("(", m.index!);
    const close = closing(text, open);
    const end = close + (tail.exec(text.slice(close))?.[0].length ?? 0);
    const variable = m[1] === "_" ? undefined : m[1];
    return { name: JSON.parse(`"${m[2]}"`) as string, variable, start: m.index!, end };
  });
}

/** The arguments of a call `f(a, b, c)` at top level: [start, end) of each, within `call`. */
function argumentsOf(call: string): Array<[number, number]> {
  const open = call.indexOf("(");
  const close = closing(call, open) - 1;
  const args: Array<[number, number]> = [];
  let start = open + 1;
  for (let i = start; i < close; i++) {
    const ch = call[i];
    if ("([{".includes(ch)) i = closing(call, i) - 1;
    else if (ch === '"' || ch === "'") {
      for (i++; call[i] !== ch; i++) if (call[i] === "\\") i++;
    } else if (ch === ",") {
      args.push([start, i]);
      start = i + 1;
    }
  }
  if (call.slice(start, close).trim()) args.push([start, close]);
  return args;
}

/** A declaration's call with an option added: into the options argument (the `index`th) if there is one, else as a new argument. */
function withOption(call: string, index: number, add: (existing: string | undefined) => string): string {
  const args = argumentsOf(call);
  const close = closing(call, call.indexOf("(")) - 1;
  if (args.length > index) {
    const [s, e] = args[index];
    return call.slice(0, s) + add(call.slice(s, e)) + call.slice(e);
  }
  const before = call.slice(0, close).replace(/\s*,?\s*$/, "");
  return `${before}, ${add(undefined)}${call.slice(close)}`;
}

const quoted = (value: string) => new RegExp(`"${escape(value)}"`, "g");

const typescript: Language = {
  name: "TypeScript",
  extensions: [".ts"],
  declarations: (text) => calls(text, /(?:const|let) (\w+) = new svc\.\w+\("((?:[^"\\]|\\.)*)"(?=[,)])/g),
  literal: quoted,
  reference: (variable, _name, by) => `${variable}.${by}`,
  variableFor: (name) => name.replace(/[^A-Za-z0-9_]/g, "_"),
  named: (declaration) => declaration,
  configRead: (key) => `config.requireSecret(${JSON.stringify(key)})`,
  declareConfig(text) {
    if (/\bconst config = new pulumi\.Config\(\)/.test(text)) return text;
    const withPulumi = /import \* as pulumi from "@pulumi\/pulumi";/.test(text)
      ? text
      : `import * as pulumi from "@pulumi/pulumi";\n${text}`;
    const imports = [...withPulumi.matchAll(/^import .*;\n/gm)];
    const at = imports.length ? imports[imports.length - 1].index! + imports[imports.length - 1][0].length : 0;
    return `${withPulumi.slice(0, at)}\nconst config = new pulumi.Config();\n${withPulumi.slice(at)}`;
  },
  retained: (declaration) =>
    withOption(declaration, 2, (existing) =>
      existing === undefined ? "{ retainOnDelete: true }" : existing.replace(/\{\s*/, "{ retainOnDelete: true, ").replace(/,\s*\}/, " }"),
    ),
};

const python: Language = {
  name: "Python",
  extensions: [".py"],
  declarations: (text) => calls(text, /^(\w+) = svc\.\w+\("((?:[^"\\]|\\.)*)"(?=[,)])/gm, /^/),
  literal: quoted,
  reference: (variable, _name, by) => `${variable}.${by}`,
  variableFor: (name) => name.replace(/[^A-Za-z0-9_]/g, "_"),
  named: (declaration) => declaration,
  configRead: (key) => `config.require_secret(${JSON.stringify(key)})`,
  declareConfig(text) {
    if (/^config = pulumi\.Config\(\)/m.test(text)) return text;
    const imports = [...text.matchAll(/^import .*\n/gm)];
    const at = imports.length ? imports[imports.length - 1].index! + imports[imports.length - 1][0].length : 0;
    return `${text.slice(0, at)}\nconfig = pulumi.Config()\n${text.slice(at)}`;
  },
  retained(declaration) {
    if (/opts=pulumi\.ResourceOptions\(/.test(declaration))
      return declaration.replace(/opts=pulumi\.ResourceOptions\(/, "$&retain_on_delete=True, ");
    const close = declaration.lastIndexOf(")");
    return `${declaration.slice(0, close)},\n    opts=pulumi.ResourceOptions(retain_on_delete=True)${declaration.slice(close)}`;
  },
};

const go: Language = {
  name: "Go",
  extensions: [".go"],
  declarations: (text) => calls(text, /(\w+), err :?= svc\.New\w+\(ctx, "((?:[^"\\]|\\.)*)"(?=[,)])/g, /^/),
  literal: (value) => new RegExp(`pulumi\\.String\\("${escape(value)}"\\)|"${escape(value)}"`, "g"),
  reference: (variable, _name, by) => `${variable}.${by === "id" ? "ID()" : "Name"}`,
  variableFor: (name) => name.replace(/[^A-Za-z0-9_]/g, "_"),
  named: (declaration, variable) => declaration.replace(/^_, err :?= /, `${variable}, err := `),
  configRead: (key) => `cfg.RequireSecret(${JSON.stringify(key)})`,
  declareConfig(text) {
    if (/\bcfg := config\.New\(ctx, ""\)/.test(text)) return text;
    const imported = text.includes('"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"')
      ? text
      : text.replace(/import \(\n/, '$&\t"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"\n');
    return imported.replace(/pulumi\.Run\(func\(ctx \*pulumi\.Context\) error \{\n/, '$&\t\tcfg := config.New(ctx, "")\n');
  },
  retained: (declaration) => withOption(declaration, 3, (existing) => (existing === undefined ? "pulumi.RetainOnDelete(true)" : existing)),
};

/** The resources of a YAML program: each key under `resources:` (two spaces in), to the next such key. */
function yamlDeclarations(text: string): Declaration[] {
  const section = /^resources:\s*\n/m.exec(text);
  if (!section) return [];
  const from = section.index + section[0].length;
  const keys = [...text.slice(from).matchAll(/^ {2}(?!\s)("(?:[^"\\]|\\.)*"|'[^']*'|[^\s:][^:\n]*):\s*\n/gm)];
  const endOfSection = (() => {
    const next = /^\S/m.exec(text.slice(from));
    return next ? from + next.index : text.length;
  })();
  return keys
    .map((m, i) => {
      const start = from + m.index!;
      const end = i + 1 < keys.length ? from + keys[i + 1].index! : endOfSection;
      const raw = m[1];
      const name = raw.startsWith('"') ? (JSON.parse(raw) as string) : raw.startsWith("'") ? raw.slice(1, -1) : raw;
      return { name, variable: name, start, end };
    })
    .filter((d) => d.start < endOfSection);
}

const yamlName = (name: string) => (/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? name : `["${name}"]`);

const yaml: Language = {
  name: "YAML",
  extensions: [".yaml", ".yml"],
  declarations: yamlDeclarations,
  // A whole scalar (after a key or a list dash, to the end of the line), plain or quoted.
  literal: (value) => new RegExp(`(?<=(?::|-) )(?:'${escape(value)}'|"${escape(value)}"|${escape(value)})(?=\\s*$)`, "gm"),
  reference: (_variable, name, by) => `\${${yamlName(name)}.${by}}`,
  variableFor: (name) => name,
  named: (declaration) => declaration,
  configRead: (key) => `\${${key}}`,
  declareConfig(text, keys) {
    const missing = keys.filter((k) => !new RegExp(`^ {2}${escape(k)}:`, "m").test(text));
    if (!missing.length) return text;
    const entries = missing.map((k) => `  ${k}:\n    type: string\n    secret: true\n`).join("");
    if (/^config:\s*\n/m.test(text)) return text.replace(/^config:\s*\n/m, `$&${entries}`);
    const at = /^resources:/m.exec(text)?.index ?? 0;
    return `${text.slice(0, at)}config:\n${entries}${text.slice(at)}`;
  },
  // A plain scalar after a key or a list dash, to the end of the line: exact below 2^53, as JSON numbers are.
  wholeNumbers: (text) =>
    text.replace(/(?<=(?::|-) )-?\d+(?:\.\d+)?[eE][+-]?\d+(?=\s*$)/gm, (n) => (Number.isSafeInteger(Number(n)) ? String(Number(n)) : n)),
  retained(declaration) {
    if (/^ {4}options:\s*\n/m.test(declaration)) return declaration.replace(/^ {4}options:\s*\n/m, "$&      retainOnDelete: true\n");
    return `${declaration.replace(/\n*$/, "\n")}    options:\n      retainOnDelete: true\n`;
  },
};

const java: Language = {
  name: "Java",
  extensions: [".java"],
  declarations: (text) => calls(text, /var (\w+) = new \w+\("((?:[^"\\]|\\.)*)"(?=[,)])/g),
  literal: quoted,
  reference: (variable, _name, by) => `${variable}.${by}()`,
  variableFor: (name) => name.replace(/[^A-Za-z0-9_]/g, "_"),
  named: (declaration) => declaration,
  configRead: (key) => `config.requireSecret(${JSON.stringify(key)})`,
  declareConfig(text) {
    if (/final var config = ctx\.config\(\);/.test(text)) return text;
    const declared = text.replace(/public static void stack\(Context ctx\) \{\n/, "$&        final var config = ctx.config();\n");
    return secretMaps(declared);
  },
  retained: (declaration) =>
    withOption(declaration, 2, (existing) =>
      existing === undefined
        ? "com.pulumi.resources.CustomResourceOptions.builder().retainOnDelete(true).build()"
        : existing.replace(/\.builder\(\)/, ".builder().retainOnDelete(true)"),
    ),
};

/**
 * Java's builders take a map of plain values or the Output of one, not a map of Outputs: a map
 * whose values are all config secrets (a k3s secret's data) becomes the Output of the map.
 */
function secretMaps(text: string): string {
  return text.replace(
    /Map\.ofEntries\(((?:\s*Map\.entry\("(?:[^"\\]|\\.)*", config\.requireSecret\("\w+"\)\),?)+)\s*\)/g,
    (_all, entries: string) => {
      const pairs = [...entries.matchAll(/Map\.entry\(("(?:[^"\\]|\\.)*"), (config\.requireSecret\("\w+"\))\)/g)];
      const reads = pairs.map((p) => p[2]).join(", ");
      const map = pairs.map((p, i) => `Map.entry(${p[1]}, v.get(${i}))`).join(", ");
      return `Output.all(${reads}).applyValue(v -> Map.ofEntries(${map}))`;
    },
  );
}

export const LANGUAGES: Language[] = [typescript, python, go, yaml, java];

/** The language of a program file, by its extension. */
export function languageOf(file: string): Language | undefined {
  return LANGUAGES.find((l) => l.extensions.some((e) => file.toLowerCase().endsWith(e)));
}
