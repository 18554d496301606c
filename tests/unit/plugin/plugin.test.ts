/**
 * The plugin face's translation, without the engine: wire values in and out (secrets, unknowns),
 * where provider configuration is read from, and the service's answers for a preview and a diff.
 * The same paths run through the real engine in tests/e2e/plugin.test.ts and
 * tests/e2e/example-yaml-quickstart.test.ts.
 */
import type * as grpc from "@grpc/grpc-js";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import * as rpc from "@pulumi/pulumi/proto/provider_pb";
import { UNKNOWN } from "../../../provider/lifecycle";
import { checkProviderConfig } from "../../../plugin/config";
import { configSources } from "../../../provider/configure/configSources";
import { lookupFor, lookupNames } from "../../../plugin/invokes";
import { fromStruct, reveal, secret, toStruct } from "../../../plugin/marshal";
import { providerService, typeOfUrn } from "../../../plugin/server";

const URN = "urn:pulumi:dev::proj::svc:index:Vpc::net";

/** Calls one unary method of the service as grpc-js would. */
function call<Res>(method: string, request: unknown): Promise<Res> {
  const service = providerService() as Record<string, (call: { request: unknown }, cb: grpc.sendUnaryData<Res>) => void>;
  return new Promise((resolve, reject) => service[method]({ request }, (err, res) => (err ? reject(err) : resolve(res as Res))));
}

describe("wire values", () => {
  it("unwraps secrets at any depth and leaves unknowns as the lifecycle knows them", () => {
    expect(reveal({ a: secret("pw"), b: [secret({ c: 1 })], d: UNKNOWN })).toEqual({ a: "pw", b: [{ c: 1 }], d: UNKNOWN });
  });

  it("marks the kind's secret fields on the way out and drops undefined members", () => {
    const wire = toStruct({ password: "pw", name: "n", gone: undefined }, ["password"]).toJavaScript();
    expect(wire).toEqual({ password: secret("pw"), name: "n" });
    expect(fromStruct(Struct.fromJavaScript(wire as never))).toEqual({ password: "pw", name: "n" });
  });
});

describe("provider configuration", () => {
  it("reads Configure's arguments first, then its variables, then the environment", () => {
    const env = { SVC_BASE_URL: "https://env.example", SVC_TOKEN: "env-token", SVC_WORKSPACE_ID: "9" };
    const sources = { ...configSources({ token: "arg-token" }, { "svc:config:baseUrl": "https://var.example" }), env };
    expect(sources.get("svc:token")).toBe("arg-token");
    expect(sources.get("svc:baseUrl")).toBe("https://var.example");
    expect(sources.get("svc:workspaceId")).toBeUndefined(); // the runtime then falls back to env
  });

  it("reports a malformed setting on the provider's own property, and waits for values known only at up", () => {
    expect(checkProviderConfig({ baseUrl: "http://api.example.com", token: "t" })).toEqual([
      { property: "baseUrl", reason: expect.stringContaining("plain http") },
    ]);
    expect(checkProviderConfig({ baseUrl: "https://api.example.com", token: UNKNOWN }).map((f) => f.property)).not.toContain("token");
  });
});

describe("the service", () => {
  it("finds the resource type in a URN, parents included", () => {
    expect(typeOfUrn(URN)).toBe("svc:index:Vpc");
    expect(typeOfUrn("urn:pulumi:dev::proj::my:Component$svc:index:Disk::d")).toBe("svc:index:Disk");
  });

  it("answers a diff property by property, saying which change replaces", async () => {
    const req = new rpc.DiffRequest();
    req.setUrn(URN);
    req.setId("7");
    req.setOlds(Struct.fromJavaScript({ name: "net", description: "a", range: "10.1.0.0/16", workspaceId: "1", vlan: 100 }));
    req.setNews(Struct.fromJavaScript({ name: "net", description: "b", range: "10.2.0.0/16", workspaceId: "1" }));
    const res = await call<rpc.DiffResponse>("diff", req);
    expect(res.getHasdetaileddiff()).toBe(true);
    expect(res.getReplacesList()).toEqual(["range"]);
    const detailed = Object.fromEntries(
      res
        .getDetaileddiffMap()
        .toArray()
        .map(([k, v]) => [k, (v as unknown as [number])[0]]),
    );
    expect(detailed).toEqual({ description: rpc.PropertyDiff.Kind.UPDATE, range: rpc.PropertyDiff.Kind.UPDATE_REPLACE });
  });

  it("previews a create with the inputs known and every other declared output unknown", async () => {
    const req = new rpc.CreateRequest();
    req.setUrn(URN);
    req.setPreview(true);
    req.setProperties(Struct.fromJavaScript({ name: "net", description: "a", range: "10.1.0.0/16", workspaceId: "1" }));
    const res = await call<rpc.CreateResponse>("create", req);
    expect(res.getProperties()!.toJavaScript()).toEqual({
      name: "net",
      description: "a",
      range: "10.1.0.0/16",
      workspaceId: "1",
      vlan: UNKNOWN,
      createdAt: UNKNOWN,
    });
  });

  it("refuses a type it does not have, naming the ones it has", async () => {
    const req = new rpc.CheckRequest();
    req.setUrn("urn:pulumi:dev::proj::svc:index:Nope::x");
    await expect(call("check", req)).rejects.toThrow(/no resource type "svc:index:Nope"; types: svc:index:Vpc, /);
  });
});

describe("invokes", () => {
  it("serve every plain lookup under svc:index:<name>, and only those", () => {
    expect(lookupNames()).toEqual(expect.arrayContaining(["getPlan", "getPlans", "getImage", "getNodes", "getWallet"]));
    expect(lookupNames().some((n) => n.endsWith("Output"))).toBe(false);
    expect(() => lookupFor("svc:index:getPlanOutput")).toThrow(/no function "svc:index:getPlanOutput"/);
  });
});
