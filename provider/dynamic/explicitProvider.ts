/**
 * `svc.Provider`: an explicit provider on the dynamic face, so one program reaches two workspaces,
 * two tokens or two API addresses, as `pulumi:providers:svc` does on the plugin face.
 *
 * Every class of this package registers its resources as `pulumi-nodejs:dynamic/svc:<Kind>`,
 * served by the SDK's dynamic-provider host. An explicit provider of that package
 * (`pulumi:providers:pulumi-nodejs`) is a provider resource like any other: the engine starts a
 * host process of its own for it, records its inputs in state (the token a secret there), binds
 * every resource given `{ provider }` to it by reference, and configures that process with the
 * inputs, which provider/dynamic/install.ts reads as the default provider reads the stack's `svc:*`
 * config. Lookups given `{ provider }` read the same settings in the program
 * (resources/lookups/common.ts).
 *
 * The host implements neither CheckConfig nor DiffConfig: the engine takes the inputs as they
 * are and previews a changed setting as an update of the provider (`~ pulumi:providers:pulumi-nodejs`
 * with the property's diff), its resources untouched unless their own diff says otherwise, as it
 * does for the plugin's `pulumi:providers:svc`. The settings' problems fail the check of each
 * resource bound to the provider, as the default provider's do (provider/configure/providerRuntime.ts `preflight`),
 * naming the provider's property (provider/runtime/config.ts).
 */
import type * as pulumi from "@pulumi/pulumi";
import { output, secret } from "@pulumi/pulumi/output";
import { ProviderResource } from "@pulumi/pulumi/resource";
import { PROVIDER_SECRETS, type ProviderConfig } from "../runtime/config";

/** The package of the type token every class of this package registers: the dynamic-provider host's. */
const DYNAMIC_PACKAGE = "pulumi-nodejs";

/**
 * The settings of an explicit provider: those of the default provider's stack config (`svc:<name>`),
 * by the same names as the plugin's provider properties, each falling back to its `SVC_*`
 * environment variable. Declared once, by `ProviderConfig` (provider/runtime/config.ts).
 */
export type ProviderArgs = { [K in keyof ProviderConfig]?: pulumi.Input<NonNullable<ProviderConfig[K]>> };

/** The settings each Provider was made with, for lookups (never an output: the token stays in the program). */
const settings = new WeakMap<object, pulumi.Output<Record<string, unknown>>>();

/** The settings to register: the secret ones wrapped, so state records them encrypted whatever the caller passed. */
export function providerInputs(args: ProviderArgs): Record<string, unknown> {
  const inputs: Record<string, unknown> = { ...args };
  for (const name of PROVIDER_SECRETS) if (inputs[name] !== undefined) inputs[name] = secret(inputs[name]);
  return inputs;
}

/**
 * An explicit provider for this package's resources and lookups: pass it as `{ provider }`.
 *
 *   const eu = new svc.Provider("eu", { baseUrl, token: cfg.requireSecret("euToken"), workspaceId: "42" });
 *   new svc.Vpc("net", { ... }, { provider: eu });
 *   svc.getPlans({}, { provider: eu });
 */
export class Provider extends ProviderResource {
  constructor(name: string, args: ProviderArgs = {}, opts?: pulumi.ResourceOptions) {
    const inputs = providerInputs(args);
    super(DYNAMIC_PACKAGE, name, inputs, opts);
    settings.set(this, output(inputs) as unknown as pulumi.Output<Record<string, unknown>>);
  }
}

/** The settings of a Provider of this package, or undefined for any other provider. */
export function settingsOf(provider: pulumi.ProviderResource): pulumi.Output<Record<string, unknown>> | undefined {
  return settings.get(provider);
}
