/**
 * An `onError` hook's retries on the plugin face (issue 39), declared once and run per language
 * by its own test file (jest runs them in parallel): programs in Go and Python register hooks with
 * the engine's monitor directly, so an SDK new enough for them works through the 3.163 language
 * hosts. The program declares a Disk `data` with an `onError` hook allowing three tries, and a
 * Disk `slow` (config `slow`) whose create deadline (1s) ends before its workflow does.
 *
 * What the engine sends (pkg/v3 resource/deploy/step.go, CreateStep.Apply): a create that failed
 * without an id is sent again as a Create with the same inputs; one that failed with an id (a
 * partial failure: the resource kept) is retried as an Update of that id with its recorded
 * outputs, which cannot change the id. So a FAILED object is deleted before its create fails
 * (provider/lifecycle/afterFailure.ts), and one still moving is kept and finished by the Update.
 */
import { changes, startE2E, type E2E, type E2EOptions } from "./harness";
import { PACKAGE_DIR } from "./harness";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

export interface RetryLanguage {
  name: string;
  /** Writes the project (Pulumi.yaml, the program, what it needs) into `dir`; extra options for the harness. */
  project(dir: string, plugin: string): E2EOptions | Promise<E2EOptions>;
}

export function describeRetries(lang: RetryLanguage): void {
  describe(`an onError hook's retries converge (${lang.name} on the plugin face)`, () => {
    let e2e: E2E;
    let work: string;
    const fault = async (rule: Record<string, unknown>) => expect((await e2e.emu.control.post("/_emulator/faults", rule)).status).toBe(201);
    const disks = async () => ((await e2e.inventoryTotal()).resources.disks ?? []) as Array<{ id: string; name: string; state: string }>;

    beforeAll(async () => {
      work = fs.mkdtempSync(path.join(os.tmpdir(), `svc-retries-${lang.name.toLowerCase()}-`));
      const programDir = path.join(work, "project");
      fs.mkdirSync(programDir);
      const options = await lang.project(programDir, path.join(PACKAGE_DIR, "bin"));
      e2e = await startE2E(`retries-${lang.name.toLowerCase()}`, { ...options, programDir });
    });
    afterEach(async () => {
      await e2e.emu.control.delete("/_emulator/faults");
    });
    afterAll(async () => {
      await e2e?.stop();
      fs.rmSync(work, { recursive: true, force: true });
    });

    it("a create whose workflow failed once: the retry's Create makes one AVAILABLE disk, the FAILED one deleted", async () => {
      await fault({ kind: "workflow", outcome: "FAILED", method: "POST", path: "/v1/workspaces/*/disks", times: 1 });
      const since = await e2e.lastSeq();
      const result = await e2e.up([]);
      expect(changes(result)).toEqual({ create: 2 }); // the stack and the disk
      expect(e2e.output()).toContain("retrying create due to on-error hook request (1/");
      const mutations = (await e2e.mutations(since)).map((r) => `${r.method} ${r.path.replace(/\/\d+/g, "/<id>")}`);
      expect(mutations).toEqual(["POST /v1/workspaces/<id>/disks", "DELETE /v1/disks/<id>", "POST /v1/workspaces/<id>/disks"]);
      const id = await e2e.idOf("data");
      expect(await disks()).toEqual([expect.objectContaining({ id, name: "retried-data", state: "AVAILABLE" })]);
      expect((await e2e.outputsOf("data")).state).toBe("AVAILABLE");
      expect(Object.keys((await e2e.preview()).changeSummary)).toEqual(["same"]);
    });

    it("a create past its deadline is kept with its id: the retry is an Update of that id, which finishes it", async () => {
      await e2e.stack.setConfig("slow", { value: "true" });
      await e2e.emu.control.post("/_emulator/settings", { workflowMs: 3000 });
      const since = await e2e.lastSeq();
      const printed = e2e.output().length;
      const result = await e2e.up([]);
      await e2e.emu.control.post("/_emulator/settings", { workflowMs: 30 });
      const output = e2e.output().slice(printed);
      expect(changes(result)).toEqual({ create: 1, same: 2 }); // the stack and data the same
      // The first try's error goes to the hook only; the notice is the Update's, on the id the first try kept.
      expect(output).toContain("retrying create due to on-error hook request (1/");
      expect(output).toContain('Disk "retried-slow": waiting for the previous operation to finish');
      const posts = (await e2e.mutations(since)).filter((r) => r.method === "POST");
      expect(posts).toHaveLength(1);
      const slow = await e2e.idOf("slow");
      expect((await disks()).map((d) => [String(d.id), d.state]).sort()).toEqual(
        [
          [await e2e.idOf("data"), "AVAILABLE"],
          [slow, "AVAILABLE"],
        ].sort(),
      );
      expect((await e2e.outputsOf("slow")).state).toBe("AVAILABLE");
    });

    it("destroys everything", async () => {
      await e2e.destroy();
      expect((await e2e.inventoryTotal()).total).toBe(0);
    });
  });
}
