/**
 * The package's dynamic-provider entry, `pulumi-svc/provider` (package.json's `exports`): what the
 * dynamic-provider host loads for every resource of the dynamic face. A resource's `__provider`
 * text (provider/dynamic/providerText.ts) names only this entry and its kind; the host calls the
 * object `shim(kind)` gives, whose `configure`, always called first, installs the kind's lifecycle
 * on it (provider/dynamic/install.ts). A face, as plugin/ is, so above resources/, whose list of
 * kinds it reads, and above the support in provider/dynamic/ it loads.
 *
 * Every state ever written names this entry and one of its two functions, so both stay: `shim`
 * (the one-line text of 0.1.0 and later: `require("pulumi-svc/provider").shim("Vpc")`) and
 * `install` (the serialized provider objects of earlier states: `require(entry).install(this,
 * kind, req)`); tests/e2e/upgrade.test.ts runs such states. The subpath `./dist/resources/registry`,
 * which the states of packages before 0.1.0 named, resolves here too.
 *
 * Nothing of the lifecycle is loaded before `configure`: the program side never needs it.
 */
import type * as pulumi from "@pulumi/pulumi";
import { definitionOf } from "../resources/kinds";

/**
 * The shim: the provider object a resource's `__provider` text asks for. The host calls its
 * `configure` first, which installs the kind's lifecycle on it. Its name is in every recorded state.
 */
export function shim(kind: string): pulumi.dynamic.ResourceProvider {
  const provider = {
    configure(req: pulumi.dynamic.ConfigureRequest) {
      install(this, kind, req);
    },
  };
  return provider as unknown as pulumi.dynamic.ResourceProvider;
}

/**
 * Installs the kind's lifecycle on `target`: the shim's `configure`, and what the `__provider` text
 * of states written before 0.1.0's one-line text calls (`require(entry).install(this, kind, req)`).
 */
export function install(target: object, kind: string, req: pulumi.dynamic.ConfigureRequest): void {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded at the host's first configure, not with the entry
  const { installLifecycle } = require("../provider/dynamic/install") as typeof import("../provider/dynamic/install");
  installLifecycle(target, definitionOf(kind), req);
}
