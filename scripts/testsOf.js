#!/usr/bin/env node
/**
 * The test files of one resource kind, found from its name:
 *
 *   node scripts/testsOf.js Instance           lists them, one per line, unit first
 *   node scripts/testsOf.js --every Instance   with every end-to-end file that declares the kind
 *   npm run test:kind -- Instance              runs them through npm test: a build, no lint, the
 *                                              newest matrix entry alone (scripts/test.js)
 *
 * - unit: tests/unit/resources/<module>.test.ts (a kind's module is its name with a lower-case
 *   first letter, resources/kinds.ts);
 * - in-process: tests/inprocess/<module>.test.ts, where the kind has one;
 * - emulator: the emulator package's tests whose header names the collection the kind's module
 *   header names first (resources/vpc.ts: POST /v1/workspaces/{wid}/vpcs, so `vpcs`; "firewall
 *   rules" for `firewall-rules`); the header, because most files use a VPC or an instance on the
 *   way to what they test;
 * - e2e: the kind's end-to-end proof, the files whose header names it on its `Kinds:` line
 *   (tests/e2e/vpc.test.ts: ` * Kinds: Vpc`); most end-to-end files declare a Vpc or an Instance
 *   on the way to something else (a fault, a face, an upgrade), and listing them all found 27 of
 *   43 files for Vpc. With `--every`, those too: every file that declares the kind (its name as a
 *   word), or that imports, directly or through another, a shared module of tests/e2e that does.
 */
const fs = require("node:fs");
const path = require("node:path");

const REPO = path.join(__dirname, "..");
const read = (file) => fs.readFileSync(path.join(REPO, file), "utf8");
const filesIn = (dir) =>
  fs
    .readdirSync(path.join(REPO, dir))
    .filter((f) => f.endsWith(".ts"))
    .map((f) => `${dir}/${f}`)
    .sort();
const isTest = (file) => file.endsWith(".test.ts");

/**
 * The collection an API path names last (`/v1/workspaces/{wid}/k3s/services` -> `services`), as a
 * pattern over prose: any case, a hyphen read as a hyphen or a space.
 */
const collectionPattern = (apiPath) => {
  const segments = apiPath.split("/").filter((seg) => /^[a-z0-9-]+$/.test(seg));
  return new RegExp(`(?<![\\w-])${segments[segments.length - 1].replace(/-/g, "[- ]")}(?![\\w-])`, "i");
};

/** A file's header: its text before the first comment ends. */
const header = (file) => read(file).split("*/")[0];

/** The kinds an end-to-end file proves: its header's `Kinds:` line. */
const kindsProvedBy = (text) =>
  (/^ \* Kinds: ([\w, ]+)/m.exec(text.split("*/")[0])?.[1] ?? "")
    .split(",")
    .map((k) => k.trim())
    .filter(Boolean);

/** Every end-to-end file that declares the kind, directly or through a shared module of tests/e2e. */
function declaringE2e(kind) {
  const word = new RegExp(`\\b${kind}\\b`);
  const e2eFiles = filesIn("tests/e2e");
  // Declaring files, then whatever imports one of them, until nothing new (tests/e2e is flat).
  const found = new Set(e2eFiles.filter((f) => word.test(read(f))));
  for (let size = 0; size !== found.size; ) {
    size = found.size;
    const imports = [...found].filter((f) => !isTest(f)).map((f) => `./${path.basename(f, ".ts")}"`);
    for (const f of e2eFiles) if (imports.some((i) => read(f).includes(i))) found.add(f);
  }
  return e2eFiles.filter((f) => isTest(f) && found.has(f));
}

function testsOf(kind, { every = false } = {}) {
  const module = kind[0].toLowerCase() + kind.slice(1);
  const source = `resources/${module}.ts`;
  if (!fs.existsSync(path.join(REPO, source))) throw new Error(`no kind ${kind}: ${source} does not exist`);

  const exists = (file) => fs.existsSync(path.join(REPO, file));
  const unit = [`tests/unit/resources/${module}.test.ts`].filter(exists);
  const inprocess = [`tests/inprocess/${module}.test.ts`].filter(exists);

  const first = /\/v1\/[\w{}/-]+/.exec(header(source));
  const apiPath = first && collectionPattern(first[0]);
  const emulator = apiPath ? filesIn("packages/emulator/tests").filter((f) => isTest(f) && apiPath.test(header(f))) : [];

  const e2e = every ? declaringE2e(kind) : filesIn("tests/e2e").filter((f) => isTest(f) && kindsProvedBy(read(f)).includes(kind));

  return [...unit, ...inprocess, ...emulator, ...e2e];
}

module.exports = { testsOf, kindsProvedBy };

if (require.main === module) {
  const run = process.argv.includes("--run");
  const kind = process.argv.slice(2).find((a) => !a.startsWith("--"));
  const every = process.argv.includes("--every");
  if (!kind) {
    console.error("usage: node scripts/testsOf.js [--run] [--every] <Kind>   (a kind of resources/kinds.ts, for example Instance)");
    process.exit(2);
  }
  let files;
  try {
    files = testsOf(kind, { every });
  } catch (err) {
    console.error(`testsOf: ${err.message}`);
    process.exit(1);
  }
  if (!run) console.log(files.join("\n"));
  else {
    const { status } = require("node:child_process").spawnSync(process.execPath, [path.join(__dirname, "test.js"), ...files], {
      stdio: "inherit",
    });
    process.exit(status ?? 1);
  }
}
