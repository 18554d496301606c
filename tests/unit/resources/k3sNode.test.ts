/**
 * K3sNode at preview: the instance id check and what each change does (an instance is a node at most
 * once), called on the lifecycle directly; tests/inprocess/k3sNode.test.ts proves the changes against the
 * API, on both faces.
 */
import { diff, failureLines, recorded } from "../../support/preview";
import { k3sNodeDefinition } from "../../../resources/k3sNode";

describe("K3sNode at preview", () => {
  const recordedNode = async (instanceId = "7") => ({
    ...(await recorded(k3sNodeDefinition, { instanceId })),
    nodeName: "node-7",
    status: "READY",
  });

  it("refuses an instance id that is not one", async () => {
    expect(await failureLines(k3sNodeDefinition, { instanceId: "vm-7" })).toEqual(["instanceId: must be the instance id (digits)"]);
  });

  it("replaces on another instance (there is no update endpoint), the new node first", async () => {
    const olds = await recordedNode();
    expect(await diff(k3sNodeDefinition, olds, { ...olds, instanceId: "8" })).toEqual({
      changes: true,
      replaces: ["instanceId"],
      deleteBeforeReplace: false,
    });
  });

  it("replaces a FAILED node deleting it first: an instance is a node at most once", async () => {
    const olds = await recordedNode();
    expect(await diff(k3sNodeDefinition, { ...olds, status: "FAILED" }, await recorded(k3sNodeDefinition, { instanceId: "7" }))).toEqual({
      changes: true,
      replaces: ["state"],
      deleteBeforeReplace: true,
    });
  });

  it("finishes a node recorded while it was still joining", async () => {
    const olds = await recordedNode();
    expect(await diff(k3sNodeDefinition, { ...olds, status: "JOINING" }, await recorded(k3sNodeDefinition, { instanceId: "7" }))).toEqual({
      changes: true,
      replaces: [],
      deleteBeforeReplace: false,
    });
  });
});
