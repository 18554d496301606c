/**
 * The quickstart program (examples/quickstart, what the top-level Pulumi.yaml runs), as a user
 * would run it: TypeScript through the real CLI, against the emulator. On an SDK whose
 * dynamic-provider host drops read's inputs (before 3.216: the floor), what a refresh then shows of
 * drift, exactly; from 3.216 on, conformance.ts's refresh case proves the preview per property.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { startE2E, type E2E } from "./harness";
import { expectQuickstartOutputs } from "./quickstart";
import { versionAtLeast } from "../support/pulumiCli";

/** The @pulumi/pulumi the program runs on: the matrix entry's (scripts/test.js), else this checkout's. */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a JSON file, read once
const SDK = process.env.SVC_PACKAGE_SDK ?? (require("@pulumi/pulumi/package.json") as { version: string }).version;

jest.setTimeout(600_000);

describe("examples/quickstart", () => {
  let e2e: E2E;
  beforeAll(async () => {
    e2e = await startE2E("quickstart", { programDir: path.join(__dirname, "..", "..", "examples", "quickstart") });
    await e2e.stack.setConfig("svc-quickstart:dbPassword", { value: "quickstart-db-pw", secret: true });
  });
  afterAll(async () => {
    await e2e?.stop();
  });

  it("comes up with the outputs people care about, matching the API", async () => {
    await e2e.up([]);
    await expectQuickstartOutputs(e2e, await e2e.outputs());
  });

  it("keeps its state in a DIY backend of the project layout (the legacy layout is refused since pulumi 3.257)", () => {
    const backend = fileURLToPath(e2e.env.PULUMI_BACKEND_URL);
    expect(fs.readFileSync(path.join(backend, ".pulumi", "meta.yaml"), "utf8")).toMatch(/^version: 1$/m);
    expect(fs.existsSync(path.join(backend, ".pulumi", "stacks", "svc-quickstart", "e2e.json"))).toBe(true);
  });

  it("keeps the database password out of the state file", async () => {
    expect(await e2e.rawState()).not.toContain("quickstart-db-pw");
  });

  it("previews no change afterwards and sends no mutating request", async () => {
    const since = await e2e.lastSeq();
    const preview = await e2e.preview([]);
    expect(Object.keys(preview.changeSummary)).toEqual(["same"]);
    expect(await e2e.mutations(since)).toEqual([]);
  });

  if (!versionAtLeast(SDK, "3.216.0"))
    it(`after a refresh, drift is named by the refresh's notice; the preview shows an update naming no property (@pulumi/pulumi ${SDK}'s host drops read's inputs)`, async () => {
      const id = await e2e.idOf("app-net");
      await e2e.emu.api.patch(`/v1/vpcs/${id}`, { description: "changed by hand" });
      const refreshed = await e2e.refresh();
      expect(refreshed.stdout).toMatch(/Vpc "app-net-[0-9a-f]{7}": drifted outside Pulumi: description; the next pulumi up reverts them/);
      const preview = await e2e.preview([]);
      expect(preview.changeSummary).toMatchObject({ update: 1 });
      expect(preview.stdout).toMatch(/~ pulumi-nodejs:dynamic\/svc:Vpc: \(update\)/);
      expect(preview.stdout).not.toMatch(/[-+~] description/);
    });

  it("destroys everything it made", async () => {
    await e2e.destroy();
    expect((await e2e.inventoryTotal()).total).toBe(0);
  });
});
