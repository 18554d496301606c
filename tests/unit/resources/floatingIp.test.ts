/**
 * FloatingIp: preview checks (check) and the policy table (diff), through the lifecycle with a
 * runtime that refuses any API access, and its inputs at their documented boundaries; then its API
 * mapping with a scripted client: the paths it takes and what it concludes.
 */
import { floatingIpDefinition } from "../../../resources/floatingIp";
import { check, diff } from "../../support/preview";
import { fakeContext, I1, page } from "./support";

describe("FloatingIp", () => {
  it("fills ddos false and the default workspace", async () => {
    expect(await check(floatingIpDefinition, { family: "IPv6" })).toEqual({
      inputs: { family: "IPv6", ddos: false, workspaceId: "42" },
      failures: [],
    });
  });

  it("rejects an unknown family", async () => {
    expect((await check(floatingIpDefinition, { family: "IPv5" })).failures).toEqual([
      "family: must be IPv4 or IPv6 (spec part 3, Floating IP)",
    ]);
  });

  it("allocates a new address when family or ddos changes; the holder is not an input", async () => {
    const olds = { workspaceId: "42", family: "IPv4", ddos: false, address: "192.0.2.1", instanceId: I1 };
    expect(await diff(floatingIpDefinition, olds, { workspaceId: "42", family: "IPv4", ddos: true })).toMatchObject({ replaces: ["ddos"] });
    expect(
      await diff(floatingIpDefinition, { ...olds, instanceId: null }, { workspaceId: "42", family: "IPv4", ddos: false }),
    ).toMatchObject({
      changes: false,
    });
  });
});

describe("FloatingIp inputs at their documented boundaries", () => {
  it.each([
    ["a DDoS-filtered IPv4 address", floatingIpDefinition, { family: "IPv4", ddos: true }],
    ["an IPv6 address without ddos", floatingIpDefinition, { family: "IPv6", ddos: false }],
  ])("accepts %s", async (_what, definition, news) => {
    expect((await check(definition, news)).failures).toEqual([]);
  });

  it.each([
    [
      "an IPv6 address with ddos",
      floatingIpDefinition,
      { family: "IPv6", ddos: true },
      "ddos: ddos protection is for IPv4 addresses only: set ddos false for IPv6 (spec part 3, Billing and usage: FLOATING_IP ddos is IPv4 only)",
    ],
  ])("refuses %s, naming the property and the rule", async (_what, definition, news, failure) => {
    expect((await check(definition, news)).failures).toContain(failure);
  });
});

describe("FloatingIp lost create answers", () => {
  const ip = (id: string, created = new Date().toISOString()) => ({
    id,
    address: `192.0.2.${id}`,
    family: "IPv4",
    ddos: false,
    instance_id: null,
    created,
  });

  it("adopts the one address that appeared since the create began", async () => {
    let listed = [ip("1", "2020-01-01T00:00:00Z")];
    const { ctx } = fakeContext({
      "GET /v1/workspaces/42/ips": () => page(listed),
      "POST /v1/workspaces/42/ips": () => {
        listed = [...listed, ip("2")];
        throw Object.assign(new Error("dropped"), { ambiguous: true });
      },
    });
    const inputs = { workspaceId: "42", family: "IPv4" as const, ddos: false };
    await expect(floatingIpDefinition.api.create(ctx, inputs)).rejects.toThrow("dropped");
    expect(await floatingIpDefinition.api.findExisting!(ctx, inputs)).toBe("2");
  });

  it("refuses to guess between two new addresses", async () => {
    let listed: unknown[] = [];
    const { ctx } = fakeContext({
      "GET /v1/workspaces/42/ips": () => page(listed),
      "POST /v1/workspaces/42/ips": () => {
        listed = [ip("3"), ip("4")];
        throw new Error("dropped");
      },
    });
    const inputs = { workspaceId: "42", family: "IPv4" as const, ddos: false };
    await expect(floatingIpDefinition.api.create(ctx, inputs)).rejects.toThrow("dropped");
    await expect(floatingIpDefinition.api.findExisting!(ctx, inputs)).rejects.toThrow(
      /2 new IPv4 addresses appeared .*3 192\.0\.2\.3, 4 192\.0\.2\.4.*adoptId/,
    );
  });
});
