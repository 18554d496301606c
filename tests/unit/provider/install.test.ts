/**
 * Where a dynamic provider process reads its settings (provider/dynamic/install.ts), against the config
 * object the installed SDK's dynamic-provider host hands `configure`: the default provider's bag is
 * the whole stack configuration, an explicit `svc.Provider`'s its own inputs. The same paths run
 * through the real engine in tests/e2e/explicit-provider.test.ts.
 */
import { Config } from "@pulumi/pulumi/cmd/dynamic-provider/config";
import { isSecret, output } from "@pulumi/pulumi/output";
import { configProblems, resolveConfig } from "../../../provider/runtime/config";
import { providerInputs } from "../../../provider/dynamic/explicitProvider";
import { dynamicSources } from "../../../provider/dynamic/install";
import { UNKNOWN } from "../../../provider/lifecycle";

const hostConfig = (bag: Record<string, unknown>) => new Config(bag, "proj");

describe("a dynamic provider process's settings", () => {
  it("reads the default provider's stack configuration by its svc: keys", () => {
    const sources = dynamicSources(hostConfig({ "svc:baseUrl": "https://api.example.com", "svc:token": "t", "proj:other": "x" }));
    expect(sources.explicit).toBe(false);
    expect(resolveConfig(sources)).toEqual({ baseUrl: "https://api.example.com", token: "t", workspaceId: null });
  });

  it("reads an explicit provider's own inputs, which the host's get cannot reach (it prefixes the project)", () => {
    const bag = { baseUrl: "https://eu.example.com", token: "eu-token", workspaceId: "42", maxRequestsPerSecond: 5 };
    expect(hostConfig(bag).get("baseUrl")).toBeUndefined();
    const sources = dynamicSources(hostConfig(bag));
    expect(sources.explicit).toBe(true);
    expect(resolveConfig(sources)).toEqual({
      baseUrl: "https://eu.example.com",
      token: "eu-token",
      workspaceId: "42",
      maxRequestsPerSecond: 5,
    });
  });

  it("takes a setting not known until up as unset, and names the provider's property in its problem", () => {
    const sources = dynamicSources(hostConfig({ baseUrl: "https://eu.example.com", token: UNKNOWN }));
    expect(configProblems(sources)).toEqual([{ setting: "svc:token", message: "no API token: set the svc.Provider's token or SVC_TOKEN" }]);
    expect(configProblems(dynamicSources(hostConfig({})))).toContainEqual({
      setting: "svc:token",
      message: "no API token: set svc:token (pulumi config set --secret svc:token <token>) or SVC_TOKEN",
    });
  });
});

describe("svc.Provider's inputs", () => {
  it("makes the token a secret whatever the caller passed, and leaves the other settings as given", async () => {
    const inputs = providerInputs({ baseUrl: "https://eu.example.com", token: "eu-token", workspaceId: "42" });
    expect(await isSecret(output(inputs.token))).toBe(true);
    expect(inputs).toMatchObject({ baseUrl: "https://eu.example.com", workspaceId: "42" });
    expect(providerInputs({ baseUrl: "https://eu.example.com" })).not.toHaveProperty("token");
  });
});
