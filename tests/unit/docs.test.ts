import * as fs from "node:fs";
import * as path from "node:path";
import { renderIndex } from "../../scripts/exports";
import { INDEX_PAGE } from "../../scripts/generate";
import { referenceTable } from "../../scripts/reference";
import { kinds } from "../../resources/kinds";

/**
 * What the generated reference table and index.ts hold. Whether the committed files are current
 * (docs/_index.md's table, index.ts) is tests/unit/generated.test.ts's, for every generated file.
 */
describe("the reference table (docs/_index.md)", () => {
  it("lists every resource kind with its endpoints", () => {
    const table = referenceTable();
    for (const kind of kinds()) expect(table).toContain(`| \`${kind}\``);
    expect(table).toMatch(/\| `Disk` \| `POST \/v1\/workspaces\/\{wid\}\/disks`.*\| backend<br>region<br>workspaceId \|/);
  });

  it("is in docs/_index.md, between its markers", () => {
    const page = fs.readFileSync(path.join(__dirname, "..", "..", INDEX_PAGE), "utf8");
    expect(page).toContain(`<!-- reference:start -->\n${referenceTable()}\n<!-- reference:end -->`);
  });
});

describe("index.ts, generated from the registry's kinds", () => {
  it("exports each kind's class (generated) and its Args type", () => {
    const index = renderIndex();
    for (const kind of kinds()) {
      expect(index).toContain(`export { ${kind} } from "./resources/generated/`);
      expect(index).toContain(`export type { ${kind}Args`);
    }
  });
});
