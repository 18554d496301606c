/**
 * The README's resource reference, generated from the resource definitions so it cannot drift:
 * endpoints (from each resource file's header), fields that replace, fields changed in place
 * (and how), secret outputs.
 *
 *   npm run docs            rewrite the table in README.md
 *   (tests/unit/docs.test.ts fails when README.md is out of date)
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { kinds, sourceFileOf, definitionOf } from "../resources/kinds";
import type { ChangeEffect } from "../provider/changeEffects";

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

function describe(effect: ChangeEffect): string {
  switch (effect.kind) {
    case "updateRequest":
      return "update";
    case "step":
      return effect.step;
    case "remember":
      return "recorded";
    case "depends":
      return "depends";
    default:
      return effect.kind;
  }
}

export function referenceTable(): string {
  const rows = ["| Resource | API endpoints | Replace on change | Changed in place (how) | Secret outputs |", "|---|---|---|---|---|"];
  for (const kind of kinds()) {
    const definition = definitionOf(kind);
    const effects: Record<string, ChangeEffect> = {
      ...definition.onChange,
      ...(definition.workspaceScoped ? { workspaceId: { kind: "replace" } as ChangeEffect } : {}),
    };
    const replace = Object.keys(effects).filter((f) => effects[f].kind === "replace");
    const inPlace = Object.keys(effects)
      .filter((f) => !["replace", "ignore"].includes(effects[f].kind))
      .map((f) => `${f} (${describe(effects[f])})`);
    const endpoints = endpointsOf(sourceFileOf(kind)).map((e) => `\`${e}\``);
    const cell = (items: string[]) => (items.length ? items.join("<br>") : "—");
    rows.push(
      `| \`${kind}\`${definition.retainOnDelete ? " (retained on destroy)" : ""} | ${cell(endpoints)} | ${cell(replace)} | ${cell(inPlace)} | ${cell(definition.secretOutputs ?? [])} |`,
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
