/**
 * `npm run test:kind -- <Kind> [jest options]`: one kind's unit and in-process tests, found by one
 * pattern from its module name (resources/kinds.ts's rule: Disk -> disk, K3sService -> k3sService):
 * tests/{unit/resources,inprocess}/<module>.test.ts, in jest's unit and inprocess projects. No
 * engine test: tests/e2e proves behaviours, each once for every kind (tests/README.md's proof map).
 */
import { spawnSync } from "node:child_process";
import { kinds, moduleOf } from "../resources/kinds";

/** jest's arguments for a kind's tests: the selected projects and the pattern of its two files. */
export function jestArgsOf(kind: string): string[] {
  const name = moduleOf(kind);
  if (!name) throw new Error(`no kind "${kind}"; the kinds (resources/kinds.ts): ${kinds().join(", ")}`);
  return ["--selectProjects", "unit", "inprocess", "--", `tests/(unit/resources|inprocess)/${name}\\.test\\.ts$`];
}

if (require.main === module) {
  const [kind = "", ...options] = process.argv.slice(2);
  let args: string[];
  try {
    args = jestArgsOf(kind);
  } catch (err) {
    console.error(`test:kind: ${(err as Error).message}`);
    process.exit(2);
  }
  const jest = spawnSync(process.execPath, [require.resolve("jest/bin/jest"), ...options, ...args], { stdio: "inherit" });
  process.exit(jest.status ?? 1);
}
