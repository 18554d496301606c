/**
 * Disk: the input constraints of spec part 2, checked by `check` before any API call (each
 * constraint has one accepted boundary value and one refused value; a refusal names the property and
 * a message that names the rule and cites the spec), then the preview rules: cross-field rules,
 * defaults, transitions and what each change does, called on the lifecycle directly
 * (tests/support/preview.ts); tests/e2e/compute*.test.ts prove the same decisions through the real
 * CLI, slowly.
 */
import { diff, failureLines, failuresOf, recorded } from "../../support/preview";
import { diskSpec } from "../../../resources/disk";
import { disk, GiB, type Refused, type Row } from "./support";

describe("Disk inputs accepted at their boundaries", () => {
  it.each<Row>([
    ["Disk name of one character", diskSpec, { ...disk, name: "d" }],
    ["Disk size of 1 byte", diskSpec, { ...disk, size: 1 }],
    ["Disk backend CEPH", diskSpec, { ...disk, backend: "CEPH" }],
    ["Disk region of one character", diskSpec, { ...disk, region: "X" }],
  ])("%s", async (_what, spec, inputs) => {
    expect(await failuresOf(spec, inputs)).toEqual([]);
  });
});

describe("Disk inputs refused at preview, naming the property and the rule", () => {
  it.each<Refused>([
    ["an empty Disk name", diskSpec, { ...disk, name: "" }, "name", /^must not be empty \(spec part 2, Disks: name is required\)$/],
    ["Disk size of 0", diskSpec, { ...disk, size: 0 }, "size", /^must be a positive number of bytes \(spec part 2, Disks: size\)$/],
    ["a fractional Disk size", diskSpec, { ...disk, size: 1.5 }, "size", /^must be a whole number of bytes \(spec part 2, Disks: size\)$/],
    [
      "a Disk size given as text",
      diskSpec,
      { ...disk, size: "10G" },
      "size",
      /^must be a number of bytes \(spec part 2, Disks: size is required, in bytes\)$/,
    ],
    ["Disk backend NVME", diskSpec, { ...disk, backend: "NVME" }, "backend", /^must be LOCAL or CEPH \(spec part 2, Disks\)$/],
    [
      "an empty Disk region",
      diskSpec,
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
    expect(await recorded(diskSpec, disk)).toEqual({ ...disk, instanceId: null, workspaceId: "42" });
  });

  it("refuses to shrink a recorded disk, and lets it grow", async () => {
    const olds = await recorded(diskSpec, disk);
    expect(await failureLines(diskSpec, { ...disk, size: 5 * GiB }, olds)).toEqual([
      `size: cannot shrink a disk from ${10 * GiB} to ${5 * GiB} bytes: the API only grows disks (spec part 2, Disks: resize)`,
    ]);
    expect(await failureLines(diskSpec, { ...disk, size: 20 * GiB }, olds)).toEqual([]);
  });

  it.each<[string, unknown]>([
    ["name", "data-2"],
    ["size", 20 * GiB],
    ["instanceId", "5"],
  ])("changes %s in place", async (field, value) => {
    const olds = { ...(await recorded(diskSpec, disk)), state: "AVAILABLE" };
    expect(await diff(diskSpec, olds, { ...olds, [field]: value })).toEqual({ changes: true, replaces: [], deleteBeforeReplace: false });
  });

  it.each<[string, unknown]>([
    ["backend", "CEPH"],
    ["region", "EU_01"],
    ["workspaceId", "43"],
  ])("replaces on %s", async (field, value) => {
    const olds = { ...(await recorded(diskSpec, disk)), state: "AVAILABLE" };
    expect(await diff(diskSpec, olds, { ...olds, [field]: value })).toEqual({
      changes: true,
      replaces: [field],
      deleteBeforeReplace: false,
    });
  });

  it("replaces a disk whose create workflow FAILED", async () => {
    const olds = { ...(await recorded(diskSpec, disk)), state: "FAILED" };
    expect(await diff(diskSpec, olds, await recorded(diskSpec, disk))).toEqual({
      changes: true,
      replaces: ["state"],
      deleteBeforeReplace: false,
    });
  });
});
