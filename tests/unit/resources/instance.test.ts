/**
 * Instance: the input constraints of spec part 2, checked by `check` before any API call (each
 * constraint has one accepted boundary value and one refused value; a refusal names the property and
 * a message that names the rule and cites the spec), then the preview rules: cross-field rules,
 * defaults, transitions and what each change does, called on the lifecycle directly
 * (tests/support/preview.ts); tests/inprocess/instance.test.ts and fields.test.ts prove the same
 * decisions through both faces, as the engine calls them, against the emulator.
 */
import { diff, failureLines, failuresOf, recorded } from "../../support/preview";
import { UNKNOWN } from "../../../provider/lifecycle";
import { instanceDefinition } from "../../../resources/instance";
import { custom, GiB, plan, type Refused, type Row } from "./support";

describe("Instance inputs accepted at their boundaries", () => {
  it.each<Row>([
    ["Instance name of one character", instanceDefinition, { ...plan, name: "v" }],
    ["Instance cpu of 1 core", instanceDefinition, { ...custom, cpu: 1 }],
    [
      "Instance memoryBytes of 512 MiB (the emulator's minimum; see emulatorLimits.test.ts)",
      instanceDefinition,
      { ...custom, memoryBytes: 512 * 1024 ** 2 },
    ],
    ["Instance storage of one boot entry of 1 byte", instanceDefinition, { ...custom, storage: [{ sizeBytes: 1, boot: true }] }],
    ["Instance storage backing CEPH", instanceDefinition, { ...custom, storage: [{ sizeBytes: GiB, boot: true, backing: "CEPH" }] }],
    [
      "Instance bandwidth of 1 byte per second each way",
      instanceDefinition,
      { ...custom, bandwidth: { uploadBytesSec: 1, downloadBytesSec: 1 } },
    ],
    ["Instance region of one character", instanceDefinition, { ...plan, region: "X" }],
    [
      "Instance ips IPv6 without ddos and IPv4 with ddos",
      instanceDefinition,
      { ...plan, ips: [{ family: "IPv6" }, { family: "IPv4", ddos: true }] },
    ],
    ["Instance boot ISO", instanceDefinition, { ...plan, boot: "ISO" }],
  ])("%s", async (_what, spec, inputs) => {
    expect(await failuresOf(spec, inputs)).toEqual([]);
  });
});

describe("Instance inputs refused at preview, naming the property and the rule", () => {
  it.each<Refused>([
    [
      "an empty Instance name",
      instanceDefinition,
      { ...plan, name: "" },
      "name",
      /^must not be empty \(spec part 2, Instances: name is required\)$/,
    ],
    [
      "Instance cpu of 0",
      instanceDefinition,
      { ...custom, cpu: 0 },
      "cpu",
      /^must be a positive number of cores \(spec part 2, Instances: CUSTOM cpu\)$/,
    ],
    [
      "a fractional Instance cpu",
      instanceDefinition,
      { ...custom, cpu: 1.5 },
      "cpu",
      /^must be a whole number of cores \(spec part 2, Instances: CUSTOM cpu is an integer\)$/,
    ],
    [
      "Instance memoryBytes of 0",
      instanceDefinition,
      { ...custom, memoryBytes: 0 },
      "memoryBytes",
      /^must be a positive number of bytes \(spec part 2, Instances: CUSTOM memory_bytes\)$/,
    ],
    [
      "an empty Instance storage",
      instanceDefinition,
      { ...custom, storage: [] },
      "storage",
      /^needs at least one entry, exactly one with boot true \(spec part 2, Instances: CUSTOM storage\)$/,
    ],
    [
      "an Instance storage entry of 0 bytes",
      instanceDefinition,
      { ...custom, storage: [{ sizeBytes: 0, boot: true }] },
      "storage[0].sizeBytes",
      /^must be a positive number of bytes \(spec part 2, Instances: storage size_bytes\)$/,
    ],
    [
      "an Instance storage backing NVME",
      instanceDefinition,
      { ...custom, storage: [{ sizeBytes: GiB, boot: true, backing: "NVME" }] },
      "storage[0].backing",
      /^must be LOCAL or CEPH \(spec part 2, Instances: CUSTOM storage backing/,
    ],
    [
      "Instance bandwidth of 0",
      instanceDefinition,
      { ...custom, bandwidth: { uploadBytesSec: 0, downloadBytesSec: 1 } },
      "bandwidth.uploadBytesSec",
      /^must be a positive number of bytes per second \(spec part 2, Instances: bandwidth upload_bytes_sec\)$/,
    ],
    [
      "an empty Instance region",
      instanceDefinition,
      { ...plan, region: "" },
      "region",
      /^must name a region, for example NA_01 \(spec part 2, Instances: region\)$/,
    ],
    [
      "an Instance ip of family IPv5",
      instanceDefinition,
      { ...plan, ips: [{ family: "IPv5" }] },
      "ips[0].family",
      /^must be IPv4 or IPv6 \(spec part 2, Instances: ips family\)$/,
    ],
    [
      "an IPv6 Instance ip with ddos",
      instanceDefinition,
      { ...plan, ips: [{ family: "IPv4" }, { family: "IPv6", ddos: true }] },
      "ips[1].ddos",
      /^ddos protection is for IPv4 addresses only.*\(spec part 3, Billing and usage: FLOATING_IP ddos is IPv4 only\)$/,
    ],
    [
      "Instance boot CDROM",
      instanceDefinition,
      { ...plan, boot: "CDROM" },
      "boot",
      /^must be DISK or ISO \(spec part 2, Instances: boot\)$/,
    ],
    [
      "a CUSTOM Instance with a planId",
      instanceDefinition,
      { ...custom, planId: "7" },
      "planId",
      /^a CUSTOM instance has no planId.*\(spec part 2, Instances: plan is the PLAN body's field\)$/,
    ],
  ])("%s", async (_what, spec, inputs, property, reason) => {
    const found = await failuresOf(spec, inputs);
    expect(found).toContainEqual({ property, reason: expect.stringMatching(reason) });
  });
});

describe("Instance rules at preview", () => {
  it.each<[what: string, inputs: Record<string, unknown>, failure: string]>([
    [
      "neither region nor nodeId",
      { name: "vm", planId: "7" },
      "region: set region (for example NA_01) or nodeId (spec part 2, Instances: create body)",
    ],
    [
      "a PLAN instance without planId",
      { name: "vm", type: "PLAN", region: "NA_01" },
      "planId: a PLAN instance needs planId (spec part 2, Instances: PLAN adds plan)",
    ],
    ...(["group", "cpu", "memoryBytes", "storage", "bandwidth"] as const).map((field): [string, Record<string, unknown>, string] => [
      `${field} on a PLAN instance`,
      { ...plan, [field]: custom[field as keyof typeof custom] ?? { uploadBytesSec: 1, downloadBytesSec: 1 } },
      `${field}: ${field} is for CUSTOM instances; a plan fixes the specs (spec part 2, Instances: PLAN adds plan)`,
    ]),
    ...(["group", "cpu", "memoryBytes", "storage"] as const).map((field): [string, Record<string, unknown>, string] => [
      `a CUSTOM instance without ${field}`,
      { ...custom, [field]: undefined },
      `${field}: a CUSTOM instance needs ${field} (spec part 2, Instances: CUSTOM adds group, cpu, memory_bytes, storage)`,
    ]),
    [
      "two boot disks",
      {
        ...custom,
        storage: [
          { sizeBytes: GiB, boot: true },
          { sizeBytes: GiB, boot: true },
        ],
      },
      "storage: exactly one storage entry must have boot true (spec part 2, Instances: CUSTOM storage)",
    ],
    [
      "no boot disk",
      { ...custom, storage: [{ sizeBytes: GiB }] },
      "storage: exactly one storage entry must have boot true (spec part 2, Instances: CUSTOM storage)",
    ],
  ])("refuses %s", async (_what, inputs, failure) => {
    expect(await failureLines(instanceDefinition, inputs)).toEqual([failure]);
  });

  it("accepts a CUSTOM instance without bandwidth, and a node instead of a region", async () => {
    expect(await failureLines(instanceDefinition, { ...custom, bandwidth: undefined })).toEqual([]);
    expect(await failureLines(instanceDefinition, { name: "vm", planId: "7", nodeId: "3" })).toEqual([]);
  });

  it("skips a rule whose field is unknown until up", async () => {
    expect(await failureLines(instanceDefinition, { name: "vm", type: "PLAN", planId: UNKNOWN, region: "NA_01" })).toEqual([]);
  });

  it("infers the type from planId and fills the API's defaults, so diffs stay quiet", async () => {
    expect(await recorded(instanceDefinition, plan)).toEqual({
      ...plan,
      type: "PLAN",
      workspaceId: "42",
      powerState: "running",
      applyUpgrades: false,
      deletion: "immediate",
    });
    const c = await recorded(instanceDefinition, { ...custom, storage: [{ sizeBytes: GiB, boot: true }, { sizeBytes: GiB }] });
    expect(c).toMatchObject({
      type: "CUSTOM",
      storage: [
        { sizeBytes: GiB, boot: true, backing: "LOCAL" },
        { sizeBytes: GiB, boot: false, backing: "LOCAL" },
      ],
    });
    expect((await recorded(instanceDefinition, { ...plan, vpcIds: ["9", "3", "9"] })).vpcIds).toEqual(["3", "9"]);
  });

  it("refuses to shrink the boot disk of a recorded instance, and lets it grow", async () => {
    const olds = await recorded(instanceDefinition, custom);
    const shrink = { ...custom, storage: [{ sizeBytes: 10 * GiB, boot: true }] };
    expect(await failureLines(instanceDefinition, shrink, olds)).toEqual([
      `storage: the boot disk cannot shrink (${20 * GiB} -> ${10 * GiB} bytes): upgrade-instance only grows it (spec part 2, Instances: upgrade-instance disk)`,
    ]);
    expect(await failureLines(instanceDefinition, { ...custom, storage: [{ sizeBytes: 30 * GiB, boot: true }] }, olds)).toEqual([]);
    // A create has nothing to shrink from.
    expect(await failureLines(instanceDefinition, shrink)).toEqual([]);
  });
});

describe("Instance changes at preview", () => {
  const recordedPlan = async () => ({ ...(await recorded(instanceDefinition, plan)), state: "AVAILABLE" });
  const recordedCustom = async () => ({ ...(await recorded(instanceDefinition, custom)), state: "AVAILABLE" });

  it("sees no change in the recorded declaration", async () => {
    const olds = await recordedPlan();
    expect(await diff(instanceDefinition, olds, await recorded(instanceDefinition, plan))).toEqual({
      changes: false,
      replaces: [],
      deleteBeforeReplace: false,
    });
  });

  it.each<[string, unknown]>([
    ["name", "vm-2"],
    ["boot", "ISO"],
    ["uefi", true],
    ["secureBoot", true],
    ["attachVirtioCdb", true],
    ["syncHostname", true],
    ["firewallEnabled", true],
    ["osName", "Ubuntu (managed)"],
    ["planId", "8"],
    ["vpcIds", ["5"]],
    ["powerState", "stopped"],
    ["deletion", "scheduled"],
  ])("changes %s in place", async (field, value) => {
    const olds = await recordedPlan();
    expect(await diff(instanceDefinition, olds, { ...olds, [field]: value })).toEqual({
      changes: true,
      replaces: [],
      deleteBeforeReplace: false,
    });
  });

  it.each<[string, unknown]>([
    ["cpu", 4],
    ["memoryBytes", 4 * GiB],
    ["bandwidth", { uploadBytesSec: 1, downloadBytesSec: 1 }],
    ["storage", [{ sizeBytes: 30 * GiB, boot: true, backing: "LOCAL" }]],
  ])("upgrades a CUSTOM instance's %s in place", async (field, value) => {
    const olds = await recordedCustom();
    expect(await diff(instanceDefinition, olds, { ...olds, [field]: value })).toEqual({
      changes: true,
      replaces: [],
      deleteBeforeReplace: false,
    });
  });

  it.each<[string, unknown]>([
    [
      "a grown boot disk beside a changed data disk",
      [
        { sizeBytes: 30 * GiB, boot: true, backing: "LOCAL" },
        { sizeBytes: GiB, boot: false, backing: "LOCAL" },
      ],
    ],
    ["another backing", [{ sizeBytes: 20 * GiB, boot: true, backing: "CEPH" }]],
    ["storage unknown until up", UNKNOWN],
  ])("replaces on storage with %s", async (_what, storage) => {
    const olds = await recordedCustom();
    expect(await diff(instanceDefinition, olds, { ...olds, storage })).toEqual({
      changes: true,
      replaces: ["storage"],
      deleteBeforeReplace: false,
    });
  });

  it.each<[string, unknown]>([
    ["type", "CUSTOM"],
    ["group", "RYZEN"],
    ["region", "EU_01"],
    ["nodeId", "4"],
    ["imageId", "12"],
    ["ips", [{ family: "IPv6", ddos: false }]],
    ["cloudInit", "#cloud-config\n"],
    ["disableCloudInit", true],
    ["workspaceId", "43"],
  ])("replaces on %s", async (field, value) => {
    const olds = await recordedPlan();
    expect(await diff(instanceDefinition, olds, { ...olds, [field]: value })).toEqual({
      changes: true,
      replaces: [field],
      deleteBeforeReplace: false,
    });
  });

  it("ignores applyUpgrades (an instruction for the next upgrade, not a property)", async () => {
    const olds = await recordedPlan();
    expect(await diff(instanceDefinition, olds, { ...olds, applyUpgrades: true })).toMatchObject({ changes: false, replaces: [] });
  });

  it("replaces an instance whose create workflow FAILED, and finishes one recorded mid-create", async () => {
    const olds = await recordedPlan();
    expect(await diff(instanceDefinition, { ...olds, state: "FAILED" }, olds)).toEqual({
      changes: true,
      replaces: ["state"],
      deleteBeforeReplace: false,
    });
    expect(await diff(instanceDefinition, { ...olds, state: "PENDING" }, olds)).toEqual({
      changes: true,
      replaces: [],
      deleteBeforeReplace: false,
    });
  });
});

describe("Instance outputs: its own VPCs and addresses, not its attachments'", () => {
  const own = instanceDefinition.ownOutputs!;
  const v4 = { id: "11", address: "203.0.113.1", family: "IPv4", ddos: false };
  const v6 = { id: "12", address: "2001:db8::1", family: "IPv6", ddos: false };
  const attached = { id: "13", address: "203.0.113.9", family: "IPv4", ddos: false };
  const live = {
    vpcIds: ["7", "8"],
    privateIps: { "7": "10.0.0.2", "8": "10.1.0.2" },
    ipAddresses: [attached, v4, v6],
  } as never;
  const view = (o: Record<string, unknown>) =>
    Object.fromEntries(["vpcIds", "privateIps", "ipAddresses", "ipv4Address", "ipv6Address"].map((k) => [k, o[k]]));

  it.each<[string, Record<string, unknown>, Record<string, unknown> | undefined, Record<string, unknown>]>([
    [
      "created, VPCs undeclared: no VPC, every address",
      {},
      undefined,
      { vpcIds: [], privateIps: {}, ipAddresses: [attached, v4, v6], ipv4Address: attached.address, ipv6Address: v6.address },
    ],
    [
      "VPCs declared: those the API reports, with their private addresses",
      { vpcIds: ["7"] },
      undefined,
      {
        vpcIds: ["7", "8"],
        privateIps: { "7": "10.0.0.2", "8": "10.1.0.2" },
        ipAddresses: [attached, v4, v6],
        ipv4Address: attached.address,
        ipv6Address: v6.address,
      },
    ],
    [
      "read after an attachment: the addresses it had, the first IPv4 among them",
      {},
      { ipAddresses: [v4, v6] },
      { vpcIds: [], privateIps: {}, ipAddresses: [v4, v6], ipv4Address: v4.address, ipv6Address: v6.address },
    ],
    [
      "an address of its own gone (released outside Pulumi): gone from the outputs",
      {},
      { ipAddresses: [v4, v6, { ...v4, id: "99" }] },
      { vpcIds: [], privateIps: {}, ipAddresses: [v4, v6], ipv4Address: v4.address, ipv6Address: v6.address },
    ],
  ])("%s", (_case, declared, recordedOutputs, expected) => {
    expect(view(own(live, declared as never, recordedOutputs as never) as Record<string, unknown>)).toEqual(expected);
  });
});
