/**
 * `svc-import --finish <program>`: completes the program `pulumi import --file` generated, from
 * the stack's own record of what it imported. Pulumi's code generation already turns a value
 * equal to another imported resource's id (or name) into a reference; what it leaves is finished
 * here, in the program's language (importer/languages.ts):
 * - each secret placeholder (`svc-import-secret:<key>`, provider/fields/configSecret.ts) becomes a read
 *   of that config secret, and the config object is declared;
 * - each tie the API makes (importer/references.ts) that is still a literal id or name becomes a
 *   reference (a value shared by two resources, or one in a reference cycle, is left literal by
 *   Pulumi's guess; Go gets a variable for a resource it left unnamed);
 * - with `--retain`, every imported resource gets `retainOnDelete`;
 * - a whole number the generator wrote in exponent form (YAML's `size: 2.147483648e+10`) is
 *   written as an integer.
 * Pure: the caller reads the state and the file, and writes the result.
 */
import { TOKEN_PREFIX } from "../provider/typeTokens";
import { placeholderKey, placeholdersIn } from "../provider/fields/configSecret";
import type { Declaration, Language } from "./languages";
import { REFERENCES } from "./references";

/** A resource the stack imported, as its state records it. */
export interface Imported {
  name: string;
  kind: string;
  id: string;
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown>;
}

export interface Finished {
  text: string;
  /** References Pulumi's code generation wrote itself, and those the finisher added (`web-1-tcp-80.instanceId -> web-1`). */
  native: string[];
  added: string[];
  /** Ties it could not write as references, with why. */
  left: string[];
  /** The config secrets the program now reads, each with what it sets. */
  secrets: Array<{ key: string; sets: string }>;
  retained: number;
}

/** The imported resources of an exported state: the plugin's types, custom, with ids. */
export function importedOf(
  resources: Array<{ urn: string; type: string; id?: string; custom?: boolean; inputs?: unknown; outputs?: unknown }>,
) {
  return resources
    .filter((r) => r.type.startsWith(TOKEN_PREFIX) && r.id)
    .map(
      (r): Imported => ({
        name: r.urn.slice(r.urn.lastIndexOf("::") + 2),
        kind: r.type.slice(TOKEN_PREFIX.length),
        id: r.id!,
        inputs: (r.inputs as Record<string, unknown>) ?? {},
        outputs: (r.outputs as Record<string, unknown>) ?? {},
      }),
    );
}

interface Tie {
  from: Imported;
  field: string;
  value: string;
  to: Imported;
  by: "id" | "name";
}

/** Every value of an imported resource's inputs that names another imported resource. */
function tiesOf(imported: Imported[]): Tie[] {
  return imported.flatMap((from) =>
    Object.entries(REFERENCES[from.kind] ?? {}).flatMap(([field, refers]) => {
      const value = from.inputs[field];
      const values = (Array.isArray(value) ? value : value === undefined ? [] : [value]).filter((v): v is string => typeof v === "string");
      return values.flatMap((v) => {
        const to = imported.find((t) => t.kind === refers.kind && (refers.by === "id" ? t.id === v : t.outputs.name === v));
        return to && to !== from ? [{ from, field, value: v, to, by: refers.by }] : [];
      });
    }),
  );
}

export function finishProgram(language: Language, text: string, imported: Imported[], options: { retain?: boolean } = {}): Finished {
  const declarations = new Map(language.declarations(text).map((d) => [d.name, d]));
  const plan = planTies(language, text, declarations, tiesOf(imported));
  // Edit each declaration, last first, so earlier offsets stay valid.
  let out = text;
  for (const d of [...declarations.values()].sort((a, b) => b.start - a.start)) {
    const resource = imported.find((r) => r.name === d.name);
    if (!resource) continue;
    let decl = slice(out, d);
    const own = plan.variables.get(d.name);
    if (own) decl = language.named(decl, own);
    for (const t of plan.toAdd.filter((t) => t.from === resource)) {
      const variable = declarations.get(t.to.name)!.variable ?? plan.variables.get(t.to.name)!;
      decl = decl.replace(language.literal(t.value), language.reference(variable, t.to.name, t.by));
    }
    if (options.retain) decl = language.retained(decl);
    out = out.slice(0, d.start) + decl + out.slice(d.end);
  }
  // Secrets: each placeholder becomes the config read, and the config object is declared once.
  const keys = placeholdersIn(out);
  for (const key of keys) out = out.replace(language.literal(`svc-import-secret:${key}`), language.configRead(key));
  if (keys.length) out = language.declareConfig(out, keys);
  if (language.wholeNumbers) out = language.wholeNumbers(out);
  return {
    text: out,
    native: plan.native.map(label),
    added: plan.toAdd.map(label),
    left: plan.left,
    secrets: keys.map((key) => ({ key, sets: setBy(imported, key) })),
    retained: options.retain ? imported.filter((r) => declarations.has(r.name)).length : 0,
  };
}

const label = (t: Tie) => `${t.from.name}.${t.field} -> ${t.to.name}`;

/**
 * Which ties the generator wrote as references (native), which are still literals to make
 * references (toAdd, with a variable for each target the generator left unnamed: Go's `_`), and
 * which cannot be (left: a target declared after the resource naming it, outside YAML).
 */
function planTies(language: Language, text: string, declarations: Map<string, Declaration>, all: Tie[]) {
  const ties = all.filter((t) => declarations.has(t.from.name) && declarations.has(t.to.name));
  const literal = (t: Tie) => language.literal(t.value).test(slice(text, declarations.get(t.from.name)!));
  const native = ties.filter((t) => !literal(t));
  const left: string[] = [];
  const toAdd: Tie[] = [];
  const used = new Set([...declarations.values()].flatMap((d) => (d.variable ? [d.variable] : [])));
  const variables = new Map<string, string>();
  for (const t of ties.filter(literal)) {
    const target = declarations.get(t.to.name)!;
    if (target.start > declarations.get(t.from.name)!.start && language.name !== "YAML") {
      left.push(`${label(t)}: ${t.to.name} is declared after ${t.from.name} (move it up, then refer to it)`);
      continue;
    }
    if (!target.variable && !variables.has(t.to.name)) {
      let v = language.variableFor(t.to.name);
      while (used.has(v)) v = `${v}_`;
      used.add(v);
      variables.set(t.to.name, v);
    }
    toAdd.push(t);
  }
  return { native, toAdd, left, variables };
}

const slice = (text: string, d: Declaration) => text.slice(d.start, d.end);

/** What a config key sets: the resource and input whose placeholder names it (`ghcr-io: password`). */
function setBy(imported: Imported[], key: string): string {
  for (const r of imported)
    for (const [field, value] of Object.entries(r.inputs)) {
      if (placeholderKey(value) === key) return `${r.kind} ${r.name}: ${field}`;
      if (value && typeof value === "object")
        for (const [k, v] of Object.entries(value)) if (placeholderKey(v) === key) return `${r.kind} ${r.name}: ${field}.${k}`;
    }
  return "(not in the stack's state)";
}
