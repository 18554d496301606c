/**
 * What every resource shares, through the real engine: the serialized provider stays tiny, the
 * token never reaches state or logs, secret inputs stay secret, configuration problems are clear
 * errors, the environment fallbacks work, retries and deadlines behave, timeouts never diff.
 * The provider runs with PULUMI_SVC_VERBOSE=1 here, so every step's line is printed (the quiet
 * default is tests/e2e/messages.test.ts).
 */
import * as fs from "node:fs";
import { paceDirOf, secret, startE2E, type Declaration, type E2E } from "./harness";

jest.setTimeout(600_000);

const GiB = 1024 ** 3;

describe("provider behaviour through the real pulumi engine", () => {
  let e2e: E2E;
  let plan: string;
  const base = (): Declaration[] => [
    { type: "Vpc", name: "net", args: { name: "prov-net", description: "provider tests", range: "10.77.0.0/16" } },
    { type: "Disk", name: "scratch", args: { name: "scratch", size: GiB, backend: "LOCAL", region: "NA_01" } },
  ];

  beforeAll(async () => {
    e2e = await startE2E("provider", { verbose: true });
    plan = (await e2e.emu.api.get("/v1/plans", { name: "lightning-1" })).body.items[0].id;
  });
  afterAll(async () => {
    await e2e?.stop();
  });

  it("stores the one-line provider text as each resource's provider, whatever the provider's size", async () => {
    await e2e.up([
      ...base(),
      {
        type: "Instance",
        name: "vm",
        args: { name: "prov-vm", planId: plan, region: "NA_01", cloudInit: secret("#cloud-config\npassword: hunter2-cloud\n") },
      },
    ]);
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

  it("never writes the token to the state file or the CLI output", async () => {
    const raw = await e2e.rawState();
    expect(raw.length).toBeGreaterThan(1000);
    expect(raw).not.toContain(e2e.emu.emu.token);
    expect(e2e.output()).not.toContain(e2e.emu.emu.token);
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

  it("never diffs on timeouts", async () => {
    const decl = base().map((d) => ({ ...d, args: { ...d.args, timeouts: { create: "45m", delete: "2m" } } }));
    const vm = {
      type: "Instance",
      name: "vm",
      args: { name: "prov-vm", planId: plan, region: "NA_01", cloudInit: secret("#cloud-config\npassword: hunter2-cloud\n") },
    };
    const preview = await e2e.preview([...decl, vm]);
    expect(preview.changeSummary).toEqual({ same: 4 });
  });

  it("retries reads on 503 and honours Retry-After on a 429, without resending a POST blindly", async () => {
    await e2e.emu.control.post("/_emulator/faults", { kind: "status", status: 503, method: "GET", path: "/v1/disks/*", times: 2 });
    await e2e.emu.control.post("/_emulator/faults", {
      kind: "status",
      status: 429,
      retryAfterSeconds: 1,
      method: "POST",
      path: "/v1/workspaces/*/disks",
      times: 1,
    });
    const since = await e2e.lastSeq();
    await e2e.up([...base(), { type: "Disk", name: "retried", args: { name: "retried", size: GiB, backend: "LOCAL", region: "NA_01" } }]);
    const log = await e2e.requests(since);
    const posts = log.filter((r) => r.method === "POST" && r.path.endsWith("/disks"));
    expect(posts.map((r) => r.status)).toEqual([429, 202]);
    expect(log.filter((r) => r.method === "GET" && r.path.startsWith("/v1/disks/") && r.status === 503)).toHaveLength(2);
    // The 503s are told; the 429 is waited out by the pace and summed up once (its own line is a
    // detail: this file runs verbose, so the quiet default is proven in ratelimit.test.ts).
    expect(e2e.output()).toMatch(/GET \/v1\/disks\/\d+ answered 503; retrying in/);
    expect(e2e.output()).toMatch(/svc: API requests: \d+ sent, 1 answered 429/);
    expect((await e2e.resource("retried")).outputs.state).toBe("AVAILABLE");
    // The pace this 429 taught is shared with the next runs for a minute; the tests after this one start unpaced.
    fs.rmSync(paceDirOf(e2e), { recursive: true, force: true });
  });

  it("adopts the resource a 502-answered create made instead of creating a second one", async () => {
    await e2e.emu.control.post("/_emulator/faults", { kind: "drop", method: "POST", path: "/v1/workspaces/*/disks", times: 1 });
    const since = await e2e.lastSeq();
    await e2e.up([...base(), { type: "Disk", name: "lost", args: { name: "lost-answer", size: GiB, backend: "LOCAL", region: "NA_01" } }]);
    expect((await e2e.mutations(since)).filter((r) => r.method === "POST")).toHaveLength(1);
    const disks = (await e2e.emu.api.get(`/v1/workspaces/${e2e.emu.workspaceId}/disks`, { name: "lost-answer" })).body.items;
    expect(disks).toHaveLength(1);
    expect((await e2e.resource("lost")).id).toBe(disks[0].id);
    expect(e2e.output()).toMatch(/the create answer was lost .* adopted it/);
  });

  it("finishes, on the next up, a create that outlived its deadline", async () => {
    await e2e.emu.control.post("/_emulator/settings", { workflowMs: 8000 });
    const slow = {
      type: "Disk",
      name: "slow",
      args: { name: "slow", size: GiB, backend: "LOCAL", region: "NA_01", timeouts: { create: "2s" } },
    };
    const message = await e2e.upFails([...base(), slow]);
    expect(message).toMatch(/Disk "slow": create did not finish before its deadline/);
    const recorded = await e2e.resource("slow");
    expect(recorded.outputs.state).toBe("PENDING");
    await e2e.emu.control.post("/_emulator/settings", { workflowMs: 150 });
    const preview = await e2e.preview([...base(), slow]);
    expect(preview.changeSummary).toMatchObject({ update: 1 });
    await e2e.up([...base(), slow]);
    const finished = await e2e.resource("slow");
    expect(finished.id).toBe(recorded.id);
    expect(finished.outputs.state).toBe("AVAILABLE");
  });

  it("fails at the deadline from timeouts, keeping the half-created resource in state for the next up", async () => {
    await e2e.emu.control.post("/_emulator/faults", { kind: "stuck", method: "POST", path: "/v1/workspaces/*/disks", times: 1 });
    const slow = { type: "Disk", name: "slow", args: { name: "slow", size: GiB, backend: "LOCAL", region: "NA_01" } };
    const message = await e2e.upFails([
      ...base(),
      slow,
      { type: "Disk", name: "stuck", args: { name: "stuck", size: GiB, backend: "LOCAL", region: "NA_01", timeouts: { create: "3s" } } },
    ]);
    expect(message).toMatch(/Disk "stuck": create did not finish before its deadline .*raise timeouts\.create/);
    const kept = await e2e.resource("stuck");
    expect(kept.outputs.state).toBe("PENDING");
    expect((await e2e.emu.api.get(`/v1/disks/${kept.id}`)).body.state).toBe("PENDING");
  });

  it("destroy removes everything, the half-created resource included", async () => {
    await e2e.destroy();
    expect((await e2e.inventoryTotal()).total).toBe(0);
  });

  it("reports a missing token at preview (check), naming what to set", async () => {
    await e2e.stack.removeConfig("svc:token");
    const message = await e2e.upFails(base());
    expect(message).toMatch(/no API token: set svc:token .*SVC_TOKEN/);
    await e2e.stack.setConfig("svc:token", { value: e2e.emu.emu.token, secret: true });
  });

  it("refuses plain http to a host that is not loopback", async () => {
    await e2e.stack.setConfig("svc:baseUrl", { value: "http://api.example.com" });
    const message = await e2e.upFails(base());
    expect(message).toMatch(/plain http to a non-loopback host/);
    await e2e.stack.setConfig("svc:baseUrl", { value: e2e.emu.emu.url });
  });

  it("falls back to SVC_BASE_URL, SVC_TOKEN and SVC_WORKSPACE_ID", async () => {
    for (const key of ["svc:baseUrl", "svc:token", "svc:workspaceId"]) await e2e.stack.removeConfig(key);
    const env = e2e.stack.workspace.envVars as Record<string, string>;
    Object.assign(env, { SVC_BASE_URL: e2e.emu.emu.url, SVC_TOKEN: e2e.emu.emu.token, SVC_WORKSPACE_ID: e2e.emu.workspaceId });
    try {
      await e2e.up(base());
      expect((await e2e.resource("net")).outputs.workspaceId).toBe(e2e.emu.workspaceId);
      await e2e.destroy();
      expect((await e2e.inventoryTotal()).total).toBe(0);
    } finally {
      Object.assign(env, { SVC_BASE_URL: "", SVC_TOKEN: "", SVC_WORKSPACE_ID: "" });
      await e2e.stack.setAllConfig({
        "svc:baseUrl": { value: e2e.emu.emu.url },
        "svc:token": { value: e2e.emu.emu.token, secret: true },
        "svc:workspaceId": { value: e2e.emu.workspaceId },
      });
    }
  });
});
