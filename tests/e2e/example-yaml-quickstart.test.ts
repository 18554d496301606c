/**
 * The quickstart in Pulumi YAML (examples/yaml-quickstart) through the provider plugin, found
 * through `plugins: providers:` in its Pulumi.yaml: the same stack as the TypeScript quickstart,
 * with what only a plugin gives (per-property diffs, import).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { changes, startE2E, type E2E } from "./harness";
import { expectQuickstartOutputs } from "./quickstart";

jest.setTimeout(600_000);

const EXAMPLE = path.join(__dirname, "..", "..", "examples", "yaml-quickstart");

describe("examples/yaml-quickstart", () => {
  let e2e: E2E;
  /** Edits the copied program, as a person edits Pulumi.yaml between runs. */
  const edit = (from: string, to: string) => {
    const file = path.join(e2e.dir, "Pulumi.yaml");
    const text = fs.readFileSync(file, "utf8");
    if (!text.includes(from)) throw new Error(`the example has no "${from}"`);
    fs.writeFileSync(file, text.replace(from, to));
  };

  beforeAll(async () => {
    e2e = await startE2E("yaml-quickstart", { programDir: EXAMPLE });
  });
  afterAll(async () => {
    await e2e?.stop();
  });

  it("previews as shipped, with only the svc:* settings: the password's default, made secret by the program", async () => {
    // Newer CLIs refuse a plaintext default for a key declared secret (issue 29); the program
    // declares a plain default and wraps it in fn::secret.
    const preview = await e2e.preview();
    expect(preview.changeSummary).toMatchObject({ create: 14 });
    expect(preview.stdout).toMatch(/\+ svc:index:K3sSecret: \(create\)\n.*\n\s+data\s+: \[secret\]/);
    expect(preview.stdout).not.toContain("change-me");
  });

  it("comes up with the same outputs as the TypeScript quickstart, matching the API", async () => {
    await e2e.stack.setConfig("svc-yaml-quickstart:dbPassword", { value: "yaml-quickstart-db-pw", secret: true });
    await e2e.up([]);
    await expectQuickstartOutputs(e2e, await e2e.outputs());
    const types = (await e2e.state()).map((r) => r.type);
    expect(new Set(types)).toEqual(
      new Set([
        "svc:index:Vpc",
        "svc:index:Instance",
        "svc:index:FirewallRule",
        "svc:index:Disk",
        "svc:index:K3sCluster",
        "svc:index:K3sNode",
        "svc:index:K3sSecret",
        "svc:index:K3sService",
      ]),
    );
  });

  it("keeps the database password out of the state file", async () => {
    expect(await e2e.rawState()).not.toContain("yaml-quickstart-db-pw");
  });

  it("previews no change afterwards and sends no mutating request", async () => {
    const since = await e2e.lastSeq();
    const preview = await e2e.preview();
    expect(Object.keys(preview.changeSummary)).toEqual(["same"]);
    expect(await e2e.mutations(since)).toEqual([]);
  });

  it("shows an in-place change property by property, then applies it", async () => {
    edit("description: quickstart web tier", "description: quickstart web tier (yaml)");
    const preview = await e2e.preview();
    expect(preview.stdout).toContain('~ description: "quickstart web tier" => "quickstart web tier (yaml)"');
    expect(preview.changeSummary).toMatchObject({ update: 1 });
    const result = await e2e.up([]);
    expect(changes(result)).toMatchObject({ update: 1 });
    const vpc = (await e2e.emu.api.get(`/v1/vpcs/${await e2e.idOf("app-net")}`)).body;
    expect(vpc.description).toBe("quickstart web tier (yaml)");
  });

  it("shows a replacement and the property that forces it", async () => {
    edit(
      "portStart: 8080, priority: 5, description: web service }\n  web-2-ssh",
      "portStart: 8081, priority: 5, description: web service }\n  web-2-ssh",
    );
    const before = await e2e.idOf("web-1-http");
    const preview = await e2e.preview();
    expect(preview.stdout).toMatch(/\+-\s*svc:index:FirewallRule: \(replace\)/);
    expect(preview.stdout).toContain("~ portStart: 8080 => 8081");
    const result = await e2e.up([]);
    expect(changes(result)).toMatchObject({ replace: 1 });
    expect(await e2e.idOf("web-1-http")).not.toBe(before);
  });

  it("after a refresh, shows drift made outside Pulumi as a diff from the declaration", async () => {
    const id = await e2e.idOf("app-net");
    await e2e.emu.api.patch(`/v1/vpcs/${id}`, { description: "changed by hand" });
    await e2e.refresh();
    const preview = await e2e.preview();
    expect(preview.stdout).toContain('~ description: "changed by hand" => "quickstart web tier (yaml)"');
    await e2e.up([]);
    expect((await e2e.emu.api.get(`/v1/vpcs/${id}`)).body.description).toBe("quickstart web tier (yaml)");
  });

  it("imports a VPC made outside Pulumi with pulumi import, and prints its declaration", async () => {
    const made = (
      await e2e.emu.api.post(`/v1/workspaces/${e2e.emu.workspaceId}/vpcs`, {
        name: "made-by-hand",
        description: "imported",
        range: "10.77.0.0/16",
      })
    ).body;
    const printed = await e2e.cli(["import", "svc:index:Vpc", "by-hand", String(made.id), "--yes", "--protect=false"]);
    expect(printed).toContain("1 imported");
    // The declaration to paste into Pulumi.yaml, in YAML, with the API's values.
    expect(printed).toMatch(/type: svc:(index:)?Vpc\n/); // YAML writes the index module short
    expect(printed).toContain("name: made-by-hand");
    expect(printed).toContain("range: 10.77.0.0/16");
    expect((await e2e.resource("by-hand")).id).toBe(String(made.id));
  });

  it("destroys everything it made and imported", async () => {
    await e2e.destroy();
    expect((await e2e.inventoryTotal()).total).toBe(0);
  });
});
