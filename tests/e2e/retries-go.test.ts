/**
 * An onError hook's retries from a Go program (./retries.ts): the committed Go SDK (sdk/go, through
 * a replace in go.mod) on github.com/pulumi/pulumi/sdk/v3 v3.274.1, new enough for error hooks,
 * which the program registers with the engine's monitor directly; built by the 3.163 Go host.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO } from "./adopt";
import { SDK_NAMES } from "../../scripts/schema";
import { describeRetries } from "./retries";

jest.setTimeout(600_000);

const QUICKSTART = path.join(REPO, "examples", "go-quickstart");
/** The first Go SDK with error hooks is 3.218; this one matches the pinned CLI. */
const GO_SDK = "v3.274.1";

const PROGRAM = `package main

import (
	"fmt"
	"os"

	"${SDK_NAMES.goModule}/svc"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

// A resource hook that appends "<hook> <resource>" to hooks.log in the project directory, which the test reads.
func logged(hook string) pulumi.ResourceHookFunction {
	return func(args *pulumi.ResourceHookArgs) error {
		f, err := os.OpenFile("hooks.log", os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			return err
		}
		defer f.Close()
		_, err = fmt.Fprintf(f, "%s %s\\n", hook, args.Name)
		return err
	}
}

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		// Three tries in all: a retry while fewer than three errors were seen.
		retry, err := ctx.RegisterErrorHook("retry", func(args *pulumi.ErrorHookArgs) (bool, error) {
			return len(args.Errors) < 3, nil
		})
		if err != nil {
			return err
		}
		var logs [4]*pulumi.ResourceHook
		for i, hook := range []string{"beforeCreate", "afterCreate", "afterUpdate", "afterDelete"} {
			if logs[i], err = ctx.RegisterResourceHook(hook, logged(hook), nil); err != nil {
				return err
			}
		}
		hooks := pulumi.ResourceHooks(&pulumi.ResourceHookBinding{
			OnError: []*pulumi.ErrorHook{retry}, BeforeCreate: logs[0:1], AfterCreate: logs[1:2], AfterUpdate: logs[2:3], AfterDelete: logs[3:4],
		})
		// changed: data grows to 2 GiB (a resize workflow), slow is renamed (no workflow).
		changed := config.GetBool(ctx, "changed")
		disk := func(name, label string, size float64, timeouts *svc.TimeoutsArgs) error {
			_, err := svc.NewDisk(ctx, name, &svc.DiskArgs{
				Name: pulumi.String("retried-" + label), Size: pulumi.Float64(size), Backend: pulumi.String("LOCAL"),
				Region: pulumi.String("NA_01"), Timeouts: timeouts,
			}, hooks)
			return err
		}
		size := float64(1 << 30)
		if changed {
			size = 2 << 30
		}
		if err := disk("data", "data", size, nil); err != nil {
			return err
		}
		if config.GetBool(ctx, "slow") {
			label := "slow"
			if changed {
				label = "slow-renamed"
			}
			return disk("slow", label, 1<<30, &svc.TimeoutsArgs{Create: pulumi.String("1s")})
		}
		return nil
	})
}
`;

describeRetries({
  name: "Go",
  project(dir, plugin) {
    // The quickstart's module requirements under another name, the SDK replaced by this checkout's, pulumi's SDK raised.
    const mod = fs
      .readFileSync(path.join(QUICKSTART, "go.mod"), "utf8")
      .replace(/^module .*$/m, "module retries-go")
      .replace(/(github\.com\/pulumi\/pulumi\/sdk\/v3) v[\d.]+/, `$1 ${GO_SDK}`)
      .replace(/=> \.\.\/\.\.\/sdk\/go/, `=> ${path.join(path.dirname(plugin), "sdk", "go")}`);
    fs.writeFileSync(path.join(dir, "go.mod"), mod);
    fs.copyFileSync(path.join(QUICKSTART, "go.sum"), path.join(dir, "go.sum"));
    fs.writeFileSync(
      path.join(dir, "Pulumi.yaml"),
      `name: retries-go\nruntime: go\nplugins:\n  providers:\n    - name: svc\n      path: ${plugin}\n`,
    );
    fs.writeFileSync(path.join(dir, "main.go"), PROGRAM);
    // go.sum for the raised SDK's requirements (from the module proxy, or GOMODCACHE once fetched).
    execFileSync("go", ["mod", "tidy"], { cwd: dir, stdio: "pipe" });
    return {};
  },
});
