/** Logical names from the API's names (importer/names.ts), as a table. */
import { logicalNames, slug, type Nameable } from "../../../importer/names";

const o = (
  kind: string,
  id: string,
  apiName?: string,
  declaration: Record<string, unknown> = {},
  outputs: Record<string, unknown> = {},
): Nameable => ({
  kind,
  id,
  apiName,
  declaration,
  outputs,
});

describe("slug", () => {
  it.each([
    ["web-1", "web-1"],
    ["Web Server #1", "web-server-1"],
    ["  __db__  ", "db"],
    ["ghcr.io", "ghcr-io"],
    ["198.51.100.0/24", "x-198-51-100-0-24"],
    ["", "x-"],
  ])("%j -> %j", (text, expected) => expect(slug(text)).toBe(expected));
});

describe("logical names", () => {
  it("are the API's names where they are unique", () => {
    expect(logicalNames([o("Vpc", "1", "app-net"), o("Instance", "2", "Web 1")])).toEqual(["app-net", "web-1"]);
  });

  it("name the kinds the API leaves nameless from what they tie", () => {
    const objects = [
      o("Instance", "2", "web-1"),
      o("Vpc", "1", "app-net"),
      o("FirewallRule", "10", undefined, { instanceId: "2", protocol: "TCP", portStart: 80, type: "IPv4" }),
      o("FirewallRule", "11", undefined, { instanceId: "2", protocol: "TCP", portStart: 80, type: "IPv6" }),
      o("FirewallRule", "12", undefined, { instanceId: "2", protocol: "ICMP", type: "IPv4" }),
      o("VpcAttachment", "2:1", undefined, { instanceId: "2", vpcId: "1" }),
      o("FloatingIp", "5", "203.0.113.7", {}, { address: "203.0.113.7" }),
      o("FloatingIpAttachment", "5", "203.0.113.7", { ipId: "5", instanceId: "2" }),
      o("K3sCluster", "9", "ws-4"),
      o("K3sNode", "8", "web-1", { instanceId: "2" }),
      o("BgpConfig", "7"),
      o("BgpPrefix", "6", undefined, {}, { prefix: "198.51.100.0/24" }),
      o("RegistryCredential", "4", "ghcr.io", {}, { registry: "ghcr.io" }),
    ];
    expect(logicalNames(objects)).toEqual([
      "web-1",
      "app-net",
      "web-1-tcp-80",
      "web-1-tcp-80-v6",
      "web-1-icmp",
      "web-1-in-app-net",
      "ip-203-0-113-7",
      "ip-203-0-113-7-on-web-1",
      "cluster",
      "web-1-node",
      "bgp",
      "bgp-198-51-100-0-24",
      "ghcr-io",
    ]);
  });

  it("qualify a name several objects would take by their kind, then by their id; never a name the programs use themselves", () => {
    expect(logicalNames([o("Vpc", "1", "web"), o("Instance", "2", "web"), o("Instance", "3", "web"), o("Recipe", "4", "config")])).toEqual([
      "vpc-web",
      "instance-web-2",
      "instance-web-3",
      "recipe-config",
    ]);
  });

  it("name a tie to an object outside the import by its kind and id", () => {
    expect(logicalNames([o("K3sNode", "8", "n", { instanceId: "77" })])).toEqual(["instance-77-node"]);
  });

  it("are the same whatever order the objects come in", () => {
    const objects = [o("Vpc", "1", "web"), o("Instance", "2", "web"), o("Disk", "3", "data"), o("Disk", "4", "data")];
    const names = new Map(objects.map((x, i) => [x.id, logicalNames(objects)[i]]));
    const reversed = [...objects].reverse();
    expect(new Map(reversed.map((x, i) => [x.id, logicalNames(reversed)[i]]))).toEqual(names);
  });
});
