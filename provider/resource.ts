/**
 * Helpers for the exported resource classes: every class is a `pulumi.dynamic.Resource` whose
 * provider is the tiny shim, whose outputs are registered by name, and whose secret outputs are
 * marked through `additionalSecretOutputs`.
 */
import type * as pulumi from "@pulumi/pulumi";
import { makeShim } from "./shim";

const shims = new Map<string, pulumi.dynamic.ResourceProvider>();

/** One shim object per kind, so Pulumi serializes it once per program. */
export function shimFor(kind: string): pulumi.dynamic.ResourceProvider {
  let shim = shims.get(kind);
  if (!shim) shims.set(kind, (shim = makeShim(kind)));
  return shim;
}

/** The former name, until every resources/*.ts calls `shimFor` (issue 19: a name means one thing). */
export const providerFor = shimFor;

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
export function withOutputs(args: object, outputNames: readonly string[]): Record<string, unknown> {
  const props: Record<string, unknown> = {};
  for (const name of outputNames) props[name] = undefined;
  return { ...props, ...(args as Record<string, unknown>) };
}

/** Resource options with the kind's secret outputs marked. */
export function withSecretOutputs(
  opts: pulumi.CustomResourceOptions | undefined,
  secretOutputs: readonly string[],
): pulumi.CustomResourceOptions {
  if (!secretOutputs.length) return opts ?? {};
  return { ...opts, additionalSecretOutputs: [...new Set([...(opts?.additionalSecretOutputs ?? []), ...secretOutputs])] };
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

/** Inputs of workspace-scoped resources. */
export interface WorkspaceArgs extends CommonArgs {
  /** Owning workspace; defaults to svc:workspaceId / SVC_WORKSPACE_ID. Changing it replaces the resource. */
  workspaceId?: pulumi.Input<string>;
}

export const MODULE = "svc";
