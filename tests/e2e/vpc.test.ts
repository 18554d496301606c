/**
 * Vpc through the real pulumi engine, for what only the engine proves: a refresh records the inputs
 * read() answers (the dynamic-provider host passes them on since @pulumi/pulumi 3.216), so the next
 * preview shows the drift property by property, as the plugin face's Read gives it
 * (docs/engine-facts.md). Everything else a Vpc does (create, rename, replace, drift put back,
 * deletion read as gone, adoption and its refusal, a lost create answer) is proven on both faces in
 * process: tests/inprocess/vpc.test.ts.
 */
import { startE2E, type E2E } from "./harness";

jest.setTimeout(600_000);

describe("Vpc through the real pulumi engine", () => {
  let e2e: E2E;
  beforeAll(async () => {
    e2e = await startE2E("vpc");
  });
  afterAll(async () => {
    await e2e?.stop();
  });

  const vpc = { type: "Vpc", name: "net", args: { name: "app-net", description: "app tier", range: "10.20.0.0/16" } };

  it("refresh records the drifted name in the inputs too, and the next preview shows it property by property", async () => {
    await e2e.up([vpc]);
    const id = await e2e.idOf("net");
    await e2e.emu.api.patch(`/v1/vpcs/${id}`, { name: "changed-by-hand" });
    await e2e.refresh();
    const refreshed = await e2e.resource("net");
    expect(refreshed.outputs.name).toBe("changed-by-hand");
    expect(refreshed.inputs).toMatchObject({ name: "changed-by-hand", description: "app tier", range: "10.20.0.0/16" });
    const preview = await e2e.preview([vpc]);
    expect(preview.stdout).toMatch(/~ name\s*: "changed-by-hand" => "app-net"/);
  });
});
