/**
 * The emulator's in-memory database: one table per resource kind, a seeded id generator, and
 * atomic persistence to a state file (`--state`).
 *
 * Tables are declared by the modules that own them, through declaration merging:
 *
 *   declare module "../core/store" { interface Tables { disks: DiskRow } }
 *
 * so each area of the API keeps its row types next to its routes.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import * as fs from "node:fs";
import * as path from "node:path";
import { Rng } from "./rng";

// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface Tables {}

export interface Row {
  id: string;
  /** Part of the seeded catalogue (plans, nodes, platform images, ...): not a "live" resource. */
  seed?: boolean;
}

/** Called before a table changes a row (the store journals it and marks itself dirty). */
type BeforeWrite = (table: Table<Row>, id: string, op: "insert" | "update" | "delete") => void;

export class Table<T extends Row> {
  readonly rows = new Map<string, T>();

  constructor(private readonly beforeWrite: BeforeWrite = () => undefined) {}

  get(id: string | undefined | null): T | undefined {
    return id == null ? undefined : this.rows.get(String(id));
  }

  insert(row: T): T {
    this.beforeWrite(this as unknown as Table<Row>, row.id, "insert");
    this.rows.set(row.id, row);
    return row;
  }

  update(id: string, patch: Partial<T>): T {
    const row = this.rows.get(id);
    if (!row) throw new Error(`internal: update of missing row ${id}`);
    this.beforeWrite(this as unknown as Table<Row>, id, "update");
    Object.assign(row, patch);
    return row;
  }

  delete(id: string): boolean {
    this.beforeWrite(this as unknown as Table<Row>, id, "delete");
    return this.rows.delete(id);
  }

  all(): T[] {
    return [...this.rows.values()];
  }

  filter(predicate: (row: T) => boolean): T[] {
    return this.all().filter(predicate);
  }

  find(predicate: (row: T) => boolean): T | undefined {
    for (const row of this.rows.values()) if (predicate(row)) return row;
    return undefined;
  }

  count(predicate: (row: T) => boolean = () => true): number {
    let n = 0;
    for (const row of this.rows.values()) if (predicate(row)) n++;
    return n;
  }
}

export type TableMap = { [K in keyof Tables]: Tables[K] extends Row ? Table<Tables[K]> : never };

/** "large": random 64-bit identifiers above 2^53 (the default, so precision bugs surface); "small": 1, 2, 3, ... */
export type IdMode = "large" | "small";

const TWO_53 = 2n ** 53n;
const TWO_63 = 2n ** 63n;

interface PersistedState {
  format: "pulumi-svc-emulator-state";
  version: 1;
  idMode: IdMode;
  rng: [number, number, number, number];
  sequence: number;
  clockOffsetMs: number;
  tables: Record<string, Row[]>;
}

/**
 * What one request changed, so that a handler that throws can be undone: each row as it was
 * before its first change (undefined: it did not exist), a table's row order when a row was
 * deleted, and the identifiers issued.
 */
interface Journal {
  rows: Map<Table<Row>, Map<string, Row | undefined>>;
  order: Map<Table<Row>, string[]>;
  issuedIds: string[];
  rng: [number, number, number, number];
  sequence: number;
  dirty: boolean;
}

export class Store {
  readonly rng: Rng;
  private readonly tables = new Map<string, Table<Row>>();
  private readonly usedIds = new Set<string>();
  private sequence = 0;
  /** Set by any write; the server flushes to the state file after a request that wrote. */
  dirty = false;
  /** The journal of the request running in this async context (see `atomically`). */
  private readonly journals = new AsyncLocalStorage<Journal>();

  /** Typed access to every table: `store.t.disks.get(id)`. */
  readonly t: TableMap;

  constructor(
    seed: number,
    readonly idMode: IdMode = "large",
  ) {
    this.rng = new Rng(seed);
    this.t = new Proxy({} as TableMap, {
      get: (_target, name: string) => this.table(name),
    });
  }

  table(name: string): Table<Row> {
    let table = this.tables.get(name);
    if (!table) {
      table = new Table<Row>((changed, id, op) => this.beforeWrite(changed, id, op));
      this.tables.set(name, table);
    }
    return table;
  }

  /** Any insert/update/delete marks the store dirty for persistence and, inside `atomically`, is journaled. */
  private beforeWrite(table: Table<Row>, id: string, op: "insert" | "update" | "delete"): void {
    this.dirty = true;
    const journal = this.journals.getStore();
    if (!journal) return;
    let before = journal.rows.get(table);
    if (!before) journal.rows.set(table, (before = new Map()));
    const current = table.rows.get(id);
    if (!before.has(id)) before.set(id, current === undefined ? undefined : structuredClone(current));
    if (op === "delete" && current !== undefined && !journal.order.has(table)) journal.order.set(table, [...table.rows.keys()]);
  }

  /**
   * Runs one request's handler as a single change: when it throws, every row it inserted,
   * updated or deleted is as it was, so a failed request leaves nothing behind (nor in the
   * --state file). Rows change only through insert/update/delete, which is what makes the
   * journal complete. A handler that finished synchronously also gets the id generator back;
   * one that awaited (uploads) may have shared it with other requests meanwhile, so the
   * identifiers it drew are simply never issued.
   */
  atomically<R>(fn: () => R | Promise<R>): Promise<R> {
    const journal: Journal = {
      rows: new Map(),
      order: new Map(),
      issuedIds: [],
      rng: this.rng.save(),
      sequence: this.sequence,
      dirty: this.dirty,
    };
    let result: R | Promise<R>;
    try {
      result = this.journals.run(journal, fn);
    } catch (err) {
      this.rollback(journal, true);
      return Promise.reject(err);
    }
    if (!(result instanceof Promise)) return Promise.resolve(result);
    return result.catch((err: unknown) => {
      this.rollback(journal, false);
      throw err;
    });
  }

  private rollback(journal: Journal, alone: boolean): void {
    for (const [table, before] of journal.rows) {
      for (const [id, row] of before) {
        const current = table.rows.get(id);
        if (row === undefined) table.rows.delete(id);
        else if (current) {
          // Restored in place: the handler may have handed the object to others (views, caches).
          for (const key of Object.keys(current)) delete (current as unknown as Record<string, unknown>)[key];
          Object.assign(current, row);
        } else table.rows.set(id, row);
      }
      const order = journal.order.get(table);
      if (order) {
        const rows = new Map(table.rows);
        table.rows.clear();
        for (const id of order) if (rows.has(id)) table.rows.set(id, rows.get(id)!);
      }
    }
    if (alone) {
      for (const id of journal.issuedIds) this.usedIds.delete(id);
      this.rng.restore(journal.rng);
      this.sequence = journal.sequence;
      this.dirty = journal.dirty;
    }
  }

  tableNames(): string[] {
    return [...this.tables.keys()];
  }

  /** A new unique identifier, as a decimal string (identifiers are strings everywhere inside the emulator). */
  newId(): string {
    const id = this.nextId();
    this.journals.getStore()?.issuedIds.push(id);
    return id;
  }

  private nextId(): string {
    if (this.idMode === "small") {
      let id: string;
      do id = String(++this.sequence);
      while (this.usedIds.has(id));
      this.usedIds.add(id);
      return id;
    }
    for (;;) {
      const id = (TWO_53 + 1n + (this.rng.u64() % (TWO_63 - TWO_53 - 1n))).toString();
      if (!this.usedIds.has(id)) {
        this.usedIds.add(id);
        return id;
      }
    }
  }

  snapshot(clockOffsetMs: number): PersistedState {
    const tables: Record<string, Row[]> = {};
    for (const [name, table] of this.tables) tables[name] = table.all();
    return {
      format: "pulumi-svc-emulator-state",
      version: 1,
      idMode: this.idMode,
      rng: this.rng.save(),
      sequence: this.sequence,
      clockOffsetMs,
      tables,
    };
  }

  /** Replaces every table with the persisted ones. Returns the persisted clock offset. */
  restore(state: PersistedState): number {
    this.tables.clear();
    this.usedIds.clear();
    this.rng.restore(state.rng);
    this.sequence = state.sequence;
    for (const [name, rows] of Object.entries(state.tables)) {
      const table = this.table(name);
      for (const row of rows) {
        table.rows.set(row.id, row);
        this.usedIds.add(row.id);
      }
    }
    this.dirty = false;
    return state.clockOffsetMs;
  }

  /** Writes the state file atomically: a temporary file in the same directory, fsync, rename. */
  saveTo(file: string, clockOffsetMs: number): void {
    const text = JSON.stringify(this.snapshot(clockOffsetMs));
    const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
    const fd = fs.openSync(tmp, "w");
    try {
      fs.writeSync(fd, text);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tmp, file);
    this.dirty = false;
  }

  /**
   * Reads a state file. A file that is missing returns undefined (a first start); a file that
   * cannot be read or understood is an error that names the file, never a silent fresh start.
   */
  static readStateFile(file: string): PersistedState | undefined {
    let text: string;
    try {
      text = fs.readFileSync(file, "utf8");
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw new Error(`cannot read emulator state file ${file}: ${(err as Error).message}`);
    }
    let state: PersistedState;
    try {
      state = JSON.parse(text) as PersistedState;
    } catch (err) {
      throw new Error(`emulator state file ${file} is corrupt (not valid JSON: ${(err as Error).message}); move it away or fix it`);
    }
    if (state?.format !== "pulumi-svc-emulator-state" || state.version !== 1 || typeof state.tables !== "object") {
      throw new Error(`emulator state file ${file} is not a pulumi-svc emulator state (format/version mismatch); move it away or fix it`);
    }
    return state;
  }
}
