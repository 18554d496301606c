/**
 * Helpers for the exported resource classes: every class is a `pulumi.dynamic.Resource` whose
 * provider is the tiny shim, whose outputs are registered by name, and whose secret outputs are
 * marked through `additionalSecretOutputs`. All of it comes from the kind's spec (`superArgs`), so
 * a class names neither its kind nor its secrets again.
 */
import type * as pulumi from "@pulumi/pulumi";
import { makeShim } from "./shim";

const shims = new Map<string, pulumi.dynamic.ResourceProvider>();

/** One shim object per kind, so Pulumi serializes it once per program. */
function shimFor(kind: string): pulumi.dynamic.ResourceProvider {
  let shim = shims.get(kind);
  if (!shim) shims.set(kind, (shim = makeShim(kind)));
  return shim;
}

/** The declared fields of an outputs interface (its `Record<string, unknown>` index left out). */
export type OutputFields<O> = keyof { [K in keyof O as string extends K ? never : K]: O[K] } & string;

/**
 * The class's typed properties, one `Output` per field of the resource's outputs interface (with
 * its TSDoc): merged into each class (`export interface Vpc extends OutputProperties<VpcOutputs> {}`)
 * so a field declared once in the outputs interface is readable from TypeScript.
 */
export type OutputProperties<O> = { readonly [K in keyof O as string extends K ? never : K]-?: pulumi.Output<O[K]> };

/**
 * The output names a class registers, checked at compile time to be exactly the fields of its
 * outputs interface: a field missing from the list, or a name that is no field, fails to compile.
 */
export const outputNames =
  <O>() =>
  <const N extends readonly OutputFields<O>[]>(
    names: N & ([Exclude<OutputFields<O>, N[number]>] extends [never] ? unknown : { missing: Exclude<OutputFields<O>, N[number]> }),
  ): N =>
    names;

/** Inputs plus every output name (as undefined), so the SDK creates an Output for each. */
function withOutputs(args: object, outputNames: readonly string[]): Record<string, unknown> {
  const props: Record<string, unknown> = {};
  for (const name of outputNames) props[name] = undefined;
  return { ...props, ...(args as Record<string, unknown>) };
}

/** Resource options with the kind's secret outputs marked. */
function withSecretOutputs(opts: pulumi.CustomResourceOptions | undefined, secretOutputs: readonly string[]): pulumi.CustomResourceOptions {
  if (!secretOutputs.length) return opts ?? {};
  return { ...opts, additionalSecretOutputs: [...new Set([...(opts?.additionalSecretOutputs ?? []), ...secretOutputs])] };
}

const MODULE = "svc";

/**
 * The arguments of a resource class's `super` call (`pulumi.dynamic.Resource`), all from its
 * spec: the shim of the spec's kind, the inputs with every output name registered, the spec's
 * `secretOutputs` marked secret, and the type token `pulumi-nodejs:dynamic/svc:<kind>`.
 *
 *   super(...superArgs(vpcSpec, name, args, OUTPUTS, opts));
 *
 * @internal
 */
export function superArgs(
  // The members of a ResourceSpec it reads, written out so the published declarations never
  // reach provider/spec.ts (and zod).
  spec: { kind: string; secretOutputs?: readonly string[] },
  name: string,
  args: object,
  outputNames: readonly string[],
  opts: pulumi.CustomResourceOptions | undefined,
): [pulumi.dynamic.ResourceProvider, string, Record<string, unknown>, pulumi.CustomResourceOptions, string, string] {
  return [shimFor(spec.kind), name, withOutputs(args, outputNames), withSecretOutputs(opts, spec.secretOutputs ?? []), MODULE, spec.kind];
}

/** Inputs every resource accepts. */
export interface CommonArgs {
  /**
   * Per-operation deadlines, e.g. `{ create: "30m", delete: "10m" }` (default 20m each).
   * Never causes a diff.
   */
  timeouts?: pulumi.Input<{ create?: string; update?: string; delete?: string }>;
  /**
   * Adopt an existing resource with this id instead of creating one: it is read, recorded, then
   * converged to the declared inputs. (The engine's `import` option cannot reach a dynamic
   * provider; this is the supported way to bring an existing resource under a stack.)
   */
  adoptId?: pulumi.Input<string>;
}

/** Inputs of workspace-scoped resources (not the `WorkspaceArgs` of a Workspace resource). */
export interface WorkspaceScopedArgs extends CommonArgs {
  /** Owning workspace; defaults to svc:workspaceId / SVC_WORKSPACE_ID. Changing it replaces the resource. */
  workspaceId?: pulumi.Input<string>;
}
