/**
 * The version matrix (scripts/matrix.js) and the copies of its facts: the table in
 * docs/installation-configuration.md, written by
 * `npm run matrix` from what a run measured (scripts/test.js fails a run whose versions differ
 * from the declared ones, so the declaration is what ran), and the CLI that
 * scripts/ensure-pulumi.sh builds by default.
 */
import * as fs from "node:fs";
import * as path from "node:path";

const REPO = path.join(__dirname, "..", "..");
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { MATRIX, REPO_SDK, SMOKE, NODE_SMOKE } = require("../../scripts/matrix.js");
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { render, tableIn, TABLE_FILE } = require("../../scripts/matrixTable.js");

interface Entry {
  name: string;
  node: string;
  cli: string;
  sdk: string;
  policy?: string;
  files: "all" | string[];
  why: string;
}
const entries = MATRIX as Entry[];
/** The @pulumi/policy npm resolved for this repository (what an entry on its SDK runs). */
const installedPolicy = JSON.parse(
  fs.readFileSync(path.join(REPO, "node_modules", "@pulumi", "policy", "package.json"), "utf8"),
).version.replace(/^v/, "");

describe("the version matrix", () => {
  it("the table of tested versions (docs/installation-configuration.md) is the matrix as declared (stale: npm test, then npm run matrix)", () => {
    const declared = entries.map((e) => ({
      ...e,
      versions: { node: e.node, cli: e.cli, sdk: e.sdk, policy: e.policy ?? installedPolicy },
    }));
    expect(tableIn(fs.readFileSync(path.join(REPO, TABLE_FILE), "utf8"))).toBe(render(declared));
  });

  it("runs the whole suite on the newest entry: the repository's SDK and ensure-pulumi.sh's default CLI", () => {
    const [newest] = entries;
    expect(newest).toMatchObject({ files: "all", sdk: REPO_SDK });
    const script = fs.readFileSync(path.join(REPO, "scripts", "ensure-pulumi.sh"), "utf8");
    expect(script).toContain(`DEFAULT_VERSION="${newest.cli}"`);
    expect(script).toContain(`FLOOR_VERSION="${entries.find((e) => e.name === "floor")!.cli}"`);
  });

  it("the examples that name an SDK ask for the repository's, as a user copying one gets the newest", () => {
    const examples = path.join(REPO, "examples");
    const sdks = fs
      .readdirSync(examples)
      .map((e) => path.join(examples, e, "package.json"))
      .filter((f) => fs.existsSync(f))
      .map((file) => ({ file, sdk: JSON.parse(fs.readFileSync(file, "utf8")).dependencies?.["@pulumi/pulumi"] as string | undefined }))
      .filter((m) => m.sdk !== undefined);
    expect(sdks.length).toBeGreaterThan(3);
    for (const m of sdks) expect(m).toEqual({ file: m.file, sdk: REPO_SDK });
  });

  it("the smoke sets name test files that exist, Node.js 22's a part of the floor's", () => {
    for (const file of SMOKE as string[]) expect(fs.existsSync(path.join(REPO, file))).toBe(true);
    expect((NODE_SMOKE as string[]).filter((file) => !(SMOKE as string[]).includes(file))).toEqual([]);
  });

  it("the floor is the package's own floor: its peer range and engines", () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(REPO, "package.json"), "utf8"));
    const floor = entries.find((e) => e.name === "floor")!;
    expect(manifest.peerDependencies["@pulumi/pulumi"]).toBe(`>=${floor.sdk} <4`);
    expect(manifest.engines.node).toBe(`>=${floor.node.split(".")[0]}`);
    expect(manifest.dependencies["@pulumi/policy"]).toBe(`^${floor.policy}`);
  });
});
