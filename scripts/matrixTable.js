#!/usr/bin/env node
/**
 * `npm run matrix`: writes README's table of tested versions (between the matrix markers) from
 * what the last `npm test` ran (.pulumi-test/matrix.json, written by scripts/test.js from the
 * versions each entry measured). tests/unit/matrix.test.ts fails while the table differs from the
 * matrix as declared (scripts/matrix.js), which scripts/test.js holds every run to.
 */
const fs = require("node:fs");
const path = require("node:path");

const REPO = path.join(__dirname, "..");
const README = path.join(REPO, "README.md");
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

/** README with its matrix table replaced by `table`. */
function withTable(readme, table) {
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  if (start < 0 || end < start) throw new Error(`README.md has no ${START} ... ${END} block`);
  return `${readme.slice(0, start + START.length)}\n${table}\n${readme.slice(end)}`;
}

/** README's table as it stands. */
function tableIn(readme) {
  return readme.slice(readme.indexOf(START) + START.length, readme.indexOf(END)).trim();
}

if (require.main === module) {
  if (!fs.existsSync(RECORD)) {
    console.error(`matrix: no ${path.relative(REPO, RECORD)}: run npm test first`);
    process.exit(1);
  }
  const { entries } = JSON.parse(fs.readFileSync(RECORD, "utf8"));
  fs.writeFileSync(README, withTable(fs.readFileSync(README, "utf8"), render(entries)));
  console.error(`matrix: README.md's table from the run of ${JSON.parse(fs.readFileSync(RECORD, "utf8")).ranAt}`);
}

module.exports = { render, withTable, tableIn };
