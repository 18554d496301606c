/**
 * The TypeScript program of the dynamic face (`pulumi-svc`'s classes) that adopts a workspace:
 * one declaration per adopted object with Pulumi's `import` resource option (the object is taken
 * in as it is, with no write, at the first `pulumi up`; issue 28's carried option), references
 * where the API ties objects (`instanceId: web1.id`), each secret input read from its config
 * secret, and `retainOnDelete` on every resource when asked. Declarations come in an order where
 * each follows those it refers to. Written by svc-import, not by Pulumi's code generation, because
 * `pulumi import` cannot reach a dynamic resource (README, "Limits of dynamic providers").
 */
import type { Adopted, Discovery } from "./discover";

/** Words a variable may not be (TypeScript's reserved words), and the names the program uses itself. */
const TAKEN = new Set(
  (
    "break case catch class const continue debugger default delete do else enum export extends false finally for function if " +
    "import in instanceof new null return super switch this throw true try typeof var void while with as implements interface " +
    "let package private protected public static yield await config pulumi svc"
  ).split(" "),
);

/** A camelCase identifier for a logical name (`web-1` -> `web1`, `app-net` -> `appNet`), unique among `used`. */
function variableName(name: string, kind: string, used: Set<string>): string {
  const [first = "r", ...rest] = name.split(/[^A-Za-z0-9]+/).filter(Boolean);
  let v = [first, ...rest.map((w) => w[0].toUpperCase() + w.slice(1))].join("");
  if (/^[0-9]/.test(v)) v = `r${v}`;
  if (TAKEN.has(v) || used.has(v)) v = `${v}${kind}`;
  for (let n = 2; used.has(v); n++) v = `${v.replace(/\d+$/, "")}${n}`;
  used.add(v);
  return v;
}

/** An expression printed in place of a literal (a reference, a config read). */
class Code {
  constructor(readonly text: string) {}
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A value as TypeScript source, `indent` the current line's indentation. */
function printValue(value: unknown, indent = ""): string {
  if (value instanceof Code) return value.text;
  if (value === null || value === undefined) return "null";
  if (typeof value === "string" || typeof value === "boolean") return JSON.stringify(value);
  if (typeof value === "number" || typeof value === "bigint") return String(value);
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (!value.length) return "[]";
    const items = value.map((v) => printValue(v, inner));
    const flat = `[${items.join(", ")}]`;
    return flat.length <= 80 && !flat.includes("\n") ? flat : `[\n${items.map((i) => `${inner}${i},`).join("\n")}\n${indent}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (!entries.length) return "{}";
  const key = (k: string) => (IDENTIFIER.test(k) ? k : JSON.stringify(k));
  return `{\n${entries.map(([k, v]) => `${inner}${key(k)}: ${printValue(v, inner)},`).join("\n")}\n${indent}}`;
}

/** The declaration with its references and config secrets in place of the literals they stand for. */
function argsOf(a: Adopted, variables: Map<string, string>): Record<string, unknown> {
  const args: Record<string, unknown> = structuredClone(a.declaration);
  for (const ref of a.references) {
    const expr = new Code(`${variables.get(ref.target)}.${ref.by}`);
    if (ref.index === undefined) args[ref.field] = expr;
    else (args[ref.field] as unknown[])[ref.index] = expr;
  }
  for (const s of a.secrets) {
    const read = new Code(`config.requireSecret(${JSON.stringify(s.key)})`);
    if (s.mapKey === undefined) args[s.field] = read;
    else args[s.field] = { ...((args[s.field] as Record<string, unknown>) ?? {}), [s.mapKey]: read };
  }
  return args;
}

export interface ProgramOptions {
  /** Every resource gets `retainOnDelete: true`: `pulumi destroy` then leaves the workspace as it is. */
  retain?: boolean;
}

export function dynamicProgram(d: Discovery, options: ProgramOptions = {}): string {
  const used = new Set<string>();
  const variables = new Map(d.adopted.map((a) => [a.name, variableName(a.name, a.kind, used)]));
  const secrets = d.adopted.some((a) => a.secrets.length);
  const declarations = d.adopted.map((a) => {
    const opts = { import: a.id, ...(options.retain ? { retainOnDelete: true } : {}) };
    return `const ${variables.get(a.name)} = new svc.${a.kind}(${JSON.stringify(a.name)}, ${printValue(argsOf(a, variables))}, ${printValue(opts)});`;
  });
  const where = `workspace ${d.workspace.id}${d.workspace.name ? ` (${d.workspace.name})` : ""}`;
  return [
    `// Adopted from ${where} by svc-import: each resource is taken in as it is, with no write, by its`,
    "// `import` option at the first `pulumi up`; from then on it is managed as if this program had made it.",
    ...(options.retain ? ["// retainOnDelete: `pulumi destroy` forgets these resources and leaves them in the workspace."] : []),
    ...(secrets ? ['import * as pulumi from "@pulumi/pulumi";'] : []),
    'import * as svc from "pulumi-svc";',
    "",
    ...(secrets
      ? [
          "// Secrets the API never reads back: set each with `pulumi config set --secret <key> <value>`.",
          "const config = new pulumi.Config();",
          "",
        ]
      : []),
    ...declarations.flatMap((text) => [text, ""]),
  ].join("\n");
}
