/**
 * The order jest starts test files in, so that the cores stay busy and the workers finish
 * together. jest's own order is the last run's durations, and with none (a fresh clone, as CI
 * runs) the file's size: the two conformance files, 8 lines each over conformance.ts's 600, then
 * started last and ran alone for five minutes at the end of a run.
 *
 * Here the engine's files are ordered longest first: by jest's record of the last run where it
 * has one, else by LONGEST below (seconds a file took in one `.ci/run`, for the order only), else
 * by size with the tests/e2e modules the file imports. The other projects' files, a second or two
 * each and many of them waiting (retry backoffs, workflow polls), are spread among the engine's
 * after the first three: run last, all together, they left the two cores three-quarters idle for
 * the last hundred seconds of the newest entry (process accounting of one `.ci/run`).
 */
const fs = require("node:fs");
const path = require("node:path");
const Sequencer = require("@jest/test-sequencer").default;

/**
 * Seconds the longest end-to-end files took in one `.ci/run`, by matrix entry (PULUMI_SVC_MATRIX,
 * which scripts/test.js sets) and file name: a file's weight differs by entry (recover.test.ts
 * kills ten runs on the newest, two on the floor).
 */
const LONGEST = {
  newest: {
    "conformance-dynamic.test.ts": 414,
    "conformance-plugin.test.ts": 349,
    "ci-environments-s3.test.ts": 322,
    "release-packages.test.ts": 232,
    "release-plugin.test.ts": 186,
    "recover.test.ts": 125,
    "ci-environments-postgres.test.ts": 122,
    "upgrade.test.ts": 121,
    "recover-input.test.ts": 120,
    "package.test.ts": 120,
    "ratelimit.test.ts": 70,
    "policy-security.test.ts": 62,
  },
  floor: {
    "package.test.ts": 110,
    "recover.test.ts": 69,
    "policy.test.ts": 58,
    "upgrade.test.ts": 54,
    "example-yaml-quickstart.test.ts": 23,
    "example-quickstart.test.ts": 14,
  },
  node22: { "example-yaml-quickstart.test.ts": 51, "example-quickstart.test.ts": 33 },
};

/** How many engine files start the run before the other projects' files join them: one per worker. */
const ENGINE_HEAD = 3;

/** A file's size with that of the sibling modules it imports (`from "./conformance"`), once each. */
function sizeOf(file) {
  const seen = new Set();
  const visit = (f) => {
    if (seen.has(f) || !fs.existsSync(f)) return 0;
    seen.add(f);
    const text = fs.readFileSync(f, "utf8");
    const siblings = [...text.matchAll(/from "\.\/([\w.-]+)"/g)].map((m) => path.join(path.dirname(f), `${m[1]}.ts`));
    return text.length + siblings.reduce((sum, s) => sum + visit(s), 0);
  };
  return visit(file);
}

const isEngine = (test) => test.context.config.displayName?.name === "e2e";

/** `others` spread evenly among `engine` after its first ENGINE_HEAD files. */
function interleaved(engine, others) {
  const [head, rest] = [engine.slice(0, ENGINE_HEAD), engine.slice(ENGINE_HEAD)];
  if (!rest.length) return [...head, ...others];
  const out = [...head];
  rest.forEach((file, i) => {
    out.push(...others.slice(Math.floor((i * others.length) / rest.length), Math.floor(((i + 1) * others.length) / rest.length)));
    out.push(file);
  });
  return out;
}

class EngineFirst extends Sequencer {
  sort(tests) {
    const longest = LONGEST[process.env.PULUMI_SVC_MATRIX ?? "newest"] ?? {};
    /** [how sure the estimate is, the estimate]: jest's record, then the table, then the size. */
    const estimate = (t) => {
      const recorded = this.time(t);
      if (recorded !== undefined) return [2, recorded];
      const seconds = longest[path.basename(t.path)];
      return seconds !== undefined ? [1, seconds] : [0, sizeOf(t.path)];
    };
    const by = new Map(tests.map((t) => [t, estimate(t)]));
    const sorted = [...tests].sort((a, b) => by.get(b)[0] - by.get(a)[0] || by.get(b)[1] - by.get(a)[1] || (a.path < b.path ? -1 : 1));
    return interleaved(
      sorted.filter(isEngine),
      sorted.filter((t) => !isEngine(t)),
    );
  }
}

module.exports = EngineFirst;
