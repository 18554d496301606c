/**
 * K3sCluster at preview: its workspace and what each change does (one cluster per workspace), called
 * on the lifecycle directly; tests/inprocess/k3sCluster.test.ts proves the changes against the API, on both faces.
 */
import { checkOnly, diff, failureLines, recorded } from "../../support/preview";
import { k3sClusterDefinition } from "../../../resources/k3sCluster";

describe("K3sCluster at preview", () => {
  const recordedCluster = async () => ({ ...(await recorded(k3sClusterDefinition, {})), name: "ns-42", status: "ACTIVE" });

  it("belongs to the provider's default workspace unless told otherwise, and needs one", async () => {
    expect(await recorded(k3sClusterDefinition, {})).toEqual({ workspaceId: "42" });
    const none = await checkOnly(k3sClusterDefinition, null).check!({}, {});
    expect(none.failures).toEqual([
      { property: "workspaceId", reason: "no workspace: set the workspaceId input, svc:workspaceId or SVC_WORKSPACE_ID" },
    ]);
  });

  it("refuses inputs it does not have", async () => {
    expect(await failureLines(k3sClusterDefinition, { name: "mine" })).toEqual([expect.stringMatching(/^\(inputs\): .*name/)]);
  });

  it("has nothing to change in place: the same workspace is no change", async () => {
    const olds = await recordedCluster();
    expect(await diff(k3sClusterDefinition, olds, { workspaceId: "42" })).toEqual({
      changes: false,
      replaces: [],
      deleteBeforeReplace: false,
    });
  });

  it("replaces on another workspace, the new cluster first (one cluster per workspace: they differ)", async () => {
    const olds = await recordedCluster();
    expect(await diff(k3sClusterDefinition, olds, { workspaceId: "43" })).toEqual({
      changes: true,
      replaces: ["workspaceId"],
      deleteBeforeReplace: false,
    });
  });

  it("replaces a FAILED cluster deleting it first: the workspace holds one cluster", async () => {
    const olds = { ...(await recordedCluster()), status: "FAILED" };
    expect(await diff(k3sClusterDefinition, olds, { workspaceId: "42" })).toEqual({
      changes: true,
      replaces: ["state"],
      deleteBeforeReplace: true,
    });
  });
});
