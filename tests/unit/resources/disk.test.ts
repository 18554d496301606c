/**
 * Disk: the input constraints of spec part 2, checked by `check` before any API call (each
 * constraint has one accepted boundary value and one refused value; a refusal names the property and
 * a message that names the rule and cites the spec), then the preview rules: cross-field rules,
 * defaults, transitions and what each change does, called on the lifecycle directly
 * (tests/support/preview.ts); tests/inprocess/disk.test.ts and fields.test.ts prove the same
 * decisions through both faces, as the engine calls them, against the emulator.
 */
import { diff, failureLines, failuresOf, recorded } from "../../support/preview";
import { diskDefinition } from "../../../resources/disk";
import { disk, fakeContext, GiB, type Refused, type Row } from "./support";

describe("Disk inputs accepted at their boundaries", () => {
  it.each<Row>([
    ["Disk name of one character", diskDefinition, { ...disk, name: "d" }],
    ["Disk size of 1 byte", diskDefinition, { ...disk, size: 1 }],
    ["Disk backend CEPH", diskDefinition, { ...disk, backend: "CEPH" }],
    ["Disk region of one character", diskDefinition, { ...disk, region: "X" }],
  ])("%s", async (_what, spec, inputs) => {
    expect(await failuresOf(spec, inputs)).toEqual([]);
  });
});

describe("Disk inputs refused at preview, naming the property and the rule", () => {
  it.each<Refused>([
    ["an empty Disk name", diskDefinition, { ...disk, name: "" }, "name", /^must not be empty \(spec part 2, Disks: name is required\)$/],
    ["Disk size of 0", diskDefinition, { ...disk, size: 0 }, "size", /^must be a positive number of bytes \(spec part 2, Disks: size\)$/],
    [
      "a fractional Disk size",
      diskDefinition,
      { ...disk, size: 1.5 },
      "size",
      /^must be a whole number of bytes \(spec part 2, Disks: size\)$/,
    ],
    [
      "a Disk size given as text",
      diskDefinition,
      { ...disk, size: "10G" },
      "size",
      /^must be a number of bytes \(spec part 2, Disks: size is required, in bytes\)$/,
    ],
    ["Disk backend NVME", diskDefinition, { ...disk, backend: "NVME" }, "backend", /^must be LOCAL or CEPH \(spec part 2, Disks\)$/],
    [
      "an empty Disk region",
      diskDefinition,
      { ...disk, region: "" },
      "region",
      /^must name a region, for example NA_01 \(spec part 2, Disks: region is required\)$/,
    ],
  ])("%s", async (_what, spec, inputs, property, reason) => {
    const found = await failuresOf(spec, inputs);
    expect(found).toContainEqual({ property, reason: expect.stringMatching(reason) });
  });
});

describe("Disk rules and changes at preview", () => {
  it("records a detached disk (instanceId null) by default", async () => {
    expect(await recorded(diskDefinition, disk)).toEqual({ ...disk, instanceId: null, workspaceId: "42" });
  });

  it("refuses to shrink a recorded disk, and lets it grow", async () => {
    const olds = await recorded(diskDefinition, disk);
    expect(await failureLines(diskDefinition, { ...disk, size: 5 * GiB }, olds)).toEqual([
      `size: cannot shrink a disk from ${10 * GiB} to ${5 * GiB} bytes: the API only grows disks (spec part 2, Disks: resize)`,
    ]);
    expect(await failureLines(diskDefinition, { ...disk, size: 20 * GiB }, olds)).toEqual([]);
  });

  it.each<[string, unknown]>([
    ["name", "data-2"],
    ["size", 20 * GiB],
    ["instanceId", "5"],
  ])("changes %s in place", async (field, value) => {
    const olds = { ...(await recorded(diskDefinition, disk)), state: "AVAILABLE" };
    expect(await diff(diskDefinition, olds, { ...olds, [field]: value })).toEqual({
      changes: true,
      replaces: [],
      deleteBeforeReplace: false,
    });
  });

  it.each<[string, unknown]>([
    ["backend", "CEPH"],
    ["region", "EU_01"],
    ["workspaceId", "43"],
  ])("replaces on %s", async (field, value) => {
    const olds = { ...(await recorded(diskDefinition, disk)), state: "AVAILABLE" };
    expect(await diff(diskDefinition, olds, { ...olds, [field]: value })).toEqual({
      changes: true,
      replaces: [field],
      deleteBeforeReplace: false,
    });
  });

  it("replaces a disk whose create workflow FAILED", async () => {
    const olds = { ...(await recorded(diskDefinition, disk)), state: "FAILED" };
    expect(await diff(diskDefinition, olds, await recorded(diskDefinition, disk))).toEqual({
      changes: true,
      replaces: ["state"],
      deleteBeforeReplace: false,
    });
  });
});

describe("Disk API mapping", () => {
  const apiDisk = {
    id: "7",
    name: "data",
    size: 10 * GiB,
    backend: "LOCAL",
    region: "NA_01",
    boot: false,
    state: "AVAILABLE",
    instance: { id: 9 },
    workspace: { id: 42 },
    live: { usage_pct: 12.5 },
    created: "2026-01-01T00:00:00Z",
  };

  it("creates without the instance (attached by the attach step after creation)", async () => {
    const { ctx, calls } = fakeContext(
      { "POST /v1/workspaces/42/disks": () => ({ resource: apiDisk, workflow: { id: 3, name: "create-disk", state: "RUNNING" } }) },
      "create",
    );
    const created = await diskDefinition.api.create(ctx, { ...disk, backend: "LOCAL", instanceId: "9", workspaceId: "42" });
    expect(created).toEqual({ id: "7", workflow: { id: "3", name: "create-disk", state: "RUNNING" } });
    expect(calls[0]).toEqual({
      method: "POST",
      path: "/v1/workspaces/42/disks",
      body: { name: "data", size: 10 * GiB, backend: "LOCAL", region: "NA_01" },
    });
  });

  it("reads the outputs the state records", async () => {
    const { ctx } = fakeContext({ "GET /v1/disks/7": () => apiDisk });
    expect(await diskDefinition.api.get(ctx, "7", { workspaceId: "42" })).toEqual({
      workspaceId: "42",
      name: "data",
      size: 10 * GiB,
      backend: "LOCAL",
      region: "NA_01",
      instanceId: "9",
      boot: false,
      state: "AVAILABLE",
      usagePct: 12.5,
      createdAt: "2026-01-01T00:00:00Z",
    });
    const { ctx: detached } = fakeContext({ "GET /v1/disks/7": () => ({ ...apiDisk, instance: null, live: null, created: undefined }) });
    expect(await diskDefinition.api.get(detached, "7", {})).toMatchObject({ instanceId: null, usagePct: null, createdAt: "" });
  });

  it("patches the name", async () => {
    const { ctx, calls } = fakeContext({ "PATCH /v1/disks/7": () => apiDisk }, "update");
    const olds = (await diskDefinition.api.get(fakeContext({ "GET /v1/disks/7": () => apiDisk }).ctx, "7", {}))!;
    await diskDefinition.api.update!.updateRequest!(
      ctx,
      "7",
      olds,
      { ...disk, backend: "LOCAL", name: "data-2", instanceId: null, workspaceId: "42" },
      ["name"],
    );
    expect(calls).toEqual([{ method: "PATCH", path: "/v1/disks/7", body: { name: "data-2" } }]);
  });
});
