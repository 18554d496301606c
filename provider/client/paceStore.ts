/**
 * Where a limiter keeps its pace (limiter.ts; the rules are pace.ts's): in this process's memory,
 * or in a small file shared by every process on this machine that sends to the same API with the
 * same token and cap.
 *
 * Why share: the API says nothing of its limit (spec part 1, Limits: "numeric thresholds: not
 * shown"), so each process learns its share from 429s. K processes learning apart probe the limit
 * K times as often: sixteen stacks on one token at 5 requests/s had 21% of their requests answered
 * 429 (bench/README.md, "Many processes on one token"). Sharing one pace, the processes of a CI
 * runner learn as one process does: one cut per refusal, one probe, the slots spaced for all.
 * Processes on other machines cannot be reached this way; `svc:maxRequestsPerSecond` is for them.
 *
 * The file holds no secret: it is named by a hash of the address and token (limiterFor), and holds
 * rates and times. Updates take a lock file (created exclusively, so at most one process changes
 * the pace at a time) and replace the file by rename, so a read never sees half a write. A lock
 * left by a process killed while holding it is broken after `STALE_LOCK_MS`. Whatever fails on
 * the file system (a read-only or full temporary directory), the process goes on with the pace in
 * its memory, as it did before the pace was shared.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { initialPace, type PaceState } from "./pace";

export interface PaceStore {
  /** Whether other processes take slots from this pace too (limiter.ts then holds its slot ahead). */
  readonly shared: boolean;
  read(now: number): PaceState;
  /** Applies a pure change to the newest state and returns the result; a change that returns its argument writes nothing. */
  update(now: number, change: (s: PaceState) => PaceState): PaceState;
}

/** The pace in memory: one process's, or (simulations) the limiters of several sharing it as the file would. */
export function memoryPace(cap: number | null, sharing: "alone" | "shared" = "alone"): PaceStore {
  let state = initialPace(cap);
  return { shared: sharing === "shared", read: () => state, update: (_now, change) => (state = change(state)) };
}

/** A shared pace nobody used for this long is forgotten: a run an hour later starts unpaced, as a process alone does. */
export const IDLE_MS = 60_000;
/** A lock file older than this was left by a process that died holding it (the lock is held for a read and a write). */
export const STALE_LOCK_MS = 2_000;

/**
 * Where the processes of this machine share their paces: `SVC_PACE_DIR`, or a folder of this
 * user's in the temporary directory; `SVC_PACE_DIR=off` keeps each process's pace to itself.
 */
export function paceDir(env: NodeJS.ProcessEnv = process.env): string | null {
  const set = env.SVC_PACE_DIR;
  if (set === "off") return null;
  return set || path.join(os.tmpdir(), `pulumi-svc-pace-${process.getuid?.() ?? "user"}`);
}

/** What the file holds: the state, and when it was last changed (the idle rule). -Infinity is not JSON: cutAt is null before any cut. */
interface Stored {
  updatedAt: number;
  state: Omit<PaceState, "cutAt"> & { cutAt: number | null };
}

const encode = (state: PaceState, now: number): string =>
  JSON.stringify({ updatedAt: now, state: { ...state, cutAt: Number.isFinite(state.cutAt) ? state.cutAt : null } } satisfies Stored);

function decode(text: string, now: number, cap: number | null): PaceState {
  const stored = JSON.parse(text) as Stored;
  if (!(now - stored.updatedAt <= IDLE_MS)) return initialPace(cap);
  return { ...stored.state, cutAt: stored.state.cutAt ?? -Infinity };
}

const sleepSync = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** Runs `fn` holding the lock file: created exclusively, removed after; a stale one is broken. */
function withLock<T>(lock: string, fn: () => T): T {
  for (;;) {
    try {
      fs.closeSync(fs.openSync(lock, "wx", 0o600));
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const age = Date.now() - (fs.statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > STALE_LOCK_MS) fs.rmSync(lock, { force: true });
      else sleepSync(1);
    }
  }
  try {
    return fn();
  } finally {
    fs.rmSync(lock, { force: true });
  }
}

/** The pace shared through `dir` under `key` (the limiter's key: address, token hash, cap); null when sharing is off. */
export function sharedPace(key: string, cap: number | null, dir: string | null = paceDir()): PaceStore | null {
  if (dir === null) return null;
  const file = path.join(dir, `${createHash("sha256").update(key).digest("hex").slice(0, 32)}.json`);
  let fallback: PaceStore | null = null;
  const current = (now: number): PaceState => {
    try {
      return decode(fs.readFileSync(file, "utf8"), now, cap);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT" || err instanceof SyntaxError) return initialPace(cap);
      throw err;
    }
  };
  /** Whatever the file system refuses, this process keeps its pace in memory from there on. */
  const guarded = <T>(onFile: () => T, inMemory: (store: PaceStore) => T): T => {
    if (!fallback)
      try {
        return onFile();
      } catch {
        fallback = memoryPace(cap);
      }
    return inMemory(fallback);
  };
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    // A folder someone else made could slow this user's runs down: only one's own is shared.
    if (process.getuid && fs.statSync(dir).uid !== process.getuid()) return null;
  } catch {
    return null;
  }
  const write = (now: number, change: (s: PaceState) => PaceState): PaceState =>
    withLock(`${file}.lock`, () => {
      const before = current(now);
      const after = change(before);
      if (after === before) return before;
      const temporary = `${file}.${process.pid}.tmp`;
      fs.writeFileSync(temporary, encode(after, now), { mode: 0o600 });
      fs.renameSync(temporary, file);
      return after;
    });
  return {
    shared: true,
    read: (now) =>
      guarded(
        () => current(now),
        (m) => m.read(now),
      ),
    update: (now, change) =>
      guarded(
        () => write(now, change),
        (m) => m.update(now, change),
      ),
  };
}
