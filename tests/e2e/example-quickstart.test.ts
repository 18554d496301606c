/**
 * The quickstart program (examples/quickstart, what the top-level Pulumi.yaml runs), as a user
 * would run it: TypeScript through the real CLI, against the emulator.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { startE2E, type E2E } from "./harness";
import { expectQuickstartOutputs } from "./quickstart";

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

  it("destroys everything it made", async () => {
    await e2e.destroy();
    expect((await e2e.inventoryTotal()).total).toBe(0);
  });
});
