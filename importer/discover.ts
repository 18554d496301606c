/**
 * What a workspace holds, through the API, ready to adopt: every object of the kinds asked (each
 * kind's own `list`, the lifecycle's read, and the declaration an import records), its logical
 * name, its references to the other objects adopted, the config secrets its declaration needs, in
 * an order where every object comes after those it refers to. Objects the API made on its own
 * with another (an instance's boot disk) are left out with the reason. Reads only: no write.
 */
import { buildLifecycle, type Lifecycle, type ProviderRuntime } from "../provider/lifecycle";
import { compile, leftOut as omitted } from "../provider/lifecycle/compile";
import { ApiError } from "../provider/errors";
import { kinds as allKinds, definitionOf } from "../resources/kinds";
import { KIND_TAKE, takenByDefault } from "./kinds";
import { logicalNames } from "./names";
import { REFERENCES } from "./references";
import { configSecretsOf, type ConfigSecret } from "./secrets";

/** A tie from one adopted object to another, where a value of the first's declaration names it. */
interface Reference {
  field: string;
  /** The element of a list-valued input (a service's target instances), or none for a single value. */
  index?: number;
  /** The logical name of the object it names, and which of its outputs the value is. */
  target: string;
  by: "id" | "name";
  value: string;
}

export interface Adopted {
  kind: string;
  id: string;
  /** The logical name (names.ts). */
  name: string;
  apiName?: string;
  outputs: Record<string, unknown>;
  /** What the program declares (provider/lifecycle/declaration.ts), without the secrets. */
  declaration: Record<string, unknown>;
  references: Reference[];
  secrets: ConfigSecret[];
}

interface LeftOut {
  kind: string;
  id: string;
  apiName?: string;
  why: string;
}

export interface Discovery {
  workspace: { id: string; name?: string };
  adopted: Adopted[];
  leftOut: LeftOut[];
  /** Values naming an object of a kind the package manages that this import does not hold: kept literal. */
  literal: Array<{ name: string; field: string; kind: string; value: string }>;
}

/** Bad input or access, said in one line: svc-import prints it and writes nothing. */
export class ImportError extends Error {}

export interface Selection {
  /** Kinds to take (default: every kind taken by default, importer/kinds.ts). */
  kinds?: string[];
  /** Glob patterns (`*`, `?`) a logical name must match, any of them (default: every name). */
  names?: string[];
}

/** The kinds asked for, checked: an unknown or never-taken kind is bad input. */
function kindsOf(selection: Selection): string[] {
  if (!selection.kinds?.length) return takenByDefault(allKinds());
  for (const kind of selection.kinds) {
    const take = KIND_TAKE[kind];
    if (!take) throw new ImportError(`unknown kind "${kind}" in --kind; the kinds: ${allKinds().join(", ")}`);
    if (take.take === "never") throw new ImportError(`--kind ${kind}: svc-import does not adopt it: ${take.why}`);
  }
  return allKinds().filter((k) => selection.kinds!.includes(k));
}

/** Whether a name matches a glob (`*` any run of characters, `?` one). */
function matches(name: string, glob: string): boolean {
  const pattern = glob
    .replace(/[.+^${}()|[\]\\]/g, "\\$&")
    .replace(/\*/g, ".*")
    .replace(/\?/g, ".");
  return new RegExp(`^${pattern}$`).test(name);
}

interface Read {
  kind: string;
  id: string;
  apiName?: string;
  outputs: Record<string, unknown>;
  declaration: Record<string, unknown>;
}

export async function discover(runtime: ProviderRuntime, workspaceId: string, selection: Selection = {}): Promise<Discovery> {
  const kinds = kindsOf(selection);
  const workspace = await readWorkspace(runtime, workspaceId);
  const found: Read[] = [];
  const leftOut: LeftOut[] = [];
  for (const kind of kinds) {
    const lifecycle = buildLifecycle(definitionOf(kind), runtime);
    // In name order (then id), whatever order the API lists in: the same workspace gives the same file.
    const listed = (await asked(kind, workspaceId, () => lifecycle.list!(workspaceId))).sort(
      (a, b) => (a.name ?? "").localeCompare(b.name ?? "") || a.id.localeCompare(b.id),
    );
    for (const o of listed.filter((l) => l.leftOut)) leftOut.push({ kind, id: o.id, apiName: o.name, why: o.leftOut! });
    for (const o of listed.filter((l) => !l.leftOut)) {
      const read = await readOne(lifecycle, kind, workspaceId, o.id);
      if (read) found.push({ kind, id: o.id, apiName: o.name, ...read });
    }
  }
  const names = logicalNames(found);
  const named = found.map((r, i) => ({ ...r, name: names[i] }));
  const wanted = selection.names?.length ? named.filter((r) => selection.names!.some((g) => matches(r.name, g))) : named;
  const literal: Discovery["literal"] = [];
  const adopted = wanted.map((r): Adopted => {
    const { references, outside } = referencesOf(r, wanted, named);
    literal.push(...outside.map((o) => ({ name: r.name, ...o })));
    return { ...r, references, secrets: secretsOf(r) };
  });
  return { workspace, adopted: ordered(adopted), leftOut, literal };
}

async function readWorkspace(runtime: ProviderRuntime, workspaceId: string): Promise<{ id: string; name?: string }> {
  const ws = await asked("Workspace", workspaceId, () =>
    runtime.client().get<{ id: string; name?: string }>(`/v1/workspaces/${workspaceId}`),
  );
  return { id: workspaceId, name: ws?.name };
}

/** An API call of the discovery, its refusal said in one line (the token's access, the workspace). */
async function asked<T>(kind: string, workspaceId: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof ApiError && [401, 403, 404].includes(err.status)) {
      const what = kind === "Workspace" ? `read workspace ${workspaceId}` : `list the ${kind} objects of workspace ${workspaceId}`;
      const why = err.status === 401 ? "the token is not accepted" : err.status === 404 ? "not found or not visible to it" : "refused";
      throw new ImportError(
        `the token cannot ${what}: ${why} (${err.status}${err.reason ? `: ${err.reason}` : ""}); svc-import needs a token that can read it`,
      );
    }
    throw err;
  }
}

async function readOne(lifecycle: Lifecycle, kind: string, workspaceId: string, id: string) {
  const read = await asked(kind, workspaceId, () => lifecycle.read(id, { workspaceId }));
  // Gone between the list and the read: nothing to adopt.
  if (!read.id || !read.props) return undefined;
  return { outputs: read.props, declaration: lifecycle.declarationOf(read.props) };
}

/**
 * The declaration's values that name another adopted object, and those naming an object of the
 * workspace the selection left out (a platform image or plan is no object of the workspace's).
 */
function referencesOf(r: Read & { name: string }, adopted: Array<Read & { name: string }>, all: Array<Read & { name: string }>) {
  const references: Reference[] = [];
  const outside: Array<{ field: string; kind: string; value: string }> = [];
  for (const [field, to] of Object.entries(REFERENCES[r.kind] ?? {})) {
    const value = r.declaration[field];
    const values = Array.isArray(value)
      ? value.map((v, index) => ({ v, index }))
      : value === undefined
        ? []
        : [{ v: value, index: undefined }];
    for (const { v, index } of values) {
      const names = (a: Read) => a.kind === to.kind && (to.by === "id" ? a.id === String(v) : a.outputs.name === v);
      const target = adopted.find(names);
      if (target) references.push({ field, index, target: target.name, by: to.by, value: String(v) });
      else if (all.some(names)) outside.push({ field, kind: to.kind, value: String(v) });
    }
  }
  return { references, outside };
}

function secretsOf(r: Read & { name: string }): ConfigSecret[] {
  const c = compile(definitionOf(r.kind));
  return configSecretsOf(r.kind, r.name, c.definition.fields, r.outputs, (field) => omitted(c, field).kind === "required");
}

/** Every object after those it refers to; otherwise in the order found (kinds in the order of resources/kinds.ts). */
function ordered(adopted: Adopted[]): Adopted[] {
  const byName = new Map(adopted.map((a) => [a.name, a]));
  const out: Adopted[] = [];
  const placed = new Set<string>();
  const place = (a: Adopted, path: Set<string>) => {
    if (placed.has(a.name) || path.has(a.name)) return;
    path.add(a.name);
    for (const ref of a.references) place(byName.get(ref.target)!, path);
    placed.add(a.name);
    out.push(a);
  };
  for (const a of adopted) place(a, new Set());
  return out;
}
