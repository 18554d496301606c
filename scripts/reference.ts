/**
 * The README's resource reference, generated from the resource specs so it cannot drift:
 * endpoints (from each resource file's header), fields that replace, fields changed in place
 * (and how), secret outputs.
 *
 *   npm run docs            rewrite the table in README.md
 *   (tests/unit/docs.test.ts fails when README.md is out of date)
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { kinds, sourceFileOf, specFor } from "../resources/registry";
import type { Policy } from "../provider/spec";

const REPO = path.resolve(__dirname, "..", __dirname.includes(`${path.sep}dist${path.sep}`) ? ".." : "");
const START = "<!-- reference:start -->";
const END = "<!-- reference:end -->";

function endpointsOf(file: string): string[] {
  const text = fs.readFileSync(path.join(REPO, file), "utf8");
  const header = text.slice(0, text.indexOf("*/"));
  return [...header.matchAll(/^\s*\*\s+((?:GET|POST|PUT|PATCH|DELETE)(?:, (?:GET|POST|PUT|PATCH|DELETE))*\s+\/\S+(?:, \S+)*)/gm)].map((m) =>
    m[1].replace(/\s+/g, " "),
  );
}

function describe(policy: Policy): string {
  switch (policy.kind) {
    case "updateRequest":
      return "update";
    case "command":
      return policy.command;
    case "remember":
      return "recorded";
    case "depends":
      return "depends";
    default:
      return policy.kind;
  }
}

export function referenceTable(): string {
  const rows = ["| Resource | API endpoints | Replace on change | Changed in place (how) | Secret outputs |", "|---|---|---|---|---|"];
  for (const kind of kinds()) {
    const spec = specFor(kind);
    const policies: Record<string, Policy> = {
      ...spec.policies,
      ...(spec.workspaceScoped ? { workspaceId: { kind: "replace" } as Policy } : {}),
    };
    const replace = Object.keys(policies).filter((f) => policies[f].kind === "replace");
    const inPlace = Object.keys(policies)
      .filter((f) => !["replace", "ignore"].includes(policies[f].kind))
      .map((f) => `${f} (${describe(policies[f])})`);
    const endpoints = endpointsOf(sourceFileOf(kind)).map((e) => `\`${e}\``);
    const cell = (items: string[]) => (items.length ? items.join("<br>") : "—");
    rows.push(
      `| \`${kind}\`${spec.retainOnDelete ? " (retained on destroy)" : ""} | ${cell(endpoints)} | ${cell(replace)} | ${cell(inPlace)} | ${cell(spec.secretOutputs ?? [])} |`,
    );
  }
  return rows.join("\n");
}

export function renderReadme(readme: string): string {
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  if (start < 0 || end < start) throw new Error(`README.md lacks the ${START} ... ${END} markers`);
  return `${readme.slice(0, start + START.length)}\n${referenceTable()}\n${readme.slice(end)}`;
}

if (require.main === module) {
  const file = path.join(REPO, "README.md");
  fs.writeFileSync(file, renderReadme(fs.readFileSync(file, "utf8")));
  console.log("README.md reference table regenerated");
}
