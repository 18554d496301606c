/**
 * Where the spec gives no limit, the API decides (issue 37): values the spec allows but the
 * emulator refuses (a CUSTOM instance's cores and memory, its cloud-init's size, a name's length)
 * preview clean, and the emulator's refusal at `pulumi up` reaches the user as the API said it:
 * the resource, each field as the program names it, the API's message. A refused create leaves
 * nothing; a refused update leaves the object as it was; the state matches the inventory after
 * each. The same cases on both faces (tests/unit/resources/apiDecides.test.ts lists every value
 * the provider no longer refuses at preview).
 */
import { startE2E, type Declaration, type E2E, type Face } from "./harness";
import { expectAllGone, expectStateMatchesInventory } from "./inventory";

jest.setTimeout(600_000);

const GiB = 1024 ** 3;
const MiB = 1024 ** 2;

describe.each<Face>(["dynamic", "plugin"])("the API decides what the spec leaves open, on the %s face", (face) => {
  let e2e: E2E;
  const vpc: Declaration = { type: "Vpc", name: "net", args: { name: "decide-net", description: "api decides", range: "10.81.0.0/16" } };
  const disk = (name: string): Declaration => ({
    type: "Disk",
    name: "data",
    args: { name, size: GiB, backend: "LOCAL", region: "NA_01" },
  });
  const longName = `decide-${"x".repeat(58)}`; // 65 characters: the emulator keeps names to 64
  const instance: Declaration = {
    type: "Instance",
    name: "vm",
    args: {
      name: "decide-vm",
      type: "CUSTOM",
      group: "RYZEN",
      cpu: 129, // the emulator's limit is 128 cores
      memoryBytes: 256 * MiB, // the emulator's floor is 512 MiB
      storage: [{ sizeBytes: 20 * GiB, boot: true }],
      region: "NA_01",
      cloudInit: `#cloud-config\n#${"x".repeat(65_536)}`, // over the emulator's 64 KiB
    },
  };

  beforeAll(async () => {
    e2e = await startE2E(`api-decides-${face}`, { face });
    await e2e.up([vpc, disk("decide-data")]);
  });
  afterAll(async () => {
    await e2e?.stop();
  });

  it("previews a create the emulator refuses clean, and fails its up with the API's words, creating nothing", async () => {
    const declared = [vpc, disk("decide-data"), instance];
    const preview = await e2e.preview(declared);
    expect(preview.changeSummary).toMatchObject({ create: 1, same: 3 });
    const since = await e2e.lastSeq();
    const failure = await e2e.upFails(declared);
    expect(failure).toMatch(
      /Instance "decide-vm": the API refused it \(POST \/v1\/workspaces\/\d+\/instances answered 400: Invalid [^)]*\)/,
    );
    expect(failure).toContain("cpu: must be from 1 to 128 cores");
    expect(failure).toContain("memoryBytes (the API's memory_bytes): must be at least 512 MiB");
    expect(failure).toContain("cloudInit (the API's cloud_init): must be at most 64 KiB");
    const posts = (await e2e.mutations(since)).map((r) => `${r.method} ${r.path} ${r.status}`);
    expect(posts).toEqual([expect.stringMatching(/^POST \/v1\/workspaces\/\d+\/instances 400$/)]);
    await expectStateMatchesInventory(e2e);
    expect((await e2e.state()).map((r) => r.urn.split("::").pop()).sort()).toEqual(["data", "net"]);
  });

  it("previews a rename the emulator refuses as an update, and fails its up naming the field, the disk unchanged", async () => {
    const declared = [vpc, disk(longName)];
    const preview = await e2e.preview(declared);
    expect(preview.changeSummary).toMatchObject({ update: 1 });
    const failure = await e2e.upFails(declared);
    expect(failure).toMatch(
      new RegExp(
        `Disk "${longName}": the API refused it \\(PATCH /v1/disks/\\d+ answered 400: [^)]*\\)\\. name: must be at most 64 characters`,
      ),
    );
    const id = await e2e.idOf("data");
    expect((await e2e.emu.api.get(`/v1/disks/${id}`)).body).toMatchObject({ name: "decide-data" });
    expect((await e2e.outputsOf("data")).name).toBe("decide-data");
    await expectStateMatchesInventory(e2e);
  });

  it("destroys what it made, leaving nothing", async () => {
    await e2e.destroy();
    await expectAllGone(e2e);
  });
});
