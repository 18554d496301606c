/**
 * Which pulumi CLI `npm run demo` runs (scripts/demoCli.ts): the user's, first on PATH, when its
 * version is in the package's range and the demo's plugins are beside it; else ensure-pulumi.sh's
 * build, with the reason.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { chooseCli, DEMO_PLUGINS, findPulumi, supportedRange, type CliChoice, type FoundCli } from "../../scripts/demoCli";

const REPO = path.join(__dirname, "..", "..");
const RANGE = ">=3.163.0 <4";
const ALL = (version?: string): FoundCli => ({ path: "/opt/pulumi/bin/pulumi", version, missing: [] });
const use = (version: string): CliChoice => ({ use: "found", path: "/opt/pulumi/bin/pulumi", version });
const build = (why: string): CliChoice => ({ use: "build", why });

describe("the demo's pulumi CLI", () => {
  it.each<[string, FoundCli | undefined, boolean, CliChoice]>([
    ["the newest, with its plugins", ALL("3.274.1"), false, use("3.274.1")],
    ["the floor itself", ALL("3.163.0"), false, use("3.163.0")],
    ["one built from source", ALL("3.200.1-dev.0"), false, use("3.200.1-dev.0")],
    ["none on PATH", undefined, false, build("no pulumi on PATH")],
    [
      "one older than the floor",
      ALL("3.162.0"),
      false,
      build("pulumi 3.162.0 at /opt/pulumi/bin/pulumi is outside the supported range >=3.163.0 <4"),
    ],
    [
      "a major release newer",
      ALL("4.0.0"),
      false,
      build("pulumi 4.0.0 at /opt/pulumi/bin/pulumi is outside the supported range >=3.163.0 <4"),
    ],
    ["one that did not report its version", ALL(undefined), false, build("/opt/pulumi/bin/pulumi did not report its version")],
    [
      "one without the dynamic-provider host",
      { ...ALL("3.274.1"), missing: ["pulumi-resource-pulumi-nodejs"] },
      false,
      build("pulumi 3.274.1 at /opt/pulumi/bin/pulumi has no pulumi-resource-pulumi-nodejs beside it"),
    ],
    [
      "one without either plugin",
      { ...ALL("3.274.1"), missing: DEMO_PLUGINS },
      false,
      build("pulumi 3.274.1 at /opt/pulumi/bin/pulumi has no pulumi-language-nodejs or pulumi-resource-pulumi-nodejs beside it"),
    ],
    ["a good one, with PULUMI_SVC_FORCE_BUILD", ALL("3.274.1"), true, build("PULUMI_SVC_FORCE_BUILD is set")],
  ])("%s", (_case, found, forceBuild, expected) => {
    expect(chooseCli(found, RANGE, forceBuild)).toEqual(expected);
  });

  it("takes the range from the package's peer dependency on @pulumi/pulumi", () => {
    expect(supportedRange(REPO)).toBe(RANGE);
  });

  it("looks for the plugins ensure-pulumi.sh's demo set builds, for every version it builds", () => {
    const script = fs.readFileSync(path.join(REPO, "scripts", "ensure-pulumi.sh"), "utf8");
    const demoSet = /\n {2}demo\)\n {4}executables=\(([^)]*)\)/.exec(script)![1];
    const nodeScripts = [...script.matchAll(/node_scripts=\(([^)]*)\)/g)].map((m) => m[1]);
    expect(nodeScripts.length).toBeGreaterThan(1);
    for (const scripts of nodeScripts)
      expect(demoSet.replace('"${node_scripts[@]}"', scripts).split(/\s+/)).toEqual(expect.arrayContaining(["pulumi", ...DEMO_PLUGINS]));
  });

  describe("finding pulumi on PATH", () => {
    let dir: string;
    beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), "svc-demo-cli-"))));
    afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

    /** A folder holding a `pulumi` that reports `version`, and the plugins named. */
    const folder = (name: string, version: string, plugins: string[]) => {
      const bin = path.join(dir, name);
      fs.mkdirSync(bin);
      fs.writeFileSync(path.join(bin, "pulumi"), `#!/bin/sh\necho v${version}\n`, { mode: 0o755 });
      for (const plugin of plugins) fs.writeFileSync(path.join(bin, plugin), "", { mode: 0o755 });
      return bin;
    };

    it("finds the first on PATH, its version and the plugins missing beside it", () => {
      const first = folder("first", "3.200.0", ["pulumi-language-nodejs"]);
      const second = folder("second", "3.274.1", DEMO_PLUGINS);
      expect(findPulumi([path.join(dir, "none"), first, second].join(path.delimiter))).toEqual({
        path: path.join(first, "pulumi"),
        version: "3.200.0",
        missing: ["pulumi-resource-pulumi-nodejs"],
      });
    });

    it("looks beside the file a symlinked pulumi names when its own folder lacks the plugins", () => {
      const real = folder("real", "3.274.1", DEMO_PLUGINS);
      const links = path.join(dir, "links");
      fs.mkdirSync(links);
      fs.symlinkSync(path.join(real, "pulumi"), path.join(links, "pulumi"));
      expect(findPulumi(links)).toEqual({ path: path.join(real, "pulumi"), version: "3.274.1", missing: [] });
    });

    it("finds none on a PATH without pulumi", () => {
      expect(findPulumi(path.join(dir, "none"))).toBeUndefined();
    });
  });
});
