/**
 * Images and snapshots end to end: Image from a URL, from an instance, and an ISO uploaded from a
 * real local file (streamed to the signed upload URL), and Snapshot, through the real pulumi
 * engine. The instance and the disk they need are resources of the same stack.
 *
 * Kinds: Image, Snapshot (scripts/testsOf.js: this file is their end-to-end proof)
 */
import { createHash, randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { changes, failureOf, ref, startE2E, withReplaced, writes, type Declaration, type E2E, type LoggedRequest } from "./harness";

jest.setTimeout(900_000);

const MiB = 1024 * 1024;
const GiB = 1024 ** 3;

describe("Images and snapshots through the real pulumi engine", () => {
  let e2e: E2E;
  let wid: string;
  let plan: string;
  let files: string;
  let isoPath: string;

  beforeAll(async () => {
    e2e = await startE2E("images");
    wid = e2e.emu.workspaceId;
    plan = (await e2e.emu.api.get("/v1/plans", { name: "lightning-2" })).body.items.find(
      (p: { name: string }) => p.name === "lightning-2",
    ).id;
    files = fs.mkdtempSync(path.join(os.tmpdir(), "svc-e2e-iso-"));
    isoPath = path.join(files, "rescue.iso");
    fs.writeFileSync(isoPath, randomBytes(5 * MiB + 123));
  });
  afterAll(async () => {
    await e2e?.stop();
    fs.rmSync(files, { recursive: true, force: true });
  });

  const golden: Record<string, unknown> = {
    kind: "TEMPLATE",
    name: "golden-template",
    source: { type: "URL", url: "https://images.example.com/golden-1.qcow2" },
    description: "Golden image",
    group: "linux",
    os: { family: "LINUX", name: "Golden Linux" },
  };
  const iso: Record<string, unknown> = {
    kind: "ISO",
    name: "rescue-iso",
    source: { type: "UPLOAD", filePath: "" },
    os: { family: "LINUX" },
  };
  const backup: Record<string, unknown> = {
    kind: "BACKUP",
    name: "vm-boot-backup",
    source: { type: "INSTANCE", instanceId: ref("vm.id") },
  };
  const snap: Record<string, unknown> = { instanceId: ref("vm.id") };
  const extra: Declaration[] = [];
  const declaration = (): Declaration[] => [
    { type: "Instance", name: "vm", args: { name: "images-vm", planId: plan, region: "NA_01" } },
    {
      type: "Disk",
      name: "data",
      args: { name: "images-data", size: 10 * GiB, backend: "LOCAL", region: "NA_01", instanceId: ref("vm.id") },
    },
    { type: "Image", name: "golden", args: { ...golden } },
    { type: "Image", name: "iso", args: { ...iso } },
    { type: "Image", name: "backup", args: { ...backup } },
    { type: "Snapshot", name: "snap", args: { ...snap } },
    ...extra,
  ];
  /** Resources of the stack, with the stack itself as the engine counts it. */
  const RESOURCES = 7;

  const api = () => e2e.emu.api;
  const get = async (p: string) => (await api().get(p)).body;
  const sha256 = (file: string) => createHash("sha256").update(fs.readFileSync(file)).digest("hex");
  const upLogged = () => e2e.upLogged(declaration());
  const uploads = (requests: LoggedRequest[]) => requests.filter((r) => r.method === "PUT" && r.path.startsWith("/uploads/"));

  it("creates a URL template, an uploaded ISO (streamed from a local file), a backup from the instance and a snapshot", async () => {
    iso.source = { type: "UPLOAD", filePath: isoPath };
    const { result, requests } = await upLogged();
    expect(changes(result)).toMatchObject({ create: RESOURCES });

    const g = await get(`/v1/images/${await e2e.idOf("golden")}`);
    expect(g).toMatchObject({
      kind: "TEMPLATE",
      name: "golden-template",
      state: "AVAILABLE",
      group: "linux",
      os: { family: "LINUX", name: "Golden Linux" },
      source: { type: "URL", url: golden.source && (golden.source as { url: string }).url },
    });
    expect(g.size).toBeGreaterThan(0);
    expect(await e2e.outputsOf("golden")).toMatchObject({ state: "AVAILABLE", size: g.size, workspaceId: wid, official: false });

    const size = fs.statSync(isoPath).size;
    const i = await get(`/v1/images/${await e2e.idOf("iso")}`);
    expect(i).toMatchObject({ kind: "ISO", state: "AVAILABLE", size, source: { type: "UPLOAD", size_bytes: size } });
    expect(await e2e.outputsOf("iso")).toMatchObject({ size, fileSha256: sha256(isoPath), source: { type: "UPLOAD", filePath: isoPath } });
    // The create sent the file's size; the bytes went to the signed URL in one PUT, with progress lines.
    const create = requests.find(
      (r) => r.method === "POST" && r.path === `/v1/workspaces/${wid}/images` && (r.body as { kind?: string }).kind === "ISO",
    )!;
    expect(create.body).toMatchObject({ source: { type: "UPLOAD", size_bytes: size } });
    expect(uploads(requests)).toEqual([expect.objectContaining({ status: 200, body: "[stream]" })]);
    expect(e2e.output()).toMatch(/Image "rescue-iso": uploaded \d+ of \d+ bytes \(\d+%/);
    expect(e2e.output()).toContain(`uploaded ${size} of ${size} bytes (100%`);

    const vm = await e2e.outputsOf("vm");
    const b = await get(`/v1/images/${await e2e.idOf("backup")}`);
    expect(b).toMatchObject({
      kind: "BACKUP",
      state: "AVAILABLE",
      source: { type: "INSTANCE", instance_id: await e2e.idOf("vm"), disk_id: vm.bootDiskId },
    });

    const s = await get(`/v1/snapshots/${await e2e.idOf("snap")}`);
    expect(s).toMatchObject({ state: "AVAILABLE", instance: { id: await e2e.idOf("vm") }, disk: { id: vm.bootDiskId } });
    expect(await e2e.outputsOf("snap")).toMatchObject({ state: "AVAILABLE", diskId: vm.bootDiskId, name: s.name });
  });

  it("previews no change and sends no mutating request", async () => {
    const since = await e2e.lastSeq();
    expect((await e2e.preview(declaration())).changeSummary).toEqual({ same: RESOURCES });
    expect(await e2e.mutations(since)).toEqual([]);
  });

  it.each([
    [
      "a name over 64 characters, a short description and an unknown os family",
      () => [{ type: "Image", name: "golden", args: { ...golden, name: "g".repeat(65), description: "abc", os: { family: "MACOS" } } }],
      [/name.*must be 4 to 64 characters/, /description.*must be 4 to 1000 characters/, /os\.family.*must be LINUX, WINDOWS or BSD/],
    ],
    [
      "an UPLOAD source for a TEMPLATE",
      () => [{ type: "Image", name: "iso", args: { ...iso, kind: "TEMPLATE" } }],
      [/source.*an UPLOAD source is for ISO images/],
    ],
    [
      "a missing upload file",
      () => [{ type: "Image", name: "iso", args: { ...iso, source: { type: "UPLOAD", filePath: path.join(files, "missing.iso") } } }],
      [/source\.filePath: no such file/],
    ],
    [
      "a rename in place to more than 32 characters",
      () => [{ type: "Image", name: "golden", args: { ...golden, name: "golden-template-with-a-long-name-33" } }],
      [/name.*renaming in place goes through PATCH .* 4 to 32 characters/],
    ],
  ])("preview rejects %s, naming each property and rule, before any API call", async (_what, change, messages) => {
    const decl = withReplaced(declaration(), change() as Declaration[]);
    const since = await e2e.lastSeq();
    const failure = await failureOf(e2e.preview(decl));
    for (const message of messages) expect(failure).toMatch(message);
    expect(await e2e.mutations(since)).toEqual([]);
  });

  it("patches an image's name, description, group and os in place, in one PATCH", async () => {
    const id = await e2e.idOf("golden");
    Object.assign(golden, {
      name: "golden-v2",
      description: "Golden image, second cut",
      group: "linux-lts",
      os: { family: "LINUX", name: "Golden Linux 2" },
    });
    const { mutations } = await upLogged();
    expect(await e2e.idOf("golden")).toBe(id);
    expect(writes(mutations)).toEqual([`PATCH /v1/images/${id}`]);
    expect(mutations[0]).toMatchObject({
      status: 204,
      body: {
        name: "golden-v2",
        description: "Golden image, second cut",
        group: "linux-lts",
        os: { family: "LINUX", name: "Golden Linux 2" },
      },
    });
    expect(await get(`/v1/images/${id}`)).toMatchObject({ name: "golden-v2", group: "linux-lts", os: { name: "Golden Linux 2" } });
  });

  it("records a moved upload file without touching the API; a changed file replaces the ISO and uploads it again", async () => {
    const id = await e2e.idOf("iso");
    const moved = path.join(files, "moved", "rescue.iso");
    fs.mkdirSync(path.dirname(moved));
    fs.copyFileSync(isoPath, moved);
    iso.source = { type: "UPLOAD", filePath: moved };
    let { mutations } = await upLogged();
    expect(mutations).toEqual([]);
    expect(await e2e.idOf("iso")).toBe(id);
    expect((await e2e.outputsOf("iso")).source).toEqual({ type: "UPLOAD", filePath: moved });

    fs.writeFileSync(moved, randomBytes(2 * MiB));
    const logged = await upLogged();
    mutations = logged.mutations;
    expect(changes(logged.result)).toMatchObject({ replace: 1 });
    const after = await e2e.idOf("iso");
    expect(after).not.toBe(id);
    expect(uploads(logged.requests)).toHaveLength(1);
    expect(writes(mutations)).toEqual([`POST /v1/workspaces/${wid}/images`, `DELETE /v1/images/${id}`]);
    expect(await get(`/v1/images/${after}`)).toMatchObject({ size: 2 * MiB, state: "AVAILABLE" });
    expect((await e2e.outputsOf("iso")).fileSha256).toBe(sha256(moved));
    expect((await api().get(`/v1/images/${id}`)).status).toBe(404);
  });

  it.each([
    [
      "an image's source URL",
      "golden",
      () => Object.assign(golden, { source: { type: "URL", url: "https://images.example.com/golden-2.qcow2" } }),
      (id: string) => `/v1/images/${id}`,
    ],
    ["an image's uefi flag", "golden", () => Object.assign(golden, { uefi: true }), (id: string) => `/v1/images/${id}`],
    ["a snapshot's disk", "snap", () => Object.assign(snap, { diskId: ref("data.id") }), (id: string) => `/v1/snapshots/${id}`],
  ])("replaces on a change of %s: new id, old one gone", async (_what, name, change, apiPath) => {
    const before = await e2e.idOf(name);
    change();
    const result = await e2e.up(declaration());
    expect(changes(result)).toMatchObject({ replace: 1 });
    const after = await e2e.idOf(name);
    expect(after).not.toBe(before);
    expect((await api().get(apiPath(before))).status).toBe(404);
    expect((await get(apiPath(after))).state).toBe("AVAILABLE");
  });

  it("the replacement snapshot copies the declared disk", async () => {
    expect(await get(`/v1/snapshots/${await e2e.idOf("snap")}`)).toMatchObject({ disk: { id: await e2e.idOf("data") } });
  });

  it("refresh reads an out-of-band change; the next up restores the declaration", async () => {
    const id = await e2e.idOf("golden");
    expect((await api().patch(`/v1/images/${id}`, { description: "changed by hand", os: null })).status).toBe(204);
    await e2e.refresh();
    expect(await e2e.outputsOf("golden")).toMatchObject({ description: "changed by hand", os: null });
    const { mutations } = await upLogged();
    expect(writes(mutations)).toEqual([`PATCH /v1/images/${id}`]);
    expect(mutations[0].body).toEqual({ description: "Golden image, second cut", os: { family: "LINUX", name: "Golden Linux 2" } });
  });

  it("refresh drops an image and a snapshot deleted outside Pulumi; the next up recreates them", async () => {
    const image = await e2e.idOf("backup");
    const snapshot = await e2e.idOf("snap");
    await e2e.emu.waitWorkflow((await api().delete(`/v1/images/${image}`)).body.id);
    await e2e.emu.waitWorkflow((await api().delete(`/v1/snapshots/${snapshot}`)).body.id);
    await e2e.refresh();
    const names = (await e2e.state()).map((r) => r.urn.split("::").pop());
    expect(names).not.toContain("backup");
    expect(names).not.toContain("snap");
    const result = await e2e.up(declaration());
    expect(changes(result)).toMatchObject({ create: 2 });
    expect(await e2e.idOf("backup")).not.toBe(image);
    expect(await e2e.idOf("snap")).not.toBe(snapshot);
  });

  it("adopts an existing image and converges it", async () => {
    const made = await api().post(`/v1/workspaces/${wid}/images`, {
      kind: "TEMPLATE",
      name: "hand-made",
      source: { type: "URL", url: "https://images.example.com/hand.qcow2" },
    });
    expect(made.status).toBe(202);
    await e2e.emu.waitWorkflow(made.body.workflow.id);
    extra.push({
      type: "Image",
      name: "adopted",
      args: {
        kind: "TEMPLATE",
        name: "hand-made",
        source: { type: "URL", url: "https://images.example.com/hand.qcow2" },
        description: "now managed",
        adoptId: made.body.resource.id,
      },
    });
    const { mutations } = await upLogged();
    expect(await e2e.idOf("adopted")).toBe(made.body.resource.id);
    expect(writes(mutations)).toEqual([`PATCH /v1/images/${made.body.resource.id}`]);
    expect((await get(`/v1/images/${made.body.resource.id}`)).description).toBe("now managed");
  });

  it("deletes an image and a snapshot whose create workflows failed, keeping nothing, and the next up creates them", async () => {
    await e2e.emu.control.post("/_emulator/faults", {
      kind: "workflow",
      outcome: "FAILED",
      method: "POST",
      path: "/v1/workspaces/*/images",
      times: 1,
    });
    await e2e.emu.control.post("/_emulator/faults", {
      kind: "workflow",
      outcome: "FAILED",
      method: "POST",
      path: "/v1/commands/create-snapshot",
      times: 1,
    });
    extra.push(
      {
        type: "Image",
        name: "flaky",
        args: { kind: "ISO", name: "flaky-iso", source: { type: "URL", url: "https://images.example.com/flaky.iso" } },
      },
      { type: "Snapshot", name: "flaky-snap", args: { instanceId: ref("vm.id"), diskId: ref("data.id") } },
    );
    const message = await e2e.upFails(declaration());
    expect(message).toMatch(/Image "flaky-iso": create failed: workflow .* ended FAILED/);
    expect(message).toMatch(/Snapshot of instance \d+: create failed: workflow .* ended FAILED/);
    const deleted = (kind: string) =>
      new RegExp(`The ${kind} it made \\(id (\\d+)\\) ended FAILED.*?, which a later up would replace, so it was deleted`).exec(
        message,
      )?.[1];
    const image = deleted("Image");
    const snapshot = deleted("Snapshot");
    const names = (await e2e.state()).map((r) => r.urn.split("::").pop());
    expect(names).not.toContain("flaky");
    expect(names).not.toContain("flaky-snap");
    expect((await api().get(`/v1/images/${image}`)).status).toBe(404);
    expect((await api().get(`/v1/snapshots/${snapshot}`)).status).toBe(404);
    const result = await e2e.up(declaration());
    expect(changes(result)).toMatchObject({ create: 2 });
    expect((await e2e.outputsOf("flaky")).state).toBe("AVAILABLE");
    expect((await e2e.outputsOf("flaky-snap")).state).toBe("AVAILABLE");
  });

  it("an upload the storage refuses leaves no image behind, and the next up uploads it", async () => {
    const second = path.join(files, "second.iso");
    fs.writeFileSync(second, randomBytes(MiB));
    await e2e.emu.control.post("/_emulator/faults", { kind: "status", status: 503, method: "PUT", path: "/uploads/*", times: 1 });
    extra.push({ type: "Image", name: "iso2", args: { kind: "ISO", name: "second-iso", source: { type: "UPLOAD", filePath: second } } });
    const message = await e2e.upFails(declaration());
    expect(message).toMatch(/Image "second-iso": the upload was refused: PUT <signed upload URL> answered 503/);
    expect((await e2e.state()).some((r) => r.urn.endsWith("::iso2"))).toBe(false);
    const isos = (await api().get(`/v1/workspaces/${wid}/images`, { name: "second-iso" })).body.items;
    expect(isos).toEqual([]);
    await e2e.up(declaration());
    expect(await get(`/v1/images/${await e2e.idOf("iso2")}`)).toMatchObject({ state: "AVAILABLE", size: MiB });
  });

  it("destroy leaves the emulator's inventory empty", async () => {
    await e2e.destroy();
    const inventory = await e2e.inventoryTotal();
    for (const table of ["images", "snapshots", "instances", "disks"]) expect(inventory.resources[table]).toEqual([]);
    expect(inventory.total).toBe(0);
  });
});
