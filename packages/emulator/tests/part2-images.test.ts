/**
 * Part 2 Images: lists (workspace and administrator) with every filter and both paging styles,
 * create from URL, INSTANCE and BACKUP sources, ISO quotas, PATCH, restore, delete and access.
 * (ISO uploads through the signed URL: part2-images-upload.test.ts.)
 */
import { useTestEmulator, type TestEmulator } from "../src/testing";
import { makeForeignWorkspace, makeInstance, makeMember, MISSING_BIG_ID, restrictedToken } from "./apps";

let t: TestEmulator;
useTestEmulator((started) => (t = started), { workflowMs: 100 });

const imagesPath = () => `/v1/workspaces/${t.workspaceId}/images`;

const urlTemplate = (extra: Record<string, unknown> = {}) => ({
  kind: "TEMPLATE",
  name: "golden-ubuntu",
  description: "Ubuntu with our agent",
  group: "linux",
  os: { family: "LINUX", name: "Ubuntu 24.04" },
  source: { type: "URL", url: "https://images.example.com/golden.qcow2" },
  ...extra,
});

async function createImage(body: Record<string, unknown>, wait = true) {
  const res = await t.api.post(imagesPath(), body);
  expect(res.status).toBe(202);
  if (wait) expect(await t.waitWorkflow(res.body.workflow.id)).toBe("COMPLETED");
  return res.body.resource;
}

describe("create", () => {
  test("from a URL: 202 with WorkflowWithResource, PENDING then AVAILABLE with a size", async () => {
    const res = await t.api.post(imagesPath(), urlTemplate({ uefi: true }));
    expect(res.status).toBe(202);
    expect(res.body.workflow).toMatchObject({ name: "create-image", state: "QUEUED" });
    expect(res.body).not.toHaveProperty("upload");
    expect(res.body.resource).toMatchObject({
      name: "golden-ubuntu",
      description: "Ubuntu with our agent",
      group: "linux",
      kind: "TEMPLATE",
      source: {
        type: "URL",
        url: "https://images.example.com/golden.qcow2",
        backup_id: null,
        instance_id: null,
        disk_id: null,
        size_bytes: null,
      },
      os: { family: "LINUX", name: "Ubuntu 24.04" },
      uefi: true,
      official: false,
      deprecated: false,
      owner: { id: t.workspaceId, name: "demo-workspace" },
      state: "PENDING",
    });
    expect(BigInt(res.body.resource.id) > 2n ** 53n).toBe(true);
    expect(await t.waitWorkflow(res.body.workflow.id)).toBe("COMPLETED");
    const image = (await t.api.get(`/v1/images/${res.body.resource.id}`)).body;
    expect(image.state).toBe("AVAILABLE");
    expect(image.size).toBeGreaterThan(0);
    const inv = (await t.control.get("/_emulator/inventory")).body.resources.images;
    expect(inv).toEqual([{ id: image.id, name: "golden-ubuntu", workspaceId: t.workspaceId, state: "AVAILABLE" }]);
  });

  test("optional fields default to null/false", async () => {
    const image = await createImage(
      { kind: "ISO", name: "netboot", source: { type: "URL", url: "http://boot.example.com/netboot.iso" } },
      false,
    );
    expect(image).toMatchObject({ description: null, group: null, os: null, uefi: false, kind: "ISO" });
  });

  test("from an instance: the boot disk by default, or a named disk; identifiers round-trip as raw integers", async () => {
    const fx = makeInstance(t);
    const res = await t.api.post(imagesPath(), undefined, {
      rawBody: `{"kind":"BACKUP","name":"nightly","source":{"type":"INSTANCE","instance_id":${fx.instance.id}}}`,
    });
    expect(res.status).toBe(202);
    expect(res.body.resource.source).toMatchObject({ type: "INSTANCE", instance_id: fx.instance.id, disk_id: fx.bootDisk.id });
    expect(res.body.resource.size).toBe(fx.bootDisk.size);
    const data = await t.api.post(imagesPath(), undefined, {
      rawBody: `{"kind":"TEMPLATE","name":"data-copy","source":{"type":"INSTANCE","instance_id":${fx.instance.id},"disk_id":${fx.dataDisk.id}}}`,
    });
    expect(data.body.resource.source.disk_id).toBe(fx.dataDisk.id);
    const other = makeInstance(t);
    const notAttached = await t.api.post(imagesPath(), undefined, {
      rawBody: `{"kind":"TEMPLATE","name":"wrong-disk","source":{"type":"INSTANCE","instance_id":${fx.instance.id},"disk_id":${other.dataDisk.id}}}`,
    });
    expect(notAttached.status).toBe(400);
    expect(notAttached.message).toMatch(/source\.disk_id: the disk is not attached to the instance/);
  });

  test("from a backup: promotes a BACKUP of the workspace; other kinds 400, unfinished 409, unknown 404", async () => {
    const fx = makeInstance(t);
    const pending = await createImage({
      kind: "BACKUP",
      name: "nightly",
      source: { type: "INSTANCE", instance_id: BigInt(fx.instance.id) },
    });
    await t.control.patch(`/_emulator/tables/images/${pending.id}`, { state: "PENDING" });
    const early = await t.api.post(imagesPath(), {
      kind: "TEMPLATE",
      name: "promoted",
      source: { type: "BACKUP", backup_id: BigInt(pending.id) },
    });
    expect(early.status).toBe(409);
    expect(early.message).toMatch(/Backup image is PENDING/);
    await t.control.patch(`/_emulator/tables/images/${pending.id}`, { state: "AVAILABLE" });
    const promoted = await createImage({ kind: "TEMPLATE", name: "promoted", source: { type: "BACKUP", backup_id: BigInt(pending.id) } });
    expect(promoted.source).toMatchObject({ type: "BACKUP", backup_id: pending.id });
    expect(promoted.size).toBe(fx.bootDisk.size);
    const notBackup = await t.api.post(imagesPath(), {
      kind: "TEMPLATE",
      name: "again",
      source: { type: "BACKUP", backup_id: BigInt(promoted.id) },
    });
    expect(notBackup.status).toBe(400);
    expect(notBackup.message).toMatch(/source\.backup_id: must identify an image of kind BACKUP/);
    const missing = await t.api.post(imagesPath(), undefined, {
      rawBody: `{"kind":"TEMPLATE","name":"x-x-x","source":{"type":"BACKUP","backup_id":${MISSING_BIG_ID}}}`,
    });
    expect(missing.status).toBe(404);
  });

  test.each([
    ["a name of 3 characters", urlTemplate({ name: "abc" }), /name/],
    ["a name of 65 characters", urlTemplate({ name: "x".repeat(65) }), /name/],
    ["a description of 3 characters", urlTemplate({ description: "abc" }), /description/],
    ["a group of 33 characters", urlTemplate({ group: "g".repeat(33) }), /group/],
    ["an unknown kind", urlTemplate({ kind: "SNAPSHOT" }), /kind/],
    ["an unknown os family", urlTemplate({ os: { family: "MACOS" } }), /os\.family/],
    ["a source without type", urlTemplate({ source: { url: "https://x.example.com/a" } }), /source/],
    ["a URL source without url", urlTemplate({ source: { type: "URL" } }), /source\.url/],
    ["an ftp URL", urlTemplate({ source: { type: "URL", url: "ftp://x.example.com/a.img" } }), /source\.url: must be an http or https URL/],
    ["an INSTANCE source without instance_id", urlTemplate({ source: { type: "INSTANCE" } }), /source\.instance_id/],
    [
      "an instance id sent as a string",
      urlTemplate({ source: { type: "INSTANCE", instance_id: "12" } }),
      /source\.instance_id: must be an integer identifier/,
    ],
    [
      "an UPLOAD source for a TEMPLATE",
      urlTemplate({ source: { type: "UPLOAD", size_bytes: 10 } }),
      /source\.type: a TEMPLATE image cannot come from source UPLOAD/,
    ],
    ["a BACKUP from a URL", urlTemplate({ kind: "BACKUP" }), /source\.type: a BACKUP image cannot come from source URL/],
    [
      "an ISO from an instance",
      urlTemplate({ kind: "ISO", source: { type: "INSTANCE", instance_id: 1 } }),
      /source\.type: a ISO image cannot come from source INSTANCE/,
    ],
    ["an UPLOAD without size_bytes", urlTemplate({ kind: "ISO", source: { type: "UPLOAD" } }), /source\.size_bytes/],
    [
      "an UPLOAD of 0 bytes",
      urlTemplate({ kind: "ISO", source: { type: "UPLOAD", size_bytes: 0 } }),
      /source\.size_bytes: must be a positive byte count/,
    ],
  ])("400 for %s", async (_label, body, message) => {
    const res = await t.api.post(imagesPath(), body);
    expect(res.status).toBe(400);
    expect(res.message).toMatch(message);
    expect(res.body.errors.length).toBeGreaterThan(0);
  });

  test("404 for an instance of another workspace as a source", async () => {
    const foreign = makeForeignWorkspace(t);
    const theirs = makeInstance(t, { workspaceId: foreign.workspaceId });
    const res = await t.api.post(imagesPath(), urlTemplate({ source: { type: "INSTANCE", instance_id: BigInt(theirs.instance.id) } }));
    expect(res.status).toBe(404);
  });

  test("ISO quotas: 409 beyond iso_count and beyond iso_storage_bytes", async () => {
    const ws = t.emu.services.store.t.workspaces.get(t.workspaceId)!;
    await t.control.patch(`/_emulator/tables/workspaces/${t.workspaceId}`, {
      quota: { ...ws.quota, iso_count: 1, iso_storage_bytes: 1000 },
    });
    const big = await t.api.post(imagesPath(), { kind: "ISO", name: "too-big", source: { type: "UPLOAD", size_bytes: 1001 } });
    expect(big.status).toBe(409);
    expect(big.message).toMatch(/ISO storage quota exceeded/);
    expect((await t.api.post(imagesPath(), { kind: "ISO", name: "fits", source: { type: "UPLOAD", size_bytes: 1000 } })).status).toBe(202);
    const second = await t.api.post(imagesPath(), { kind: "ISO", name: "second", source: { type: "UPLOAD", size_bytes: 1 } });
    expect(second.status).toBe(409);
    expect(second.message).toMatch(/ISO quota reached/);
    // Templates are not ISOs: unaffected.
    expect((await t.api.post(imagesPath(), urlTemplate())).status).toBe(202);
  });

  test("a failed create workflow leaves the image FAILED", async () => {
    await t.control.post("/_emulator/faults", {
      kind: "workflow",
      outcome: "FAILED",
      method: "POST",
      path: "/v1/workspaces/*/images",
      times: 1,
    });
    const res = await t.api.post(imagesPath(), urlTemplate());
    expect(await t.waitWorkflow(res.body.workflow.id)).toBe("FAILED");
    expect((await t.api.get(`/v1/images/${res.body.resource.id}`)).body.state).toBe("FAILED");
  });
});

describe("access", () => {
  test("no token 403; VIEWER reads but cannot create; IMAGE READ grant cannot create; other workspace 404", async () => {
    const own = await createImage(urlTemplate());
    expect((await t.anon.get(imagesPath())).status).toBe(403);
    const viewer = makeMember(t, "VIEWER");
    expect((await viewer.get(imagesPath())).status).toBe(200);
    expect((await viewer.get(`/v1/images/${own.id}`)).status).toBe(200);
    const denied = await viewer.post(imagesPath(), urlTemplate());
    expect(denied.status).toBe(403);
    expect(denied.message).toMatch(/EDITOR/);
    expect((await viewer.patch(`/v1/images/${own.id}`, { name: "renamed" })).status).toBe(403);
    expect((await viewer.delete(`/v1/images/${own.id}`)).status).toBe(403);
    const reader = restrictedToken(t, { IMAGE: "READ" });
    expect((await reader.get(imagesPath())).status).toBe(200);
    expect((await reader.post(imagesPath(), urlTemplate())).status).toBe(403);
    expect((await restrictedToken(t, { APP: "READ" }).get(imagesPath())).status).toBe(403);
    const foreign = makeForeignWorkspace(t);
    expect((await foreign.owner.get(`/v1/images/${own.id}`)).status).toBe(404);
    expect((await t.api.get(`/v1/workspaces/${foreign.workspaceId}/images`)).status).toBe(404);
    expect((await t.api.get(`/v1/images/${MISSING_BIG_ID}`)).status).toBe(404);
  });

  test("platform images are readable by any token and cannot be patched or deleted (403)", async () => {
    const platform = (await t.api.get(imagesPath(), { official: "true", kind: "ISO" })).body.items[0];
    const viewer = makeMember(t, "VIEWER");
    expect((await viewer.get(`/v1/images/${platform.id}`)).body.owner).toBeNull();
    const patch = await t.api.patch(`/v1/images/${platform.id}`, { name: "mine now" });
    expect(patch.status).toBe(403);
    expect(patch.message).toMatch(/Platform images cannot be changed/);
    expect((await t.api.delete(`/v1/images/${platform.id}`)).status).toBe(403);
  });
});

describe("lists", () => {
  async function fixtureSet() {
    const fx = makeInstance(t);
    const backup = await createImage({
      kind: "BACKUP",
      name: "nightly-backup",
      source: { type: "INSTANCE", instance_id: BigInt(fx.instance.id) },
      os: { family: "LINUX" },
    });
    const golden = await createImage(
      urlTemplate({
        name: "golden-windows",
        group: "windows",
        description: "Windows golden image",
        os: { family: "WINDOWS", name: "Windows Server 2022" },
      }),
    );
    // The ISO stays PENDING: its create workflow never ends.
    await t.control.post("/_emulator/faults", { kind: "stuck", method: "POST", path: "/v1/workspaces/*/images", times: 1 });
    const iso = await createImage(
      { kind: "ISO", name: "rescue-iso", source: { type: "URL", url: "https://x.example.com/rescue.iso" }, os: { family: "BSD" } },
      false,
    );
    return { fx, backup, golden, iso };
  }
  const names = async (query: Record<string, string | string[]>, path = imagesPath(), api = t.api) =>
    (await api.get(path, { limit: 100, ...query })).body.items.map((x: { name: string }) => x.name).sort();

  test("workspace list holds platform and own images; every filter", async () => {
    const { fx, backup, golden } = await fixtureSet();
    const all = await names({});
    expect(all).toEqual(
      expect.arrayContaining([
        "Ubuntu 24.04 LTS",
        "Debian 12",
        "Ubuntu 24.04 Live Server ISO",
        "nightly-backup",
        "golden-windows",
        "rescue-iso",
      ]),
    );
    expect(all.length).toBe(9);
    expect(await names({ official: "false" })).toEqual(["golden-windows", "nightly-backup", "rescue-iso"]);
    expect((await names({ official: "true" })).length).toBe(6);
    expect(await names({ q: "windows" })).toEqual(["Windows Server 2022", "golden-windows"]);
    expect(await names({ q: golden.id })).toEqual(["golden-windows"]);
    expect(await names({ id: [backup.id, golden.id] })).toEqual(["golden-windows", "nightly-backup"]);
    expect(await names({ name: "UBUNTU" })).toEqual(["Ubuntu 20.04 LTS", "Ubuntu 24.04 LTS", "Ubuntu 24.04 Live Server ISO"]);
    expect(await names({ group: "windows" })).toEqual(["Windows Server 2022", "golden-windows"]);
    expect(await names({ description: "bookworm" })).toEqual(["Debian 12"]);
    expect(await names({ os: "BSD" })).toEqual(["FreeBSD 14.1", "rescue-iso"]);
    expect(await names({ kind: ["ISO", "BACKUP"] })).toEqual(["Ubuntu 24.04 Live Server ISO", "nightly-backup", "rescue-iso"]);
    expect(await names({ kind: "ISO,BACKUP" })).toEqual(["Ubuntu 24.04 Live Server ISO", "nightly-backup", "rescue-iso"]);
    expect(await names({ source_instance: fx.instance.id })).toEqual(["nightly-backup"]);
    expect(await names({ source_disk: fx.bootDisk.id })).toEqual(["nightly-backup"]);
    expect(await names({ source_disk: fx.dataDisk.id })).toEqual([]);
    expect(await names({ deprecated: "true" })).toEqual(["Ubuntu 20.04 LTS"]);
    expect(await names({ state: "PENDING" })).toEqual(["rescue-iso"]);
    expect(await names({ state: ["PENDING", "FAILED"], official: "false" })).toEqual(["rescue-iso"]);
    for (const [query, message] of [
      [{ kind: "DISK" }, /kind must be one of/],
      [{ state: "ASLEEP" }, /state must be one of/],
      [{ os: "AMIGA" }, /os must be one of/],
      [{ official: "maybe" }, /official must be true or false/],
    ] as const) {
      const bad = await t.api.get(imagesPath(), query);
      expect(bad.status).toBe(400);
      expect(bad.message).toMatch(message);
    }
  });

  test("page numbers and keyset cursors", async () => {
    await fixtureSet();
    const all = (await t.api.get(imagesPath(), { sort: "name" })).body.items.map((x: { id: string }) => x.id);
    expect(all.length).toBe(9);
    const p1 = (await t.api.get(imagesPath(), { sort: "name", limit: 4 })).body;
    expect(p1.items.map((x: { id: string }) => x.id)).toEqual(all.slice(0, 4));
    expect(p1).toMatchObject({ hasNext: true, hasPrevious: false });
    const p2 = (await t.api.get(imagesPath(), { sort: "name", limit: 4, after: p1.after })).body;
    expect(p2.items.map((x: { id: string }) => x.id)).toEqual(all.slice(4, 8));
    const back = (await t.api.get(imagesPath(), { sort: "name", limit: 4, before: p2.before })).body;
    expect(back.items.map((x: { id: string }) => x.id)).toEqual(all.slice(0, 4));
    const page3 = (await t.api.get(imagesPath(), { sort: "name", limit: 4, page: 3 })).body;
    expect(page3.items.map((x: { id: string }) => x.id)).toEqual(all.slice(8));
    expect(page3.hasNext).toBe(false);
    const bad = await t.api.get(imagesPath(), { after: "not-a-cursor" });
    expect(bad.status).toBe(400);
  });

  test("administrator list: every workspace's images, owner filter; a user token gets 400", async () => {
    await fixtureSet();
    const foreign = makeForeignWorkspace(t);
    await foreign.owner.post(`/v1/workspaces/${foreign.workspaceId}/images`, urlTemplate({ name: "their-image" }));
    const all = await names({}, "/v1/images", t.staff);
    expect(all).toEqual(expect.arrayContaining(["their-image", "golden-windows", "Debian 12"]));
    expect(all.length).toBe(10);
    expect(await names({ owner: foreign.workspaceId }, "/v1/images", t.staff)).toEqual(["their-image"]);
    expect(await names({ owner: foreign.workspaceId, official: "true" }, "/v1/images", t.staff)).toEqual([]);
    const user = await t.api.get("/v1/images");
    expect(user.status).toBe(400);
    expect(user.message).toMatch(/administrator/);
    expect(await names({ name: "their" })).toEqual([]);
  });
});

describe("PATCH", () => {
  test("204; name, description, group and os change; os null clears", async () => {
    const image = await createImage(urlTemplate());
    const res = await t.api.patch(`/v1/images/${image.id}`, {
      name: "golden-v2",
      description: "Second cut",
      group: "golden",
      os: { family: "LINUX", name: "Ubuntu 24.04.1" },
    });
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
    expect((await t.api.get(`/v1/images/${image.id}`)).body).toMatchObject({
      name: "golden-v2",
      description: "Second cut",
      group: "golden",
      os: { family: "LINUX", name: "Ubuntu 24.04.1" },
    });
    expect((await t.api.patch(`/v1/images/${image.id}`, { os: null })).status).toBe(204);
    expect((await t.api.get(`/v1/images/${image.id}`)).body.os).toBeNull();
  });

  test.each([
    [{ name: "abc" }, /name/],
    [{ name: "n".repeat(33) }, /name/],
    [{ description: "abc" }, /description/],
    [{ description: "d".repeat(1001) }, /description/],
    [{ group: "g".repeat(33) }, /group/],
    [{ name: null }, /name/],
    [{ os: { name: "no family" } }, /os\.family/],
  ])("400 for %j", async (patch, message) => {
    const image = await createImage(urlTemplate());
    const res = await t.api.patch(`/v1/images/${image.id}`, patch);
    expect(res.status).toBe(400);
    expect(res.message).toMatch(message);
  });
});

describe("DELETE", () => {
  test("202 workflow, DELETING, then gone for good", async () => {
    const image = await createImage(urlTemplate());
    const res = await t.api.delete(`/v1/images/${image.id}`);
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ name: "delete-image", state: "QUEUED" });
    expect((await t.api.get(`/v1/images/${image.id}`)).body.state).toBe("DELETING");
    expect((await t.api.delete(`/v1/images/${image.id}`)).status).toBe(409);
    expect(await t.waitWorkflow(res.body.id)).toBe("COMPLETED");
    expect((await t.api.get(`/v1/images/${image.id}`)).status).toBe(404);
    expect((await t.control.get("/_emulator/inventory")).body.resources.images).toEqual([]);
  });

  test("409 while the ISO is attached to an instance", async () => {
    const iso = await createImage({ kind: "ISO", name: "my-iso", source: { type: "URL", url: "https://x.example.com/a.iso" } });
    const fx = makeInstance(t);
    t.emu.services.store.t.instances.update(fx.instance.id, { isoId: iso.id });
    const res = await t.api.delete(`/v1/images/${iso.id}`);
    expect(res.status).toBe(409);
    expect(res.message).toMatch(/attached/);
  });
});

describe("restore", () => {
  test("offline instance: 202 workflow onto the boot disk by default; the instance records the image", async () => {
    const image = await createImage(urlTemplate());
    const fx = makeInstance(t, { online: false });
    const res = await t.api.post(`/v1/images/${image.id}/restore`, { instance_id: BigInt(fx.instance.id) });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ name: "restore-image", state: "QUEUED" });
    expect(await t.waitWorkflow(res.body.id)).toBe("COMPLETED");
    const row = t.emu.services.store.t.instances.get(fx.instance.id)!;
    expect(row.imageId).toBe(image.id);
    expect(row.online).toBe(false);
  });

  test("online instance: 409 unless restart, which powers it off during the restore and on after", async () => {
    const image = await createImage(urlTemplate());
    const fx = makeInstance(t);
    const refused = await t.api.post(`/v1/images/${image.id}/restore`, { instance_id: BigInt(fx.instance.id) });
    expect(refused.status).toBe(409);
    expect(refused.message).toMatch(/power it off first, or send restart true/);
    const res = await t.api.post(`/v1/images/${image.id}/restore`, {
      instance_id: BigInt(fx.instance.id),
      disk_id: BigInt(fx.dataDisk.id),
      restart: true,
    });
    expect(res.status).toBe(202);
    expect(t.emu.services.store.t.instances.get(fx.instance.id)!.online).toBe(false);
    await t.waitWorkflow(res.body.id);
    const row = t.emu.services.store.t.instances.get(fx.instance.id)!;
    expect(row.online).toBe(true);
    expect(row.imageId).toBeNull();
  });

  test("platform templates restore too; ISO 400; unfinished image 409; foreign disk 400; locked 409; others 404", async () => {
    const platform = (await t.api.get(imagesPath(), { official: "true", name: "Debian" })).body.items[0];
    const fx = makeInstance(t, { online: false });
    expect((await t.api.post(`/v1/images/${platform.id}/restore`, { instance_id: BigInt(fx.instance.id) })).status).toBe(202);
    const iso = (await t.api.get(imagesPath(), { kind: "ISO" })).body.items[0];
    const isoRes = await t.api.post(`/v1/images/${iso.id}/restore`, { instance_id: BigInt(fx.instance.id) });
    expect(isoRes.status).toBe(400);
    expect(isoRes.message).toMatch(/ISO cannot be restored/);
    await t.control.post("/_emulator/faults", { kind: "stuck", method: "POST", path: "/v1/workspaces/*/images", times: 1 });
    const pending = await createImage(urlTemplate(), false);
    const early = await t.api.post(`/v1/images/${pending.id}/restore`, { instance_id: BigInt(fx.instance.id) });
    expect(early.status).toBe(409);
    const other = makeInstance(t);
    const wrongDisk = await t.api.post(`/v1/images/${platform.id}/restore`, {
      instance_id: BigInt(fx.instance.id),
      disk_id: BigInt(other.bootDisk.id),
    });
    expect(wrongDisk.status).toBe(400);
    expect(wrongDisk.message).toMatch(/disk_id: the disk is not attached to the instance/);
    const locked = makeInstance(t, { online: false, locked: true });
    expect((await t.api.post(`/v1/images/${platform.id}/restore`, { instance_id: BigInt(locked.instance.id) })).status).toBe(409);
    expect((await t.api.post(`/v1/images/${platform.id}/restore`, {})).status).toBe(400);
    const missing = await t.api.post(`/v1/images/${platform.id}/restore`, undefined, { rawBody: `{"instance_id":${MISSING_BIG_ID}}` });
    expect(missing.status).toBe(404);
    const foreign = makeForeignWorkspace(t);
    const theirs = makeInstance(t, { workspaceId: foreign.workspaceId, online: false });
    expect((await t.api.post(`/v1/images/${platform.id}/restore`, { instance_id: BigInt(theirs.instance.id) })).status).toBe(404);
    const mine = await createImage(urlTemplate());
    expect((await foreign.owner.post(`/v1/images/${mine.id}/restore`, { instance_id: BigInt(theirs.instance.id) })).status).toBe(404);
    const viewer = makeMember(t, "VIEWER");
    expect((await viewer.post(`/v1/images/${platform.id}/restore`, { instance_id: BigInt(fx.instance.id) })).status).toBe(403);
  });
});
