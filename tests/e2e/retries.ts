/**
 * An `onError` hook's retries on the plugin face (issue 39), declared once and run per language
 * by its own test file (jest runs them in parallel): programs in Go and Python register hooks with
 * the engine's monitor directly, so an SDK new enough for them works through the 3.163 language
 * hosts. The program declares a Disk `data` with an `onError` hook allowing three tries, and a
 * Disk `slow` (config `slow`) whose create deadline (1s) ends before its workflow does; config
 * `changed` grows data (a resize workflow) and renames slow. Both carry beforeCreate, afterCreate,
 * afterUpdate and afterDelete hooks that append a line to hooks.log, the hooks' evidence: the
 * same stack, so the hooks cost no up of their own.
 *
 * What the engine sends (pkg/v3 resource/deploy/step.go, CreateStep.Apply): a create that failed
 * without an id is sent again as a Create with the same inputs; one that failed with an id (a
 * partial failure: the resource kept) is retried as an Update of that id with its recorded
 * outputs, which cannot change the id. So a FAILED object is deleted before its create fails
 * (provider/lifecycle/afterFailure.ts), and one still moving is kept and finished by the Update.
 * A failed update is retried as an Update of the same id with the outputs recorded before it
 * (UpdateStep.Apply): what its workflow left FAILED no retry can mend, so the next up replaces it.
 */
import { changes, startE2E, type E2E, type E2EOptions } from "./harness";
import { expectStateMatchesInventory } from "./inventory";
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
    const disks = async () =>
      ((await e2e.inventoryTotal()).resources.disks ?? []) as Array<{ id: string; name: string; state: string; size: number }>;
    /** The lines the program's resource hooks appended to hooks.log since the last call ("<hook> <resource>"), sorted. */
    let hooksSeen = 0;
    const hooksRun = () => {
      const file = path.join(e2e.dir, "hooks.log");
      const lines = fs.existsSync(file) ? fs.readFileSync(file, "utf8").split("\n").filter(Boolean) : [];
      const fresh = lines.slice(hooksSeen);
      hooksSeen = lines.length;
      return fresh.sort();
    };

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
      // beforeCreate runs once before the tries, afterCreate once after the one that succeeded.
      expect(hooksRun()).toEqual(["afterCreate data", "beforeCreate data"]);
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
      expect(hooksRun()).toEqual(["afterCreate slow", "beforeCreate slow"]);
    });

    it("an update whose workflow failed once leaves a FAILED disk no retry can repair (an Update keeps the id); the next up replaces it", async () => {
      await fault({ kind: "workflow", outcome: "FAILED", method: "POST", path: "/v1/disks/*/resize", times: 1 });
      await e2e.stack.setConfig("changed", { value: "true" });
      const [data, slow] = [await e2e.idOf("data"), await e2e.idOf("slow")];
      const since = await e2e.lastSeq();
      // continueOnError: slow's rename (no workflow) is done whatever data's resize meets.
      const message = await e2e.upFails([], { continueOnError: true });
      expect(message).toContain("retrying update due to on-error hook request (2/");
      // The retries are sent with the outputs recorded before the update (AVAILABLE), and the API refuses a FAILED disk's resize.
      expect(message).toContain(
        `POST /v1/disks/${data}/resize answered 409 Conflict: Disk is FAILED; it must be AVAILABLE to resize it. ` +
          `The Disk (id ${data}) is FAILED, which no update can repair: an update keeps the id, so calling it again ` +
          `(an onError hook's retry) meets the same FAILED Disk; the next pulumi up replaces it.`,
      );
      const mutations = (await e2e.mutations(since)).map((r) => `${r.method} ${r.path} ${r.status}`).sort();
      const resize = `POST /v1/disks/${data}/resize`;
      expect(mutations).toEqual([`PATCH /v1/disks/${slow} 200`, `${resize} 202`, `${resize} 409`, `${resize} 409`]);
      expect((await disks()).find((d) => String(d.id) === data)?.state).toBe("FAILED");
      expect((await e2e.outputsOf("data")).state).toBe("FAILED");
      await expectStateMatchesInventory(e2e);
      expect(hooksRun()).toEqual(["afterUpdate slow"]);

      expect(changes(await e2e.up([]))).toEqual({ replace: 1, same: 2 });
      const replaced = await e2e.idOf("data");
      expect(replaced).not.toBe(data);
      expect((await e2e.emu.api.get(`/v1/disks/${replaced}`)).body).toMatchObject({ state: "AVAILABLE", size: 2 * 1024 ** 3 });
      expect((await disks()).map((d) => [String(d.id), d.name, d.state]).sort()).toEqual(
        [
          [replaced, "retried-data", "AVAILABLE"],
          [slow, "retried-slow-renamed", "AVAILABLE"],
        ].sort(),
      );
      await expectStateMatchesInventory(e2e);
      // The replacement is created, then the FAILED disk deleted: each with its hooks.
      expect(hooksRun()).toEqual(["afterCreate data", "afterDelete data", "beforeCreate data"]);
    });

    it("destroys everything, running the program: afterDelete runs for each disk", async () => {
      await e2e.destroy({ runProgram: true });
      expect((await e2e.inventoryTotal()).total).toBe(0);
      expect(hooksRun()).toEqual(["afterDelete data", "afterDelete slow"]);
    });
  });
}
