/**
 * Apps, images and recipes: the policy tables, preview rules and placeholder helpers, through
 * the lifecycle's check and diff (which never call the API).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { createHash } from "node:crypto";
import { checkOnly, failureLines } from "../../support/preview";
import { appSpec } from "../../../resources/app";
import { appTemplateSpec, placeholdersOf, resolvesTo } from "../../../resources/appTemplate";
import { imageSpec } from "../../../resources/image";
import { recipeSpec } from "../../../resources/recipe";
import { recipeInstallationSpec } from "../../../resources/recipeInstallation";
import { snapshotSpec } from "../../../resources/snapshot";

describe("App", () => {
  const custom = {
    instanceId: "1",
    name: "web",
    image: "nginx:1.27",
    ports: [{ hostPort: 80, containerPort: 80, http: true }],
    domain: "web.example.com",
  };
  const fromTemplate = { instanceId: "1", name: "kuma", templateId: "7", environment: { A: "x", B: null, C: "{{random:8}}" } };

  it("accepts both modes and fills the defaults", async () => {
    const r = await checkOnly(appSpec).check!({}, custom);
    expect(r.failures).toEqual([]);
    expect(r.inputs).toMatchObject({ running: true, ports: [{ hostPort: 80, containerPort: 80, protocol: "TCP", http: true }] });
    expect(await failureLines(appSpec, fromTemplate)).toEqual([]);
  });

  it.each([
    ["neither image nor templateId", { ...custom, image: undefined }, /image: set image .* or templateId/],
    ["both image and templateId", { ...custom, templateId: "7" }, /image: set either image or templateId/],
    ["an image without a tag", { ...custom, image: "nginx" }, /image: must be a container image with a tag/],
    ["a digest-only image", { ...custom, image: "nginx@sha256:abc" }, /image: must be a container image with a tag/],
    ["a registry port without a tag", { ...custom, image: "registry:5000/team/app" }, /image: must be a container image with a tag/],
    [
      "ports on a template app",
      { ...fromTemplate, ports: [{ hostPort: 1, containerPort: 1 }] },
      /ports: a template app takes its ports from the template/,
    ],
    [
      "a domain without an http port",
      { ...custom, ports: [{ hostPort: 80, containerPort: 80 }] },
      /domain: a domain needs at least one port with http true/,
    ],
    ["a null value on a custom app", { ...custom, environment: { A: null } }, /environment: null removes a template default/],
    [
      "an unknown placeholder",
      { ...fromTemplate, environment: { A: "{{nope}}" } },
      /environment: environment.A: unknown placeholder \{\{nope\}\}/,
    ],
    ["a random length of 0", { ...fromTemplate, environment: { A: "{{random:0}}" } }, /random length must be 1 to 128/],
    [
      "a port out of range",
      { ...custom, ports: [{ hostPort: 70000, containerPort: 80, http: true }] },
      /ports\[0\]\.hostPort: must be 1 to 65535/,
    ],
    ["a snake_case port field", { ...custom, ports: [{ host_port: 80, containerPort: 80 }] }, /ports\[0\]: unknown field host_port/],
    [
      "a relative container path",
      { ...custom, mounts: [{ hostPath: "/a", containerPath: "data" }] },
      /mounts\[0\]\.containerPath: must be an absolute path/,
    ],
    [
      "a repeated host port and protocol",
      {
        ...custom,
        ports: [
          { hostPort: 80, containerPort: 80, http: true },
          { hostPort: 80, containerPort: 81 },
        ],
      },
      /ports\[1\]: duplicate host port and protocol 80\/TCP/,
    ],
  ])("rejects %s at preview, naming the property", async (_what, news, message) => {
    expect((await failureLines(appSpec, news)).join("\n")).toMatch(message);
  });

  it("allows the same host port on TCP and UDP", async () => {
    expect(
      await failureLines(appSpec, {
        ...custom,
        ports: [
          { hostPort: 53, containerPort: 53, protocol: "UDP" },
          { hostPort: 53, containerPort: 53, http: true },
        ],
      }),
    ).toEqual([]);
  });

  const recorded = {
    ...custom,
    ports: [{ hostPort: 80, containerPort: 80, protocol: "TCP", http: true }],
    running: true,
    environment: {},
    mounts: [],
    state: "AVAILABLE",
  };
  it.each([
    ["image", { image: "nginx:1.28" }, false],
    ["environment", { environment: { A: "1" } }, false],
    ["mounts", { mounts: [{ hostPath: "/a", containerPath: "/b", readOnly: false }] }, false],
    ["ports", { ports: [{ hostPort: 81, containerPort: 80, protocol: "TCP", http: true }] }, false],
    ["running", { running: false }, false],
    ["name", { name: "web-2" }, true],
    ["instanceId", { instanceId: "2" }, true],
    ["domain", { domain: "www.example.com" }, true],
    ["templateId", { templateId: "9" }, true],
  ])("a change of %s (%o): replaces %s", async (field, change, replaces) => {
    const d = await checkOnly(appSpec).diff!("5", recorded, { ...recorded, ...change });
    expect(d.changes).toBe(true);
    expect(d.replaces).toEqual(replaces ? [field] : []);
    // Names (workspace) and host ports (instance) are unique: any replacement deletes first.
    if (replaces) expect(d.deleteBeforeReplace).toBe(true);
  });

  it("a FAILED app is replaced, deleting the old one first", async () => {
    const d = await checkOnly(appSpec).diff!("5", { ...recorded, state: "FAILED" }, recorded);
    expect(d).toMatchObject({ changes: true, replaces: ["state"], deleteBeforeReplace: true });
  });
});

describe("placeholders", () => {
  it("parses every kind and reports unknown ones", () => {
    expect(placeholdersOf("{{host_port.web}}:{{ container_port.web }}/{{instance.ip4}}[{{instance.ip6}}]{{random:12}}")).toEqual([
      { kind: "host_port", port: "web" },
      { kind: "container_port", port: "web" },
      { kind: "ip4" },
      { kind: "ip6" },
      { kind: "random", length: 12 },
    ]);
    expect(placeholdersOf("{{random:129}}")).toMatch(/random length must be 1 to 128/);
    expect(placeholdersOf("{{instance.ip5}}")).toMatch(/unknown placeholder/);
  });

  it("matches a declared value with the final value the API stored", () => {
    expect(resolvesTo("http://{{instance.ip4}}:{{host_port.web}}/", "http://203.0.113.7:3001/")).toBe(true);
    expect(resolvesTo("{{random:8}}", "aZ09bY18")).toBe(true);
    expect(resolvesTo("{{random:8}}", "aZ09bY1")).toBe(false);
    expect(resolvesTo("key-{{random:4}}", "other-abcd")).toBe(false);
    expect(resolvesTo("[{{instance.ip6}}]:{{container_port.api}}", "[2001:db8::1]:11434")).toBe(true);
    expect(resolvesTo("a.b*c", "a.b*c")).toBe(true);
  });
});

describe("AppTemplate", () => {
  const tpl = {
    name: "Dashboard",
    description: "d",
    image: "grafana/grafana:11.2.0",
    environment: [{ key: "PORT", value: "{{container_port.web}}" }, { key: "DOMAIN" }],
    ports: [{ name: "web", containerPort: 3000, http: true }],
  };

  it("fills the API's defaults so diffs stay quiet", async () => {
    const r = await checkOnly(appTemplateSpec).check!({}, tpl);
    expect(r.failures).toEqual([]);
    expect(r.inputs).toMatchObject({
      category: null,
      mounts: [],
      environment: [
        { key: "PORT", value: "{{container_port.web}}", description: "" },
        { key: "DOMAIN", value: null, description: "" },
      ],
      ports: [{ name: "web", description: "", containerPort: 3000, protocol: "TCP", http: true }],
    });
  });

  it.each([
    [
      "two http ports",
      {
        ...tpl,
        ports: [
          { name: "a", containerPort: 1, http: true },
          { name: "b", containerPort: 2, http: true },
        ],
      },
      /ports: at most one port per template may have http true/,
    ],
    [
      "a repeated port name",
      {
        ...tpl,
        ports: [
          { name: "web", containerPort: 1 },
          { name: "web", containerPort: 2 },
        ],
      },
      /ports\[1\]: duplicate port name web/,
    ],
    ["a port name that is not a slug", { ...tpl, ports: [{ name: "Web", containerPort: 1 }] }, /ports\[0\]\.name: must be a slug/],
    ["a repeated key", { ...tpl, environment: [{ key: "A" }, { key: "A" }] }, /environment\[1\]: duplicate environment key A/],
    [
      "a placeholder naming no port",
      { ...tpl, environment: [{ key: "A", value: "{{host_port.admin}}" }] },
      /environment: .*names no port of this template/,
    ],
    ["an unknown placeholder", { ...tpl, environment: [{ key: "A", value: "{{whatever}}" }] }, /environment: .*unknown placeholder/],
    ["a lower-case category", { ...tpl, category: "ai" }, /category: must be one of DEFAULT, .*AI, /],
    ["an empty description", { ...tpl, description: "" }, /description: must not be empty/],
  ])("rejects %s at preview", async (_what, news, message) => {
    expect((await failureLines(appTemplateSpec, news)).join("\n")).toMatch(message);
  });

  it("patches every field in place", async () => {
    const olds = { ...(await checkOnly(appTemplateSpec).check!({}, tpl)).inputs };
    for (const [field, value] of Object.entries({
      name: "x",
      description: "y",
      image: "a:1",
      category: "AI",
      environment: [],
      mounts: [{ hostPath: "/a", containerPath: "/b", readOnly: false }],
      ports: [],
    })) {
      const d = await checkOnly(appTemplateSpec).diff!("1", olds, { ...olds, [field]: value });
      expect(d).toMatchObject({ changes: true, replaces: [] });
    }
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

describe("Snapshot, Recipe and RecipeInstallation", () => {
  it("every snapshot field replaces", async () => {
    const olds = { instanceId: "1", diskId: "2", state: "AVAILABLE" };
    expect((await checkOnly(snapshotSpec).diff!("9", olds, { ...olds, instanceId: "3" })).replaces).toEqual(["instanceId"]);
    expect(await checkOnly(snapshotSpec).diff!("9", olds, { ...olds, diskId: "4" })).toMatchObject({
      replaces: ["diskId"],
      deleteBeforeReplace: false,
    });
  });

  const recipe = {
    name: "r",
    category: "TOOLS",
    description: "# r",
    commands: [{ path: "/opt/r.sh" }],
    fields: [{ id: "A", label: "a", type: "TEXT" }],
  };
  it("fills a recipe's defaults and checks it at preview", async () => {
    const r = await checkOnly(recipeSpec).check!({}, recipe);
    expect(r.failures).toEqual([]);
    expect(r.inputs).toMatchObject({
      icon: null,
      commands: [{ path: "/opt/r.sh", args: [] }],
      fields: [{ id: "A", label: "a", type: "TEXT", description: null, required: false }],
    });
    const bad = await failureLines(recipeSpec, {
      ...recipe,
      category: "GAMING",
      commands: [],
      fields: [{ id: "1x", label: "a", type: "TEXT" }],
    });
    expect(bad.join("\n")).toMatch(/category: must be one of DEFAULT/);
    expect(bad.join("\n")).toMatch(/commands: must list at least one command/);
    expect(bad.join("\n")).toMatch(/fields\[0\]\.id: must start with a letter/);
    expect(
      (
        await failureLines(recipeSpec, {
          ...recipe,
          fields: [
            { id: "db_name", label: "a", type: "TEXT" },
            { id: "DB_NAME", label: "b", type: "TEXT" },
          ],
        })
      ).join("\n"),
    ).toMatch(/fields\[1\]: duplicate field id/);
  });

  it("patches every recipe field in place", async () => {
    const olds = { ...(await checkOnly(recipeSpec).check!({}, recipe)).inputs };
    for (const [field, value] of Object.entries({
      name: "x",
      category: "AI",
      description: "y",
      commands: [{ path: "/a", args: [] }],
      icon: "https://x.example/i.svg",
      fields: [],
    })) {
      expect(await checkOnly(recipeSpec).diff!("1", olds, { ...olds, [field]: value })).toMatchObject({ changes: true, replaces: [] });
    }
  });

  it("an installation re-installs on any change, and a failed one is replaced", async () => {
    const olds = { instanceId: "1", recipeId: "2", fields: { A: "x" }, installState: "COMPLETED", workflowId: "3" };
    for (const [field, value] of Object.entries({ instanceId: "5", recipeId: "6", fields: { A: "y" } })) {
      const d = await checkOnly(recipeInstallationSpec).diff!("1:2:3", olds, { ...olds, [field]: value });
      // Installed anew before the old one is forgotten: a refused install leaves the recorded one.
      expect(d).toMatchObject({ replaces: [field], deleteBeforeReplace: false });
    }
    expect((await checkOnly(recipeInstallationSpec).diff!("1:2:3", { ...olds, installState: "FAILED" }, olds)).replaces).toEqual(["state"]);
    expect(
      (await failureLines(recipeInstallationSpec, { instanceId: "1", recipeId: "2", fields: { A: { nested: true } } })).join("\n"),
    ).toMatch(/fields\.A: values must be strings, numbers or booleans/);
  });
});
