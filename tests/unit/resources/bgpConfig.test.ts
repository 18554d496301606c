/**
 * BgpConfig: preview checks (check) and the policy table (diff), through the lifecycle with a
 * runtime that refuses any API access; then its API mapping with a scripted client: the paths it
 * takes and what it concludes.
 */
import { bgpConfigDefinition } from "../../../resources/bgpConfig";
import { check, diff } from "../../support/preview";
import { fakeContext, I1 } from "./support";

describe("BgpConfig", () => {
  it("checks the AS number and max_prefixes, and defaults the endpoint to none", async () => {
    expect((await check(bgpConfigDefinition, { asn: 64512 })).inputs).toEqual({ asn: 64512, instanceId: null, workspaceId: "42" });
    expect((await check(bgpConfigDefinition, { asn: 0, maxPrefixes: 0 })).failures).toEqual([
      "asn: must be a 32-bit AS number from 1 to 4294967295 (spec part 3, BGP: asn)",
      "maxPrefixes: must be at least 1 (spec part 3, BGP: max_prefixes)",
    ]);
    expect((await check(bgpConfigDefinition, { asn: 4294967296 })).failures).toHaveLength(1);
  });

  it("patches every field in place, the password included", async () => {
    const olds = { workspaceId: "42", asn: 64512, password: "a", instanceId: null, instanceName: null, maxPrefixes: 100 };
    expect(await diff(bgpConfigDefinition, olds, { workspaceId: "42", asn: 64513, password: "b", instanceId: I1, maxPrefixes: 5 })).toEqual(
      {
        changes: true,
        replaces: [],
        deleteBeforeReplace: false,
      },
    );
    // Drift of the password (changed outside Pulumi, read back decrypted) is a change.
    expect(
      await diff(bgpConfigDefinition, { ...olds, password: "by-hand" }, { workspaceId: "42", asn: 64512, password: "a", instanceId: null }),
    ).toMatchObject({ changes: true, replaces: [] });
    expect(await diff(bgpConfigDefinition, olds, { workspaceId: "42", asn: 64512, password: "a", instanceId: null })).toMatchObject({
      changes: false,
    });
  });

  it("keeps the password a secret output", () => {
    expect(bgpConfigDefinition.secretOutputs).toEqual(["password"]);
  });
});

describe("BgpConfig create", () => {
  it("reports the workspace's existing configuration as a conflict (the lifecycle then names it for adoptId)", async () => {
    const { ctx, calls } = fakeContext({
      "GET /v1/workspaces/42/bgp": () => ({ data: { id: "77", asn: 65000, instance: null, max_prefixes: 100 }, live: { password: null } }),
    });
    const found = await bgpConfigDefinition.api.conflict!(ctx, { workspaceId: "42", asn: 64512, instanceId: null });
    expect(found).toMatchObject({ id: "77", description: expect.stringMatching(/already has a BGP configuration \(id 77, AS65000\)/) });
    expect(calls.map((c) => c.method)).toEqual(["GET"]);
  });
});
