/**
 * VpcAttachment: preview checks (check) and the policy table (diff), through the lifecycle with a
 * runtime that refuses any API access.
 */
import { vpcAttachmentSpec } from "../../../resources/vpcAttachment";
import { check, diff } from "../../support/preview";
import { I1, I2 } from "./support";

describe("VpcAttachment", () => {
  const olds = { instanceId: I1, vpcId: "7", privateIp: "10.0.0.2", instanceName: "vm" };

  it("rejects ids that are not digits, naming the property", async () => {
    expect((await check(vpcAttachmentSpec, { instanceId: "vm-1", vpcId: "7" })).failures).toEqual([
      "instanceId: must be the instance id (digits)",
    ]);
  });

  it("replaces on either end, creating the new membership first", async () => {
    expect(await diff(vpcAttachmentSpec, olds, { instanceId: I1, vpcId: "8" })).toEqual({
      changes: true,
      replaces: ["vpcId"],
      deleteBeforeReplace: false,
    });
    expect(await diff(vpcAttachmentSpec, olds, { instanceId: I2, vpcId: "7" })).toMatchObject({ replaces: ["instanceId"] });
    expect(await diff(vpcAttachmentSpec, olds, { instanceId: I1, vpcId: "7" })).toMatchObject({ changes: false, replaces: [] });
  });
});
