/**
 * An onError hook's retries from a Python program (./retries.ts): the committed Python SDK
 * (sdk/python) beside the pulumi Python SDK 3.272.0 (the newest on PyPI here; hooks since 3.218),
 * which the program uses to register hooks with the engine's monitor directly; run by the 3.163
 * Python host.
 */
import * as path from "node:path";
import { pythonProject } from "./pythonSdk";
import { describeRetries } from "./retries";

jest.setTimeout(600_000);

const PROGRAM = `import pulumi
import pulumi_svc as svc

# Three tries in all: a retry while fewer than three errors were seen.
retry = pulumi.ErrorHook("retry", lambda args: len(args.errors) < 3)
hooks = pulumi.ResourceOptions(hooks=pulumi.ResourceHookBinding(on_error=[retry]))


def disk(name, timeouts=None):
    return svc.Disk(name, name=f"retried-{name}", size=1 << 30, backend="LOCAL", region="NA_01", timeouts=timeouts, opts=hooks)


disk("data")
if pulumi.Config().get_bool("slow"):
    disk("slow", svc.TimeoutsArgs(create="1s"))
`;

describeRetries({
  name: "Python",
  project(dir, plugin) {
    return { env: pythonProject(path.dirname(dir), dir, { name: "retries-python", plugin, program: PROGRAM, sdkVersion: "3.272.0" }) };
  },
});
