/**
 * Pulumi's property paths (`description`, `ports[0].name`, `labels["a.b"]`, `ports[*].port`, `*`),
 * read as the engine reads them (sdk/go/common/resource/properties_path.go: ParsePropertyPath,
 * Contains, reset). The lifecycle needs them where the dynamic-provider host drops what the engine
 * would do with them: `ignoreChanges` keeps a path's recorded value, `replaceOnChanges` replaces
 * when a changed path lies under one of its paths, and a diff names each changed leaf by its path
 * (the plugin forwards those as the detailed diff, which is what the engine matches
 * `replaceOnChanges` against).
 */

/** A path: object keys and array indexes; "*" matches any key or index at its level. */
export type PropertyPath = Array<string | number>;

/** The path a text names, or a message saying why it names none. Loose, as the engine's parser is. */
export function parsePath(text: string): PropertyPath | string {
  const path: PropertyPath = [];
  if (!text || text.startsWith(".")) return `"${text}" is not a property path: it must start with a name or an index`;
  let rest = text;
  while (rest.length) {
    if (rest[0] === ".") {
      rest = rest.slice(1);
      if (!rest.length) return `"${text}" is not a property path: it ends with "."`;
    } else if (rest.startsWith('["')) {
      const end = /^\["((?:\\"|[^"])*)"\]/.exec(rest);
      if (!end) return `"${text}" is not a property path: a quoted key must be closed with "]`;
      path.push(end[1].replace(/\\"/g, '"'));
      rest = rest.slice(end[0].length);
    } else if (rest[0] === "[") {
      const end = /^\[(\*|\d+)\]/.exec(rest);
      if (!end) return `"${text}" is not a property path: an index is a number or *, in brackets`;
      path.push(end[1] === "*" ? "*" : Number(end[1]));
      rest = rest.slice(end[0].length);
    } else {
      const name = /^[^.[]+/.exec(rest)![0];
      path.push(name);
      rest = rest.slice(name.length);
    }
  }
  return path;
}

/** The text of a path, as the engine writes detailed-diff keys: `ports[0].name`, `labels["a.b"]`. */
export function formatPath(path: PropertyPath): string {
  let out = "";
  for (const el of path) {
    if (typeof el === "number") out += `[${el}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(el) || el === "*") out += out ? `.${el}` : el;
    else out += `[${JSON.stringify(el)}]`;
  }
  return out;
}

/** Whether `other` lies at or under `path` ("*" matching any one element), as the engine's Contains. */
export function contains(path: PropertyPath, other: PropertyPath): boolean {
  if (other.length < path.length) return false;
  return path.every((el, i) => el === "*" || el === other[i]);
}

type Container = Record<string, unknown> | unknown[];
const isContainer = (v: unknown): v is Container => typeof v === "object" && v !== null;

/**
 * Sets the value at `path` in `next` to the value at `path` in `old`, in place (what ignoreChanges
 * does with a declared value): absent in `old`, the key is removed from `next`. A path that leads
 * nowhere in either value changes nothing.
 */
export function keepOld(old: unknown, next: unknown, path: PropertyPath): void {
  if (!path.length || !isContainer(next) || !isContainer(old) || Array.isArray(old) !== Array.isArray(next)) return;
  const [head, ...tail] = path;
  const keys = head === "*" ? Object.keys(old).filter((k) => k in next) : [String(head)];
  for (const key of keys) {
    const o = (old as Record<string, unknown>)[key];
    if (tail.length) keepOld(o, (next as Record<string, unknown>)[key], tail);
    else if (Array.isArray(next)) {
      if (Number(key) < next.length && Number(key) < (old as unknown[]).length) next[Number(key)] = o;
    } else if (o === undefined) delete next[key];
    else next[key] = o;
  }
}

/** How one leaf differs between two values. */
export interface LeafChange {
  path: PropertyPath;
  kind: "add" | "delete" | "update";
}

/**
 * Each leaf that differs between `old` and `next` (objects and arrays compared member by member),
 * under `at`. A value unknown until up (`isUnknown`) is an update of its whole path.
 */
export function leafChanges(old: unknown, next: unknown, at: PropertyPath, isUnknown: (v: unknown) => boolean): LeafChange[] {
  if (old === undefined && next === undefined) return [];
  if (old === undefined) return [{ path: at, kind: "add" }];
  if (next === undefined) return [{ path: at, kind: "delete" }];
  if (isUnknown(next) || !isContainer(old) || !isContainer(next) || Array.isArray(old) !== Array.isArray(next))
    return isUnknown(next) || !sameLeaf(old, next) ? [{ path: at, kind: "update" }] : [];
  const keys = Array.isArray(old)
    ? Array.from({ length: Math.max(old.length, (next as unknown[]).length) }, (_, i) => i)
    : [...new Set([...Object.keys(old), ...Object.keys(next)])];
  return keys.flatMap((k) => leafChanges((old as Record<string, unknown>)[k], (next as Record<string, unknown>)[k], [...at, k], isUnknown));
}

const sameLeaf = (a: unknown, b: unknown) => a === b || (Number.isNaN(a) && Number.isNaN(b));
