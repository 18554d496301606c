/**
 * FloatingIpAttachment: preview checks (check) and the policy table (diff), through the lifecycle
 * with a runtime that refuses any API access; then its API mapping with a scripted client: the paths
 * it takes and what it concludes.
 */
import { UNKNOWN } from "../../../provider/lifecycle";
import { floatingIpAttachmentDefinition } from "../../../resources/floatingIpAttachment";
import { diff } from "../../support/preview";
import { fakeContext, I1, I2 } from "./support";

describe("FloatingIpAttachment", () => {
  const olds = { ipId: "5", instanceId: I1, address: "192.0.2.1", family: "IPv4" };

  it("moves the IP to another instance in place", async () => {
    expect(await diff(floatingIpAttachmentDefinition, olds, { ipId: "5", instanceId: I2 })).toEqual({
      changes: true,
      replaces: [],
      deleteBeforeReplace: false,
    });
  });

  it("re-attaches in place after a detach made outside Pulumi (instanceId read as null)", async () => {
    expect(await diff(floatingIpAttachmentDefinition, { ...olds, instanceId: null }, { ipId: "5", instanceId: I1 })).toEqual({
      changes: true,
      replaces: [],
      deleteBeforeReplace: false,
    });
  });

  it("replaces for another IP, including one not known until up", async () => {
    expect(await diff(floatingIpAttachmentDefinition, olds, { ipId: "6", instanceId: I1 })).toMatchObject({ replaces: ["ipId"] });
    expect(await diff(floatingIpAttachmentDefinition, olds, { ipId: UNKNOWN, instanceId: I1 })).toMatchObject({ replaces: ["ipId"] });
  });
});

describe("FloatingIpAttachment delete", () => {
  const held = (by: string | null) => () => ({ id: "5", address: "192.0.2.5", family: "IPv4", ddos: false, instance_id: by });

  it("detaches from the instance it manages", async () => {
    const { ctx, calls } = fakeContext({ "GET /v1/ips/5": held(I1), "POST /v1/commands/detach-ip": held(null) });
    await floatingIpAttachmentDefinition.api.delete(ctx, "5", { ipId: "5", instanceId: I1, address: "192.0.2.5", family: "IPv4" });
    expect(calls.filter((c) => c.method === "POST").map((c) => c.path)).toEqual(["/v1/commands/detach-ip"]);
    expect(floatingIpAttachmentDefinition.api.isGone!({ ipId: "5", instanceId: null, address: "", family: "IPv4" })).toBe(true);
  });

  it("leaves an IP that was moved to another instance outside Pulumi where it is", async () => {
    const { ctx, calls } = fakeContext({ "GET /v1/ips/5": held(I2) });
    await floatingIpAttachmentDefinition.api.delete(ctx, "5", { ipId: "5", instanceId: I1, address: "192.0.2.5", family: "IPv4" });
    expect(calls.filter((c) => c.method === "POST")).toEqual([]);
    expect(floatingIpAttachmentDefinition.api.isGone!({ ipId: "5", instanceId: I2, address: "", family: "IPv4" })).toBe(true);
  });
});
