import * as fs from "node:fs";
import * as path from "node:path";
import { referenceTable, renderReadme } from "../../scripts/reference";
import { kinds } from "../../resources/registry";

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
