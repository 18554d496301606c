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


def logged(hook):
    """A resource hook that appends "<hook> <resource>" to hooks.log in the project directory, which the test reads."""

    def log(args):
        with open("hooks.log", "a") as f:
            f.write(f"{hook} {args.name}\\n")

    return pulumi.ResourceHook(hook, log)


# Three tries in all: a retry while fewer than three errors were seen.
retry = pulumi.ErrorHook("retry", lambda args: len(args.errors) < 3)
binding = pulumi.ResourceHookBinding(
    on_error=[retry],
    before_create=[logged("beforeCreate")],
    after_create=[logged("afterCreate")],
    after_update=[logged("afterUpdate")],
    after_delete=[logged("afterDelete")],
)
hooks = pulumi.ResourceOptions(hooks=binding)
config = pulumi.Config()
# changed: data grows to 2 GiB (a resize workflow), slow is renamed (no workflow).
changed = config.get_bool("changed")


def disk(name, label, size, timeouts=None):
    return svc.Disk(name, name=f"retried-{label}", size=size, backend="LOCAL", region="NA_01", timeouts=timeouts, opts=hooks)


disk("data", "data", 2 << 30 if changed else 1 << 30)
if config.get_bool("slow"):
    disk("slow", "slow-renamed" if changed else "slow", 1 << 30, svc.TimeoutsArgs(create="1s"))
`;

describeRetries({
  name: "Python",
  project(dir, plugin) {
    return { env: pythonProject(path.dirname(dir), dir, { name: "retries-python", plugin, program: PROGRAM, sdkVersion: "3.272.0" }) };
  },
});
