/**
 * Emulator core: fault injection (POST/GET/DELETE /_emulator/faults), observed over real HTTP.
 * Every kind (status, drop, slow, workflow, stuck), rule selection by method and path glob,
 * `share` and `times`.
 */
import { useTestEmulator, type TestEmulator } from "../src/testing";
import { setTimeout as sleep } from "node:timers/promises";

let t: TestEmulator;
let vpcsPath: string;
let disksPath: string;
let wsPath: string;
const GiB = 1024 ** 3;

useTestEmulator((started) => {
  t = started;
  wsPath = `/v1/workspaces/${t.workspaceId}`;
  vpcsPath = `${wsPath}/vpcs`;
  disksPath = `${wsPath}/disks`;
});

interface FaultRule {
  id: string;
  kind: string;
  method?: string;
  path: string;
  share: number;
  times?: number;
  fired: number;
}

async function addFault(rule: Record<string, unknown>): Promise<FaultRule> {
  const res = await t.control.post("/_emulator/faults", rule);
  if (res.status !== 201) throw new Error(`add fault: ${res.status} ${res.message}`);
  return res.body;
}

async function listFaults(): Promise<FaultRule[]> {
  return (await t.control.get<{ faults: FaultRule[] }>("/_emulator/faults")).body.faults;
}

const vpcBody = (name = "backend") => ({ name, description: "fault test network", range: "10.8.0.0/16" });
const diskBody = (name = "data-1") => ({ name, size: GiB, backend: "LOCAL", region: "NA_01" });

/** The live VPCs the inventory sees (independent of the API under test). */
async function inventoryVpcs(): Promise<Array<{ id: string; name: string }>> {
  return (await t.control.get("/_emulator/inventory")).body.resources.vpcs;
}

describe("status faults: answered before the handler runs", () => {
  it.each([500, 502, 503])("%i: the create is refused and nothing is written", async (status) => {
    await addFault({ kind: "status", status, method: "POST", path: "/v1/workspaces/*/vpcs" });
    const res = await t.api.post(vpcsPath, vpcBody());
    expect(res.status).toBe(status);
    expect(res.message).toBe(`Injected fault: ${status}`);
    expect(res.body).toEqual({ message: `Injected fault: ${status}` });
    expect(res.headers.get("retry-after")).toBeNull();
    expect(await inventoryVpcs()).toEqual([]);
    expect((await t.api.get(vpcsPath)).body.items).toEqual([]);
    // The request log shows the injected status.
    const log = (await t.control.get("/_emulator/requests", { method: "POST" })).body.requests;
    expect(log).toEqual([expect.objectContaining({ method: "POST", path: vpcsPath, status })]);
    // Without the rule the same request succeeds.
    expect((await t.control.delete("/_emulator/faults")).status).toBe(204);
    expect((await t.api.post(vpcsPath, vpcBody())).status).toBe(201);
    expect(await inventoryVpcs()).toHaveLength(1);
  });

  it("429 carries Retry-After when retryAfterSeconds is set, and none otherwise", async () => {
    await addFault({ kind: "status", status: 429, retryAfterSeconds: 7, path: "/v1/workspaces/*/vpcs", times: 1 });
    const limited = await t.api.post(vpcsPath, vpcBody());
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("7");
    expect(limited.message).toBe("Injected fault: 429");
    expect(await inventoryVpcs()).toEqual([]);

    await addFault({ kind: "status", status: 429, path: "/v1/workspaces/*/vpcs", times: 1 });
    const bare = await t.api.post(vpcsPath, vpcBody());
    expect(bare.status).toBe(429);
    expect(bare.headers.get("retry-after")).toBeNull();
    expect(await inventoryVpcs()).toEqual([]);
  });

  it("answers before authentication: even a request without a token gets the injected status", async () => {
    await addFault({ kind: "status", status: 503, path: "/v1/workspaces/**" });
    const res = await t.anon.get(wsPath);
    expect(res.status).toBe(503);
  });

  it("never applies to the /_emulator controls", async () => {
    await addFault({ kind: "status", status: 503, path: "**" });
    await addFault({ kind: "slow", delayMs: 5000, path: "**" });
    expect((await t.control.get("/_emulator/inventory")).status).toBe(200);
    expect((await t.control.get("/_emulator/clock")).status).toBe(200);
    expect((await listFaults()).map((f) => f.fired)).toEqual([0, 0]);
  });
});

describe("fault rule validation", () => {
  it.each([
    ["an unknown kind", { kind: "explode" }],
    ["a status rule without status", { kind: "status" }],
    ["a status outside 429/500/502/503", { kind: "status", status: 404 }],
    ["a slow rule without delayMs", { kind: "slow" }],
    ["a workflow rule without outcome", { kind: "workflow" }],
    ["an unknown outcome", { kind: "workflow", outcome: "EXPLODED" }],
    ["a share above 1", { kind: "drop", share: 1.5 }],
    ["a negative share", { kind: "drop", share: -0.1 }],
    ["times of 0", { kind: "drop", times: 0 }],
  ])("refuses %s with 400 and X-Message", async (_label, rule) => {
    const res = await t.control.post("/_emulator/faults", rule);
    expect(res.status).toBe(400);
    expect(res.message).toBeTruthy();
    expect(await listFaults()).toEqual([]);
  });
});

describe("drop: the write commits, then the connection is dropped", () => {
  it("the client sees a socket error, yet the VPC exists", async () => {
    await addFault({ kind: "drop", method: "POST", path: "/v1/workspaces/*/vpcs" });
    let error: (Error & { cause?: { code?: string } }) | undefined;
    try {
      await t.api.post(vpcsPath, vpcBody("dropped-net"));
    } catch (err) {
      error = err as Error & { cause?: { code?: string } };
    }
    expect(error?.message).toBe("fetch failed");
    expect(["UND_ERR_SOCKET", "ECONNRESET"]).toContain(error?.cause?.code);

    const vpcs = await inventoryVpcs();
    expect(vpcs).toEqual([expect.objectContaining({ name: "dropped-net", workspaceId: t.workspaceId })]);
    const got = await t.api.get(`/v1/vpcs/${vpcs[0].id}`);
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ id: vpcs[0].id, name: "dropped-net" });
    // Logged with status 0: no answer was sent.
    const log = (await t.control.get("/_emulator/requests", { method: "POST" })).body.requests;
    expect(log).toEqual([expect.objectContaining({ path: vpcsPath, status: 0 })]);
    // Reads are not dropped by a POST rule; the server keeps serving.
    expect((await t.api.get(vpcsPath)).body.items).toHaveLength(1);
  });
});

describe("slow", () => {
  it("delays a matching request by at least delayMs; rules add up", async () => {
    await addFault({ kind: "slow", delayMs: 150, path: "/v1/workspaces/*" });
    await addFault({ kind: "slow", delayMs: 100, method: "GET", path: "/v1/workspaces/**" });
    const started = performance.now();
    const res = await t.api.get(wsPath);
    const elapsed = performance.now() - started;
    expect(res.status).toBe(200);
    // 250 ms in all; a few ms of slack for the timer granularity of the event loop.
    expect(elapsed).toBeGreaterThanOrEqual(240);
    const log = (await t.control.get("/_emulator/requests", { path: wsPath })).body.requests;
    expect(log[0].durationMs).toBeGreaterThanOrEqual(240);
    // A request the rules do not select is not delayed (the rules did not fire for it).
    await t.api.get("/v1/plans");
    expect((await listFaults()).map((f) => f.fired)).toEqual([1, 1]);
  });
});

describe("workflow outcome faults", () => {
  it.each(["FAILED", "ABORTED", "TIMED_OUT"])(
    "%s: the disk create workflow ends in that state and the disk ends FAILED",
    async (outcome) => {
      await addFault({ kind: "workflow", outcome, method: "POST", path: "/v1/workspaces/*/disks" });
      const res = await t.api.post(disksPath, diskBody());
      expect(res.status).toBe(202);
      expect(res.body.workflow.state).toBe("QUEUED");
      expect(res.body.resource.state).toBe("PENDING");
      expect(await t.waitWorkflow(res.body.workflow.id)).toBe(outcome);
      expect((await t.api.get(`/v1/disks/${res.body.resource.id}`)).body.state).toBe("FAILED");

      // Once the rule is gone, the same create completes.
      await t.control.delete("/_emulator/faults");
      const ok = await t.api.post(disksPath, diskBody("data-2"));
      expect(await t.waitWorkflow(ok.body.workflow.id)).toBe("COMPLETED");
      expect((await t.api.get(`/v1/disks/${ok.body.resource.id}`)).body.state).toBe("AVAILABLE");
    },
  );

  it("only affects workflows started by the selected request", async () => {
    const before = await t.api.post(disksPath, diskBody("before"));
    await addFault({ kind: "workflow", outcome: "FAILED", method: "POST", path: "/v1/workspaces/*/disks", times: 1 });
    const hit = await t.api.post(disksPath, diskBody("hit"));
    const after = await t.api.post(disksPath, diskBody("after"));
    expect(await t.waitWorkflow(before.body.workflow.id)).toBe("COMPLETED");
    expect(await t.waitWorkflow(hit.body.workflow.id)).toBe("FAILED");
    expect(await t.waitWorkflow(after.body.workflow.id)).toBe("COMPLETED");
  });
});

describe("stuck", () => {
  it("the workflow stays RUNNING and the disk PENDING well past --workflow-ms", async () => {
    const workflowMs = (await t.control.get("/_emulator/settings")).body.workflowMs as number;
    await addFault({ kind: "stuck", method: "POST", path: "/v1/workspaces/*/disks" });
    const res = await t.api.post(disksPath, diskBody());
    expect(res.status).toBe(202);
    await sleep(workflowMs * 10);
    expect((await t.api.get(`/v1/workflows/${res.body.workflow.id}`)).body.state).toBe("RUNNING");
    expect((await t.api.get(`/v1/disks/${res.body.resource.id}`)).body.state).toBe("PENDING");
    // Not merely slow: a day later on the emulator's clock it is still running.
    await t.control.post("/_emulator/clock", { advanceMs: 86_400_000 });
    expect((await t.api.get(`/v1/workflows/${res.body.workflow.id}`)).body.state).toBe("RUNNING");
    expect((await t.api.get(`/v1/disks/${res.body.resource.id}`)).body.state).toBe("PENDING");
    expect((await t.control.get("/_emulator/inventory")).body.resources.disks).toEqual([
      expect.objectContaining({ id: res.body.resource.id, state: "PENDING" }),
    ]);
  });
});

describe("selection", () => {
  it("by method (case-insensitive in the rule)", async () => {
    const rule = await addFault({ kind: "status", status: 503, method: "post", path: "**" });
    expect(rule.method).toBe("POST");
    expect((await t.api.get(wsPath)).status).toBe(200);
    expect((await t.api.get(vpcsPath)).status).toBe(200);
    expect((await t.api.post(vpcsPath, vpcBody())).status).toBe(503);
    expect((await t.api.post(disksPath, diskBody())).status).toBe(503);
    expect((await listFaults())[0].fired).toBe(2);
  });

  it("by path: * matches exactly one segment", async () => {
    await addFault({ kind: "status", status: 503, path: "/v1/workspaces/*" });
    expect((await t.api.get(wsPath)).status).toBe(503);
    expect((await t.api.get(wsPath, { limit: 5 })).status).toBe(503); // the query is not part of the path
    expect((await t.api.get("/v1/workspaces")).status).toBe(200); // no segment
    expect((await t.api.get(vpcsPath)).status).toBe(200); // two segments
    expect((await t.api.get(`${wsPath}/quota`)).status).toBe(200);
  });

  it("by path: ** matches any number of segments, at the end or in the middle", async () => {
    await addFault({ kind: "status", status: 502, path: "/v1/workspaces/**" });
    expect((await t.api.get(wsPath)).status).toBe(502);
    expect((await t.api.get(vpcsPath)).status).toBe(502);
    expect((await t.api.get(`${wsPath}/quota`)).status).toBe(502);
    expect((await t.api.get("/v1/plans")).status).toBe(200);
    await t.control.delete("/_emulator/faults");

    await addFault({ kind: "status", status: 500, path: "/v1/**/quota" });
    expect((await t.api.get(`${wsPath}/quota`)).status).toBe(500);
    expect((await t.api.get(wsPath)).status).toBe(200);
    expect((await t.api.get(vpcsPath)).status).toBe(200);
  });

  it("a literal path matches only itself (glob metacharacters of regular expressions are literal)", async () => {
    await addFault({ kind: "status", status: 503, path: "/v1/plans" });
    await addFault({ kind: "status", status: 500, path: "/v1/plan." });
    expect((await t.api.get("/v1/plans")).status).toBe(503);
    expect((await t.api.get("/v1/plans/1")).status).toBe(404);
    expect((await listFaults()).map((f) => f.fired)).toEqual([1, 0]);
  });
});

describe("share", () => {
  async function statuses(n: number): Promise<number[]> {
    const out: number[] = [];
    for (let i = 0; i < n; i++) out.push((await t.api.get(wsPath)).status);
    return out;
  }

  it("a share of 0 never fires", async () => {
    await addFault({ kind: "status", status: 503, share: 0, path: "/v1/workspaces/*" });
    expect(new Set(await statuses(40))).toEqual(new Set([200]));
    expect((await listFaults())[0].fired).toBe(0);
  });

  it("a share of 0.5 fires for some but not all of 40 requests, reproducibly for a seed", async () => {
    await addFault({ kind: "status", status: 503, share: 0.5, path: "/v1/workspaces/*" });
    const first = await statuses(40);
    const failed = first.filter((s) => s === 503).length;
    expect(failed).toBeGreaterThan(0);
    expect(failed).toBeLessThan(40);
    expect(first.filter((s) => s === 200)).toHaveLength(40 - failed);
    expect((await listFaults())[0].fired).toBe(failed);

    // Reset returns the seeded random generator to its start: the same rule picks the same requests.
    await t.control.post("/_emulator/reset");
    await addFault({ kind: "status", status: 503, share: 0.5, path: "/v1/workspaces/*" });
    expect(await statuses(40)).toEqual(first);
  });
});

describe("times", () => {
  it("fires exactly N times, then the rule is spent", async () => {
    await addFault({ kind: "status", status: 500, times: 3, path: "/v1/workspaces/*" });
    const seen: number[] = [];
    for (let i = 0; i < 7; i++) seen.push((await t.api.get(wsPath)).status);
    expect(seen).toEqual([500, 500, 500, 200, 200, 200, 200]);
    expect(await listFaults()).toEqual([expect.objectContaining({ times: 3, fired: 3 })]);
  });

  it("counts only requests the rule selects", async () => {
    await addFault({ kind: "status", status: 503, times: 1, method: "POST", path: "/v1/workspaces/*/vpcs" });
    expect((await t.api.get(vpcsPath)).status).toBe(200);
    expect((await t.api.post(vpcsPath, vpcBody())).status).toBe(503);
    expect((await t.api.post(vpcsPath, vpcBody())).status).toBe(201);
    expect(await inventoryVpcs()).toHaveLength(1);
  });
});

describe("GET and DELETE /_emulator/faults", () => {
  it("lists rules with their defaults and fire counts, and clears them", async () => {
    expect(await listFaults()).toEqual([]);
    const a = await addFault({ kind: "status", status: 503, method: "GET", path: "/v1/plans" });
    const b = await addFault({ kind: "slow", delayMs: 1 });
    expect(a.id).not.toBe(b.id);
    await t.api.get("/v1/plans");
    const listed = await listFaults();
    expect(listed).toEqual([
      { id: a.id, kind: "status", status: 503, method: "GET", path: "/v1/plans", share: 1, fired: 1 },
      { id: b.id, kind: "slow", delayMs: 1, path: "**", share: 1, fired: 1 },
    ]);

    const cleared = await t.control.delete("/_emulator/faults");
    expect(cleared.status).toBe(204);
    expect(cleared.text).toBe("");
    expect(await listFaults()).toEqual([]);
    expect((await t.api.get("/v1/plans")).status).toBe(200);
  });
});
