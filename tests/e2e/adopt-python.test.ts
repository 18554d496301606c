/**
 * Adopting a workspace made by hand into a Python program through the plugin (./adopt.ts): the
 * generated __main__.py on the committed Python SDK (sdk/python), installed where the program's
 * interpreter finds it, in the virtualenv of scripts/ensure-python.sh.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { describeAdoption, REPO } from "./adopt";

jest.setTimeout(600_000);

describeAdoption({
  name: "Python",
  program: "__main__.py",
  project(dir, plugin) {
    const venv = execFileSync("bash", [path.join(REPO, "scripts", "ensure-python.sh")], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
    })
      .trim()
      .split("\n")
      .pop()!;
    // From a copy: pip builds in the source tree, and sdk/ stays as generated.
    const work = path.dirname(dir);
    const sdk = path.join(work, "sdk-python");
    fs.cpSync(path.join(REPO, "sdk", "python"), sdk, { recursive: true });
    const site = path.join(work, "site");
    execFileSync(
      path.join(venv, "bin", "python"),
      ["-m", "pip", "install", "--disable-pip-version-check", "-q", "--no-deps", "--no-build-isolation", "--target", site, sdk],
      { stdio: "pipe" },
    );
    const project = {
      name: "adopt-python",
      runtime: { name: "python", options: { virtualenv: venv } },
      plugins: { providers: [{ name: "svc", path: plugin }] },
    };
    fs.writeFileSync(path.join(dir, "Pulumi.yaml"), JSON.stringify(project, null, 2));
    fs.writeFileSync(path.join(dir, "__main__.py"), "");
    return { env: { PYTHONPATH: site } };
  },
});
