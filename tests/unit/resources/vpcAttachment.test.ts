/**
 * VpcAttachment: preview checks (check) and the policy table (diff), through the lifecycle with a
 * runtime that refuses any API access.
 */
import { vpcAttachmentDefinition } from "../../../resources/vpcAttachment";
import { check, diff } from "../../support/preview";
import { fakeContext, I1, I2, page } from "./support";

describe("VpcAttachment", () => {
  const olds = { instanceId: I1, vpcId: "7", privateIp: "10.0.0.2", instanceName: "vm" };

  it("rejects ids that are not digits, naming the property", async () => {
    expect((await check(vpcAttachmentDefinition, { instanceId: "vm-1", vpcId: "7" })).failures).toEqual([
      "instanceId: must be the instance id (digits)",
    ]);
  });

  it("replaces on either end, creating the new membership first", async () => {
    expect(await diff(vpcAttachmentDefinition, olds, { instanceId: I1, vpcId: "8" })).toEqual({
      changes: true,
      replaces: ["vpcId"],
      deleteBeforeReplace: false,
    });
    expect(await diff(vpcAttachmentDefinition, olds, { instanceId: I2, vpcId: "7" })).toMatchObject({ replaces: ["instanceId"] });
    expect(await diff(vpcAttachmentDefinition, olds, { instanceId: I1, vpcId: "7" })).toMatchObject({ changes: false, replaces: [] });
  });
});

describe("VpcAttachment API mapping (the state's shape)", () => {
  it("attaches with the VPC as a number and reads the membership from the VPC's member list", async () => {
    const { ctx, calls } = fakeContext({ [`POST /v1/instances/${I1}/vpcs`]: () => ({}) }, "create");
    expect(await vpcAttachmentDefinition.api.create(ctx, { instanceId: I1, vpcId: "7" })).toEqual({ id: `${I1}:7` });
    expect(calls).toEqual([{ method: "POST", path: `/v1/instances/${I1}/vpcs`, body: { vpc: 7n } }]);
    const members = () => page([{ id: I1, name: "vm", ip: "10.0.0.2" }]);
    const read = vpcAttachmentDefinition.api.get(fakeContext({ "GET /v1/vpcs/7/instances": members }).ctx, `${I1}:7`, {});
    // The instance's name is the instance's output, not a copy here that its rename would leave stale.
    expect(await read).toStrictEqual({ instanceId: I1, vpcId: "7", privateIp: "10.0.0.2" });
  });
});
