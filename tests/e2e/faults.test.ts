/**
 * What only the real engine proves of the faults the provider recovers from, on the dynamic face:
 * a cluster create whose id no lookup could find before its deadline is recorded as pending (the
 * engine keeps the provisional id its ErrorResourceInitFailed names), and `pulumi refresh`
 * re-records it under the real id (the engine takes a new id from read), nothing orphaned; and an
 * onError hook cannot be registered through the Node.js language host (3.163). One stack.
 *
 * Elsewhere: each fault's recovery (a 500 on a lookup, a workflow poll and a read-back; a cluster
 * found, and a dropped create's instance adopted, though their lookups answered 500; the adoptId a
 * natural key held outside the stack names; the pending answer and the read that resolves it; a
 * VPC delete refused naming the instances attached outside the stack; a failed workflow's create
 * leaving nothing) is tests/inprocess/faults.test.ts, on both faces. The refusals at preview are
 * tests/unit/resources/<kind>.test.ts, and a refusal stopping `pulumi preview` before any write is
 * tests/e2e/conformance.ts. That the engine records nothing of a create failing without an id is
 * conformance.ts's import case on the dynamic face ("inputs that differ: refused"), and
 * retries-go.test.ts and retries-python.test.ts on the plugin, whose onError retry makes the disk.
 */
import { startE2E, type Declaration, type E2E } from "./harness";
import { setTimeout as sleep } from "node:timers/promises";

jest.setTimeout(600_000);

describe("faults the provider recovers from, through the real pulumi engine", () => {
  let e2e: E2E;
  let wid: string;

  const fault = async (rule: Record<string, unknown>) => expect((await e2e.emu.control.post("/_emulator/faults", rule)).status).toBe(201);
  const clearFaults = () => e2e.emu.control.delete("/_emulator/faults");
  const inventory = async (table: string) => ((await e2e.inventoryTotal()).resources[table] ?? []) as Array<{ id: string; name?: string }>;
  const answered = async (since: number, method: string, path: RegExp, status: number) =>
    (await e2e.requests(since)).filter((r) => r.method === method && path.test(r.path) && r.status === status);

  beforeAll(async () => {
    e2e = await startE2E("faults");
    wid = e2e.emu.workspaceId;
  });
  afterEach(async () => {
    await clearFaults();
  });
  afterAll(async () => {
    await e2e?.stop();
  });

  it("cannot register an onError hook through the Node.js language host (3.163): its monitor proxy answers UNIMPLEMENTED", async () => {
    const since = await e2e.lastSeq();
    const hooked: Declaration = { type: "Vpc", name: "hooked", args: { name: "hooked", range: "10.78.0.0/16" }, opts: { retryOnError: 3 } };
    const message = await e2e.upFails([hooked]);
    expect(message).toContain("12 UNIMPLEMENTED: unknown method RegisterErrorHook");
    expect(await e2e.mutations(since)).toEqual([]);
  });

  it("records a cluster create whose id no lookup could find before the deadline as pending; refresh resolves it, nothing orphaned", async () => {
    // The POST is slowed so that the 503s, armed once the check before it answered 404, land on the lookups after it.
    await fault({ kind: "slow", method: "POST", path: `/v1/workspaces/${wid}/k3s`, delayMs: 2000, times: 1 });
    const since = await e2e.lastSeq();
    const cluster: Declaration = { type: "K3sCluster", name: "cluster", args: { timeouts: { create: "6s" } } };
    const up = e2e.upFails([cluster]);
    await waitUntil(async () => (await answered(since, "GET", new RegExp(`^/v1/workspaces/${wid}/k3s$`), 404)).length > 0);
    await fault({ kind: "status", status: 503, method: "GET", path: `/v1/workspaces/${wid}/k3s` });
    const message = await up;
    expect(message).toMatch(
      /the API accepted the create \(workflow \d+\) but the lookup of the K3sCluster just created kept failing until the deadline/,
    );
    expect(message).toMatch(/kept in the stack as pending-create-\d+/);
    expect((await e2e.resource("cluster")).id).toMatch(/^pending-create-\d+$/);

    await clearFaults();
    await e2e.refresh();
    const clusters = await inventory("k3sClusters");
    expect(clusters).toHaveLength(1);
    expect(await e2e.idOf("cluster")).toBe(String(clusters[0].id));
  });
});

async function waitUntil(condition: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await sleep(50);
  }
}
