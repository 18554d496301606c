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
/** A change is applied by a named update step (an API command such as resize or attach). */
export const step = (name: string): FixedEffect => ({ kind: "step", step: name });
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

/** The same effect for each of `fields` (a resource whose fields all change the same way). */
export function eachOf<const F extends readonly string[]>(fields: F, effect: ChangeEffect): Record<F[number], ChangeEffect> {
  return Object.fromEntries(fields.map((f) => [f, effect])) as Record<F[number], ChangeEffect>;
}

/**
 * The effect table of a definition: exactly one effect per input (the inputs type `I`, which each
 * resource file derives from its zod schema), so an input left out, or a name that is no input,
 * does not compile. `workspaceId` is left out: the lifecycle adds it (replace) to workspace-scoped
 * kinds.
 */
export type ChangeEffects<I> = { [K in Exclude<keyof I, "workspaceId"> & string]-?: ChangeEffect };
