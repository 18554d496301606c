/**
 * A resource definition compiled once, when its lifecycle is built: every input with its schema and its
 * policy (the spec's own, `workspaceId` where workspace-scoped, and the common `timeouts` and
 * `adoptId`), the inputs a diff compares, the order of update steps, and the schema check
 * validates the inputs and the resource options with. The operations read these tables; none of
 * them rebuilds one per call.
 */
import { z } from "../fields/zod";
import type { Outputs, ResourceDefinition } from "../definition";
import { outputNamesOf } from "../fields/declare";
import { parseDuration } from "../fields/timeouts";
import { optionsSchema } from "./options";
import type { Props } from "./types";
import type { ChangeEffect } from "../fields/changeEffects";

/** Inputs every resource gets from the lifecycle, with their change effects. */
const COMMON_EFFECTS: Record<string, ChangeEffect> = {
  timeouts: { kind: "ignore" },
  adoptId: { kind: "ignore" },
};

/**
 * The member under which check validates the resource options, in the same strict schema as the
 * inputs and after them, so that one parse reports every problem in one order (an option's before
 * an unknown input's). Not an identifier: never an input's name, and never recorded as one.
 */
export const OPTIONS_KEY = "(options)";

const zDuration = z.string().superRefine((v, ctx) => {
  const ms = parseDuration(v);
  if (typeof ms === "string") ctx.addIssue({ code: "custom", message: ms });
});

const commonInputs = (adoptIdPattern: RegExp) => ({
  timeouts: z.object({ create: zDuration.optional(), update: zDuration.optional(), delete: zDuration.optional() }).strict().optional(),
  adoptId: z.string().regex(adoptIdPattern, "must be the id of an existing resource of this kind").optional(),
});

const workspaceInput = { workspaceId: z.string().regex(/^\d+$/, "must be a workspace id (digits)") };

const strictSchema = (shape: z.ZodRawShape) => z.object(shape).strict();

export interface CompiledDefinition<I extends Props = Props, O extends Outputs = Outputs> {
  readonly definition: ResourceDefinition<I, O, string>;
  /** Every input's schema, the added ones included. */
  readonly shape: z.ZodRawShape;
  /** Every input's effect, the added ones included. */
  readonly onChange: Record<string, ChangeEffect>;
  /** The inputs a diff compares: every one whose effect is not `ignore`. */
  readonly managed: string[];
  /** The inputs recorded with the outputs because delete needs them (`remember`). */
  readonly remembered: string[];
  /** The inputs a person declares: all but the common ones. */
  readonly declarable: string[];
  /** The declarable inputs the API reports back (an output from its answer, not kept from state). */
  readonly reported: string[];
  /** The order update steps run in: "updateRequest", then the definition's steps in their declared order. */
  readonly updateOrder: string[];
  /** Every input and the resource options (under `OPTIONS_KEY`), no other key. */
  readonly strict: ReturnType<typeof strictSchema>;
  /**
   * The strict schema with each set of fields relaxed because they are unknown until up, built on
   * first use (`schemaRelaxing`): building a zod object costs more than validating with it.
   */
  readonly relaxed: Map<string, z.ZodType<Props>>;
}

export function compile<I extends Props, O extends Outputs>(definition: ResourceDefinition<I, O, string>): CompiledDefinition<I, O> {
  const idPattern = definition.adoptIdPattern ?? /^\d+$/;
  const shape = {
    ...definition.inputs.shape,
    ...(definition.workspaceScoped ? workspaceInput : {}),
    ...commonInputs(idPattern),
  };
  const onChange: Record<string, ChangeEffect> = {
    ...definition.onChange,
    ...(definition.workspaceScoped ? { workspaceId: { kind: "replace" } as ChangeEffect } : {}),
    ...COMMON_EFFECTS,
  };
  // The declared order; without one, the steps as the effects name them (none is ever left out).
  const named = Object.values(definition.onChange).flatMap((e) => (e.kind === "step" ? [e.step] : []));
  const steps = [...new Set([...(definition.steps ?? []), ...named])];
  return {
    definition,
    shape,
    onChange,
    managed: Object.keys(onChange).filter((f) => onChange[f].kind !== "ignore"),
    remembered: Object.keys(onChange).filter((f) => onChange[f].kind === "remember"),
    declarable: Object.keys(shape).filter((k) => !(k in COMMON_EFFECTS)),
    reported: outputNamesOf(definition.fields).filter((k) => k in shape && !(definition.keepFromState ?? []).includes(k)),
    updateOrder: ["updateRequest", ...steps],
    strict: strictSchema({ ...shape, [OPTIONS_KEY]: optionsSchema(idPattern) }),
    relaxed: new Map(),
  };
}

/** What an input's schema makes of it left out: refused (required), a default value, or nothing (optional). */
export function leftOut<I extends Props, O extends Outputs>(
  c: CompiledDefinition<I, O>,
  field: string,
): { kind: "required" } | { kind: "defaulted"; value: unknown } | { kind: "optional" } {
  const schema = c.shape[field];
  if (!schema) return { kind: "optional" };
  const parsed = z.safeParse(schema, undefined);
  if (!parsed.success) return { kind: "required" };
  return parsed.data === undefined ? { kind: "optional" } : { kind: "defaulted", value: parsed.data };
}

/** The strict schema with `fields` optional (built on first use, then cached). */
export function schemaRelaxing<I extends Props, O extends Outputs>(c: CompiledDefinition<I, O>, fields: string[]): z.ZodType<Props> {
  if (!fields.length) return c.strict;
  const key = fields.join(",");
  let schema = c.relaxed.get(key);
  if (!schema)
    c.relaxed.set(key, (schema = c.strict.partial(Object.fromEntries(fields.map((k) => [k, true as const])) as Record<string, never>)));
  return schema;
}
