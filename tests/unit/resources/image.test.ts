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
import { imageSpec } from "../../../resources/image";
import { image, type Refused, type Row } from "./support";

describe("Image inputs accepted at their boundaries", () => {
  it.each<Row>([["Image os name of one character", imageSpec, { ...image, os: { family: "LINUX", name: "U" } }]])(
    "%s",
    async (_what, spec, inputs) => {
      expect(await failuresOf(spec, inputs)).toEqual([]);
    },
  );
});

describe("Image inputs refused at preview, naming the property and the rule", () => {
  it.each<Refused>([
    [
      "an empty Image os name",
      imageSpec,
      { ...image, os: { family: "LINUX", name: "" } },
      "os.name",
      /^must not be empty.*\(spec part 2, Images: os name is optional\)$/,
    ],
  ])("%s", async (_what, spec, inputs, property, reason) => {
    const found = await failuresOf(spec, inputs);
    expect(found).toContainEqual({ property, reason: expect.stringMatching(reason) });
  });
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
    const r = await checkOnly(imageSpec).check!({}, { kind: "ISO", name: "boot-iso", source: { type: "UPLOAD", filePath: iso } });
    expect(r.failures).toEqual([]);
    expect(r.inputs!.fileSha256).toBe(createHash("sha256").update(fs.readFileSync(iso)).digest("hex"));
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
    expect((await failureLines(imageSpec, news)).join("\n")).toMatch(message);
  });

  it("accepts a 64-character name at creation but refuses renaming in place to more than 32 (PATCH takes 4 to 32)", async () => {
    const long = "n".repeat(64);
    expect(await failureLines(imageSpec, { ...urlImage, name: long })).toEqual([]);
    const recorded = { ...urlImage, workspaceId: "42" };
    expect((await failureLines(imageSpec, { ...urlImage, name: "n".repeat(33) }, recorded)).join("\n")).toMatch(
      /name: renaming in place goes through PATCH .* 4 to 32 characters/,
    );
    expect(await failureLines(imageSpec, { ...urlImage, name: "n".repeat(32) }, recorded)).toEqual([]);
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
    const d = await checkOnly(imageSpec).diff!("5", recorded, { ...recorded, ...change });
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
    const moved = await checkOnly(imageSpec).diff!("5", olds, { ...olds, source: { type: "UPLOAD", filePath: "/new/boot.iso" } });
    expect(moved).toMatchObject({ changes: true, replaces: [] });
    const changed = await checkOnly(imageSpec).diff!("5", olds, { ...olds, fileSha256: "bb" });
    expect(changed.replaces).toEqual(["fileSha256"]);
  });
});
