/**
 * What every resource shares that only the real engine proves, on the dynamic face, in two `pulumi
 * up`s: the state records the one-line provider text as each resource's provider, never the token
 * (nor does anything the CLI prints), and a secret input as a secret, input and output; the engine
 * prints the provider's every step with PULUMI_SVC_VERBOSE=1 (the quiet default is
 * tests/e2e/messages.test.ts); the provider's process falls back to SVC_BASE_URL, SVC_TOKEN and
 * SVC_WORKSPACE_ID when the stack sets none.
 *
 * Elsewhere: retries, a lost create answer, deadlines, `timeouts` never a change and configuration
 * problems at check are tests/inprocess/provider.test.ts, on both faces; through the engine, a
 * configuration problem failing `pulumi preview` is tests/e2e/messages.test.ts, and
 * `customTimeouts`, a deadline's record finished by the next up and `timeouts` never a diff are
 * tests/e2e/conformance.ts, on both faces.
 */
import { secret, startE2E, type Declaration, type E2E } from "./harness";

jest.setTimeout(600_000);

const GiB = 1024 ** 3;

describe("provider behaviour through the real pulumi engine", () => {
  let e2e: E2E;
  let declared: Declaration[];

  beforeAll(async () => {
    e2e = await startE2E("provider", { verbose: true });
    const plan = (await e2e.emu.api.get("/v1/plans", { name: "lightning-1" })).body.items[0].id;
    declared = [
      { type: "Vpc", name: "net", args: { name: "prov-net", description: "provider tests", range: "10.77.0.0/16" } },
      { type: "Disk", name: "scratch", args: { name: "scratch", size: GiB, backend: "LOCAL", region: "NA_01" } },
      {
        type: "Instance",
        name: "vm",
        args: { name: "prov-vm", planId: plan, region: "NA_01", cloudInit: secret("#cloud-config\npassword: hunter2-cloud\n") },
      },
    ];
    await e2e.up(declared);
  });
  afterAll(async () => {
    await e2e?.stop();
  });

  it("stores the one-line provider text as each resource's provider, whatever the provider's size", async () => {
    const resources = await e2e.state();
    expect(resources).toHaveLength(3);
    for (const r of resources) {
      const kind = r.type.split(":").pop();
      // The package's documented entry point, built from its own name; never a dist path.
      const expected = `exports.handler = () => require("pulumi-svc/provider").shim("${kind}");\n`;
      expect(r.inputs.__provider).toBe(expected);
      expect(r.outputs.__provider).toBe(expected);
    }
  });

  it("keeps a secret input secret in state", async () => {
    const raw = await e2e.rawState();
    expect(raw).not.toContain("hunter2-cloud");
    // Recorded as a secret (the engine's secret envelope; exportStack shows it decrypted), input
    // and output alike; the raw file above holds only ciphertext.
    const vm = await e2e.resource("vm");
    const envelope = expect.objectContaining({ "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270" });
    expect(vm.outputs.cloudInit).toEqual(envelope);
    expect(vm.inputs.cloudInit).toEqual(envelope);
  });

  it("with PULUMI_SVC_VERBOSE=1, prints every step: operations, workflow states, ids", async () => {
    expect(e2e.output()).toMatch(/svc: Instance "prov-vm": create: workflow create-instance \d+ QUEUED/);
    expect(e2e.output()).toMatch(/svc: Instance "prov-vm": create: workflow \d+ COMPLETED \(\d+\.\ds\)/);
    expect(e2e.output()).toMatch(/svc: Disk "scratch": created id \d+/);
  });

  it("falls back to SVC_BASE_URL, SVC_TOKEN and SVC_WORKSPACE_ID", async () => {
    for (const key of ["svc:baseUrl", "svc:token", "svc:workspaceId"]) await e2e.stack.removeConfig(key);
    const env = e2e.stack.workspace.envVars as Record<string, string>;
    Object.assign(env, { SVC_BASE_URL: e2e.emu.emu.url, SVC_TOKEN: e2e.emu.emu.token, SVC_WORKSPACE_ID: e2e.emu.workspaceId });
    try {
      // A resource made from the environment alone: its workspace is SVC_WORKSPACE_ID's.
      declared = [
        ...declared,
        { type: "Vpc", name: "from-env", args: { name: "env-net", description: "from SVC_*", range: "10.78.0.0/16" } },
      ];
      await e2e.up(declared);
      const made = await e2e.resource("from-env");
      expect(made.outputs.workspaceId).toBe(e2e.emu.workspaceId);
      expect((await e2e.emu.api.get(`/v1/vpcs/${made.id}`)).body.name).toBe("env-net");
    } finally {
      Object.assign(env, { SVC_BASE_URL: "", SVC_TOKEN: "", SVC_WORKSPACE_ID: "" });
      await e2e.stack.setAllConfig({
        "svc:baseUrl": { value: e2e.emu.emu.url },
        "svc:token": { value: e2e.emu.emu.token, secret: true },
        "svc:workspaceId": { value: e2e.emu.workspaceId },
      });
    }
  });

  // After both ups: the token came from the stack's secret config, then from SVC_TOKEN.
  it("never writes the token to the state file or the CLI output", async () => {
    const raw = await e2e.rawState();
    expect(raw.length).toBeGreaterThan(1000);
    expect(raw).not.toContain(e2e.emu.emu.token);
    expect(e2e.output()).not.toContain(e2e.emu.emu.token);
  });
});
