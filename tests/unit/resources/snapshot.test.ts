/**
 * Snapshot: the policy table, through the lifecycle's diff (which never calls the API).
 */
import { checkOnly } from "../../support/preview";
import { fakeContext, I1, page } from "./support";
import { snapshotDefinition } from "../../../resources/snapshot";

describe("Snapshot", () => {
  it("every snapshot field replaces", async () => {
    const olds = { instanceId: "1", diskId: "2", state: "AVAILABLE" };
    expect((await checkOnly(snapshotDefinition).diff!("9", olds, { ...olds, instanceId: "3" })).replaces).toEqual(["instanceId"]);
    expect(await checkOnly(snapshotDefinition).diff!("9", olds, { ...olds, diskId: "4" })).toMatchObject({
      replaces: ["diskId"],
      deleteBeforeReplace: false,
    });
  });
});

describe("Snapshot API mapping (the state's shape)", () => {
  const apiSnapshot = {
    id: 11,
    name: "snap-1",
    state: "AVAILABLE",
    size: "1073741824",
    instance: { id: I1 },
    disk: { id: 3 },
    workspace: { id: 42 },
    created: "2026-01-01T00:00:00Z",
  };

  it("creates with instance_id (and disk_id when declared), finds the new snapshot, and reads what the state records", async () => {
    let listed: unknown[] = [];
    const { ctx, calls } = fakeContext(
      {
        [`GET /v1/instances/${I1}/snapshots`]: () => page(listed),
        "POST /v1/commands/create-snapshot": () => {
          listed = [apiSnapshot];
          return { id: "wf-1", state: "QUEUED" };
        },
      },
      "create",
    );
    expect(await snapshotDefinition.api.create(ctx, { instanceId: I1 })).toMatchObject({ id: "11" });
    expect(calls.filter((c) => c.method === "POST")).toEqual([
      { method: "POST", path: "/v1/commands/create-snapshot", body: { instance_id: BigInt(I1) } },
    ]);
    const read = async (answer: object, prior: object) =>
      snapshotDefinition.api.get(fakeContext({ "GET /v1/snapshots/11": () => answer }).ctx, "11", prior);
    expect(await read(apiSnapshot, { instanceId: I1 })).toStrictEqual({
      workspaceId: "42",
      instanceId: I1,
      diskId: "3",
      name: "snap-1",
      size: 1073741824,
      state: "AVAILABLE",
      createdAt: "2026-01-01T00:00:00Z",
    });
    expect(
      await read({ id: 11, name: "snap-1", state: "PENDING", instance: null, disk: null }, { instanceId: I1, diskId: "4" }),
    ).toStrictEqual({
      workspaceId: "",
      instanceId: I1,
      diskId: "4",
      name: "snap-1",
      size: 0,
      state: "PENDING",
      createdAt: "",
    });
  });
});
