/**
 * Every input says what a change of it does, enforced by the compiler (provider/fields/changeEffects.ts
 * `ChangeEffects`): a definition whose effect table leaves out an input of its schema, or names
 * something that is no input, does not compile; nor does a definition that says nothing of its
 * pricing (metered, or not metered and why). Proved by compiling small definitions with the
 * TypeScript compiler, as a resource file is.
 */
import * as path from "node:path";
import * as ts from "typescript";

const ROOT = path.resolve(__dirname, "../../..");
const FILE = path.join(ROOT, "resources", "__effects_probe__.ts");

const NOT_METERED = 'pricing: { notMetered: "a probe" },';

interface Probe {
  /** The definition's type, after `ResourceDefinition<Inputs`. */
  typed?: string;
  /** Members written after the effect table (update steps). */
  more?: string;
  /** The api's members after create, read and delete. */
  api?: string;
}

/** The compiler's errors for a resource file whose definition has this effect table (and pricing member). */
function errorsOf(effects: string, pricing = NOT_METERED, probe: Probe = {}): string[] {
  const source = `
    import { z } from "zod";
    import { replace, updateRequest, updateSteps, type StepOf } from "../provider/fields/changeEffects";
    import type { ResourceDefinition } from "../provider/definition";
    const inputs = z.object({ name: z.string(), range: z.string(), note: z.string().optional() });
    type Inputs = z.infer<typeof inputs> & { workspaceId: string };
    const steps = updateSteps("resize", "annotate");
    export const probeDefinition: ResourceDefinition<Inputs${probe.typed ?? ""}> = {
      kind: "Probe",
      doc: "A probe kind.",
      workspaceScoped: true,
      // The probe's table is written out (it tests the table's type); a kind's comes from its fields.
      fields: {},
      inputs,
      onChange: ${effects},
      ${pricing}
      ${probe.more ?? ""}
      api: { create: async () => ({ id: "1" }), get: async () => undefined, delete: async () => null, ${probe.api ?? ""} },
    };
  `;
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    module: ts.ModuleKind.CommonJS,
    target: ts.ScriptTarget.ES2022,
    skipLibCheck: true,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists, readFile } = host;
  host.fileExists = (f) => f === FILE || fileExists.call(host, f);
  host.readFile = (f) => (f === FILE ? source : readFile.call(host, f));
  host.getSourceFile = (f, version, ...rest) => {
    if (f === FILE) return ts.createSourceFile(f, source, version);
    if (!parsed.has(f)) parsed.set(f, getSourceFile.call(host, f, version, ...rest));
    return parsed.get(f);
  };
  const program = ts.createProgram([FILE], options, host);
  // The probe's own diagnostics only: checking every file it imports, as getPreEmitDiagnostics
  // does, took about 6 s per probe.
  const file = program.getSourceFile(FILE)!;
  return [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)].map((d) =>
    ts.flattenDiagnosticMessageText(d.messageText, "\n"),
  );
}

/** The files a probe imports, parsed once for every probe. */
const parsed = new Map<string, ts.SourceFile | undefined>();

describe("a definition's effect table", () => {
  it("compiles with one effect per input (workspaceId is the lifecycle's)", () => {
    expect(errorsOf("{ name: updateRequest, range: replace, note: updateRequest }")).toEqual([]);
  });

  it("does not compile when an input has no effect", () => {
    expect(errorsOf("{ name: updateRequest, range: replace }").join("\n")).toMatch(/Property 'note' is missing/);
  });

  it("does not compile when it names something that is no input", () => {
    expect(errorsOf("{ name: updateRequest, range: replace, note: updateRequest, color: replace }").join("\n")).toMatch(
      /'color' does not exist in type/,
    );
  });

  it("does not compile when the definition says nothing of its pricing", () => {
    expect(errorsOf("{ name: updateRequest, range: replace, note: updateRequest }", "").join("\n")).toMatch(
      /Property 'pricing' is missing/,
    );
  });
});

describe("a definition's update steps (updateSteps)", () => {
  const effects = "{ name: updateRequest, range: steps.resize, note: steps.annotate }";
  const run = "async (ctx: unknown, id: string) => undefined";
  const typed = ", Record<string, unknown>, StepOf<typeof steps>";

  it("compiles with each step the fields name implemented, in the declared order", () => {
    expect(
      errorsOf(effects, NOT_METERED, { typed, more: "steps: steps.order,", api: `update: { resize: ${run}, annotate: ${run} }` }),
    ).toEqual([]);
  });

  it("does not compile when a step is not implemented", () => {
    expect(errorsOf(effects, NOT_METERED, { typed, more: "steps: steps.order,", api: `update: { resize: ${run} }` }).join("\n")).toMatch(
      /Property 'annotate' is missing/,
    );
  });

  it("does not compile when an implementation names no declared step", () => {
    const api = `update: { resize: ${run}, annotate: ${run}, attach: ${run} }`;
    expect(errorsOf(effects, NOT_METERED, { typed, more: "steps: steps.order,", api }).join("\n")).toMatch(/'attach' does not exist/);
  });

  it("does not compile when the definition's type leaves out the steps it declares", () => {
    expect(
      errorsOf(effects, NOT_METERED, { more: "steps: steps.order,", api: `update: { resize: ${run}, annotate: ${run} }` }).join("\n"),
    ).toMatch(/is not assignable to type 'never'/);
  });
});
