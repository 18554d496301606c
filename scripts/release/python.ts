/**
 * release/python/: the wheel and sdist of `pulumi_svc`, built from a scratch copy of sdk/python
 * (whose generated setup.py and pulumi-plugin.json carry a version: set to the release's there,
 * never in sdk/) by PyPA's `build`. `build` and the setuptools/wheel it builds with live in a
 * virtualenv of their own in the cache (scripts/ensure-python.sh's), made once per machine; the
 * build runs without isolation in it, so a warm machine builds with no download.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { SDK_NAMES } from "../schema";
import { cacheRoot, inScratch, REPO, replaceIn, run, type Step } from "./common";

const BUILD_NEEDS = ["build==1.2.2.post1", "setuptools>=70", "wheel"];

/** The cached virtualenv holding `build`; made (in place, marked once complete) when missing. */
function buildVenv(): string {
  const venv = path.join(cacheRoot(), "python-build-venv");
  const marker = path.join(venv, ".pulumi-svc-complete");
  const python = path.join(venv, "bin", "python");
  if (fs.existsSync(marker) && fs.existsSync(python)) return venv;
  fs.rmSync(venv, { recursive: true, force: true });
  fs.mkdirSync(path.dirname(venv), { recursive: true });
  run(process.env.PULUMI_SVC_PYTHON || "python3", ["-m", "venv", venv]);
  run(python, ["-m", "pip", "install", "--disable-pip-version-check", "--no-input", "-q", ...BUILD_NEEDS]);
  fs.writeFileSync(marker, BUILD_NEEDS.join("\n") + "\n");
  return venv;
}

export const python: Step = async (outDir, version) => {
  const into = path.join(outDir, "python");
  fs.mkdirSync(into, { recursive: true });
  const venv = buildVenv();
  return inScratch("sdk-python", async (scratch) => {
    const sdk = path.join(scratch, "sdk");
    fs.cpSync(path.join(REPO, "sdk", "python"), sdk, { recursive: true });
    replaceIn(path.join(sdk, "setup.py"), /^VERSION = ".*"$/m, `VERSION = "${version}"`);
    const plugin = path.join(sdk, SDK_NAMES.python, "pulumi-plugin.json");
    fs.writeFileSync(plugin, JSON.stringify({ ...JSON.parse(fs.readFileSync(plugin, "utf8")), version }, null, 2) + "\n");
    // setup.py reads README.md beside it for the long description; the generator writes it into the package.
    const readme = path.join(sdk, SDK_NAMES.python, "README.md");
    if (!fs.existsSync(path.join(sdk, "README.md")) && fs.existsSync(readme)) fs.copyFileSync(readme, path.join(sdk, "README.md"));
    const before = new Set(fs.readdirSync(into));
    run(path.join(venv, "bin", "python"), ["-m", "build", "--no-isolation", "--sdist", "--wheel", "--outdir", into, sdk], { cwd: scratch });
    const written = fs.readdirSync(into).filter((f) => !before.has(f) || f.includes(`-${version}`));
    const wheel = written.find((f) => f.endsWith(".whl"));
    const sdist = written.find((f) => f.endsWith(".tar.gz"));
    if (!wheel || !sdist) throw new Error(`build wrote ${written.join(", ") || "nothing"} into ${into}, not a wheel and an sdist`);
    return [path.join(into, wheel), path.join(into, sdist)];
  });
};
