/**
 * The pace shared by the processes of one machine (provider/client/paceStore.ts), on the real file
 * system: what one process learns the others read, a lock keeps concurrent changes whole (real
 * child processes), an idle pace is forgotten, a dead holder's lock is broken, and a file system
 * that refuses leaves the process with its pace in memory.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { initialPace, type PaceState } from "../../../provider/client/pace";
import { IDLE_MS, paceDir, sharedPace, STALE_LOCK_MS } from "../../../provider/client/paceStore";

const STORE = path.resolve(__dirname, "..", "..", "..", "dist", "provider", "client", "paceStore.js");

describe("the pace shared on one machine", () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), "svc-pace-test-"))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const cut = (s: PaceState, now: number): PaceState => ({ ...s, rate: 2.5, ceiling: 3, cutAt: now, pausedUntil: now + 1000 });

  it("shows what one store learns to another of the same key, and nothing to another key", () => {
    const [a, b, other] = [
      sharedPace("api\ntoken\n", null, dir)!,
      sharedPace("api\ntoken\n", null, dir)!,
      sharedPace("api\nother\n", null, dir)!,
    ];
    const learned = a.update(1000, (s) => cut(s, 1000));
    expect(b.read(2000)).toEqual(learned);
    expect(other.read(2000)).toEqual(initialPace(null));
    expect(fs.readdirSync(dir)).toHaveLength(1);
  });

  it("keeps the state whole through the file: a pace never cut reads back as never cut", () => {
    const store = sharedPace("k", 4, dir)!;
    const granted = store.update(10, (s) => ({ ...s, granted: [10], grantedSinceCut: 1 }));
    expect(granted.cutAt).toBe(-Infinity);
    expect(sharedPace("k", 4, dir)!.read(20)).toEqual(granted);
  });

  it("forgets a pace nobody changed for IDLE_MS", () => {
    const store = sharedPace("k", null, dir)!;
    store.update(0, (s) => cut(s, 0));
    expect(store.read(IDLE_MS).rate).toBe(2.5);
    expect(store.read(IDLE_MS + 1)).toEqual(initialPace(null));
  });

  it("writes nothing for a change that changes nothing", () => {
    const store = sharedPace("k", null, dir)!;
    store.update(0, (s) => s);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it("breaks a lock left by a process that died holding it", () => {
    const store = sharedPace("k", null, dir)!;
    store.update(0, (s) => cut(s, 0));
    const [file] = fs.readdirSync(dir);
    const lock = path.join(dir, `${file}.lock`);
    fs.writeFileSync(lock, "");
    const old = (Date.now() - STALE_LOCK_MS - 1000) / 1000;
    fs.utimesSync(lock, old, old);
    expect(store.update(5, (s) => ({ ...s, rate: 1 })).rate).toBe(1);
    expect(fs.existsSync(lock)).toBe(false);
  });

  it("goes on with the pace in memory when the file system refuses", () => {
    const store = sharedPace("k", null, dir)!;
    store.update(0, (s) => cut(s, 0));
    const [file] = fs.readdirSync(dir);
    fs.rmSync(path.join(dir, file));
    fs.mkdirSync(path.join(dir, file)); // the pace file is now something no process can read
    expect(store.update(1, (s) => ({ ...s, rate: 7 })).rate).toBe(7);
    expect(store.read(2).rate).toBe(7);
  });

  it("is off with SVC_PACE_DIR=off, and shares nothing through a folder another user made", () => {
    expect(paceDir({ SVC_PACE_DIR: "off" })).toBeNull();
    expect(sharedPace("k", null, null)).toBeNull();
    expect(paceDir({ SVC_PACE_DIR: dir })).toBe(dir);
    if (process.getuid?.() === 0) {
      const theirs = path.join(dir, "theirs");
      fs.mkdirSync(theirs);
      fs.chownSync(theirs, 4242, 4242);
      expect(sharedPace("k", null, theirs)).toBeNull();
    }
  });

  it("keeps every change of four processes changing it at once (the lock)", async () => {
    const child = `
      const { sharedPace } = require(${JSON.stringify(STORE)});
      const store = sharedPace("k", null, ${JSON.stringify(dir)});
      for (let i = 0; i < 300; i++) store.update(Date.now(), (s) => ({ ...s, grantedSinceCut: s.grantedSinceCut + 1 }));
    `;
    await Promise.all([1, 2, 3, 4].map(() => promisify(execFile)(process.execPath, ["-e", child])));
    expect(sharedPace("k", null, dir)!.read(Date.now()).grantedSinceCut).toBe(1200);
    expect(fs.readdirSync(dir)).toHaveLength(1);
  });
});
