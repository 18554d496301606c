/**
 * RegistryCredential: host canonicalisation, the preview-time checks and the policy table (check and
 * diff only; no API).
 */
import { canonicalRegistryHost, registryCredentialDefinition } from "../../../resources/registryCredential";
import { checkOnly } from "../../support/preview";
import { fakeContext, page } from "./support";

describe("RegistryCredential", () => {
  const p = checkOnly(registryCredentialDefinition);
  it("canonicalises the host like the API", () => {
    expect(canonicalRegistryHost("https://GHCR.io/v2/")).toBe("ghcr.io");
    expect(canonicalRegistryHost("index.docker.io")).toBe("docker.io");
    expect(canonicalRegistryHost("user@registry.example.com:443/path")).toBe("registry.example.com");
    expect(canonicalRegistryHost("registry.example.com:5000")).toBe("registry.example.com:5000");
    expect(canonicalRegistryHost("not a host")).toBeNull();
  });
  it("records the canonical host, so an alias of the recorded host is no change", async () => {
    const r = await p.check!({}, { registry: "https://Registry.Example.com/", username: "deploy", password: "x" });
    expect(r.inputs).toMatchObject({ registry: "registry.example.com" });
    const olds = { workspaceId: "42", registry: "registry.example.com", username: "deploy", password: "x" };
    expect(await p.diff!("1", olds, r.inputs!)).toMatchObject({ changes: false });
  });
  it("rejects a value that is not a host, and empty credentials", async () => {
    const r = await p.check!({}, { registry: "://", username: "", password: "" });
    expect(r.failures!.map((f) => f.property).sort()).toEqual(["password", "registry", "username"]);
  });
  it("patches username and password, replaces on a new host", async () => {
    const olds = { workspaceId: "42", registry: "registry.example.com", username: "deploy", password: "x" };
    expect(await p.diff!("1", olds, { ...olds, username: "other", password: "y" })).toMatchObject({ changes: true, replaces: [] });
    expect(await p.diff!("1", olds, { ...olds, registry: "ghcr.io" })).toMatchObject({ replaces: ["registry"] });
  });
});

describe("RegistryCredential API mapping (the state's shape)", () => {
  const apiCredential = {
    id: 6,
    registry: "ghcr.io",
    username: "ana",
    owner: { id: 42, name: "ws" },
    created: "2026-01-01T00:00:00Z",
    updated: "2026-01-02T00:00:00Z",
  };
  const declared = { workspaceId: "42", registry: "ghcr.io", username: "ana", password: "s3cret" };

  it("creates and patches with username and password, and reads what the state records (never the password)", async () => {
    const { ctx, calls } = fakeContext(
      { "POST /v1/workspaces/42/registries": () => apiCredential, "PATCH /v1/workspaces/42/registries/6": () => ({}) },
      "create",
    );
    expect(await registryCredentialDefinition.api.create(ctx, declared)).toEqual({ id: "6" });
    await registryCredentialDefinition.api.update!.updateRequest!(ctx, "6", declared as never, { ...declared, username: "bo" }, [
      "username",
    ]);
    expect(calls).toEqual([
      { method: "POST", path: "/v1/workspaces/42/registries", body: { registry: "ghcr.io", username: "ana", password: "s3cret" } },
      { method: "PATCH", path: "/v1/workspaces/42/registries/6", body: { username: "bo", password: "s3cret" } },
    ]);
    const read = async (answer: object) =>
      registryCredentialDefinition.api.get(fakeContext({ "GET /v1/workspaces/42/registries/6": () => answer }).ctx, "6", {
        workspaceId: "42",
      });
    expect(await read(apiCredential)).toStrictEqual({
      workspaceId: "42",
      registry: "ghcr.io",
      username: "ana",
      createdAt: "2026-01-01T00:00:00Z",
      updatedAt: "2026-01-02T00:00:00Z",
    });
    expect(await read({ id: 6, registry: "ghcr.io", username: "ana" })).toStrictEqual({
      workspaceId: "42",
      registry: "ghcr.io",
      username: "ana",
    });
    expect(registryCredentialDefinition.secretOutputs).toEqual(["password"]);
    expect(registryCredentialDefinition.keepFromState).toEqual(["password"]);
    void page;
  });
});
