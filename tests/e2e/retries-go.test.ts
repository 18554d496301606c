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
	"${SDK_NAMES.goModule}/svc"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		// Three tries in all: a retry while fewer than three errors were seen.
		retry, err := ctx.RegisterErrorHook("retry", func(args *pulumi.ErrorHookArgs) (bool, error) {
			return len(args.Errors) < 3, nil
		})
		if err != nil {
			return err
		}
		hooks := pulumi.ResourceHooks(&pulumi.ResourceHookBinding{OnError: []*pulumi.ErrorHook{retry}})
		disk := func(name string, timeouts *svc.TimeoutsArgs) error {
			_, err := svc.NewDisk(ctx, name, &svc.DiskArgs{
				Name: pulumi.String("retried-" + name), Size: pulumi.Float64(1 << 30), Backend: pulumi.String("LOCAL"),
				Region: pulumi.String("NA_01"), Timeouts: timeouts,
			}, hooks)
			return err
		}
		if err := disk("data", nil); err != nil {
			return err
		}
		if config.GetBool(ctx, "slow") {
			return disk("slow", &svc.TimeoutsArgs{Create: pulumi.String("1s")})
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
