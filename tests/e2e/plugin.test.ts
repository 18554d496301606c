/**
 * What the provider plugin gives that the dynamic face cannot, each through the real engine with a
 * Pulumi YAML program (written by the test as JSON, which YAML reads): explicit providers for two
 * workspaces, previews of updates with the outputs already known, the `import` option, progress on
 * the resource's own row, and `customTimeouts`.
 */
import { execFileSync, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { changes, startE2E, type E2E, type LoggedRequest } from "./harness";
import { setTimeout as sleep } from "node:timers/promises";

jest.setTimeout(600_000);

const REPO_BIN = path.join(__dirname, "..", "..", "bin");

type Resources = Record<string, { type: string; properties?: Record<string, unknown>; options?: Record<string, unknown> }>;

const vpc = (name: string, extra: Record<string, unknown> = {}) => ({
  type: "svc:index:Vpc",
  properties: { name, description: `${name} network`, range: "10.1.0.0/16", ...extra },
});

describe("the provider plugin", () => {
  let e2e: E2E;
  let programDir: string;
  let secondWorkspace: string;
  let resources: Resources;
  /** This file's own link to the plugin: its processes are told apart by this path. */
  let BIN: string;

  /** Writes the program and runs pulumi up. */
  const up = async (next: Resources, outputs: Record<string, unknown> = {}) => {
    write(next, outputs);
    return e2e.up([]);
  };
  const write = (next: Resources, outputs: Record<string, unknown> = {}) => {
    resources = next;
    const project = { name: "svc-plugin", runtime: "yaml", plugins: { providers: [{ name: "svc", path: BIN }] }, resources: next, outputs };
    fs.writeFileSync(path.join(e2e?.dir ?? programDir, "Pulumi.yaml"), JSON.stringify(project, null, 2));
  };

  beforeAll(async () => {
    programDir = fs.mkdtempSync(path.join(os.tmpdir(), "svc-plugin-program-"));
    BIN = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "svc-plugin-bin-")), "bin");
    fs.symlinkSync(REPO_BIN, BIN, "dir");
    fs.writeFileSync(
      path.join(programDir, "Pulumi.yaml"),
      JSON.stringify({ name: "svc-plugin", runtime: "yaml", plugins: { providers: [{ name: "svc", path: BIN }] } }),
    );
    e2e = await startE2E("plugin", { programDir });
    secondWorkspace = String((await e2e.emu.api.post("/v1/workspaces", { name: "second workspace" })).body.id);
  });
  afterAll(async () => {
    await e2e?.stop();
    fs.rmSync(programDir, { recursive: true, force: true });
    fs.rmSync(path.dirname(BIN), { recursive: true, force: true });
  });

  it("reaches two workspaces from one program through an explicit provider", async () => {
    const result = await up(
      {
        second: {
          type: "pulumi:providers:svc",
          properties: { baseUrl: e2e.emu.emu.url, token: { "fn::secret": e2e.emu.emu.token }, workspaceId: secondWorkspace },
        },
        "net-a": vpc("net-a"),
        "net-b": { ...vpc("net-b"), options: { provider: "${second}" } },
        // Reads a stable output of net-a: known in a preview of net-a's update (next test).
        "net-c": vpc("net-c", { description: "beside vlan ${net-a.vlan}", range: "10.3.0.0/16" }),
      },
      { vlanA: "${net-a.vlan}" },
    );
    expect(changes(result)).toMatchObject({ create: 5 }); // the stack, the explicit provider, three VPCs
    const a = (await e2e.emu.api.get(`/v1/vpcs/${await e2e.idOf("net-a")}`)).body;
    const b = (await e2e.emu.api.get(`/v1/vpcs/${await e2e.idOf("net-b")}`)).body;
    expect(String(a.workspace.id)).toBe(e2e.emu.workspaceId);
    expect(String(b.workspace.id)).toBe(secondWorkspace);
    expect(await e2e.rawState()).not.toContain(e2e.emu.emu.token);
  });

  it("previews an in-place update with the outputs it cannot change already known", async () => {
    const next = { ...resources, "net-a": vpc("net-a", { description: "renamed" }) };
    write(next, { vlanA: "${net-a.vlan}" });
    const preview = await e2e.preview();
    expect(preview.stdout).toContain('~ description: "net-a network" => "renamed"');
    // net-c reads net-a's vlan, a stable output: known during the preview, so net-c does not change.
    expect(preview.changeSummary).toEqual({ update: 1, same: 4 });
    expect(changes(await e2e.up([]))).toMatchObject({ update: 1 });
  });

  it("adopts a VPC made outside Pulumi through the import option, sending no create", async () => {
    const made = (
      await e2e.emu.api.post(`/v1/workspaces/${e2e.emu.workspaceId}/vpcs`, {
        name: "by-hand",
        description: "by-hand network",
        range: "10.9.0.0/16",
      })
    ).body;
    const since = await e2e.lastSeq();
    write({ ...resources, "by-hand": { ...vpc("by-hand", { range: "10.9.0.0/16" }), options: { import: String(made.id) } } });
    const result = await e2e.up([]);
    expect(changes(result)).toMatchObject({ import: 1 });
    expect(await e2e.mutations(since)).toEqual([]);
    expect(await e2e.idOf("by-hand")).toBe(String(made.id));
  });

  it("imports with pulumi import a kind whose API paths name its workspace (read in the default one)", async () => {
    const wid = e2e.emu.workspaceId;
    const made = (
      await e2e.emu.api.post(`/v1/workspaces/${wid}/registries`, {
        registry: "registry.example.com",
        username: "deploy",
        password: "s3cret-token",
      })
    ).body;
    const printed = await e2e.cli(["import", "svc:index:RegistryCredential", "registry", String(made.id), "--yes", "--protect=false"]);
    expect(printed).toContain("1 imported");
    const recorded = await e2e.resource("registry");
    expect(recorded).toMatchObject({
      id: String(made.id),
      inputs: { registry: "registry.example.com", username: "deploy" },
      outputs: { workspaceId: wid },
    });
    // The declaration leaves out the provider's own workspace (provider/lifecycle/declaration.ts),
    // so a program generated from it does not hard-code the workspace it was imported from.
    expect(recorded.inputs).not.toHaveProperty("workspaceId");
  });

  it("writes progress on the resource's own row, not the stack's", async () => {
    await e2e.emu.control.post("/_emulator/faults", {
      kind: "status",
      method: "POST",
      path: "/v1/workspaces/*/vpcs",
      status: 503,
      times: 1,
    });
    const result = await up({ ...resources, flaky: vpc("flaky", { range: "10.4.0.0/16" }) });
    expect(changes(result)).toMatchObject({ create: 1 });
    // The engine's diagnostics name the row a line belongs to (a 503 to a create is always told;
    // a 429 only with PULUMI_SVC_VERBOSE=1, docs/guides/rate-limits.md).
    expect(result.stdout).toMatch(/svc:index:Vpc \(flaky\):\s*\n\s*svc: Vpc "flaky": [^\n]*503/);
  });

  it("honours customTimeouts: a create still running at its deadline fails with the deadline's message", async () => {
    await e2e.emu.control.post("/_emulator/settings", { workflowMs: 6000 });
    write({
      ...resources,
      slow: {
        type: "svc:index:Disk",
        properties: { name: "slow", size: 10737418240, backend: "LOCAL", region: "NA_01" },
        options: { customTimeouts: { create: "1s" } },
      },
    });
    let message = "";
    try {
      await e2e.up([]);
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/Disk "slow": create did not finish before its deadline .*customTimeouts/);
    await e2e.emu.control.post("/_emulator/settings", { workflowMs: 150 });
    // The disk was kept in the stack; the next up finishes it.
    expect((await e2e.resource("slow")).id).toMatch(/^\d+$/);
    await e2e.up([]);
    const disk = (await e2e.emu.api.get(`/v1/disks/${await e2e.idOf("slow")}`)).body;
    expect(disk.name).toBe("slow");
  });

  it("honours the engine's Cancel (Ctrl-C): the create in flight gets no further API call, and the up ends at once", async () => {
    write({
      ...resources,
      interrupted: { type: "svc:index:Disk", properties: { name: "interrupted", size: 10737418240, backend: "LOCAL", region: "NA_01" } },
    });
    await e2e.emu.control.post("/_emulator/settings", { workflowMs: 600_000 });
    const since = await e2e.lastSeq();
    const child = spawn("pulumi", ["up", "--yes", "--skip-preview", "--non-interactive", "--color", "never", "--stack", "e2e"], {
      cwd: e2e.dir,
      env: { ...process.env, ...e2e.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    const exit = new Promise<void>((resolve) => child.on("exit", () => resolve()));
    const posted = (requests: LoggedRequest[]) => requests.some((r) => r.method === "POST" && r.path.endsWith("/disks") && r.status < 300);
    while (!posted(await e2e.requests(since))) await sleep(50);
    // The disk's workflow takes 600 s: an up that waited for it would outlast this test.
    const interrupted = Date.now();
    child.kill("SIGINT");
    await exit;
    const seconds = (Date.now() - interrupted) / 1000;
    await e2e.emu.control.post("/_emulator/settings", { workflowMs: 150 });
    await e2e.emu.control.post("/_emulator/clock", { advanceMs: 600_000 });
    expect(seconds).toBeLessThan(60);
    expect(output).toContain("the pulumi engine cancelled the deployment: no new API call is started");
    // The next up finishes what the interrupted one started: one disk of that name.
    await e2e.up([]);
    const disks = (await e2e.emu.api.get(`/v1/workspaces/${e2e.emu.workspaceId}/disks`)).body.items as Array<{ name: string }>;
    expect(disks.filter((d) => d.name === "interrupted")).toHaveLength(1);
  });

  it("leaves no plugin process behind, after a failed up too", async () => {
    const ours = () =>
      execFileSync("ps", ["-eo", "args"], { encoding: "utf8" })
        .split("\n")
        .filter((l) => l.includes(`${BIN}/pulumi-resource-svc`));
    for (let i = 0; i < 10 && ours().length; i++) await sleep(500);
    expect(ours()).toEqual([]);
  });

  it("destroys everything, in both workspaces", async () => {
    await e2e.destroy();
    // What is left is the workspace this test made through the API, outside the stack.
    const { total, resources: left } = await e2e.inventoryTotal();
    expect(total).toBe(1);
    expect((left.workspaces as Array<{ id: string }>).map((w) => String(w.id))).toEqual([secondWorkspace]);
  });
});
