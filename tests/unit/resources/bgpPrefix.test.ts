/**
 * BgpPrefix: preview checks (check) and the policy table (diff), through the lifecycle with a
 * runtime that refuses any API access; then its API mapping with a scripted client: the paths it
 * takes and what it concludes.
 */
import { bgpPrefixDefinition } from "../../../resources/bgpPrefix";
import { check, diff } from "../../support/preview";
import { fakeContext, page } from "./support";

describe("BgpPrefix", () => {
  it("normalises the CIDR, requires its length, and defaults enabled and community", async () => {
    expect((await check(bgpPrefixDefinition, { prefix: "198.51.100.7/24" })).inputs).toEqual({
      prefix: "198.51.100.0/24",
      enabled: true,
      community: "DEFAULT",
      workspaceId: "42",
    });
    expect((await check(bgpPrefixDefinition, { prefix: "198.51.100.0" })).failures).toEqual([
      "prefix: must be a CIDR with its length, such as 203.0.113.0/24 or 2001:db8::/48 (spec part 3, BGP: prefix)",
    ]);
    expect((await check(bgpPrefixDefinition, { prefix: "2001:db8::/48", community: "NO_EXPORT" })).failures).toEqual([
      "community: must be DEFAULT or PROTECTED (spec part 3, BGP: community)",
    ]);
  });

  const olds = { workspaceId: "42", prefix: "198.51.100.0/24", source: "MANUAL", enabled: true, community: "DEFAULT", configId: "9" };

  it("changes prefix, enabled and community in place (PUT keeps the id)", async () => {
    expect(
      await diff(bgpPrefixDefinition, olds, {
        workspaceId: "42",
        prefix: "198.51.100.0/25",
        enabled: false,
        community: "PROTECTED",
        configId: "9",
      }),
    ).toEqual({
      changes: true,
      replaces: [],
      deleteBeforeReplace: false,
    });
  });

  it("replaces with a new configuration, withdrawing the old entry first when the prefix stays", async () => {
    expect(
      await diff(bgpPrefixDefinition, olds, {
        workspaceId: "42",
        prefix: "198.51.100.0/24",
        enabled: true,
        community: "DEFAULT",
        configId: "10",
      }),
    ).toEqual({
      changes: true,
      replaces: ["configId"],
      deleteBeforeReplace: true,
    });
  });
});

describe("BgpPrefix ids", () => {
  it("records the exact digits of an integer id above 2^53", async () => {
    const big = 12345678901234567891n;
    const { ctx } = fakeContext({
      "GET /v1/workspaces/42/bgp/prefixes": () => page([]),
      "POST /v1/workspaces/42/bgp/prefixes": () => ({
        id: big,
        prefix: "198.51.100.0/24",
        source: "MANUAL",
        enabled: true,
        community: "DEFAULT",
      }),
    });
    expect(
      await bgpPrefixDefinition.api.create(ctx, { workspaceId: "42", prefix: "198.51.100.0/24", enabled: true, community: "DEFAULT" }),
    ).toEqual({ id: "12345678901234567891" });
  });
});
