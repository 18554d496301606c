export type ChangeEffect =
  | { kind: "replace" }
  | { kind: "updateRequest" }
  | { kind: "step"; step: string }
  | { kind: "ignore" }
  | { kind: "remember" }
  | { kind: "depends"; decide(old: unknown, next: unknown): Exclude<ChangeEffect, { kind: "depends" }> };

/** An effect that applies to every change of the field. */
export type FixedEffect = Exclude<ChangeEffect, { kind: "depends" }>;

/** A change recreates the resource. */
export const replace: FixedEffect = { kind: "replace" };
/**
 * A change is sent in the resource's update request: a PATCH of the changed fields, or a PUT of
 * the full desired state where that is the API's update (a k3s service). The request is the
 * definition's `api.update.updateRequest` step.
 */
export const updateRequest: FixedEffect = { kind: "updateRequest" };
/** A change is applied by a named update step (an API command such as resize or attach): see `updateSteps`. */
const step = <const N extends string>(name: N) => ({ kind: "step", step: name }) as const;

/**
 * A kind's named update steps, declared once in the order they run after the update request:
 * each field whose change one applies takes it as its effect (`onChange: steps.resize`), and the
 * definition, typed `ResourceDefinition<I, O, StepOf<typeof steps>>`, implements each under its
 * name (`api.update`) and runs them in this order (`steps: steps.order`). A step named by no
 * implementation, or an implementation of no step, does not compile.
 */
export function updateSteps<const N extends string>(...names: N[]): { readonly order: readonly N[] } & { readonly [K in N]: FixedEffect } {
  return Object.assign(Object.fromEntries(names.map((n) => [n, step(n)])), { order: names }) as never;
}

/** The step names a kind declares with `updateSteps`. */
export type StepOf<S extends { order: readonly string[] }> = S["order"][number];
/** Client-side only (timeouts, adoptId): never causes a diff. */
export const ignore: FixedEffect = { kind: "ignore" };
/**
 * Client-side setting that destroy needs (how to delete): a change is an in-place update that
 * calls no API and only records the value, because delete sees nothing but recorded outputs.
 */
export const remember: FixedEffect = { kind: "remember" };

/**
 * The effect depends on how the value changes (a boot disk that only grows is upgraded in
 * place; any other storage change recreates the instance).
 */
export const depends = (decide: (old: unknown, next: unknown) => FixedEffect): ChangeEffect => ({ kind: "depends", decide });

/**
 * The effect table of a definition: exactly one effect per input (the inputs type `I`, which each
 * resource file derives from its zod schema), so an input left out, or a name that is no input,
 * does not compile. `workspaceId` is left out: the lifecycle adds it (replace) to workspace-scoped
 * kinds.
 */
export type ChangeEffects<I> = { [K in Exclude<keyof I, "workspaceId"> & string]-?: ChangeEffect };
