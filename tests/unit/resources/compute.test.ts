/**
 * Compute resources (Instance, Disk, Image): the input constraints of spec part 2, checked by
 * `check` before any API call. Each constraint has one accepted boundary value and one refused
 * value; a refusal names the property and a message that names the rule and cites the spec.
 */
import { failuresOf } from "../../support/preview";
import { diskSpec } from "../../../resources/disk";
import { imageSpec } from "../../../resources/image";
import { instanceSpec } from "../../../resources/instance";

const GiB = 1024 ** 3;
const plan = { name: "vm", planId: "7", region: "NA_01" };
const custom = { name: "vm", type: "CUSTOM", group: "RYZEN", cpu: 2, memoryBytes: 2 * GiB, storage: [{ sizeBytes: 20 * GiB, boot: true }], region: "NA_01" };
const disk = { name: "data", size: 10 * GiB, backend: "LOCAL", region: "NA_01" };
const image = { kind: "TEMPLATE", name: "golden", source: { type: "URL", url: "https://images.example.com/golden.qcow2" } };

type Row = [what: string, spec: unknown, inputs: Record<string, unknown>];
type Refused = [what: string, spec: unknown, inputs: Record<string, unknown>, property: string, reason: RegExp];

describe("compute inputs accepted at their boundaries", () => {
  it.each<Row>([
    ["Instance name of one character", instanceSpec, { ...plan, name: "v" }],
    ["Instance cpu of 1 core", instanceSpec, { ...custom, cpu: 1 }],
    ["Instance memoryBytes of 512 MiB (the emulator's minimum; see emulatorLimits.test.ts)", instanceSpec, { ...custom, memoryBytes: 512 * 1024 ** 2 }],
    ["Instance storage of one boot entry of 1 byte", instanceSpec, { ...custom, storage: [{ sizeBytes: 1, boot: true }] }],
    ["Instance storage backing CEPH", instanceSpec, { ...custom, storage: [{ sizeBytes: GiB, boot: true, backing: "CEPH" }] }],
    ["Instance bandwidth of 1 byte per second each way", instanceSpec, { ...custom, bandwidth: { uploadBytesSec: 1, downloadBytesSec: 1 } }],
    ["Instance region of one character", instanceSpec, { ...plan, region: "X" }],
    ["Instance ips IPv6 without ddos and IPv4 with ddos", instanceSpec, { ...plan, ips: [{ family: "IPv6" }, { family: "IPv4", ddos: true }] }],
    ["Instance boot ISO", instanceSpec, { ...plan, boot: "ISO" }],
    ["Disk name of one character", diskSpec, { ...disk, name: "d" }],
    ["Disk size of 1 byte", diskSpec, { ...disk, size: 1 }],
    ["Disk backend CEPH", diskSpec, { ...disk, backend: "CEPH" }],
    ["Disk region of one character", diskSpec, { ...disk, region: "X" }],
    ["Image os name of one character", imageSpec, { ...image, os: { family: "LINUX", name: "U" } }],
  ])("%s", async (_what, spec, inputs) => {
    expect(await failuresOf(spec, inputs)).toEqual([]);
  });
});

describe("compute inputs refused at preview, naming the property and the rule", () => {
  it.each<Refused>([
    ["an empty Instance name", instanceSpec, { ...plan, name: "" }, "name", /^must not be empty \(spec part 2, Instances: name is required\)$/],
    ["Instance cpu of 0", instanceSpec, { ...custom, cpu: 0 }, "cpu", /^must be a positive number of cores \(spec part 2, Instances: CUSTOM cpu\)$/],
    ["a fractional Instance cpu", instanceSpec, { ...custom, cpu: 1.5 }, "cpu", /^must be a whole number of cores \(spec part 2, Instances: CUSTOM cpu is an integer\)$/],
    ["Instance memoryBytes of 0", instanceSpec, { ...custom, memoryBytes: 0 }, "memoryBytes", /^must be a positive number of bytes \(spec part 2, Instances: CUSTOM memory_bytes\)$/],
    ["an empty Instance storage", instanceSpec, { ...custom, storage: [] }, "storage", /^needs at least one entry, exactly one with boot true \(spec part 2, Instances: CUSTOM storage\)$/],
    ["an Instance storage entry of 0 bytes", instanceSpec, { ...custom, storage: [{ sizeBytes: 0, boot: true }] }, "storage[0].sizeBytes", /^must be a positive number of bytes \(spec part 2, Instances: storage size_bytes\)$/],
    ["an Instance storage backing NVME", instanceSpec, { ...custom, storage: [{ sizeBytes: GiB, boot: true, backing: "NVME" }] }, "storage[0].backing", /^must be LOCAL or CEPH \(spec part 2, Instances: CUSTOM storage backing/],
    ["Instance bandwidth of 0", instanceSpec, { ...custom, bandwidth: { uploadBytesSec: 0, downloadBytesSec: 1 } }, "bandwidth.uploadBytesSec", /^must be a positive number of bytes per second \(spec part 2, Instances: bandwidth upload_bytes_sec\)$/],
    ["an empty Instance region", instanceSpec, { ...plan, region: "" }, "region", /^must name a region, for example NA_01 \(spec part 2, Instances: region\)$/],
    ["an Instance ip of family IPv5", instanceSpec, { ...plan, ips: [{ family: "IPv5" }] }, "ips[0].family", /^must be IPv4 or IPv6 \(spec part 2, Instances: ips family\)$/],
    ["an IPv6 Instance ip with ddos", instanceSpec, { ...plan, ips: [{ family: "IPv4" }, { family: "IPv6", ddos: true }] }, "ips[1].ddos", /^ddos protection is for IPv4 addresses only.*\(spec part 3, Billing and usage: FLOATING_IP ddos is IPv4 only\)$/],
    ["Instance boot CDROM", instanceSpec, { ...plan, boot: "CDROM" }, "boot", /^must be DISK or ISO \(spec part 2, Instances: boot\)$/],
    ["a CUSTOM Instance with a planId", instanceSpec, { ...custom, planId: "7" }, "planId", /^a CUSTOM instance has no planId.*\(spec part 2, Instances: plan is the PLAN body's field\)$/],
    ["an empty Disk name", diskSpec, { ...disk, name: "" }, "name", /^must not be empty \(spec part 2, Disks: name is required\)$/],
    ["Disk size of 0", diskSpec, { ...disk, size: 0 }, "size", /^must be a positive number of bytes \(spec part 2, Disks: size\)$/],
    ["a fractional Disk size", diskSpec, { ...disk, size: 1.5 }, "size", /^must be a whole number of bytes \(spec part 2, Disks: size\)$/],
    ["a Disk size given as text", diskSpec, { ...disk, size: "10G" }, "size", /^must be a number of bytes \(spec part 2, Disks: size is required, in bytes\)$/],
    ["Disk backend NVME", diskSpec, { ...disk, backend: "NVME" }, "backend", /^must be LOCAL or CEPH \(spec part 2, Disks\)$/],
    ["an empty Disk region", diskSpec, { ...disk, region: "" }, "region", /^must name a region, for example NA_01 \(spec part 2, Disks: region is required\)$/],
    ["an empty Image os name", imageSpec, { ...image, os: { family: "LINUX", name: "" } }, "os.name", /^must not be empty.*\(spec part 2, Images: os name is optional\)$/],
  ])("%s", async (_what, spec, inputs, property, reason) => {
    const found = await failuresOf(spec, inputs);
    expect(found).toContainEqual({ property, reason: expect.stringMatching(reason) });
  });
});
