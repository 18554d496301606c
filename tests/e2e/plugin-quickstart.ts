/**
 * The quickstart through the provider plugin, in a language other than YAML (examples/go-quickstart,
 * examples/java-quickstart): the same checks for each, declared once. Each language's test file
 * calls this with its example, so jest runs the languages in parallel, sharing nothing.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { changes, startE2E, type E2E, type E2EOptions } from "./harness";
import { expectQuickstartOutputs } from "./quickstart";

const EXAMPLES = path.join(__dirname, "..", "..", "examples");

export interface PluginQuickstart {
  /** The directory under examples/. */
  example: string;
  /** The project name in its Pulumi.yaml (the namespace of its config keys). */
  project: string;
  /** The source file (relative to the example) that declares the VPC's description. */
  source: string;
  /** The description as the example declares it, written as that language writes the string literal. */
  description: (text: string) => string;
  /** Extra setup before the first operation (e.g. compile once, so a failure reads clearly). */
  prepare?: (e2e: E2E) => Promise<void>;
  /** Parts of the declaration `pulumi import` prints for a VPC in this language, when the test checks import. */
  imported?: (name: string, range: string) => string[];
  env?: E2EOptions["env"];
  /**
   * Only up (with the checks of its result), a clean preview, and destroy: for a test of how the
   * SDK was installed (tests/e2e/release-packages.test.ts) rather than of the provider.
   */
  lifecycleOnly?: boolean;
}

export function describePluginQuickstart(q: PluginQuickstart): void {
  describe(`examples/${q.example}`, () => {
    let e2e: E2E;
    /** Edits the copied program, as a person edits the source between runs. */
    const edit = (from: string, to: string) => {
      const file = path.join(e2e.dir, q.source);
      const text = fs.readFileSync(file, "utf8");
      if (!text.includes(from)) throw new Error(`${q.source} has no ${from}`);
      fs.writeFileSync(file, text.replace(from, to));
    };

    beforeAll(async () => {
      e2e = await startE2E(q.example, { programDir: path.join(EXAMPLES, q.example), env: q.env });
      await e2e.stack.setConfig(`${q.project}:dbPassword`, { value: `${q.example}-db-pw`, secret: true });
      await q.prepare?.(e2e);
    });
    afterAll(async () => {
      await e2e?.stop();
    });

    it("comes up with the same outputs as the TypeScript quickstart, as plugin resources", async () => {
      await e2e.up([]);
      await expectQuickstartOutputs(e2e, await e2e.outputs());
      const types = new Set((await e2e.state()).map((r) => r.type));
      expect([...types].every((t) => t.startsWith("svc:index:"))).toBe(true);
      expect(types).toContain("svc:index:K3sService");
    });

    it("looks the plan up through an invoke of the plugin", async () => {
      const plans = (await e2e.emu.api.get("/v1/plans", { name: "lightning-2" })).body.items as Array<{ id: string; name: string }>;
      const planId = plans.find((p) => p.name === "lightning-2")!.id;
      for (const name of ["web-1", "web-2"]) expect(String((await e2e.outputsOf(name)).planId)).toBe(String(planId));
    });

    it("keeps the database password out of the state file", async () => {
      expect(await e2e.rawState()).not.toContain(`${q.example}-db-pw`);
    });

    it("previews no change afterwards and sends no mutating request", async () => {
      const since = await e2e.lastSeq();
      const preview = await e2e.preview();
      expect(Object.keys(preview.changeSummary)).toEqual(["same"]);
      expect(await e2e.mutations(since)).toEqual([]);
    });

    if (!q.lifecycleOnly)
      it("shows an in-place change property by property, then applies it", async () => {
        const changed = `quickstart web tier (${q.example})`;
        edit(q.description("quickstart web tier"), q.description(changed));
        const preview = await e2e.preview();
        expect(preview.stdout).toContain(`~ description: "quickstart web tier" => "${changed}"`);
        expect(preview.changeSummary).toMatchObject({ update: 1 });
        const result = await e2e.up([]);
        expect(changes(result)).toMatchObject({ update: 1 });
        expect((await e2e.emu.api.get(`/v1/vpcs/${await e2e.idOf("app-net")}`)).body.description).toBe(changed);
      });

    if (q.imported && !q.lifecycleOnly) {
      const imported = q.imported;
      it("imports a VPC made outside Pulumi with pulumi import, and prints its declaration", async () => {
        const made = (
          await e2e.emu.api.post(`/v1/workspaces/${e2e.emu.workspaceId}/vpcs`, {
            name: "made-by-hand",
            description: "imported",
            range: "10.77.0.0/16",
          })
        ).body;
        const printed = await e2e.cli(["import", "svc:index:Vpc", "by-hand", String(made.id), "--yes", "--protect=false"]);
        expect(printed).toContain("1 imported");
        for (const part of imported("by-hand", "10.77.0.0/16")) expect(printed).toContain(part);
        expect((await e2e.resource("by-hand")).id).toBe(String(made.id));
      });
    }

    it("destroys everything it made and imported", async () => {
      await e2e.destroy();
      expect((await e2e.inventoryTotal()).total).toBe(0);
    });
  });
}
