/**
 * svc-import's bad input, run as a person runs it (the package's bin, configured from SVC_* in the
 * environment, outside any Pulumi project), against the emulator: each refusal is one clear line
 * with a non-zero exit, and nothing is written. And the selection: kinds and name patterns; and the
 * same listing through the plugin's List.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { startTestEmulator, type TestEmulator } from "pulumi-svc-emulator/testing";
import { svcImport } from "./adopt";
import { PACKAGE_DIR } from "./harness";

const execFileAsync = promisify(execFile);

jest.setTimeout(120_000);

describe("svc-import's bad input and selection", () => {
  let t: TestEmulator;
  let dir: string;
  const env = (token = t.emu.token) => ({ SVC_BASE_URL: t.emu.url, SVC_TOKEN: token, SVC_WORKSPACE_ID: t.workspaceId });
  const run = (args: string[], token?: string) => svcImport(args, { cwd: dir, env: env(token) });
  const written = () => fs.readdirSync(dir);
  /** One line on stderr, nothing on stdout, nothing written. */
  const refused = (out: { code: number; stdout: string; stderr: string }) => ({
    code: out.code,
    lines: out.stderr.trim().split("\n").length,
    stdout: out.stdout,
    written: written(),
  });

  beforeAll(async () => {
    t = await startTestEmulator({ workflowMs: 20 });
  });
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "svc-import-input-"));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));
  afterAll(async () => {
    await t?.stop();
  });

  it("an empty workspace: nothing to import, exit 1", async () => {
    const out = await run(["--file", "import.json"]);
    expect(refused(out)).toEqual({ code: 1, lines: 1, stdout: "", written: [] });
    expect(out.stderr).toMatch(
      /^svc-import: nothing to import: workspace \d+ holds no object of the kinds svc-import takes; nothing was written\n$/,
    );
  });

  it("an unknown kind in the filter, or one svc-import never takes: exit 2, naming the kinds", async () => {
    const unknown = await run(["--file", "import.json", "--kind", "Vpcs"]);
    expect(refused(unknown)).toEqual({ code: 2, lines: 1, stdout: "", written: [] });
    expect(unknown.stderr).toMatch(/unknown kind "Vpcs" in --kind; the kinds: Vpc, Disk, /);
    const never = await run(["--dynamic", "out", "--kind", "Workspace"]);
    expect(refused(never)).toEqual({ code: 2, lines: 1, stdout: "", written: [] });
    expect(never.stderr).toMatch(/--kind Workspace: svc-import does not adopt it: the workspace itself/);
  });

  it("a token without read access to a kind: exit 2, naming what it cannot read", async () => {
    await t.api.post(`/v1/workspaces/${t.workspaceId}/vpcs`, { name: "hidden-net", description: "", range: "10.9.0.0/16" });
    const expires = new Date(Date.now() + 30 * 86_400_000).toISOString();
    const token = await t.api.post(`/v1/workspaces/${t.workspaceId}/tokens`, {
      name: "disks-only",
      expires,
      grants: { WORKSPACE: "READ", DISK: "READ" },
    });
    expect(token.status).toBe(201);
    const out = await run(["--file", "import.json"], token.body.code);
    expect(refused(out)).toEqual({ code: 2, lines: 1, stdout: "", written: [] });
    expect(out.stderr).toMatch(/^svc-import: the token cannot list the Vpc objects of workspace \d+: refused \(403/);
  });

  it("a token the API does not accept: exit 2, saying so", async () => {
    const out = await run(["--file", "import.json"], "svc_not-a-token");
    expect(refused(out)).toEqual({ code: 2, lines: 1, stdout: "", written: [] });
    expect(out.stderr).toMatch(/svc:token/);
  });

  it("missing configuration, and usage mistakes: exit 2", async () => {
    const unset = await svcImport(["--file", "import.json"], { cwd: dir, env: { SVC_BASE_URL: "", SVC_TOKEN: "", SVC_WORKSPACE_ID: "" } });
    expect(refused(unset)).toEqual({ code: 2, lines: 1, stdout: "", written: [] });
    expect(unset.stderr).toMatch(/svc:baseUrl/);
    expect(refused(await run([]))).toMatchObject({ code: 2, stdout: "", written: [] });
    expect(refused(await run(["--file", "a.json", "--dynamic", "out"]))).toMatchObject({ code: 2, stdout: "", written: [] });
    const finish = await run(["--finish", "program.rb"]);
    expect(refused(finish)).toEqual({ code: 2, lines: 1, stdout: "", written: [] });
  });

  it("takes only the kinds and the names asked for", async () => {
    const plan = (await t.api.get("/v1/plans", { name: "lightning-1" })).body.items[0];
    for (const name of ["web-1", "web-2", "db-1"]) {
      const created = await t.api.post(`/v1/workspaces/${t.workspaceId}/instances`, {
        type: "PLAN",
        name,
        region: "NA_01",
        plan: BigInt(plan.id),
        ips: [],
      });
      expect(await t.waitWorkflow(String(created.body.workflow.id))).toBe("COMPLETED");
    }
    const out = await run(["--file", "import.json", "--kind", "Vpc,Instance", "--name", "web-*"]);
    expect(out).toMatchObject({ code: 0, stderr: "" });
    const file = JSON.parse(fs.readFileSync(path.join(dir, "import.json"), "utf8")) as { resources: Array<{ type: string; name: string }> };
    expect(file.resources.map((r) => `${r.type} ${r.name}`)).toEqual(["svc:index:Instance web-1", "svc:index:Instance web-2"]);
    const vpcs = await run(["--file", "vpcs.json", "--kind", "Vpc"]);
    expect(JSON.parse(fs.readFileSync(path.join(dir, "vpcs.json"), "utf8")).resources.map((r: { name: string }) => r.name)).toEqual([
      "hidden-net",
    ]);
    expect(vpcs.code).toBe(0);
  });

  it("the plugin's List answers what the workspace holds, as pulumi do lists it (pulumi 3.274)", async () => {
    const home = path.join(dir, ".pulumi-home");
    const list = async (kind: string, ...args: string[]) => {
      const plugin = path.join(PACKAGE_DIR, "bin", "pulumi-resource-svc");
      const { stdout } = await execFileAsync(
        "pulumi",
        ["do", "--package", plugin, `svc:index:${kind}`, "list", "--output", "json", ...args],
        {
          cwd: dir,
          env: {
            ...process.env,
            ...env(),
            PULUMI_HOME: home,
            PULUMI_SKIP_UPDATE_CHECK: "true",
            PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
          },
        },
      );
      return (JSON.parse(stdout) as Array<{ id: string; name: string }>).map((o) => o.name).sort();
    };
    expect(await list("Instance")).toEqual(["db-1", "web-1", "web-2"]);
    expect(await list("Vpc", "--workspace-id", t.workspaceId)).toEqual(["hidden-net"]);
    // The instances' boot disks are theirs: not listed as Disks.
    expect(await list("Disk")).toEqual([]);
  });
});
