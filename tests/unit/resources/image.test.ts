/**
 * Image: the input constraints of spec part 2 at their boundaries, the preview rules (the upload's
 * hash, renaming limits) and what each change does, through check and diff (which never call the
 * API).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { createHash } from "node:crypto";
import { checkOnly, failureLines, failuresOf } from "../../support/preview";
import { imageDefinition } from "../../../resources/image";
import * as http from "node:http";
import { fakeContext, I1, image, type Row } from "./support";

describe("Image inputs accepted at their boundaries", () => {
  it.each<Row>([["Image os name of one character", imageDefinition, { ...image, os: { family: "LINUX", name: "U" } }]])(
    "%s",
    async (_what, spec, inputs) => {
      expect(await failuresOf(spec, inputs)).toEqual([]);
    },
  );
});

describe("Image", () => {
  let dir: string;
  let iso: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "svc-image-unit-"));
    iso = path.join(dir, "boot.iso");
    fs.writeFileSync(iso, Buffer.alloc(3000, 7));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  const urlImage = { kind: "TEMPLATE", name: "golden-image", source: { type: "URL", url: "https://images.example.com/golden.qcow2" } };

  it("computes the upload file's SHA-256 at preview", async () => {
    const r = await checkOnly(imageDefinition).check!({}, { kind: "ISO", name: "boot-iso", source: { type: "UPLOAD", filePath: iso } });
    expect(r.failures).toEqual([]);
    expect(r.inputs!.fileSha256).toBe(createHash("sha256").update(fs.readFileSync(iso)).digest("hex"));
  });

  it("computes no hash for a source other than UPLOAD", async () => {
    const r = await checkOnly(imageDefinition).check!({}, urlImage);
    expect(r.failures).toEqual([]);
    expect(Object.keys(r.inputs!)).not.toContain("fileSha256");
  });

  it.each([
    [
      "an UPLOAD source for a TEMPLATE",
      { kind: "TEMPLATE", name: "boot-iso", source: { type: "UPLOAD", filePath: "/x.iso" } },
      /source: an UPLOAD source is for ISO images/,
    ],
    [
      "a missing upload file",
      { kind: "ISO", name: "boot-iso", source: { type: "UPLOAD", filePath: "/nonexistent/boot.iso" } },
      /source: source.filePath: no such file/,
    ],
    ["a name of 3 characters", { ...urlImage, name: "abc" }, /name: must be 4 to 64 characters/],
    ["a name of 65 characters", { ...urlImage, name: "x".repeat(65) }, /name: must be 4 to 64 characters/],
    ["a short description", { ...urlImage, description: "abc" }, /description: must be 4 to 1000 characters/],
    ["a long group", { ...urlImage, group: "g".repeat(33) }, /group: must be 4 to 32 characters/],
    ["an unknown os family", { ...urlImage, os: { family: "MACOS" } }, /os\.family: must be LINUX, WINDOWS or BSD/],
    ["an unknown source type", { ...urlImage, source: { type: "FTP", url: "x" } }, /source\.type: must be a source whose type is URL/],
    ["a backup source without backupId", { ...urlImage, source: { type: "BACKUP" } }, /source\.backupId/],
  ])("rejects %s at preview", async (_what, news, message) => {
    expect((await failureLines(imageDefinition, news)).join("\n")).toMatch(message);
  });

  it.each([
    [
      "an unknown source type",
      { type: "FTP", url: "x" },
      "source.type",
      "must be a source whose type is URL (url), BACKUP (backupId), INSTANCE (instanceId, diskId) or UPLOAD (filePath) (spec part 2, Images: source type)",
    ],
    [
      "a URL source with a backupId",
      { type: "URL", url: "https://a.example.com/x", backupId: "1" },
      "source",
      "unknown field backupId: the fields are type, url",
    ],
    [
      "a BACKUP source with snake_case",
      { type: "BACKUP", backup_id: "1" },
      "source",
      "unknown field backup_id: the fields are type, backupId",
    ],
    [
      "an INSTANCE source with a size",
      { type: "INSTANCE", instanceId: "1", size: 2 },
      "source",
      "unknown field size: the fields are type, instanceId, diskId",
    ],
    [
      "an UPLOAD source with a url",
      { type: "UPLOAD", filePath: "/x.iso", url: "u" },
      "source",
      "unknown field url: the fields are type, filePath",
    ],
    ["an UPLOAD source with an empty path", { type: "UPLOAD", filePath: "" }, "source.filePath", "must name a local file"],
    ["an os with a version", null, "os", "unknown field version: the fields are family, name"],
  ])("refuses %s with the message it has always had", async (_what, source, property, reason) => {
    const news = source === null ? { ...urlImage, os: { family: "LINUX", version: "1" } } : { ...urlImage, kind: "ISO", source };
    expect(await failuresOf(imageDefinition, news)).toContainEqual({ property, reason });
  });

  it("accepts a 64-character name at creation but refuses renaming in place to more than 32 (PATCH takes 4 to 32)", async () => {
    const long = "n".repeat(64);
    expect(await failureLines(imageDefinition, { ...urlImage, name: long })).toEqual([]);
    const recorded = { ...urlImage, workspaceId: "42" };
    expect((await failureLines(imageDefinition, { ...urlImage, name: "n".repeat(33) }, recorded)).join("\n")).toMatch(
      /name: renaming in place goes through PATCH .* 4 to 32 characters/,
    );
    expect(await failureLines(imageDefinition, { ...urlImage, name: "n".repeat(32) }, recorded)).toEqual([]);
  });

  const recorded = { ...urlImage, workspaceId: "42", description: "golden", state: "AVAILABLE" };
  it.each([
    ["name", { name: "golden-2" }, false],
    ["description", { description: "gold" }, false],
    ["group", { group: "linux" }, false],
    ["os", { os: { family: "LINUX" } }, false],
    ["kind", { kind: "ISO" }, true],
    ["source", { source: { type: "URL", url: "https://images.example.com/other.qcow2" } }, true],
    ["uefi", { uefi: true }, true],
  ])("a change of %s (%o): replaces %s", async (field, change, replaces) => {
    const d = await checkOnly(imageDefinition).diff!("5", recorded, { ...recorded, ...change });
    expect(d.changes).toBe(true);
    expect(d.replaces).toEqual(replaces ? [field] : []);
    // The new image is made before the old one is deleted.
    if (replaces) expect(d.deleteBeforeReplace).toBe(false);
  });

  it("an uploaded ISO is replaced when its file's content changes, not when the file moves", async () => {
    const olds = {
      kind: "ISO",
      name: "boot-iso",
      workspaceId: "42",
      source: { type: "UPLOAD", filePath: "/old/boot.iso" },
      fileSha256: "aa",
      state: "AVAILABLE",
    };
    const moved = await checkOnly(imageDefinition).diff!("5", olds, { ...olds, source: { type: "UPLOAD", filePath: "/new/boot.iso" } });
    expect(moved).toMatchObject({ changes: true, replaces: [] });
    const changed = await checkOnly(imageDefinition).diff!("5", olds, { ...olds, fileSha256: "bb" });
    expect(changed.replaces).toEqual(["fileSha256"]);
  });
});

describe("Image API mapping (the state's shape)", () => {
  const workflow = { id: "wf-1", name: "create", state: "RUNNING" };
  const created = () => ({ resource: { id: 5 }, workflow });
  const base = { workspaceId: "42", kind: "TEMPLATE", name: "golden" };

  it.each([
    [
      "URL",
      { type: "URL", url: "https://images.example.com/golden.qcow2" },
      { type: "URL", url: "https://images.example.com/golden.qcow2" },
    ],
    ["BACKUP", { type: "BACKUP", backupId: "7" }, { type: "BACKUP", backup_id: 7n }],
    ["INSTANCE without diskId", { type: "INSTANCE", instanceId: I1 }, { type: "INSTANCE", instance_id: BigInt(I1) }],
    ["INSTANCE with diskId", { type: "INSTANCE", instanceId: I1, diskId: "9" }, { type: "INSTANCE", instance_id: BigInt(I1), disk_id: 9n }],
  ])("creates from a %s source with the source in the API's names", async (_what, source, wire) => {
    const { ctx, calls } = fakeContext({ "POST /v1/workspaces/42/images": created }, "create");
    expect(await imageDefinition.api.create(ctx, { ...base, source } as never)).toStrictEqual({ id: "5", workflow });
    expect(calls).toStrictEqual([
      { method: "POST", path: "/v1/workspaces/42/images", body: { kind: "TEMPLATE", name: "golden", source: wire } },
    ]);
  });

  it("creates with every optional field: os in the API's shape (name null when unset), uefi, description, group", async () => {
    const { ctx, calls } = fakeContext({ "POST /v1/workspaces/42/images": created }, "create");
    const source = { type: "URL", url: "https://images.example.com/golden.qcow2" };
    await imageDefinition.api.create(ctx, {
      ...base,
      source,
      description: "golden image",
      group: "linux",
      os: { family: "LINUX" },
      uefi: true,
    } as never);
    await imageDefinition.api.create(ctx, { ...base, source, os: { family: "BSD", name: "FreeBSD" }, uefi: false } as never);
    await imageDefinition.api.create(ctx, { ...base, source, os: null } as never);
    expect(calls.map((c) => c.body)).toStrictEqual([
      {
        kind: "TEMPLATE",
        name: "golden",
        source,
        description: "golden image",
        group: "linux",
        os: { family: "LINUX", name: null },
        uefi: true,
      },
      { kind: "TEMPLATE", name: "golden", source, os: { family: "BSD", name: "FreeBSD" }, uefi: false },
      { kind: "TEMPLATE", name: "golden", source, os: null },
    ]);
  });

  it("creates from an UPLOAD source with the file's size, then streams the file to the signed URL", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "svc-image-upload-"));
    const file = path.join(dir, "boot.iso");
    fs.writeFileSync(file, Buffer.alloc(1234, 3));
    const received: Buffer[] = [];
    const server = http.createServer((req, res) => {
      req.on("data", (c: Buffer) => received.push(c));
      req.on("end", () => res.writeHead(200).end());
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/upload/5`;
      const { ctx, calls } = fakeContext(
        { "POST /v1/workspaces/42/images": () => ({ resource: { id: 5, upload: { url, max_size_bytes: 1234 } }, workflow }) },
        "create",
      );
      const source = { type: "UPLOAD", filePath: file };
      expect(await imageDefinition.api.create(ctx, { ...base, kind: "ISO", source } as never)).toStrictEqual({ id: "5", workflow });
      expect(calls).toStrictEqual([
        {
          method: "POST",
          path: "/v1/workspaces/42/images",
          body: { kind: "ISO", name: "golden", source: { type: "UPLOAD", size_bytes: 1234 } },
        },
      ]);
      expect(Buffer.concat(received)).toStrictEqual(fs.readFileSync(file));
    } finally {
      await new Promise((resolve) => server.close(resolve));
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("patches only the changed fields in the API's names, os in the API's shape", async () => {
    const { ctx, calls } = fakeContext({ "PATCH /v1/images/5": () => undefined }, "update");
    const news = {
      ...base,
      source: { type: "URL", url: "https://x.example.com/a" },
      name: "golden-2",
      description: "gold",
      group: "linux",
    };
    await imageDefinition.api.update!.updateRequest!(ctx, "5", {} as never, { ...news, os: { family: "LINUX" } } as never, ["name", "os"]);
    await imageDefinition.api.update!.updateRequest!(ctx, "5", {} as never, { ...news, os: null } as never, ["description", "group", "os"]);
    await imageDefinition.api.update!.updateRequest!(ctx, "5", {} as never, news as never, ["os"]);
    expect(calls).toStrictEqual([
      { method: "PATCH", path: "/v1/images/5", body: { name: "golden-2", os: { family: "LINUX", name: null } } },
      { method: "PATCH", path: "/v1/images/5", body: { description: "gold", group: "linux", os: null } },
      { method: "PATCH", path: "/v1/images/5", body: { os: undefined } },
    ]);
  });

  const answer = {
    id: 5,
    name: "golden",
    description: null,
    group: null,
    kind: "TEMPLATE",
    os: null,
    size: 2048,
    uefi: false,
    official: false,
    deprecated: false,
    owner: { id: 42 },
    state: "AVAILABLE",
    created: "2026-01-02T03:04:05Z",
  };
  const read = (api: object, prior: object) =>
    imageDefinition.api.get(fakeContext({ "GET /v1/images/5": () => api }).ctx, "5", prior as never);
  const common = { workspaceId: "42", kind: "TEMPLATE", name: "golden", uefi: false, size: 2048, state: "AVAILABLE" };
  const tail = { official: false, deprecated: false, createdAt: "2026-01-02T03:04:05Z" };

  it.each([
    [
      "URL",
      { type: "URL", url: "https://a.example.com/x.img", size_bytes: null },
      undefined,
      { type: "URL", url: "https://a.example.com/x.img" },
    ],
    ["BACKUP", { type: "BACKUP", backup_id: 77 }, undefined, { type: "BACKUP", backupId: "77" }],
    ["INSTANCE, diskId undeclared", { type: "INSTANCE", instance_id: 8, disk_id: 9 }, undefined, { type: "INSTANCE", instanceId: "8" }],
    [
      "INSTANCE, diskId declared",
      { type: "INSTANCE", instance_id: 8, disk_id: 9 },
      { type: "INSTANCE", instanceId: "8", diskId: "9" },
      { type: "INSTANCE", instanceId: "8", diskId: "9" },
    ],
    [
      "UPLOAD",
      { type: "UPLOAD", size_bytes: 2048 },
      { type: "UPLOAD", filePath: "/isos/boot.iso" },
      { type: "UPLOAD", filePath: "/isos/boot.iso" },
    ],
    ["UPLOAD, undeclared (adopted)", { type: "UPLOAD", size_bytes: 2048 }, undefined, { type: "UPLOAD", filePath: "" }],
    ["PLATFORM (reported as is)", { type: "PLATFORM", name: "ubuntu" }, undefined, { type: "PLATFORM", name: "ubuntu" }],
    ["no source, URL declared", null, { type: "URL", url: "https://a.example.com/x.img" }, { type: "URL", url: "" }],
    ["no source, nothing declared", undefined, undefined, { type: "URL", url: "" }],
  ])("reads a %s source as recorded", async (_what, source, declared, recorded) => {
    const prior = declared ? { source: declared } : {};
    expect(await read({ ...answer, source }, prior)).toStrictEqual({ ...common, source: recorded, ...tail });
  });

  it.each([
    ["no os, none declared", null, {}, {}],
    ["no os, os declared (cleared outside Pulumi)", null, { os: { family: "LINUX" } }, { os: null }],
    ["no os, null declared", null, { os: null }, { os: null }],
    ["an os without name", { family: "LINUX", name: null }, {}, { os: { family: "LINUX" } }],
    ["an os with name", { family: "WINDOWS", name: "Server 2022" }, {}, { os: { family: "WINDOWS", name: "Server 2022" } }],
  ])("reads %s", async (_what, apiOs, prior, recorded) => {
    const source = { type: "URL", url: "https://a.example.com/x.img" };
    expect(await read({ ...answer, source, os: apiOs }, { source, ...prior })).toStrictEqual({
      ...common,
      source,
      ...recorded,
      ...tail,
    });
  });

  it("reads description, group and the fallbacks of a sparse answer (no owner, no created)", async () => {
    const source = { type: "URL", url: "https://a.example.com/x.img" };
    const sparse = { ...answer, source, description: "golden image", group: "linux", owner: null, created: undefined, uefi: true };
    expect(await read(sparse, { workspaceId: "43", source, fileSha256: "ab" })).toStrictEqual({
      workspaceId: "43",
      kind: "TEMPLATE",
      name: "golden",
      source,
      description: "golden image",
      group: "linux",
      uefi: true,
      size: 2048,
      state: "AVAILABLE",
      official: false,
      deprecated: false,
      createdAt: "",
    });
    expect(await read({ ...sparse, owner: null }, { source })).toMatchObject({ workspaceId: "" });
  });

  it("keeps the upload's hash from state, lists stable outputs and policies", () => {
    expect(imageDefinition.keepFromState).toStrictEqual(["fileSha256"]);
    // A set (the engine's `stables`): its order is not behaviour.
    expect([...imageDefinition.stableOutputs!].sort()).toStrictEqual(["createdAt", "kind"]);
    expect(Object.fromEntries(Object.entries(imageDefinition.onChange).map(([k, p]) => [k, p.kind]))).toStrictEqual({
      kind: "replace",
      source: "depends",
      fileSha256: "replace",
      uefi: "replace",
      name: "updateRequest",
      description: "updateRequest",
      group: "updateRequest",
      os: "updateRequest",
    });
  });
});
