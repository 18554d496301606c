/**
 * provider/fields/zod.ts in a Node process of its own, as the provider host loads it (jest keeps its own
 * module registry, so `require.cache` can only be seen from a child process on the built files):
 * zod starts without its locales, speaks English, and still gives every locale on first use.
 */
import { execFileSync } from "node:child_process";
import * as path from "node:path";

const ROOT = path.resolve(__dirname, "..", "..", "..");
const ZOD = path.join(ROOT, "dist", "provider", "fields", "zod.js");

/** Runs `script` in a fresh node with `z` from `entry`; what it prints, parsed. */
function inChild(entry: string, script: string): Record<string, unknown> {
  const out = execFileSync(process.execPath, ["-e", `const { z } = require(${JSON.stringify(entry)}); ${script}`], {
    cwd: ROOT,
    encoding: "utf8",
  });
  return JSON.parse(out) as Record<string, unknown>;
}

/** The locale files a process has loaded, by name. */
const LOADED_LOCALES = `Object.keys(require.cache).filter((k) => /zod[\\\\/]v4[\\\\/]locales[\\\\/]/.test(k)).map((k) => k.replace(/.*[\\\\/]/, "")).filter((f) => f !== "index.cjs")`;

describe("provider/fields/zod.ts", () => {
  it("loads English alone: no other locale's messages at start", () => {
    const seen = inChild(
      ZOD,
      `console.log(JSON.stringify({ loaded: ${LOADED_LOCALES}, message: z.string().safeParse(1).error.issues[0].message }))`,
    );
    expect(seen.loaded).toEqual(["en.cjs"]);
    expect(seen.message).toBe("Invalid input: expected string, received number");
  });

  it("gives the same messages as zod loaded plainly", () => {
    const script = `console.log(JSON.stringify({ issues: z.object({ a: z.string().min(2), b: z.enum(["X"]) }).safeParse({ a: "", b: 1, c: 2 }).error.issues }))`;
    expect(inChild(ZOD, script)).toEqual(inChild("zod", script));
  });

  it("still gives every locale, loading them at the first use of z.locales", () => {
    const seen = inChild(
      ZOD,
      `const before = ${LOADED_LOCALES}.length; z.config(z.locales.fr()); const after = ${LOADED_LOCALES}.length;
       console.log(JSON.stringify({ before, after, names: Object.keys(z.locales).length, has: "de" in z.locales, message: z.string().safeParse(1).error.issues[0].message }))`,
    );
    expect(seen.before).toBe(1);
    expect(seen.after).toBeGreaterThan(60);
    expect(seen.names).toBe(seen.after);
    expect(seen.has).toBe(true);
    expect(seen.message).toBe(
      inChild("zod", `z.config(z.locales.fr()); console.log(JSON.stringify({ m: z.string().safeParse(1).error.issues[0].message }))`).m,
    );
  });

  it("leaves zod as it is where it has loaded already", () => {
    const seen = inChild("zod", `require(${JSON.stringify(ZOD)}); console.log(JSON.stringify({ n: ${LOADED_LOCALES}.length }))`);
    expect(seen.n).toBeGreaterThan(60);
  });
});
