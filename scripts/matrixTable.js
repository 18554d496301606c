#!/usr/bin/env node
/**
 * `npm run matrix`: writes the table of tested versions in docs/installation-configuration.md
 * ("Supported versions", between the matrix markers) from
 * what the last `npm test` ran (.pulumi-test/matrix.json, written by scripts/test.js from the
 * versions each entry measured). tests/unit/matrix.test.ts fails while the table differs from the
 * matrix as declared (scripts/matrix.js), which scripts/test.js holds every run to.
 */
const fs = require("node:fs");
const path = require("node:path");

const REPO = path.join(__dirname, "..");
/** The page that holds the table (relative to the repository). */
const TABLE_FILE = "docs/installation-configuration.md";
const RECORD = path.join(REPO, ".pulumi-test", "matrix.json");
const START = "<!-- matrix:start -->";
const END = "<!-- matrix:end -->";

const fileName = (f) => `\`${path.basename(f)}\``;

/** The table for entries `{ name, why, files, versions: { node, cli, sdk, policy } }`. */
function render(entries) {
  const rows = entries.map(
    (e) =>
      `| ${e.name} | ${e.versions.node} | ${e.versions.cli} | ${e.versions.sdk} | ${e.versions.policy} | ` +
      `${e.files === "all" ? "the whole suite" : e.files.map(fileName).join(", ")} | ${e.why} |`,
  );
  return [
    "| entry | Node.js | pulumi CLI | @pulumi/pulumi | @pulumi/policy | what runs | why |",
    "|---|---|---|---|---|---|---|",
    ...rows,
  ].join("\n");
}

/** The page's text with its matrix table replaced by `table`. */
function withTable(page, table) {
  const start = page.indexOf(START);
  const end = page.indexOf(END);
  if (start < 0 || end < start) throw new Error(`${TABLE_FILE} has no ${START} ... ${END} block`);
  return `${page.slice(0, start + START.length)}\n${table}\n${page.slice(end)}`;
}

/** The page's table as it stands. */
function tableIn(page) {
  return page.slice(page.indexOf(START) + START.length, page.indexOf(END)).trim();
}

if (require.main === module) {
  if (!fs.existsSync(RECORD)) {
    console.error(`matrix: no ${path.relative(REPO, RECORD)}: run npm test first`);
    process.exit(1);
  }
  const { entries } = JSON.parse(fs.readFileSync(RECORD, "utf8"));
  const file = path.join(REPO, TABLE_FILE);
  fs.writeFileSync(file, withTable(fs.readFileSync(file, "utf8"), render(entries)));
  console.error(`matrix: ${TABLE_FILE}'s table from the run of ${JSON.parse(fs.readFileSync(RECORD, "utf8")).ranAt}`);
}

module.exports = { render, withTable, tableIn, TABLE_FILE };
