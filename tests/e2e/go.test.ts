/**
 * The quickstart as a Go program (examples/go-quickstart) on the generated Go SDK (sdk/go, through
 * the replace in its go.mod), run by the Go language host that scripts/ensure-pulumi.sh builds.
 * Modules come from the Go module proxy into GOMODCACHE (outside the work tree); the first build
 * on a machine compiles the Pulumi Go SDK (about a minute), later ones reuse Go's build cache.
 */
import { describePluginQuickstart } from "./plugin-quickstart";

jest.setTimeout(600_000);

describePluginQuickstart({
  example: "go-quickstart",
  project: "svc-go-quickstart",
  source: "main.go",
  description: (text) => `Description: pulumi.String("${text}")`,
});
