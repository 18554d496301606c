/**
 * Every tracked file is referenced: a stray copy (a schema left by a merge, a raw benchmark run)
 * fails here. Code is knip's (`npm run lint`, knip.jsonc: what nothing imports); a file that is not
 * code counts as referenced when another tracked file names it, or when a tool finds it by a
 * convention the table below states with its reader.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";

const REPO = path.join(__dirname, "..", "..");

/** Read by knip, which follows the imports (knip.jsonc), or generated (the SDKs: tests/e2e/sdks.test.ts). */
const CHECKED_ELSEWHERE = [/\.(ts|js|mjs)$/, /^sdk\//];

/** Files found by a convention rather than by name, and who finds them. */
const CONVENTIONS: Array<[RegExp, string]> = [
  [/^(\.gitignore|\.prettierignore|\.prettierrc\.json|knip\.jsonc)$/, "git, prettier and knip, by their own names"],
  [/^docs\/examples\/\w+\.yaml$/, "scripts/docsPages.ts and tests/unit/docsExamples.test.ts: docs/examples/<module>.yaml"],
  [/^tests\/e2e\/upgrade\/[\w-]+\.json$/, "tests/e2e/upgrade/stacks.ts: <stack>.json"],
  [/^tests\/unit\/importer\/generated\/.+\.txt$/, "tests/unit/importer/finish.test.ts: generated/<file>.txt"],
  [/(^|\/)tools\.go$/, "go: every .go file of the module go.mod declares"],
  [/^scripts\/release\/adhoc\/(Cargo\.lock|src\/main\.rs)$/, "cargo: Cargo.toml's package"],
];

const tracked = execFileSync("git", ["ls-files", "-z"], { cwd: REPO, encoding: "utf8" }).split("\0").filter(Boolean);

/** The text of every tracked file that is text, by path. */
const texts = new Map(
  tracked.flatMap((file): Array<[string, string]> => {
    const full = path.join(REPO, file);
    if (!fs.statSync(full).isFile()) return [];
    const text = fs.readFileSync(full, "utf8");
    return text.includes("\0") ? [] : [[file, text]];
  }),
);

const namedElsewhere = (file: string) => {
  const name = path.basename(file);
  for (const [other, text] of texts) if (other !== file && text.includes(name)) return true;
  return false;
};

describe("tracked files", () => {
  it("every file that is not code is named by another, or found by a stated convention", () => {
    const unreferenced = tracked.filter(
      (file) => !CHECKED_ELSEWHERE.some((re) => re.test(file)) && !CONVENTIONS.some(([re]) => re.test(file)) && !namedElsewhere(file),
    );
    expect(unreferenced).toEqual([]);
  });

  it.each(CONVENTIONS.map(([re, reader]) => [reader, re] as const))("the convention of %s still matches a tracked file", (_reader, re) => {
    expect(tracked.some((file) => re.test(file))).toBe(true);
  });
});
