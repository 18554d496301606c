/**
 * Every input says what a change of it does, enforced by the compiler (provider/changeEffects.ts
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

/** The compiler's errors for a resource file whose definition has this effect table (and pricing member). */
function errorsOf(effects: string, pricing = NOT_METERED): string[] {
  const source = `
    import { z } from "zod";
    import { replace, updateRequest } from "../provider/changeEffects";
    import type { ResourceDefinition } from "../provider/definition";
    const inputs = z.object({ name: z.string(), range: z.string(), note: z.string().optional() });
    type Inputs = z.infer<typeof inputs> & { workspaceId: string };
    export const probeDefinition: ResourceDefinition<Inputs> = {
      kind: "Probe",
      doc: "A probe kind.",
      workspaceScoped: true,
      // The probe's table is written out (it tests the table's type); a kind's comes from its fields.
      fields: {},
      inputs,
      onChange: ${effects},
      ${pricing}
      api: { create: async () => ({ id: "1" }), read: async () => undefined, delete: async () => null },
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
  host.getSourceFile = (f, version, ...rest) =>
    f === FILE ? ts.createSourceFile(f, source, version) : getSourceFile.call(host, f, version, ...rest);
  const program = ts.createProgram([FILE], options, host);
  return ts
    .getPreEmitDiagnostics(program)
    .filter((d) => d.file?.fileName === FILE)
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
}

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
