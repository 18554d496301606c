/**
 * RegistryCredential: host canonicalisation, the preview-time checks and the policy table (check and
 * diff only; no API).
 */
import { canonicalRegistryHost, registryCredentialSpec } from "../../../resources/registryCredential";
import { checkOnly } from "../../support/preview";

describe("RegistryCredential", () => {
  const p = checkOnly(registryCredentialSpec);
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
