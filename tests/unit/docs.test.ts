import * as fs from "node:fs";
import * as path from "node:path";
import { renderIndex } from "../../scripts/exports";
import { INDEX_PAGE, INSTALL_PAGE } from "../../scripts/generate";
import { settingsTable, type PackageSchema } from "../../scripts/docsPages";
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

describe("the provider's settings table (docs/installation-configuration.md)", () => {
  const schema = JSON.parse(fs.readFileSync(path.join(__dirname, "..", "..", "schema.json"), "utf8")) as PackageSchema;

  it("names each setting's stack config, property and environment fallback, and marks the token secret", () => {
    const table = settingsTable(schema);
    expect(table).toContain("| `svc:baseUrl` | `baseUrl` | `SVC_BASE_URL` | string |  |");
    expect(table).toContain("| `svc:token` | `token` | `SVC_TOKEN` | string | yes |");
    expect(table).toContain("| `svc:workspaceId` | `workspaceId` | `SVC_WORKSPACE_ID` |");
    expect(table).toContain("| `svc:maxRequestsPerSecond` | `maxRequestsPerSecond` | `SVC_MAX_REQUESTS_PER_SECOND` | number |");
    expect(table.split("\n")).toHaveLength(2 + Object.keys(schema.config.variables).length);
  });

  it("is in the page, between its markers", () => {
    const page = fs.readFileSync(path.join(__dirname, "..", "..", INSTALL_PAGE), "utf8");
    expect(page).toContain(`<!-- settings:start -->\n${settingsTable(schema)}\n<!-- settings:end -->`);
  });
});
