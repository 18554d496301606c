/**
 * A Python project on the plugin face: the committed SDK (sdk/python) installed as
 * docs/installation-configuration.md tells users, where the program's interpreter finds it, in
 * the virtualenv of scripts/ensure-python.sh (the Python SDK of the host's version).
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";

const REPO = path.join(__dirname, "..", "..");

/** A Python program on the plugin: resources (one with an integer and a wide integer) and an invoke (release-packages.test.ts, adopt-python.test.ts). */
export const PYTHON_PROGRAM = `import pulumi
import pulumi_svc as svc

plan = svc.get_plan(name="lightning-1")
net = svc.Vpc("net", name="py-net", description="from python", range="10.5.0.0/16")
# An integer (max_prefixes) and a wide integer, a number in the schema (a 4-byte ASN).
bgp = svc.BgpConfig("bgp", asn=4200000000, max_prefixes=50)

pulumi.export("plan_id", plan.id)
pulumi.export("vlan", net.vlan)
# What Python holds for the schema's integer (int) and number (float), as the program sees them.
pulumi.export("types", pulumi.Output.all(net.vlan, bgp.max_prefixes, bgp.asn).apply(lambda v: [type(plan.cpu).__name__] + [type(x).__name__ for x in v]))
`;

/**
 * Writes `<programDir>/Pulumi.yaml` (a Python project using the plugin at `plugin`) and
 * `__main__.py`, installing the SDK under `work`; returns the environment the program runs with.
 * `sdkVersion`: the pulumi Python SDK the program runs on, when not the host's.
 */
export function pythonProject(
  work: string,
  programDir: string,
  { name, plugin, program, sdkVersion }: { name: string; plugin: string; program: string; sdkVersion?: string },
): { PYTHONPATH: string } {
  const venv = execFileSync("bash", [path.join(REPO, "scripts", "ensure-python.sh"), ...(sdkVersion ? [sdkVersion] : [])], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  })
    .trim()
    .split("\n")
    .pop()!;
  // From a copy: pip builds in the source tree (build/, *.egg-info), and sdk/ stays as generated.
  const sdk = path.join(work, "sdk-python");
  fs.cpSync(path.join(REPO, "sdk", "python"), sdk, { recursive: true });
  const site = path.join(work, "site");
  execFileSync(
    path.join(venv, "bin", "python"),
    ["-m", "pip", "install", "--disable-pip-version-check", "-q", "--no-deps", "--no-build-isolation", "--target", site, sdk],
    { stdio: "pipe" },
  );
  const project = {
    name,
    runtime: { name: "python", options: { virtualenv: venv } },
    plugins: { providers: [{ name: "svc", path: plugin }] },
  };
  fs.writeFileSync(path.join(programDir, "Pulumi.yaml"), JSON.stringify(project, null, 2));
  fs.writeFileSync(path.join(programDir, "__main__.py"), program);
  return { PYTHONPATH: site };
}
