/**
 * The compiled spec (provider/lifecycle/compile.ts): the inputs and policies the lifecycle adds to
 * every spec, the tables the operations read, and the relaxed schemas built once per set of
 * unknown fields. The operations' behaviour over these tables is in lifecycle.test.ts.
 */
import { z } from "zod";
import { fieldSet, fromFields, input } from "../../../provider/fields/declare";
import { compile, OPTIONS_KEY, schemaRelaxing } from "../../../provider/lifecycle/compile";
import { type Outputs, type ResourceDefinition } from "../../../provider/definition";
import { ignore, remember, replace, updateSteps } from "../../../provider/fields/changeEffects";

const steps = updateSteps("resize", "annotate");

const widgetFields = fieldSet({
  name: input(z.string(), { doc: "Name.", onChange: replace }),
  size: input(z.number(), { doc: "Size.", onChange: steps.resize }),
  note: input(z.string().optional(), { doc: "Note.", onChange: steps.annotate }),
  deletion: input(z.string().optional(), { doc: "How delete deletes.", onChange: remember }),
});

const definition = (
  extra: Partial<ResourceDefinition<Record<string, unknown>, Outputs, string>> = {},
): ResourceDefinition<Record<string, unknown>, Outputs, string> => ({
  kind: "Widget",
  doc: "A test kind.",
  ...fromFields(widgetFields),
  pricing: { notMetered: "a test kind" },
  api: { create: async () => ({ id: "1" }), get: async () => undefined, delete: async () => null },
  ...extra,
});

describe("compile", () => {
  it("adds timeouts and adoptId to every spec, ignored by diff and never declarable", () => {
    const c = compile(definition());
    expect(Object.keys(c.shape)).toEqual(["name", "size", "note", "deletion", "timeouts", "adoptId"]);
    expect(c.onChange.timeouts).toEqual(ignore);
    expect(c.onChange.adoptId).toEqual(ignore);
    expect(c.managed).toEqual(["name", "size", "note", "deletion"]);
    expect(c.declarable).toEqual(["name", "size", "note", "deletion"]);
    expect(c.remembered).toEqual(["deletion"]);
  });

  it("validates the resource options beside the inputs, last, and never as an input", () => {
    const c = compile(definition({ adoptIdPattern: /^w-\d+$/ }));
    expect(Object.keys(c.strict.shape)).toEqual([...Object.keys(c.shape), OPTIONS_KEY]);
    expect(c.onChange[OPTIONS_KEY]).toBeUndefined();
    expect(c.strict.safeParse({ name: "a", size: 1, [OPTIONS_KEY]: { import: "w-7", ignoreChanges: ["note"] } }).success).toBe(true);
    expect(c.strict.safeParse({ name: "a", size: 1, [OPTIONS_KEY]: { import: "7" } }).success).toBe(false);
  });

  it("adds workspaceId (replaces on change) to a workspace-scoped spec", () => {
    const c = compile(definition({ workspaceScoped: true }));
    expect(c.onChange.workspaceId).toEqual(replace);
    expect(c.managed).toContain("workspaceId");
    expect(c.declarable).toContain("workspaceId");
    expect(compile(definition()).onChange.workspaceId).toBeUndefined();
  });

  it("runs the update request, then the steps in their declared order, else as the effects name them", () => {
    expect(compile(definition()).updateOrder).toEqual(["updateRequest", "resize", "annotate"]);
    expect(compile(definition({ steps: ["annotate", "resize"] })).updateOrder).toEqual(["updateRequest", "annotate", "resize"]);
  });

  it("builds a relaxed schema once per set of unknown fields", () => {
    const c = compile(definition());
    expect(schemaRelaxing(c, [])).toBe(c.strict);
    const relaxed = schemaRelaxing(c, ["name"]);
    expect(schemaRelaxing(c, ["name"])).toBe(relaxed);
    expect(relaxed.safeParse({ size: 1 }).success).toBe(true);
    expect(c.strict.safeParse({ size: 1 }).success).toBe(false);
    expect(relaxed.safeParse({ size: 1, colour: "red" }).success).toBe(false);
  });

  it("checks adoptId against the kind's pattern (default: digits)", () => {
    expect(compile(definition()).strict.safeParse({ name: "a", size: 1, adoptId: "7:9" }).success).toBe(false);
    const synthetic = compile(definition({ adoptIdPattern: /^\d+:\d+$/ }));
    expect(synthetic.strict.safeParse({ name: "a", size: 1, adoptId: "7:9" }).success).toBe(true);
  });
});
