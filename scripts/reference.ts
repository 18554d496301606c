/**
 * The resource reference table (docs/_index.md), generated from the resource definitions so it
 * cannot drift: endpoints (from each resource file's header), fields that replace, fields changed
 * in place (and how), secret outputs.
 *
 *   npm run generate        rewrite it, with every other generated file (scripts/generate.ts)
 *   (tests/unit/generated.test.ts fails when it is out of date)
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { kinds, sourceFileOf, definitionOf } from "../resources/kinds";
import type { ChangeEffect } from "../provider/fields/changeEffects";

const REPO = path.resolve(__dirname, "..", __dirname.includes(`${path.sep}dist${path.sep}`) ? ".." : "");

export function endpointsOf(file: string): string[] {
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
