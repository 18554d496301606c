/**
 * What the quickstart must produce, whichever face runs it (examples/quickstart in TypeScript,
 * examples/yaml-quickstart through the plugin): the same outputs, matching the API.
 */
import type { OutputMap } from "@pulumi/pulumi/automation";
import type { E2E } from "./harness";

export async function expectQuickstartOutputs(e2e: E2E, outputs: OutputMap): Promise<void> {
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
    // The VPC is declared without a name: named from its logical name, on every face and engine that runs this.
    expect((await e2e.emu.api.get(`/v1/vpcs/${api.vpcs[0].id}`)).body.name).toMatch(/^app-net-[0-9a-f]{7}$/);
  }
  expect(outputs.dataDisk.value.attachedTo).toBe(instances[0].id);
  expect(outputs.url.value).toBe(`http://${instances[0].publicIpv4}:8080`);
}
