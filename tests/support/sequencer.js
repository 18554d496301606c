/**
 * The order jest starts test files in, so that the workers finish together. jest's own order is
 * the last run's durations, and with none (a fresh clone, as CI runs) the file's size: the two
 * conformance files, 8 lines each over conformance.ts's 600, then started last and ran alone for
 * five minutes at the end of a run.
 *
 * Here the engine's files come first, the longest first: by jest's record of the last run where
 * it has one, else by LONGEST below (seconds a file took in one `.ci/run`, for the order only),
 * else by size with the tests/e2e modules the file imports. The other projects' files, a second
 * or two each, fill the workers' gaps at the end.
 */
const fs = require("node:fs");
const path = require("node:path");
const Sequencer = require("@jest/test-sequencer").default;

/** Seconds the longest end-to-end files took in one `.ci/run` (the newest entry), by file name. */
const LONGEST = {
  "conformance-dynamic.test.ts": 361,
  "conformance-plugin.test.ts": 317,
  "release-packages.test.ts": 288,
  "ci-environments-s3.test.ts": 263,
  "recover.test.ts": 159,
  "upgrade.test.ts": 120,
  "recover-input.test.ts": 100,
  "ci-environments-postgres.test.ts": 97,
  "release-plugin.test.ts": 97,
  "package.test.ts": 78,
  "ratelimit.test.ts": 74,
  "policy-security.test.ts": 65,
};

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

class EngineFirst extends Sequencer {
  sort(tests) {
    /** [how sure the estimate is, the estimate]: jest's record, then the table, then the size. */
    const estimate = (t) => {
      const recorded = this.time(t);
      if (recorded !== undefined) return [2, recorded];
      const seconds = LONGEST[path.basename(t.path)];
      return seconds !== undefined ? [1, seconds] : [0, sizeOf(t.path)];
    };
    const by = new Map(tests.map((t) => [t, estimate(t)]));
    return [...tests].sort(
      (a, b) => isEngine(b) - isEngine(a) || by.get(b)[0] - by.get(a)[0] || by.get(b)[1] - by.get(a)[1] || (a.path < b.path ? -1 : 1),
    );
  }
}

module.exports = EngineFirst;
