/**
 * Another language through the plugin: the committed Python SDK (sdk/python, generated from the
 * plugin's schema by `npm run sdks`), a Python program using a resource and an invoke, through the
 * real engine and the Python language host built with the pinned CLI.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { changes, startE2E, type E2E } from "./harness";
import { PYTHON_PROGRAM as PROGRAM, pythonProject } from "./pythonSdk";

jest.setTimeout(600_000);

const REPO = path.join(__dirname, "..", "..");

describe("a Python program through the plugin", () => {
  let e2e: E2E;
  let work: string;

  beforeAll(async () => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), "svc-python-"));
    const program = path.join(work, "program");
    fs.mkdirSync(program);
    const env = pythonProject(work, program, { name: "svc-python", plugin: path.join(REPO, "bin"), program: PROGRAM });
    e2e = await startE2E("python", { programDir: program, env });
  });
  afterAll(async () => {
    await e2e?.stop();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it("comes up with resources and an invoke, and previews clean", async () => {
    const result = await e2e.up([]);
    expect(changes(result)).toEqual({ create: 3 });
    const outputs = await e2e.outputs();
    expect(outputs.plan_id.value).toMatch(/^\d+$/);
    const vpc = (await e2e.emu.api.get(`/v1/vpcs/${await e2e.idOf("net")}`)).body;
    expect(outputs.vlan.value).toBe(vpc.vlan);
    expect(vpc.description).toBe("from python");
    // The schema's integers are Python ints (the plan's cpu, the VLAN tag, max_prefixes); the wide ASN a float, exact.
    expect(outputs.types.value).toEqual(["int", "int", "int", "float"]);
    const bgp = (await e2e.emu.api.get(`/v1/workspaces/${e2e.emu.workspaceId}/bgp`)).body;
    expect({ asn: bgp.data.asn, maxPrefixes: bgp.data.max_prefixes }).toEqual({ asn: 4200000000, maxPrefixes: 50 });

    const preview = await e2e.preview();
    expect(preview.changeSummary).toEqual({ same: 3 });
  });

  it("shows an in-place change property by property, then applies it", async () => {
    fs.writeFileSync(path.join(e2e.dir, "__main__.py"), PROGRAM.replace('"from python"', '"from python, changed"'));
    const preview = await e2e.preview();
    expect(preview.stdout).toContain('~ description: "from python" => "from python, changed"');
    expect(changes(await e2e.up([]))).toMatchObject({ update: 1 });
    expect((await e2e.emu.api.get(`/v1/vpcs/${await e2e.idOf("net")}`)).body.description).toBe("from python, changed");
  });

  it("destroys everything", async () => {
    await e2e.destroy();
    expect((await e2e.inventoryTotal()).total).toBe(0);
  });
});
