import * as fs from "node:fs";
import * as path from "node:path";
import { INDEX_FILE, renderIndex } from "../../scripts/exports";
import { referenceTable, renderReadme } from "../../scripts/reference";
import { kinds } from "../../resources/kinds";

describe("README reference table", () => {
  it("lists every resource kind with its endpoints", () => {
    const table = referenceTable();
    for (const kind of kinds()) expect(table).toContain(`| \`${kind}\``);
    expect(table).toMatch(/\| `Disk` \| `POST \/v1\/workspaces\/\{wid\}\/disks`.*\| backend<br>region<br>workspaceId \|/);
  });

  it("is up to date in README.md (run npm run docs)", () => {
    const readme = fs.readFileSync(path.join(__dirname, "..", "..", "README.md"), "utf8");
    expect(renderReadme(readme)).toBe(readme);
  });
});

describe("index.ts, generated from the registry's kinds", () => {
  it("is up to date (run npm run docs)", () => {
    expect(renderIndex()).toBe(fs.readFileSync(INDEX_FILE, "utf8"));
  });

  it("exports each kind's class (generated) and its Args type", () => {
    const index = renderIndex();
    for (const kind of kinds()) {
      expect(index).toContain(`export { ${kind} } from "./resources/generated/`);
      expect(index).toContain(`export type { ${kind}Args`);
    }
  });
});
