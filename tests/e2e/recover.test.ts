/**
 * A CI job killed mid-`pulumi up` (SIGKILL to the process group) strands nothing: one
 * `svc-recover` and one `pulumi up` bring the quickstart to a state that equals the API's
 * inventory (no orphan, no duplicate, nothing missing); a killed `pulumi destroy` leaves no
 * provider process behind, and the next one leaves nothing.
 * Both faces: the TypeScript quickstart (dynamic resources) and the YAML one (the plugin).
 *
 * Kill points come from the emulator's request log, with workflows slowed so that what was
 * accepted is still in flight at the kill: right after the first create is accepted, during the
 * k3s cluster's create (answered only with a workflow), midway (both instances accepted), and
 * during the replacement of the service, whose unique name makes pulumi delete it first.
 *
 * A smoke entry of the version matrix (scripts/matrix.js) runs one killed up and the killed destroy
 * per face: what changes with Node.js and the CLI is how a killed run leaves its state and its
 * processes, which svc-recover reads. Where a kill lands is the provider's own logic, the same on
 * every version, and the entry that runs the whole suite proves each kill point.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { wholeSuite } from "../support/matrixEntry";
import { startE2E, type E2E } from "./harness";
import { accepted, expectAllGone, expectStateMatchesInventory, killedRun, killedUp, pendingOf, svcRecover } from "./kill";

jest.setTimeout(600_000);

const EXAMPLES = path.join(__dirname, "..", "..", "examples");

const FACES = [
  {
    face: "dynamic",
    example: "quickstart",
    program: "index.ts",
    project: "svc-quickstart",
    spread: 'mode: "SPREAD"',
    pinned: 'mode: "PINNED"',
  },
  {
    face: "plugin",
    example: "yaml-quickstart",
    program: "Pulumi.yaml",
    project: "svc-yaml-quickstart",
    spread: "mode: SPREAD",
    pinned: "mode: PINNED",
  },
];

describe.each(FACES)("a killed pulumi up of the quickstart, $face face", ({ face, example, program, project, spread, pinned }) => {
  let e2e: E2E;
  /** Edits the copied program, as a person edits it between runs. */
  const edit = (from: string, to: string) => {
    const file = path.join(e2e.dir, program);
    fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace(from, to));
  };
  /** svc-recover, then one pulumi up: the state equals the inventory. */
  const recoverAndUp = async () => {
    const recovered = await svcRecover(e2e);
    expect(recovered.output).toMatch(/is ready for pulumi up/);
    expect(recovered.code).toBe(0);
    expect(await pendingOf(e2e)).toEqual([]);
    await e2e.up([]);
    await expectStateMatchesInventory(e2e);
    return recovered.output;
  };

  beforeAll(async () => {
    e2e = await startE2E(`recover-${face}`, { programDir: path.join(EXAMPLES, example) });
    await e2e.stack.setConfig(`${project}:dbPassword`, { value: "recover-db-pw", secret: true });
  });
  afterAll(async () => {
    await e2e?.stop();
  });

  it("right after the first create is accepted", async () => {
    const killed = await killedUp(e2e, (rs) => rs.some(accepted("POST", /^\/v1\//)));
    expect(killed.filter((r) => r.method !== "GET").length).toBeGreaterThan(0);
    await recoverAndUp();
  });

  if (wholeSuite) {
    it("during the replacement of the service, which keeps its unique name (deleted first)", async () => {
      const before = await expectStateMatchesInventory(e2e);
      edit(spread, pinned);
      // The old service is deleted first (same name); once its delete is accepted, the API's clock
      // moves on so that the delete ends, and the kill comes when the new service's create is accepted.
      let deleted = false;
      await killedUp(e2e, async (rs) => {
        if (!deleted && rs.some(accepted("DELETE", /\/k3s\/services\//)))
          deleted = (await e2e.emu.control.post("/_emulator/clock", { advanceMs: 600_000 })).status === 200;
        return rs.some(accepted("POST", /\/k3s\/services$/));
      });
      expect(await pendingOf(e2e)).toContain("creating web");
      const output = await recoverAndUp();
      expect(output).toMatch(/creating web: made \d+: recorded/);
      const after = await expectStateMatchesInventory(e2e);
      expect(after.K3sService).not.toEqual(before.K3sService);
      await e2e.destroy();
      await expectAllGone(e2e);
    });

    it("during the k3s cluster's create (its answer is only a workflow)", async () => {
      await killedUp(e2e, (rs) => rs.some(accepted("POST", /\/k3s$/)));
      expect(await pendingOf(e2e)).toContain("creating cluster");
      const output = await recoverAndUp();
      expect(output).toMatch(/creating cluster: made \d+: recorded/);
      await e2e.destroy();
      await expectAllGone(e2e);
    });

    it("midway, with both instances' creates accepted", async () => {
      await killedUp(e2e, (rs) => rs.filter(accepted("POST", /\/instances$/)).length >= 2);
      expect(await pendingOf(e2e)).toEqual(expect.arrayContaining(["creating web-1", "creating web-2"]));
      await recoverAndUp();
    });
  }

  it("a killed pulumi destroy: the provider hosts leave on their own, and the next destroy finishes", async () => {
    await killedRun(e2e, "destroy", (rs) => rs.some(accepted("DELETE", /^\/v1\//)));
    expect(await pendingOf(e2e)).toEqual(expect.arrayContaining([expect.stringMatching(/^deleting /)]));
    const recovered = await svcRecover(e2e);
    expect(recovered.code).toBe(0);
    await e2e.destroy();
    await expectAllGone(e2e);
  });
});
