/**
 * Helpers for the exported resource classes: every class is a `pulumi.CustomResource` registered
 * as the SDK's `pulumi.dynamic.Resource` registers one (type `pulumi-nodejs:dynamic/svc:<Kind>`,
 * served by the dynamic-provider host), whose `__provider` is the one-line text of
 * providerText.ts
 * (provider/dynamic/providerText.ts), whose outputs are registered by name, and whose secret outputs are marked
 * through `additionalSecretOutputs`. The classes are generated (scripts/classes.ts) from each
 * kind's spec and public interfaces, so a class names neither its kind nor its secrets by hand, and
 * a program loads this module, providerText.ts and the SDK, never a definition.
 */
import type * as pulumi from "@pulumi/pulumi";
import { output, secret } from "@pulumi/pulumi/output";
import type { ResourceOptions } from "../lifecycle/types";
import { Config } from "@pulumi/pulumi/config";
import { getOrganization, getProject, getStack } from "@pulumi/pulumi/metadata";
import type { Naming } from "../lifecycle/autoname";
import { askedBy, settingFor, type AutonamingSetting } from "./autonaming";
import { CARRIED_KEY, NAMING_KEY } from "./carriedOptions";
import { INPUTS_KEY } from "./declaredInputs";
import { dynamicType, PACKAGE_NAME, TOKEN_PREFIX } from "../typeTokens";
import { PROVIDER_KEY, providerText } from "./providerText";

/**
 * The class's typed properties, one `Output` per field of the resource's outputs interface (with
 * its TSDoc): merged into each generated class (`export interface Vpc extends OutputProperties<VpcOutputs> {}`)
 * so a field declared once in the outputs interface is readable from TypeScript.
 */
export type OutputProperties<O> = { readonly [K in keyof O as string extends K ? never : K]-?: pulumi.Output<O[K]> };

/**
 * What a generated class (resources/generated/<module>.ts, scripts/classes.ts) knows of its kind, as
 * literals so that a program never loads the kind's spec (nor zod): the kind, the output names it
 * registers (its outputs interface's fields), the secret outputs of its spec, and the inputs among
 * them, made secret in state whatever the caller passed.
 */
export interface ClassShape {
  kind: string;
  /** The kind has a name, made where the program declares none (provider/lifecycle/autoname.ts). */
  autonamed?: boolean;
  outputs: readonly string[];
  secretOutputs: readonly string[];
  secretInputs: readonly string[];
}

/** Inputs plus every output name (as undefined), so the SDK creates an Output for each. */
function withOutputs(args: Record<string, unknown>, outputNames: readonly string[]): Record<string, unknown> {
  const props: Record<string, unknown> = {};
  for (const name of outputNames) props[name] = undefined;
  return { ...props, ...args };
}

/** The secret inputs the caller passed, wrapped as Pulumi secrets (so state records them as secrets). */
function withSecretInputs(args: Record<string, unknown>, secretInputs: readonly string[]): Record<string, unknown> {
  const wrapped = secretInputs.filter((k) => args[k] !== undefined).map((k) => [k, secret(args[k])]);
  return wrapped.length ? { ...args, ...Object.fromEntries(wrapped) } : args;
}

/** Resource options with the kind's secret outputs marked. */
function withSecretOutputs(opts: pulumi.CustomResourceOptions | undefined, secretOutputs: readonly string[]): pulumi.CustomResourceOptions {
  if (!secretOutputs.length) return opts ?? {};
  return { ...opts, additionalSecretOutputs: [...new Set([...(opts?.additionalSecretOutputs ?? []), ...secretOutputs])] };
}

const OPERATIONS = ["create", "update", "delete"] as const;

/**
 * The resource options the dynamic-provider host drops, carried as inputs (provider/dynamic/carriedOptions.ts
 * says why, one by one): `import`, `ignoreChanges` and `replaceOnChanges` under one input, which
 * the provider's adapter turns into the lifecycle's call, `customTimeouts` folded into `timeouts`. `import` leaves the engine's options:
 * kept, it sends the engine to a read the host cannot serve.
 */
function carryOptions(
  args: Record<string, unknown>,
  opts: pulumi.CustomResourceOptions,
): { args: Record<string, unknown>; opts: pulumi.CustomResourceOptions } {
  const { import: importId, ...withoutImport } = opts;
  const carried: ResourceOptions = {
    ...(importId !== undefined ? { import: importId } : {}),
    ...(opts.ignoreChanges?.length ? { ignoreChanges: opts.ignoreChanges } : {}),
    ...(opts.replaceOnChanges?.length ? { replaceOnChanges: opts.replaceOnChanges } : {}),
  };
  const withCarried = Object.keys(carried).length ? { ...args, [CARRIED_KEY]: carried } : args;
  return { args: withCustomTimeouts(withCarried, opts.customTimeouts), opts: importId !== undefined ? withoutImport : opts };
}

/** `timeouts` over customTimeouts: the input wins where it names the operation, the option fills the rest. */
function withCustomTimeouts(args: Record<string, unknown>, custom: pulumi.CustomTimeouts | undefined): Record<string, unknown> {
  const fromOption = Object.fromEntries(OPERATIONS.flatMap((op) => (custom?.[op] ? [[op, custom[op]]] : [])));
  if (!Object.keys(fromOption).length) return args;
  const declared = args.timeouts;
  return { ...args, timeouts: declared === undefined ? fromOption : output(declared).apply((t) => ({ ...fromOption, ...(t ?? {}) })) };
}

let stackSetting: { value: AutonamingSetting | undefined } | undefined;

/**
 * How the provider's check names a resource the program leaves unnamed: its logical name and what
 * the stack's `pulumi:autonaming` asks for its kind (read once per program), as the engine sends
 * it to the plugin.
 */
function namingOf(kind: string, logicalName: string): Naming {
  stackSetting ??= { value: new Config("pulumi").getObject<AutonamingSetting>("autonaming") };
  const setting = settingFor(stackSetting.value, PACKAGE_NAME, TOKEN_PREFIX + kind);
  if (!setting) return { logicalName };
  const project = new Config();
  const asked = askedBy(setting, logicalName, {
    organization: getOrganization(),
    project: getProject(),
    stack: getStack(),
    config: (key) => project.get(key),
  });
  return asked ? { logicalName, asked } : { logicalName };
}

/**
 * The arguments of a generated class's `super` call (`pulumi.CustomResource`), all from its
 * shape: the type token `pulumi-nodejs:dynamic/svc:<kind>`, the inputs with the secret ones
 * wrapped, the options the host drops carried, the `__provider` text, and every output name
 * registered, the secret outputs marked (and `__inputs`).
 *
 *   super(...superArgs(SHAPE, name, args, opts));
 *
 * @internal
 */
export function superArgs(
  shape: ClassShape,
  name: string,
  args: object,
  opts: pulumi.CustomResourceOptions | undefined,
): [string, string, Record<string, unknown>, pulumi.CustomResourceOptions] {
  const carried = carryOptions(args as Record<string, unknown>, opts ?? {});
  const inputs = withSecretInputs(carried.args, shape.secretInputs);
  const naming = shape.autonamed ? { [NAMING_KEY]: namingOf(shape.kind, name) } : {};
  return [
    dynamicType(shape.kind),
    name,
    { ...withOutputs(inputs, shape.outputs), ...naming, [PROVIDER_KEY]: providerText(shape.kind) },
    // The declared inputs the outputs carry may hold a secret (declaredInputs.ts).
    withSecretOutputs(carried.opts, [...shape.secretOutputs, INPUTS_KEY]),
  ];
}

/** Inputs every resource accepts. */
export interface CommonArgs {
  /**
   * Per-operation deadlines, e.g. `{ create: "30m", delete: "10m" }` (default 20m each); where it
   * names an operation it wins over the `customTimeouts` resource option. Never causes a diff.
   */
  timeouts?: pulumi.Input<{ create?: string; update?: string; delete?: string }>;
  /**
   * Adopt an existing resource with this id instead of creating one: it is read, recorded, then
   * converged to the declared inputs (fields set only at creation must already match). The
   * `import` resource option instead takes it only as it is, refusing any difference.
   */
  adoptId?: pulumi.Input<string>;
}
