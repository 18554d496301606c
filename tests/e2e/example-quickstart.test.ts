/**
 * The quickstart program (examples/quickstart, what the top-level Pulumi.yaml runs), as a user
 * would run it: TypeScript through the real CLI, against the emulator.
 */
import * as path from "node:path";
import { startE2E, type E2E } from "./harness";

jest.setTimeout(600_000);

describe("examples/quickstart", () => {
  let e2e: E2E;
  beforeAll(async () => {
    e2e = await startE2E("quickstart", { programDir: path.join(__dirname, "..", "..", "examples", "quickstart") });
    await e2e.stack.setConfig("svc-quickstart:dbPassword", { value: "quickstart-db-pw", secret: true });
  });
  afterAll(async () => {
    await e2e?.stop();
  });

  it("comes up with the outputs people care about, matching the API", async () => {
    const result = await e2e.up([]);
    const outputs = result.outputs;
    expect(outputs.serviceStatus.value).toBe("RUNNING");
    expect(outputs.serviceReplicas.value).toBe("2/2");
    expect(outputs.clusterStatus.value).toBe("ACTIVE");
    expect(outputs.vpcRange.value).toBe("10.42.0.0/16");
    const instances = outputs.instances.value as Array<{ id: string; publicIpv4: string; privateIps: Record<string, string> }>;
    expect(instances).toHaveLength(2);
    for (const i of instances) {
      const api = (await e2e.emu.api.get(`/v1/instances/${i.id}`)).body;
      expect(api.ips.map((ip: { address: string }) => ip.address)).toContain(i.publicIpv4);
      expect(Object.values(i.privateIps)[0]).toBe(api.vpcs[0].ip);
    }
    expect(outputs.dataDisk.value.attachedTo).toBe(instances[0].id);
    expect(outputs.url.value).toBe(`http://${instances[0].publicIpv4}:8080`);
  });

  it("keeps the database password out of the state file", async () => {
    expect(await e2e.rawState()).not.toContain("quickstart-db-pw");
  });

  it("previews no change afterwards and sends no mutating request", async () => {
    const since = await e2e.lastSeq();
    const preview = await e2e.preview([]);
    expect(Object.keys(preview.changeSummary)).toEqual(["same"]);
    expect(await e2e.mutations(since)).toEqual([]);
  });

  it("destroys everything it made", async () => {
    await e2e.destroy();
    expect((await e2e.inventoryTotal()).total).toBe(0);
  });
});
