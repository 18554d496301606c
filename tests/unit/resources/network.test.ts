/**
 * Networking resources: preview checks (check) and the policy tables (diff), through the
 * lifecycle with a runtime that refuses any API access.
 */
import type { SvcClient } from "../../../provider/client";
import type { OperationContext } from "../../../provider/context";
import { ApiError } from "../../../provider/errors";
import { UNKNOWN } from "../../../provider/lifecycle";
import { bgpConfigSpec } from "../../../resources/bgpConfig";
import { bgpPrefixSpec } from "../../../resources/bgpPrefix";
import { firewallRuleSpec } from "../../../resources/firewallRule";
import { floatingIpSpec } from "../../../resources/floatingIp";
import { floatingIpAttachmentSpec } from "../../../resources/floatingIpAttachment";
import { netLoadBalancerSpec } from "../../../resources/netLoadBalancer";
import { netLoadBalancerMemberSpec } from "../../../resources/netLoadBalancerMember";
import { vpcAttachmentSpec } from "../../../resources/vpcAttachment";
import { check, diff } from "../../support/preview";

const I1 = "9007199254740993";
const I2 = "9007199254740995";

describe("VpcAttachment", () => {
  const olds = { instanceId: I1, vpcId: "7", privateIp: "10.0.0.2", instanceName: "vm" };

  it("rejects ids that are not digits, naming the property", async () => {
    expect((await check(vpcAttachmentSpec, { instanceId: "vm-1", vpcId: "7" })).failures).toEqual([
      "instanceId: must be the instance id (digits)",
    ]);
  });

  it("replaces on either end, creating the new membership first", async () => {
    expect(await diff(vpcAttachmentSpec, olds, { instanceId: I1, vpcId: "8" })).toEqual({
      changes: true,
      replaces: ["vpcId"],
      deleteBeforeReplace: false,
    });
    expect(await diff(vpcAttachmentSpec, olds, { instanceId: I2, vpcId: "7" })).toMatchObject({ replaces: ["instanceId"] });
    expect(await diff(vpcAttachmentSpec, olds, { instanceId: I1, vpcId: "7" })).toMatchObject({ changes: false, replaces: [] });
  });
});

describe("FloatingIp", () => {
  it("fills ddos false and the default workspace", async () => {
    expect(await check(floatingIpSpec, { family: "IPv6" })).toEqual({
      inputs: { family: "IPv6", ddos: false, workspaceId: "42" },
      failures: [],
    });
  });

  it("rejects an unknown family", async () => {
    expect((await check(floatingIpSpec, { family: "IPv5" })).failures).toEqual(["family: must be IPv4 or IPv6 (spec part 3, Floating IP)"]);
  });

  it("allocates a new address when family or ddos changes; the holder is not an input", async () => {
    const olds = { workspaceId: "42", family: "IPv4", ddos: false, address: "192.0.2.1", instanceId: I1 };
    expect(await diff(floatingIpSpec, olds, { workspaceId: "42", family: "IPv4", ddos: true })).toMatchObject({ replaces: ["ddos"] });
    expect(await diff(floatingIpSpec, { ...olds, instanceId: null }, { workspaceId: "42", family: "IPv4", ddos: false })).toMatchObject({
      changes: false,
    });
  });
});

describe("FloatingIpAttachment", () => {
  const olds = { ipId: "5", instanceId: I1, address: "192.0.2.1", family: "IPv4" };

  it("moves the IP to another instance in place", async () => {
    expect(await diff(floatingIpAttachmentSpec, olds, { ipId: "5", instanceId: I2 })).toEqual({
      changes: true,
      replaces: [],
      deleteBeforeReplace: false,
    });
  });

  it("re-attaches in place after a detach made outside Pulumi (instanceId read as null)", async () => {
    expect(await diff(floatingIpAttachmentSpec, { ...olds, instanceId: null }, { ipId: "5", instanceId: I1 })).toEqual({
      changes: true,
      replaces: [],
      deleteBeforeReplace: false,
    });
  });

  it("replaces for another IP, including one not known until up", async () => {
    expect(await diff(floatingIpAttachmentSpec, olds, { ipId: "6", instanceId: I1 })).toMatchObject({ replaces: ["ipId"] });
    expect(await diff(floatingIpAttachmentSpec, olds, { ipId: UNKNOWN, instanceId: I1 })).toMatchObject({ replaces: ["ipId"] });
  });
});

describe("NetLoadBalancer", () => {
  it("normalises the address as the API reports it", async () => {
    expect((await check(netLoadBalancerSpec, { name: "lb", address: "2001:DB8:0:0::50" })).inputs.address).toBe("2001:db8::50");
    expect((await check(netLoadBalancerSpec, { name: "lb", address: " 203.0.113.7" })).inputs.address).toBe("203.0.113.7");
  });

  it("rejects a bad address and an empty name", async () => {
    const { failures } = await check(netLoadBalancerSpec, { name: "", address: "203.0.113.300" });
    expect(failures).toEqual([
      "name: must not be empty (spec part 3, Network load balancers: name is required)",
      "address: must be an IP address such as 203.0.113.10 or 2001:db8::10 (spec part 3, Network load balancers: address)",
    ]);
  });

  it("patches name, address and owner in place; an undeclared owner is not managed", async () => {
    const olds = { name: "lb", address: "203.0.113.7", ownerWorkspaceId: "42", memberInstanceIds: [] };
    expect(await diff(netLoadBalancerSpec, olds, { name: "lb2", address: "203.0.113.8", ownerWorkspaceId: "43" })).toEqual({
      changes: true,
      replaces: [],
      deleteBeforeReplace: false,
    });
    expect(await diff(netLoadBalancerSpec, olds, { name: "lb", address: "203.0.113.7" })).toMatchObject({ changes: false });
  });
});

describe("NetLoadBalancerMember", () => {
  const olds = { workspaceId: "42", loadBalancerId: "3", instanceId: I1, instanceName: "vm", state: "ACTIVE" };
  const news = { workspaceId: "42", loadBalancerId: "3", instanceId: I1 };

  it("replaces a member whose join never applied, removing the old one first (same ends)", async () => {
    expect(await diff(netLoadBalancerMemberSpec, { ...olds, state: "JOINING" }, news)).toEqual({
      changes: true,
      replaces: ["state"],
      deleteBeforeReplace: true,
    });
    expect(await diff(netLoadBalancerMemberSpec, olds, news)).toMatchObject({ changes: false });
  });

  it("replaces on another balancer or instance, adding the new member first", async () => {
    expect(await diff(netLoadBalancerMemberSpec, olds, { ...news, loadBalancerId: "4" })).toEqual({
      changes: true,
      replaces: ["loadBalancerId"],
      deleteBeforeReplace: false,
    });
    expect(await diff(netLoadBalancerMemberSpec, olds, { ...news, instanceId: I2 })).toMatchObject({ replaces: ["instanceId"] });
  });
});

describe("BgpConfig", () => {
  it("checks the AS number and max_prefixes, and defaults the endpoint to none", async () => {
    expect((await check(bgpConfigSpec, { asn: 64512 })).inputs).toEqual({ asn: 64512, instanceId: null, workspaceId: "42" });
    expect((await check(bgpConfigSpec, { asn: 0, maxPrefixes: 0 })).failures).toEqual([
      "asn: must be a 32-bit AS number from 1 to 4294967295 (spec part 3, BGP: asn)",
      "maxPrefixes: must be at least 1 (spec part 3, BGP: max_prefixes)",
    ]);
    expect((await check(bgpConfigSpec, { asn: 4294967296 })).failures).toHaveLength(1);
  });

  it("patches every field in place, the password included", async () => {
    const olds = { workspaceId: "42", asn: 64512, password: "a", instanceId: null, instanceName: null, maxPrefixes: 100 };
    expect(await diff(bgpConfigSpec, olds, { workspaceId: "42", asn: 64513, password: "b", instanceId: I1, maxPrefixes: 5 })).toEqual({
      changes: true,
      replaces: [],
      deleteBeforeReplace: false,
    });
    // Drift of the password (changed outside Pulumi, read back decrypted) is a change.
    expect(
      await diff(bgpConfigSpec, { ...olds, password: "by-hand" }, { workspaceId: "42", asn: 64512, password: "a", instanceId: null }),
    ).toMatchObject({ changes: true, replaces: [] });
    expect(await diff(bgpConfigSpec, olds, { workspaceId: "42", asn: 64512, password: "a", instanceId: null })).toMatchObject({
      changes: false,
    });
  });

  it("keeps the password a secret output", () => {
    expect(bgpConfigSpec.secretOutputs).toEqual(["password"]);
  });
});

describe("BgpPrefix", () => {
  it("normalises the CIDR, requires its length, and defaults enabled and community", async () => {
    expect((await check(bgpPrefixSpec, { prefix: "198.51.100.7/24" })).inputs).toEqual({
      prefix: "198.51.100.0/24",
      enabled: true,
      community: "DEFAULT",
      workspaceId: "42",
    });
    expect((await check(bgpPrefixSpec, { prefix: "198.51.100.0" })).failures).toEqual([
      "prefix: must be a CIDR with its length, such as 203.0.113.0/24 or 2001:db8::/48 (spec part 3, BGP: prefix)",
    ]);
    expect((await check(bgpPrefixSpec, { prefix: "2001:db8::/48", community: "NO_EXPORT" })).failures).toEqual([
      "community: must be DEFAULT or PROTECTED (spec part 3, BGP: community)",
    ]);
  });

  const olds = { workspaceId: "42", prefix: "198.51.100.0/24", source: "MANUAL", enabled: true, community: "DEFAULT", configId: "9" };

  it("changes prefix, enabled and community in place (PUT keeps the id)", async () => {
    expect(
      await diff(bgpPrefixSpec, olds, {
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
      await diff(bgpPrefixSpec, olds, {
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

// ---------------------------------------------------------------------------------------------
// API mappings with a scripted client: the paths they take and what they conclude.

type Call = { method: string; path: string; query?: unknown; body?: unknown };

function fakeContext(routes: Record<string, (call: Call) => unknown>, operation: OperationContext["operation"] = "read") {
  const calls: Call[] = [];
  const answer = async (call: Call) => {
    calls.push(call);
    const route = routes[`${call.method} ${call.path}`];
    if (!route) throw new ApiError(call.method, call.path, 404, "not found");
    return route(call);
  };
  const client = {
    get: (path: string, query?: unknown) => answer({ method: "GET", path, query }),
    post: (path: string, body?: unknown) => answer({ method: "POST", path, body }),
    put: (path: string, body?: unknown) => answer({ method: "PUT", path, body }),
    patch: (path: string, body?: unknown) => answer({ method: "PATCH", path, body }),
    delete: (path: string) => answer({ method: "DELETE", path }),
  } as unknown as SvcClient;
  const ctx: OperationContext = {
    client,
    config: { baseUrl: "http://127.0.0.1", token: "t", workspaceId: "42" },
    label: "Test",
    operation,
    deadline: Date.now() + 60_000,
    startedAt: Date.now(),
    waitForWorkflow: async () => undefined,
    waitForState: async (read) => read(),
    progress: () => undefined,
    detail: () => undefined,
    persistently: (_what, lookup) => lookup(),
  };
  return { ctx, calls };
}

const page = (items: unknown[]) => ({ items, hasNext: false, hasPrevious: false, after: null, before: null });
const refused = (method: string, path: string) => () => {
  throw new ApiError(method, path, 400, "This endpoint needs an administrator (staff) session; a user-scoped token cannot call it");
};

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
    const out = await netLoadBalancerSpec.api.read(ctx, "7", { ownerWorkspaceId: "42" });
    expect(out).toEqual({
      name: "lb",
      address: "203.0.113.7",
      ownerWorkspaceId: "43",
      ownerWorkspaceName: "other",
      memberInstanceIds: ["1", "2"],
      createdAt: "2026-01-01T00:00:00Z",
    });
    expect(calls.map((c) => c.path)).toEqual(["/v1/net-lbs/7"]);
  });

  it("falls back to the recorded owner's workspace route when the token is not an operator's, and remembers it", async () => {
    const { ctx, calls } = fakeContext({
      "GET /v1/net-lbs/7": refused("GET", "/v1/net-lbs/7"),
      "GET /v1/workspaces/43/net-lbs/7": () => detail,
    });
    expect((await netLoadBalancerSpec.api.read(ctx, "7", { ownerWorkspaceId: "43" }))?.name).toBe("lb");
    expect(await netLoadBalancerSpec.api.read(ctx, "8", { ownerWorkspaceId: "43" })).toBeUndefined();
    expect(calls.map((c) => c.path)).toEqual(["/v1/net-lbs/7", "/v1/workspaces/43/net-lbs/7", "/v1/workspaces/43/net-lbs/8"]);
  });

  it("explains that creating a balancer needs an operator token", async () => {
    const { ctx } = fakeContext({ "GET /v1/workspaces/42/net-lbs": () => page([]), "POST /v1/net-lbs": refused("POST", "/v1/net-lbs") });
    await expect(netLoadBalancerSpec.api.create(ctx, { name: "lb", address: "203.0.113.7" })).rejects.toThrow(
      /creating a network load balancer is Administrator-only .*operator \(staff\) token/,
    );
  });
});

describe("NetLoadBalancerMember read", () => {
  const routes = { "GET /v1/workspaces/42/net-lbs/3/instances": () => page([]) };

  it("is JOINING while its own create waits, and gone otherwise", async () => {
    const prior = { workspaceId: "42", loadBalancerId: "3", instanceId: I1 };
    expect(await netLoadBalancerMemberSpec.api.read(fakeContext(routes, "create").ctx, `3:${I1}`, prior)).toMatchObject({
      state: "JOINING",
    });
    expect(await netLoadBalancerMemberSpec.api.read(fakeContext(routes, "read").ctx, `3:${I1}`, prior)).toBeUndefined();
    expect(await netLoadBalancerMemberSpec.api.read(fakeContext(routes, "delete").ctx, `3:${I1}`, prior)).toBeUndefined();
    // Adoption of a membership that does not exist fails instead of waiting.
    expect(
      await netLoadBalancerMemberSpec.api.read(fakeContext(routes, "create").ctx, I1, { ...prior, adoptId: I1 } as never),
    ).toBeUndefined();
  });

  it("reads a member by its synthetic id <loadBalancerId>:<instanceId> (what adoptId takes)", async () => {
    const { ctx, calls } = fakeContext({ "GET /v1/workspaces/42/net-lbs/3/instances": () => page([{ id: I1, name: "vm" }]) });
    expect(await netLoadBalancerMemberSpec.api.read(ctx, `3:${I1}`, { workspaceId: "42", adoptId: `3:${I1}` })).toEqual({
      workspaceId: "42",
      loadBalancerId: "3",
      instanceId: I1,
      instanceName: "vm",
      state: "ACTIVE",
    });
    expect(calls[0].query).toMatchObject({ id: I1 });
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
    await expect(floatingIpSpec.api.create(ctx, inputs)).rejects.toThrow("dropped");
    expect(await floatingIpSpec.api.findExisting!(ctx, inputs)).toBe("2");
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
    await expect(floatingIpSpec.api.create(ctx, inputs)).rejects.toThrow("dropped");
    await expect(floatingIpSpec.api.findExisting!(ctx, inputs)).rejects.toThrow(
      /2 new IPv4 addresses appeared .*3 192\.0\.2\.3, 4 192\.0\.2\.4.*adoptId/,
    );
  });
});

describe("FloatingIpAttachment delete", () => {
  const held = (by: string | null) => () => ({ id: "5", address: "192.0.2.5", family: "IPv4", ddos: false, instance_id: by });

  it("detaches from the instance it manages", async () => {
    const { ctx, calls } = fakeContext({ "GET /v1/ips/5": held(I1), "POST /v1/commands/detach-ip": held(null) });
    await floatingIpAttachmentSpec.api.delete(ctx, "5", { ipId: "5", instanceId: I1, address: "192.0.2.5", family: "IPv4" });
    expect(calls.filter((c) => c.method === "POST").map((c) => c.path)).toEqual(["/v1/commands/detach-ip"]);
    expect(floatingIpAttachmentSpec.api.isGone!({ ipId: "5", instanceId: null, address: "", family: "IPv4" })).toBe(true);
  });

  it("leaves an IP that was moved to another instance outside Pulumi where it is", async () => {
    const { ctx, calls } = fakeContext({ "GET /v1/ips/5": held(I2) });
    await floatingIpAttachmentSpec.api.delete(ctx, "5", { ipId: "5", instanceId: I1, address: "192.0.2.5", family: "IPv4" });
    expect(calls.filter((c) => c.method === "POST")).toEqual([]);
    expect(floatingIpAttachmentSpec.api.isGone!({ ipId: "5", instanceId: I2, address: "", family: "IPv4" })).toBe(true);
  });
});

describe("BgpConfig create", () => {
  it("reports the workspace's existing configuration as a conflict (the lifecycle then names it for adoptId)", async () => {
    const { ctx, calls } = fakeContext({
      "GET /v1/workspaces/42/bgp": () => ({ data: { id: "77", asn: 65000, instance: null, max_prefixes: 100 }, live: { password: null } }),
    });
    const found = await bgpConfigSpec.api.conflict!(ctx, { workspaceId: "42", asn: 64512, instanceId: null });
    expect(found).toMatchObject({ id: "77", description: expect.stringMatching(/already has a BGP configuration \(id 77, AS65000\)/) });
    expect(calls.map((c) => c.method)).toEqual(["GET"]);
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
      await bgpPrefixSpec.api.create(ctx, { workspaceId: "42", prefix: "198.51.100.0/24", enabled: true, community: "DEFAULT" }),
    ).toEqual({ id: "12345678901234567891" });
  });
});

describe("networking inputs at their documented boundaries", () => {
  const rule = { instanceId: I1, type: "IPv4", protocol: "TCP", action: "ACCEPT" };

  it.each([
    ["a DDoS-filtered IPv4 address", floatingIpSpec, { family: "IPv4", ddos: true }],
    ["an IPv6 address without ddos", floatingIpSpec, { family: "IPv6", ddos: false }],
    ["firewall ports 1 and 65535", firewallRuleSpec, { ...rule, portStart: 1, portEnd: 65535 }],
    ["a firewall bps limit of 10,000,000,000", firewallRuleSpec, { ...rule, bpsLimit: 10_000_000_000 }],
    ["a firewall priority of 100", firewallRuleSpec, { ...rule, priority: 100 }],
  ])("accepts %s", async (_what, spec, news) => {
    expect((await check(spec, news)).failures).toEqual([]);
  });

  it.each([
    [
      "an IPv6 address with ddos",
      floatingIpSpec,
      { family: "IPv6", ddos: true },
      "ddos: ddos protection is for IPv4 addresses only: set ddos false for IPv6 (spec part 3, Billing and usage: FLOATING_IP ddos is IPv4 only)",
    ],
    [
      "a fractional firewall port",
      firewallRuleSpec,
      { ...rule, portStart: 80.5 },
      "portStart: must be a whole port number, 1 to 65535 (spec part 3, Firewall rules)",
    ],
    [
      "a fractional firewall pps limit",
      firewallRuleSpec,
      { ...rule, ppsLimit: 0.5 },
      "ppsLimit: must be a whole number, 1 to 10,000,000,000 (spec part 3, Firewall rules)",
    ],
    [
      "a fractional firewall priority",
      firewallRuleSpec,
      { ...rule, priority: 1.5 },
      "priority: must be a whole number, 1 to 100 (spec part 3, Firewall rules)",
    ],
  ])("refuses %s, naming the property and the rule", async (_what, spec, news, failure) => {
    expect((await check(spec, news)).failures).toContain(failure);
  });
});
