/**
 * Image on both faces, in process (tests/support/inProcess.ts): an image from a URL, from an
 * instance, and an ISO uploaded from a real local file (the provider streams it to the signed
 * URL), and a snapshot beside them; no change for the same declaration; the in-place PATCH; a
 * moved upload file recorded without an API call and a changed one replaced and uploaded again;
 * every replace field; drift read and put back under the same id; deletion read as gone;
 * adoption; failed creates deleted; an upload the storage refuses leaving nothing behind. The
 * cases that make, read, fail and delete a snapshot with the images stay here; the snapshot's
 * own replacement is snapshot.test.ts. The refusals at preview are
 * tests/unit/resources/{image,snapshot}.test.ts. Nothing of these kinds needs the
 * engine: progress lines reaching the CLI are tests/e2e/messages.test.ts's; an output of one
 * resource given to another, refresh and replacement order are tests/e2e/conformance.ts's.
 */
import { createHash, randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { setProgressSink } from "../../provider/runtime/progress";
import { CallError, describeEachFace, up, type Props, type Recorded, lastSeqOf, requestsSince, type Logged } from "../support/inProcess";

const MiB = 1024 * 1024;
const GiB = 1024 ** 3;

// Progress lines (the upload's) are collected, not printed: both faces write them here.
const progress: string[] = [];
setProgressSink((line) => progress.push(line));

describeEachFace("Image, with a snapshot beside it", (ctx) => {
  let files: string;
  let isoPath: string;
  const state: Record<string, Recorded> = {};
  const kinds: Record<string, string> = {};
  const api = () => ctx().emu.api;
  const wid = () => ctx().emu.workspaceId;
  const get = async (p: string) => (await api().get(p)).body;
  const sha256 = (file: string) => createHash("sha256").update(fs.readFileSync(file)).digest("hex");
  const lastSeq = () => lastSeqOf(ctx().emu);
  const requests = (since: number) => requestsSince(ctx().emu, since);
  const isMutation = (r: Logged) => r.method !== "GET" && r.path.startsWith("/v1/");
  const uploads = (logged: Logged[]) => logged.filter((r) => r.method === "PUT" && r.path.startsWith("/uploads/"));
  const lines = (logged: Logged[]) => logged.map((r) => `${r.method} ${r.path}`);
  /** One resource's up with the engine's order of calls; the requests it made, and the mutating ones among them. */
  const upLogged = async (name: string, kind: string, declared: Props) => {
    const since = await lastSeq();
    const result = await up(ctx().face, kind, declared, state[name]);
    state[name] = result.now;
    kinds[name] = kind;
    const all = await requests(since);
    return { ...result, requests: all, mutations: all.filter(isMutation) };
  };
  /** A create expected to fail: the error as the engine receives it. */
  const failedUp = async (kind: string, declared: Props) => {
    const err = await up(ctx().face, kind, declared).then(
      () => new Error("expected the create to fail, but it succeeded"),
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(CallError);
    return err as CallError;
  };

  const golden: Props = {
    kind: "TEMPLATE",
    name: "golden-template",
    source: { type: "URL", url: "https://images.example.com/golden-1.qcow2" },
    description: "Golden image",
    group: "linux",
    os: { family: "LINUX", name: "Golden Linux" },
  };
  const iso: Props = { kind: "ISO", name: "rescue-iso", source: { type: "UPLOAD", filePath: "" }, os: { family: "LINUX" } };
  const backup: Props = { kind: "BACKUP", name: "vm-boot-backup", source: { type: "INSTANCE", instanceId: "" } };
  const snap: Props = { instanceId: "" };

  beforeAll(async () => {
    files = fs.mkdtempSync(path.join(os.tmpdir(), "svc-inprocess-iso-"));
    isoPath = path.join(files, "rescue.iso");
    fs.writeFileSync(isoPath, randomBytes(5 * MiB + 123));
    iso.source = { type: "UPLOAD", filePath: isoPath };
    const plan = (await api().get("/v1/plans", { name: "lightning-2" })).body.items.find(
      (p: { name: string }) => p.name === "lightning-2",
    ).id;
    // The instance and the disk the images and snapshots are made from.
    await upLogged("vm", "Instance", { name: "images-vm", planId: plan, region: "NA_01" });
    await upLogged("data", "Disk", { name: "images-data", size: 10 * GiB, backend: "LOCAL", region: "NA_01", instanceId: state.vm.id });
    backup.source = { type: "INSTANCE", instanceId: state.vm.id };
    snap.instanceId = state.vm.id;
  });
  afterAll(() => fs.rmSync(files, { recursive: true, force: true }));

  it("creates a URL template with the API's size and state", async () => {
    const { step, now } = await upLogged("golden", "Image", golden);
    expect(step).toBe("create");
    const g = await get(`/v1/images/${now.id}`);
    expect(g).toMatchObject({
      kind: "TEMPLATE",
      name: "golden-template",
      state: "AVAILABLE",
      group: "linux",
      os: { family: "LINUX", name: "Golden Linux" },
      source: { type: "URL", url: "https://images.example.com/golden-1.qcow2" },
    });
    expect(g.size).toBeGreaterThan(0);
    expect(now.outs).toMatchObject({ state: "AVAILABLE", size: g.size, workspaceId: wid(), official: false });
  });

  it("creates an ISO from a local file: the create sends its size, the bytes go to the signed URL in one PUT, with progress", async () => {
    const mark = progress.length;
    const { now, requests: logged } = await upLogged("iso", "Image", iso);
    const size = fs.statSync(isoPath).size;
    expect(await get(`/v1/images/${now.id}`)).toMatchObject({
      kind: "ISO",
      state: "AVAILABLE",
      size,
      source: { type: "UPLOAD", size_bytes: size },
    });
    expect(now.outs).toMatchObject({ size, fileSha256: sha256(isoPath), source: { type: "UPLOAD", filePath: isoPath } });
    const create = logged.find((r) => r.method === "POST" && r.path === `/v1/workspaces/${wid()}/images`)!;
    expect(create.body).toMatchObject({ kind: "ISO", source: { type: "UPLOAD", size_bytes: size } });
    expect(uploads(logged)).toEqual([expect.objectContaining({ status: 200, body: "[stream]" })]);
    const shown = progress.slice(mark).join("\n");
    expect(shown).toMatch(/Image "rescue-iso": uploaded \d+ of \d+ bytes \(\d+%/);
    expect(shown).toContain(`uploaded ${size} of ${size} bytes (100%`);
  });

  it("creates a backup image of the instance's boot disk and a snapshot of it", async () => {
    const boot = state.vm.outs.bootDiskId;
    const b = await upLogged("backup", "Image", backup);
    expect(await get(`/v1/images/${b.now.id}`)).toMatchObject({
      kind: "BACKUP",
      state: "AVAILABLE",
      source: { type: "INSTANCE", instance_id: state.vm.id, disk_id: boot },
    });
    const s = await upLogged("snap", "Snapshot", snap);
    const api1 = await get(`/v1/snapshots/${s.now.id}`);
    expect(api1).toMatchObject({ state: "AVAILABLE", instance: { id: state.vm.id }, disk: { id: boot } });
    expect(s.now.outs).toMatchObject({ state: "AVAILABLE", diskId: boot, name: api1.name });
  });

  it("diffs the same declarations as no change and sends no mutating request", async () => {
    for (const [name, kind, declared] of [
      ["golden", "Image", golden],
      ["iso", "Image", iso],
      ["backup", "Image", backup],
      ["snap", "Snapshot", snap],
    ] as const) {
      const { step, mutations } = await upLogged(name, kind, declared);
      expect({ name, step, mutations }).toEqual({ name, step: "same", mutations: [] });
    }
  });

  it("patches an image's name, description, group and os in place, in one PATCH", async () => {
    const id = state.golden.id;
    const changed = {
      name: "golden-v2",
      description: "Golden image, second cut",
      group: "linux-lts",
      os: { family: "LINUX", name: "Golden Linux 2" },
    };
    Object.assign(golden, changed);
    const { step, now, mutations } = await upLogged("golden", "Image", golden);
    expect({ step, id: now.id }).toEqual({ step: "update", id });
    expect(lines(mutations)).toEqual([`PATCH /v1/images/${id}`]);
    expect(mutations[0]).toMatchObject({ status: 204, body: changed });
    expect(await get(`/v1/images/${id}`)).toMatchObject({ name: "golden-v2", group: "linux-lts", os: { name: "Golden Linux 2" } });
  });

  it("records a moved upload file without touching the API; a changed file replaces the ISO and uploads it again", async () => {
    const id = state.iso.id;
    const moved = path.join(files, ctx().face.name, "rescue.iso");
    fs.mkdirSync(path.dirname(moved));
    fs.copyFileSync(isoPath, moved);
    iso.source = { type: "UPLOAD", filePath: moved };
    const move = await upLogged("iso", "Image", iso);
    expect({ step: move.step, id: move.now.id, mutations: move.mutations }).toEqual({ step: "update", id, mutations: [] });
    expect(move.now.outs.source).toEqual({ type: "UPLOAD", filePath: moved });

    fs.writeFileSync(moved, randomBytes(2 * MiB));
    const { step, diff, now, requests: logged, mutations } = await upLogged("iso", "Image", iso);
    expect({ step, replaces: diff?.replaces }).toEqual({ step: "replace", replaces: ["fileSha256"] });
    expect(now.id).not.toBe(id);
    expect(uploads(logged)).toHaveLength(1);
    expect(lines(mutations)).toEqual([`POST /v1/workspaces/${wid()}/images`, `DELETE /v1/images/${id}`]);
    expect(await get(`/v1/images/${now.id}`)).toMatchObject({ size: 2 * MiB, state: "AVAILABLE" });
    expect(now.outs.fileSha256).toBe(sha256(moved));
    expect((await api().get(`/v1/images/${id}`)).status).toBe(404);
  });

  it.each([
    [
      "an image's source URL",
      "golden",
      "Image",
      () => Object.assign(golden, { source: { type: "URL", url: "https://images.example.com/golden-2.qcow2" } }),
      "source",
      (id: string) => `/v1/images/${id}`,
    ],
    ["an image's uefi flag", "golden", "Image", () => Object.assign(golden, { uefi: true }), "uefi", (id: string) => `/v1/images/${id}`],
  ])("replaces on a change of %s: new id, old one gone", async (_what, name, kind, change, field, apiPath) => {
    const before = state[name].id;
    const { step, diff, now } = await upLogged(name, kind, change());
    expect({ step, replaces: diff?.replaces }).toEqual({ step: "replace", replaces: [field] });
    expect(now.id).not.toBe(before);
    expect((await api().get(apiPath(before))).status).toBe(404);
    expect((await get(apiPath(now.id))).state).toBe("AVAILABLE");
  });

  it("a read finds an out-of-band change; the next up restores the declaration in one PATCH, same id", async () => {
    const id = state.golden.id;
    expect((await api().patch(`/v1/images/${id}`, { description: "changed by hand", os: null })).status).toBe(204);
    const read = await ctx().face.read("Image", id, state.golden.outs, state.golden.inputs);
    expect(read).toMatchObject({ id, outs: { description: "changed by hand", os: null } });
    state.golden = { ...state.golden, outs: read.outs, ...(read.inputs ? { inputs: read.inputs } : {}) };
    const { step, now, mutations } = await upLogged("golden", "Image", golden);
    expect({ step, id: now.id }).toEqual({ step: "update", id });
    expect(lines(mutations)).toEqual([`PATCH /v1/images/${id}`]);
    expect(mutations[0].body).toEqual({ description: "Golden image, second cut", os: { family: "LINUX", name: "Golden Linux 2" } });
  });

  it("a read of an image and a snapshot deleted outside Pulumi answers no id (the engine drops them); the next up recreates them", async () => {
    const image = state.backup.id;
    const snapshot = state.snap.id;
    await ctx().emu.waitWorkflow((await api().delete(`/v1/images/${image}`)).body.id);
    await ctx().emu.waitWorkflow((await api().delete(`/v1/snapshots/${snapshot}`)).body.id);
    expect((await ctx().face.read("Image", image, state.backup.outs, state.backup.inputs)).id).toBe("");
    expect((await ctx().face.read("Snapshot", snapshot, state.snap.outs, state.snap.inputs)).id).toBe("");
    delete state.backup;
    delete state.snap;
    const b = await upLogged("backup", "Image", backup);
    const s = await upLogged("snap", "Snapshot", snap);
    expect([b.step, s.step]).toEqual(["create", "create"]);
    expect(b.now.id).not.toBe(image);
    expect(s.now.id).not.toBe(snapshot);
  });

  it("adopts an existing image by adoptId and converges it in one PATCH", async () => {
    const made = await api().post(`/v1/workspaces/${wid()}/images`, {
      kind: "TEMPLATE",
      name: "hand-made",
      source: { type: "URL", url: "https://images.example.com/hand.qcow2" },
    });
    expect(made.status).toBe(202);
    await ctx().emu.waitWorkflow(made.body.workflow.id);
    const id = made.body.resource.id;
    const { now, mutations } = await upLogged("adopted", "Image", {
      kind: "TEMPLATE",
      name: "hand-made",
      source: { type: "URL", url: "https://images.example.com/hand.qcow2" },
      description: "now managed",
      adoptId: id,
    });
    expect(now.id).toBe(id);
    expect(lines(mutations)).toEqual([`PATCH /v1/images/${id}`]);
    expect((await get(`/v1/images/${id}`)).description).toBe("now managed");
  });

  it("deletes an image and a snapshot whose create workflows failed, keeping nothing, and the next up creates them", async () => {
    for (const p of ["/v1/workspaces/*/images", "/v1/commands/create-snapshot"])
      await ctx().emu.control.post("/_emulator/faults", { kind: "workflow", outcome: "FAILED", method: "POST", path: p, times: 1 });
    const flaky = { kind: "ISO", name: "flaky-iso", source: { type: "URL", url: "https://images.example.com/flaky.iso" } };
    const flakySnap = { instanceId: state.vm.id, diskId: state.data.id };
    const failures = [await failedUp("Image", flaky), await failedUp("Snapshot", flakySnap)];
    expect(failures[0].message).toMatch(/Image "flaky-iso": create failed: workflow .* ended FAILED/);
    expect(failures[1].message).toMatch(/Snapshot of instance \d+: create failed: workflow .* ended FAILED/);
    for (const [err, kind, apiPath] of [
      [failures[0], "Image", "/v1/images"],
      [failures[1], "Snapshot", "/v1/snapshots"],
    ] as const) {
      const id = new RegExp(
        `The ${kind} it made \\(id (\\d+)\\) ended FAILED.*?, which a later up would replace, so it was deleted`,
        "s",
      ).exec(err.message)?.[1];
      expect({ kind, deleted: id }).toEqual({ kind, deleted: expect.stringMatching(/^\d+$/) });
      // Nothing for the engine to keep in state, and nothing left in the API.
      expect({ kind, kept: err.kept }).toEqual({ kind, kept: undefined });
      expect({ kind, status: (await api().get(`${apiPath}/${id}`)).status }).toEqual({ kind, status: 404 });
    }
    expect((await upLogged("flaky", "Image", flaky)).now.outs.state).toBe("AVAILABLE");
    expect((await upLogged("flaky-snap", "Snapshot", flakySnap)).now.outs.state).toBe("AVAILABLE");
  });

  it("an upload the storage refuses leaves no image behind, and the next up uploads it", async () => {
    const second = path.join(files, `${ctx().face.name}-second.iso`);
    fs.writeFileSync(second, randomBytes(MiB));
    await ctx().emu.control.post("/_emulator/faults", { kind: "status", status: 503, method: "PUT", path: "/uploads/*", times: 1 });
    const declared = { kind: "ISO", name: "second-iso", source: { type: "UPLOAD", filePath: second } };
    const err = await failedUp("Image", declared);
    expect(err.message).toMatch(/Image "second-iso": the upload was refused: PUT <signed upload URL> answered 503/);
    expect(err.kept).toBeUndefined();
    expect((await api().get(`/v1/workspaces/${wid()}/images`, { name: "second-iso" })).body.items).toEqual([]);
    const { now } = await upLogged("iso2", "Image", declared);
    expect(await get(`/v1/images/${now.id}`)).toMatchObject({ state: "AVAILABLE", size: MiB });
  });

  it("deletes everything it made, leaving the inventory empty", async () => {
    // The images and snapshots at once, as the engine deletes independent resources; then what they were made from.
    for (const names of [["golden", "iso", "backup", "adopted", "flaky", "iso2", "snap", "flaky-snap"], ["data"], ["vm"]]) {
      await Promise.all(names.map((name) => ctx().face.delete(kinds[name], state[name].id, state[name].outs)));
      for (const name of names) delete state[name];
    }
    expect(state).toEqual({});
    const inventory = (await ctx().emu.control.get("/_emulator/inventory")).body as { total: number; resources: Record<string, unknown[]> };
    for (const table of ["images", "snapshots", "instances", "disks"])
      expect({ table, left: inventory.resources[table] }).toEqual({ table, left: [] });
    expect(inventory.total).toBe(0);
  });
});
