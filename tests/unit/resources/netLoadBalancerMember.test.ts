/**
 * NetLoadBalancerMember: preview checks (check) and the policy table (diff), through the lifecycle
 * with a runtime that refuses any API access; then its API mapping with a scripted client: the paths
 * it takes and what it concludes.
 */
import { netLoadBalancerMemberDefinition } from "../../../resources/netLoadBalancerMember";
import { diff } from "../../support/preview";
import { fakeContext, I1, I2, page } from "./support";

describe("NetLoadBalancerMember", () => {
  const olds = { workspaceId: "42", loadBalancerId: "3", instanceId: I1, instanceName: "vm", state: "ACTIVE" };
  const news = { workspaceId: "42", loadBalancerId: "3", instanceId: I1 };

  it("replaces a member whose join never applied, removing the old one first (same ends)", async () => {
    expect(await diff(netLoadBalancerMemberDefinition, { ...olds, state: "JOINING" }, news)).toEqual({
      changes: true,
      replaces: ["state"],
      deleteBeforeReplace: true,
    });
    expect(await diff(netLoadBalancerMemberDefinition, olds, news)).toMatchObject({ changes: false });
  });

  it("replaces on another balancer or instance, adding the new member first", async () => {
    expect(await diff(netLoadBalancerMemberDefinition, olds, { ...news, loadBalancerId: "4" })).toEqual({
      changes: true,
      replaces: ["loadBalancerId"],
      deleteBeforeReplace: false,
    });
    expect(await diff(netLoadBalancerMemberDefinition, olds, { ...news, instanceId: I2 })).toMatchObject({ replaces: ["instanceId"] });
  });
});

describe("NetLoadBalancerMember read", () => {
  const routes = { "GET /v1/workspaces/42/net-lbs/3/instances": () => page([]) };

  it("is JOINING while its own create waits, and gone otherwise", async () => {
    const prior = { workspaceId: "42", loadBalancerId: "3", instanceId: I1 };
    expect(await netLoadBalancerMemberDefinition.api.get(fakeContext(routes, "create").ctx, `3:${I1}`, prior)).toMatchObject({
      state: "JOINING",
    });
    expect(await netLoadBalancerMemberDefinition.api.get(fakeContext(routes, "read").ctx, `3:${I1}`, prior)).toBeUndefined();
    expect(await netLoadBalancerMemberDefinition.api.get(fakeContext(routes, "delete").ctx, `3:${I1}`, prior)).toBeUndefined();
    // Adoption of a membership that does not exist fails instead of waiting.
    expect(
      await netLoadBalancerMemberDefinition.api.get(fakeContext(routes, "create").ctx, I1, { ...prior, adoptId: I1 } as never),
    ).toBeUndefined();
  });

  it("reads a member by its synthetic id <loadBalancerId>:<instanceId> (what adoptId takes)", async () => {
    const { ctx, calls } = fakeContext({ "GET /v1/workspaces/42/net-lbs/3/instances": () => page([{ id: I1, name: "vm" }]) });
    expect(await netLoadBalancerMemberDefinition.api.get(ctx, `3:${I1}`, { workspaceId: "42", adoptId: `3:${I1}` } as never)).toEqual({
      workspaceId: "42",
      loadBalancerId: "3",
      instanceId: I1,
      state: "ACTIVE",
    });
    expect(calls[0].query).toMatchObject({ id: I1 });
  });
});

describe("NetLoadBalancerMember API mapping (the state's shape)", () => {
  it("puts the member in the workspace's balancer and records what the member list says", async () => {
    const { ctx, calls } = fakeContext(
      {
        "GET /v1/workspaces/42/net-lbs/3/instances": () => page([]),
        [`PUT /v1/workspaces/42/net-lbs/3/instances/${I1}`]: () => undefined,
      },
      "create",
    );
    expect(await netLoadBalancerMemberDefinition.api.create(ctx, { workspaceId: "42", loadBalancerId: "3", instanceId: I1 })).toEqual({
      id: `3:${I1}`,
    });
    expect(calls.filter((c) => c.method === "PUT")).toEqual([
      { method: "PUT", path: `/v1/workspaces/42/net-lbs/3/instances/${I1}`, body: undefined },
    ]);
    const prior = { workspaceId: "42", loadBalancerId: "3", instanceId: I1 };
    expect(await netLoadBalancerMemberDefinition.api.get(ctx, `3:${I1}`, prior)).toStrictEqual({
      ...prior,
      state: "JOINING",
    });
    const listed = fakeContext({ "GET /v1/workspaces/42/net-lbs/3/instances": () => page([{ id: I1 }]) }).ctx;
    expect(await netLoadBalancerMemberDefinition.api.get(listed, `3:${I1}`, prior)).toStrictEqual({
      ...prior,
      state: "ACTIVE",
    });
  });
});
