/**
 * Snapshot: the policy table, through the lifecycle's diff (which never calls the API).
 */
import { checkOnly } from "../../support/preview";
import { snapshotSpec } from "../../../resources/snapshot";

describe("Snapshot", () => {
  it("every snapshot field replaces", async () => {
    const olds = { instanceId: "1", diskId: "2", state: "AVAILABLE" };
    expect((await checkOnly(snapshotSpec).diff!("9", olds, { ...olds, instanceId: "3" })).replaces).toEqual(["instanceId"]);
    expect(await checkOnly(snapshotSpec).diff!("9", olds, { ...olds, diskId: "4" })).toMatchObject({
      replaces: ["diskId"],
      deleteBeforeReplace: false,
    });
  });
});
