/**
 * NetLoadBalancer: preview checks (check) and the policy table (diff), through the lifecycle with a
 * runtime that refuses any API access; then its API mapping with a scripted client: the paths it
 * takes and what it concludes.
 */
import { netLoadBalancerDefinition } from "../../../resources/netLoadBalancer";
import { check, diff } from "../../support/preview";
import { fakeContext, page, refused } from "./support";

describe("NetLoadBalancer", () => {
  it("normalises the address as the API reports it", async () => {
    expect((await check(netLoadBalancerDefinition, { name: "lb", address: "2001:DB8:0:0::50" })).inputs.address).toBe("2001:db8::50");
    expect((await check(netLoadBalancerDefinition, { name: "lb", address: " 203.0.113.7" })).inputs.address).toBe("203.0.113.7");
  });

  it("rejects a bad address and an empty name", async () => {
    const { failures } = await check(netLoadBalancerDefinition, { name: "", address: "203.0.113.300" });
    expect(failures).toEqual([
      "name: must not be empty (spec part 3, Network load balancers: name is required)",
      "address: must be an IP address such as 203.0.113.10 or 2001:db8::10 (spec part 3, Network load balancers: address)",
    ]);
  });

  it("patches name, address and owner in place; an undeclared owner is not managed", async () => {
    const olds = { name: "lb", address: "203.0.113.7", ownerWorkspaceId: "42" };
    expect(await diff(netLoadBalancerDefinition, olds, { name: "lb2", address: "203.0.113.8", ownerWorkspaceId: "43" })).toEqual({
      changes: true,
      replaces: [],
      deleteBeforeReplace: false,
    });
    expect(await diff(netLoadBalancerDefinition, olds, { name: "lb", address: "203.0.113.7" })).toMatchObject({ changes: false });
  });
});

describe("NetLoadBalancer read", () => {
  const detail = {
    id: "7",
    name: "lb",
    address: "203.0.113.7",
    owner: { id: "43", name: "other" },
    instances: [{ id: "2" }, { id: "1" }],
    created: "2026-01-01T00:00:00Z",
  };

  it("reads through the Administrator mirror, wherever the balancer is owned", async () => {
    const { ctx, calls } = fakeContext({ "GET /v1/net-lbs/7": () => detail });
    const out = await netLoadBalancerDefinition.api.get(ctx, "7", { ownerWorkspaceId: "42" });
    expect(out).toEqual({
      name: "lb",
      address: "203.0.113.7",
      ownerWorkspaceId: "43",
      createdAt: "2026-01-01T00:00:00Z",
    });
    expect(calls.map((c) => c.path)).toEqual(["/v1/net-lbs/7"]);
  });

  it("falls back to the recorded owner's workspace route when the token is not an operator's, and remembers it", async () => {
    const { ctx, calls } = fakeContext({
      "GET /v1/net-lbs/7": refused("GET", "/v1/net-lbs/7"),
      "GET /v1/workspaces/43/net-lbs/7": () => detail,
    });
    expect((await netLoadBalancerDefinition.api.get(ctx, "7", { ownerWorkspaceId: "43" }))?.name).toBe("lb");
    expect(await netLoadBalancerDefinition.api.get(ctx, "8", { ownerWorkspaceId: "43" })).toBeUndefined();
    expect(calls.map((c) => c.path)).toEqual(["/v1/net-lbs/7", "/v1/workspaces/43/net-lbs/7", "/v1/workspaces/43/net-lbs/8"]);
  });

  it("explains that creating a balancer needs an operator token", async () => {
    const { ctx } = fakeContext({ "GET /v1/workspaces/42/net-lbs": () => page([]), "POST /v1/net-lbs": refused("POST", "/v1/net-lbs") });
    await expect(netLoadBalancerDefinition.api.create(ctx, { name: "lb", address: "203.0.113.7" })).rejects.toThrow(
      /creating a network load balancer is Administrator-only .*operator \(staff\) token/,
    );
  });
});

describe("NetLoadBalancer API mapping (the state's shape)", () => {
  it("creates with the owner as a number, patches only the changed fields on the recorded owner's route", async () => {
    const { ctx, calls } = fakeContext(
      { "POST /v1/net-lbs": () => ({ id: 7 }), "PATCH /v1/workspaces/42/net-lbs/7": () => undefined },
      "create",
    );
    expect(await netLoadBalancerDefinition.api.create(ctx, { name: "lb", address: "203.0.113.7" })).toEqual({ id: "7" });
    const olds = {
      name: "lb",
      address: "203.0.113.7",
      ownerWorkspaceId: "42",
      createdAt: "",
    };
    await netLoadBalancerDefinition.api.update!.updateRequest!(
      ctx,
      "7",
      olds,
      { name: "lb2", address: "203.0.113.7", ownerWorkspaceId: "43" },
      ["name", "ownerWorkspaceId"],
    );
    await netLoadBalancerDefinition.api.update!.updateRequest!(ctx, "7", olds, { name: "lb", address: "203.0.113.8" }, [
      "address",
      "ownerWorkspaceId",
    ]);
    expect(calls).toEqual([
      { method: "POST", path: "/v1/net-lbs", body: { name: "lb", address: "203.0.113.7", owner: 42n } },
      { method: "PATCH", path: "/v1/workspaces/42/net-lbs/7", body: { name: "lb2", owner: 43n } },
      { method: "PATCH", path: "/v1/workspaces/42/net-lbs/7", body: { address: "203.0.113.8" } },
    ]);
  });

  it("reads a balancer without owner or creation time as the state records it (its members are NetLoadBalancerMembers')", async () => {
    const { ctx } = fakeContext({ "GET /v1/net-lbs/7": () => ({ id: "7", name: "lb", address: "203.0.113.7", owner: null }) });
    expect(await netLoadBalancerDefinition.api.get(ctx, "7", {})).toStrictEqual({
      name: "lb",
      address: "203.0.113.7",
      ownerWorkspaceId: "42",
      createdAt: "",
    });
  });
});
