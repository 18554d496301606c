/**
 * Vpc: its fields declared once (resources/vpc.ts, provider/fields/declare.ts) make the same preview
 * decisions, requests and recorded outputs the hand-written spec made: what each change does,
 * the create and update bodies, and the outputs read from the API's VPC (the state's shape).
 */
import { diff, failureLines, recorded } from "../../support/preview";
import { vpcDefinition } from "../../../resources/vpc";
import { fakeContext, I1 } from "./support";

const vpc = { name: "net-1", description: "app network", range: "10.1.2.3/16" };
const apiVpc = {
  id: I1,
  name: "net-1",
  description: "app network",
  range: "10.1.0.0/16",
  vlan: 3001,
  workspace: { id: 42 },
  created: "2026-01-01T00:00:00Z",
};
const outputs = {
  workspaceId: "42",
  name: "net-1",
  description: "app network",
  range: "10.1.0.0/16",
  vlan: 3001,
  createdAt: "2026-01-01T00:00:00Z",
};

describe("Vpc at preview", () => {
  it("records the normalised range and the default workspace", async () => {
    expect(await recorded(vpcDefinition, vpc)).toEqual({ ...vpc, range: "10.1.0.0/16", workspaceId: "42" });
  });

  it("refuses a public range and a short name, citing the spec", async () => {
    const lines = await failureLines(vpcDefinition, { ...vpc, name: "net", range: "8.8.0.0/16" });
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^name: must be 4 to 32 characters \(spec part 3, VPCs\)$/),
        expect.stringMatching(/^range: /),
      ]),
    );
  });

  it.each<[string, unknown]>([
    ["name", "net-2"],
    ["description", "another"],
  ])("changes %s in place", async (field, value) => {
    const olds = await recorded(vpcDefinition, vpc);
    expect(await diff(vpcDefinition, olds, { ...olds, [field]: value })).toEqual({
      changes: true,
      replaces: [],
      deleteBeforeReplace: false,
    });
  });

  it.each<[string, unknown]>([
    ["range", "10.2.0.0/16"],
    ["workspaceId", "43"],
  ])("replaces on %s", async (field, value) => {
    const olds = await recorded(vpcDefinition, vpc);
    expect(await diff(vpcDefinition, olds, { ...olds, [field]: value })).toEqual({
      changes: true,
      replaces: [field],
      deleteBeforeReplace: false,
    });
  });
});

describe("Vpc API mapping", () => {
  it("creates with name, description and range, and records the answer as read", async () => {
    const { ctx, calls } = fakeContext({ "POST /v1/workspaces/42/vpcs": () => apiVpc }, "create");
    const created = await vpcDefinition.api.create(ctx, { ...vpc, range: "10.1.0.0/16", workspaceId: "42" });
    expect(calls).toEqual([
      { method: "POST", path: "/v1/workspaces/42/vpcs", body: { name: "net-1", description: "app network", range: "10.1.0.0/16" } },
    ]);
    expect(created).toEqual({ id: I1, current: outputs });
  });

  it("reads the outputs the state records", async () => {
    const { ctx } = fakeContext({ [`GET /v1/vpcs/${I1}`]: () => apiVpc });
    expect(await vpcDefinition.api.get(ctx, I1, { workspaceId: "42" })).toEqual(outputs);
    const { ctx: bare } = fakeContext({ [`GET /v1/vpcs/${I1}`]: () => ({ ...apiVpc, workspace: undefined, created: undefined }) });
    expect(await vpcDefinition.api.get(bare, I1, { workspaceId: "42" })).toEqual({ ...outputs, createdAt: "" });
  });

  it("patches only the changed fields", async () => {
    const { ctx, calls } = fakeContext({ [`PATCH /v1/vpcs/${I1}`]: () => apiVpc }, "update");
    await vpcDefinition.api.update!.updateRequest!(ctx, I1, outputs, { ...outputs, description: "new" }, ["description"]);
    expect(calls).toEqual([{ method: "PATCH", path: `/v1/vpcs/${I1}`, body: { description: "new" } }]);
  });
});
