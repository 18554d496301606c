import { startE2E, type E2E } from "./harness";

jest.setTimeout(300_000);

describe("Vpc through the real pulumi engine", () => {
  let e2e: E2E;
  beforeAll(async () => {
    e2e = await startE2E("vpc");
  });
  afterAll(async () => {
    await e2e?.stop();
  });

  const vpc = (args: Record<string, unknown>) => [{ type: "Vpc", name: "net", args: { name: "app-net", description: "app tier", range: "10.20.3.4/16", ...args } }];

  it("creates a VPC with the range normalised and a VLAN tag", async () => {
    const result = await e2e.up(vpc({}));
    expect(result.summary.resourceChanges).toMatchObject({ create: 2 });
    const state = await e2e.resource("net");
    expect(state.outputs.range).toBe("10.20.0.0/16");
    expect(typeof state.outputs.vlan).toBe("number");
    const api = await e2e.emu.api.get(`/v1/vpcs/${state.id}`);
    expect(api.body.name).toBe("app-net");
  });

  it("previews no change and sends no mutating request", async () => {
    const since = await e2e.lastSeq();
    const preview = await e2e.preview(vpc({}));
    expect(preview.changeSummary).toEqual({ same: 2 });
    expect(await e2e.mutations(since)).toEqual([]);
  });
});
