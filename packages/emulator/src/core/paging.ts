/**
 * The paged envelope (spec part 1): `items`, `hasNext`, `hasPrevious`, `after`, `before`, with
 * the shared list parameters page/limit/sort/dir and keyset cursors after/before.
 *
 * Every list supports both styles: page numbers, and opaque keyset cursors (the next page
 * starts strictly after the last row seen, so rows inserted meanwhile never shift the pages).
 */
import { badRequest } from "./errors";

export interface Envelope<V> {
  items: V[];
  hasNext: boolean;
  hasPrevious: boolean;
  after: string | null;
  before: string | null;
}

export type SortKey = string | number | bigint | boolean | null;

export interface PageOptions<T> {
  /** Sortable fields: query name -> key extractor. `id` is always sortable. */
  sortable?: Record<string, (row: T) => SortKey>;
  /** Order when `sort` is absent; "newest first" lists pass { field: "created", dir: "desc" }. */
  defaultSort?: { field: string; dir: "asc" | "desc" };
  id: (row: T) => string;
}

const MAX_LIMIT = 1000;

function compareKeys(a: SortKey, b: SortKey): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  if (typeof a === "bigint" || typeof b === "bigint") return BigInt(a as never) < BigInt(b as never) ? -1 : 1;
  return a < b ? -1 : 1;
}

interface Cursor {
  k: SortKey;
  id: string;
  /** The sort field the cursor was issued for: a cursor only makes sense under the same order. */
  s: string;
}

const invalidCursor = (name: string) =>
  badRequest(`Invalid query: ${name} is not a cursor this API issued`, [{ field: name, message: "not a valid cursor" }]);

function encodeCursor(c: Cursor): string {
  const k = typeof c.k === "bigint" ? { big: c.k.toString() } : c.k;
  return Buffer.from(JSON.stringify({ k, id: c.id, s: c.s })).toString("base64url");
}

function decodeCursor(text: string, name: string, sortField: string): Cursor {
  try {
    const raw = JSON.parse(Buffer.from(text, "base64url").toString("utf8")) as { k: unknown; id: unknown; s: unknown };
    const k =
      raw.k && typeof raw.k === "object" && "big" in (raw.k as object) ? BigInt((raw.k as { big: string }).big) : (raw.k as SortKey);
    if (typeof raw.id !== "string" || !/^\d{1,20}$/.test(raw.id) || raw.s !== sortField) throw new Error("bad cursor");
    return { k, id: raw.id, s: raw.s };
  } catch {
    throw invalidCursor(name);
  }
}

function intParam(value: unknown, name: string, def: number, min: number, max: number): number {
  if (value === undefined || value === "") return def;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw badRequest(`Invalid query: ${name} must be an integer from ${min} to ${max}`, [
      { field: name, message: `must be an integer from ${min} to ${max}` },
    ]);
  }
  return n;
}

export function paginate<T, V>(rows: T[], query: Record<string, unknown>, view: (row: T) => V, opts: PageOptions<T>): Envelope<V> {
  const limit = intParam(query.limit, "limit", 50, 1, MAX_LIMIT);
  const page = intParam(query.page, "page", 1, 1, 1_000_000);
  const sortable: Record<string, (row: T) => SortKey> = { id: (r) => BigInt(opts.id(r)), ...(opts.sortable ?? {}) };
  const sortField = (query.sort as string | undefined) || opts.defaultSort?.field || "id";
  const keyOf = sortable[sortField];
  if (!keyOf) {
    throw badRequest(`Invalid query: sort must be one of ${Object.keys(sortable).join(", ")}`, [
      { field: "sort", message: "unknown sort field" },
    ]);
  }
  const dirParam = (query.dir as string | undefined) || (query.sort ? "asc" : (opts.defaultSort?.dir ?? "asc"));
  if (dirParam !== "asc" && dirParam !== "desc")
    throw badRequest("Invalid query: dir must be asc or desc", [{ field: "dir", message: "must be asc or desc" }]);
  const sign = dirParam === "asc" ? 1 : -1;

  const keyed = rows.map((row) => ({ row, k: keyOf(row), id: BigInt(opts.id(row)) }));
  const order = (a: { k: SortKey; id: bigint }, b: { k: SortKey; id: bigint }) => sign * (compareKeys(a.k, b.k) || compareKeys(a.id, b.id));
  keyed.sort(order);

  let slice: typeof keyed;
  let hasNext: boolean;
  let hasPrevious: boolean;
  // A cursor whose key cannot be compared with this list's keys (hand-made) is a 400, not a 500.
  const pivotOrder = (name: string) => {
    const c = decodeCursor(String(query[name]), name, sortField);
    const pivot = { k: c.k, id: BigInt(c.id) };
    return (x: (typeof keyed)[number]) => {
      try {
        return order(x, pivot);
      } catch {
        throw invalidCursor(name);
      }
    };
  };
  if (query.after) {
    const vsPivot = pivotOrder("after");
    const rest = keyed.filter((x) => vsPivot(x) > 0);
    slice = rest.slice(0, limit);
    hasNext = rest.length > limit;
    hasPrevious = keyed.length > rest.length;
  } else if (query.before) {
    const vsPivot = pivotOrder("before");
    const head = keyed.filter((x) => vsPivot(x) < 0);
    slice = head.slice(Math.max(0, head.length - limit));
    hasPrevious = head.length > limit;
    hasNext = keyed.length > head.length;
  } else {
    const start = (page - 1) * limit;
    slice = keyed.slice(start, start + limit);
    hasNext = keyed.length > start + limit;
    hasPrevious = start > 0 && keyed.length > 0;
  }
  const cursorOf = (x: (typeof keyed)[number]) => encodeCursor({ k: x.k, id: x.id.toString(), s: sortField });
  return {
    items: slice.map((x) => view(x.row)),
    hasNext,
    hasPrevious,
    after: hasNext && slice.length ? cursorOf(slice[slice.length - 1]) : null,
    before: hasPrevious && slice.length ? cursorOf(slice[0]) : null,
  };
}
