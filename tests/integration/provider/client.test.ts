/**
 * The provider's HTTP client, pager and waiter against the emulator over real HTTP: the retry
 * rules on real faults, lossless identifiers, errors worded for people.
 */
import { SvcClient, isAmbiguous, type RetryEvent } from "../../../provider/client/client";
import { ApiError, DeadlineError, NetworkError, WorkflowError } from "../../../provider/errors";
import { listAll } from "../../../provider/client/paging";
import { workflowOf } from "../../../provider/client/envelope";
import { POLL_SCHEDULE, pollDelays, pollSchedule, waitForWorkflow } from "../../../provider/client/workflows";
import { setProgressSink } from "../../../provider/runtime/progress";
import { useTestEmulator, type TestEmulator } from "pulumi-svc-emulator/testing";
import { rejection } from "./rejection";

const fast = { maxAttempts: 4, baseDelayMs: 10, maxDelayMs: 50 };

describe("SvcClient against the emulator", () => {
  let t: TestEmulator;
  let client: SvcClient;
  let retries: RetryEvent[];
  const progress: string[] = [];

  // One emulator for the file, reset to the seed before each test.
  useTestEmulator((started) => (t = started));
  beforeAll(() => {
    setProgressSink((line) => progress.push(line));
  });
  beforeEach(() => {
    retries = [];
    client = new SvcClient(
      { baseUrl: t.emu.url, token: t.emu.token, workspaceId: t.workspaceId },
      { retry: fast, onRetry: (e) => retries.push(e) },
    );
  });

  const log = async (path: string) =>
    (await t.control.get(`/_emulator/requests`, { path })).body.requests as Array<{ method: string; status: number }>;
  const vpcBody = (name: string) => ({ name, description: "d", range: "10.1.0.0/16" });

  it("retries a read answered 503 until it succeeds", async () => {
    await t.control.post("/_emulator/faults", { kind: "status", status: 503, method: "GET", path: "/v1/workspaces/*", times: 2 });
    const ws = await client.get<{ id: string }>(`/v1/workspaces/${t.workspaceId}`);
    expect(ws.id).toBe(t.workspaceId);
    expect((await log(`/v1/workspaces/${t.workspaceId}`)).map((r) => r.status)).toEqual([503, 503, 200]);
    expect(retries.map((r) => r.cause)).toEqual(["503", "503"]);
  });

  it("honours Retry-After on a 429", async () => {
    await t.control.post("/_emulator/faults", {
      kind: "status",
      status: 429,
      retryAfterSeconds: 1,
      method: "GET",
      path: "/v1/plans",
      times: 1,
    });
    await client.get("/v1/plans");
    expect(retries).toEqual([expect.objectContaining({ delayMs: 1000, cause: "429" })]);
  });

  it("resends a POST refused with 429 (the API did nothing)", async () => {
    await t.control.post("/_emulator/faults", { kind: "status", status: 429, method: "POST", path: "/v1/workspaces/*/vpcs", times: 1 });
    await client.post(`/v1/workspaces/${t.workspaceId}/vpcs`, vpcBody("after-429"));
    expect((await log(`/v1/workspaces/${t.workspaceId}/vpcs`)).filter((r) => r.method === "POST").map((r) => r.status)).toEqual([429, 201]);
  });

  it.each([502, 503])("never resends a POST answered %i: the failure is ambiguous", async (status) => {
    await t.control.post("/_emulator/faults", { kind: "status", status, method: "POST", path: "/v1/workspaces/*/vpcs", times: 1 });
    const err = await rejection(client.post(`/v1/workspaces/${t.workspaceId}/vpcs`, vpcBody("ambiguous")));
    expect(err).toBeInstanceOf(ApiError);
    expect(isAmbiguous(err)).toBe(true);
    expect((await log(`/v1/workspaces/${t.workspaceId}/vpcs`)).filter((r) => r.method === "POST")).toHaveLength(1);
  });

  it("reports a dropped connection after a committed POST as an ambiguous network error", async () => {
    await t.control.post("/_emulator/faults", { kind: "drop", method: "POST", path: "/v1/workspaces/*/vpcs", times: 1 });
    const err = await rejection(client.post(`/v1/workspaces/${t.workspaceId}/vpcs`, vpcBody("dropped")));
    expect(err).toBeInstanceOf(NetworkError);
    expect(isAmbiguous(err)).toBe(true);
    expect(err.message).toMatch(/may or may not have applied it/);
    const list = await client.get<{ items: unknown[] }>(`/v1/workspaces/${t.workspaceId}/vpcs`, { name: "dropped" });
    expect(list.items).toHaveLength(1);
  });

  it("retries when the server cannot be reached, then gives up with the cause", async () => {
    const down = new SvcClient(
      { baseUrl: "http://127.0.0.1:9", token: "x", workspaceId: null },
      { retry: fast, onRetry: (e) => retries.push(e) },
    );
    const err = await rejection(down.get("/v1/plans"));
    expect(err).toBeInstanceOf(NetworkError);
    expect(err.notSent).toBe(true);
    expect(retries).toHaveLength(fast.maxAttempts - 1);
  });

  it("words API errors for people: method, path, status, X-Message reason and field errors", async () => {
    const err = await rejection(client.post(`/v1/workspaces/${t.workspaceId}/vpcs`, { name: "ab", description: "d", range: "8.8.8.0/24" }));
    expect(err).toBeInstanceOf(ApiError);
    expect(err.status).toBe(400);
    expect(err.message).toMatch(new RegExp(`^POST /v1/workspaces/${t.workspaceId}/vpcs answered 400 Bad Request: .+ \\(name: .+\\)\\.$`));
    const unauthorised = await rejection(new SvcClient({ baseUrl: t.emu.url, token: "nope", workspaceId: null }).get("/v1/plans"));
    expect(unauthorised.message).toMatch(/answered 401 Unauthorized: Unrecognised token\. Check svc:token/);
  });

  it("keeps identifiers above 2^53 exact in bodies and answers", async () => {
    const vpc = await client.post<{ id: string }>(`/v1/workspaces/${t.workspaceId}/vpcs`, vpcBody("big-ids"));
    expect(BigInt(vpc.id)).toBeGreaterThan(2n ** 53n);
    const plans = await listAll<{ id: string; name: string }>(client, "/v1/plans");
    const plan = plans.find((p) => p.name === "lightning-1")!;
    const created = await client.post(`/v1/workspaces/${t.workspaceId}/instances`, {
      type: "PLAN",
      name: "exact",
      region: "NA_01",
      plan: BigInt(plan.id),
      vpcs: [BigInt(vpc.id)],
    });
    const wf = workflowOf(created);
    await waitForWorkflow(client, wf, { deadline: Date.now() + 10_000, label: 'Instance "exact"', operation: "create" });
    const instance = (created as { resource: { id: string } }).resource;
    const detail = await client.get<{ plan: { id: string }; vpcs: Array<{ id: string }> }>(`/v1/instances/${instance.id}`);
    expect(detail.plan.id).toBe(plan.id);
    expect(detail.vpcs[0].id).toBe(vpc.id);
  });

  it("walks every page of a list exactly once", async () => {
    await t.control.patch(`/_emulator/tables/workspaces/${t.workspaceId}`, {
      quota: { ...(await t.api.get(`/v1/workspaces/${t.workspaceId}/quota`)).body, max_vpcs: 300 },
    });
    // Made straight through the API: through the client's pipeline the 230 creates took 24 s of
    // this file's 41 (the raw API: 8 ms each), and what is tested here is its paging.
    for (let i = 0; i < 230; i++)
      expect((await t.api.post(`/v1/workspaces/${t.workspaceId}/vpcs`, vpcBody(`page-${String(i).padStart(3, "0")}`))).status).toBe(201);
    const all = await listAll<{ id: string; name: string }>(client, `/v1/workspaces/${t.workspaceId}/vpcs`, { name: "page-" });
    expect(all).toHaveLength(230);
    expect(new Set(all.map((v) => v.id)).size).toBe(230);
    const gets = (await log(`/v1/workspaces/${t.workspaceId}/vpcs`)).filter((r) => r.method === "GET");
    expect(gets.length).toBe(3);
  });

  it("turns a FAILED workflow into an error naming the operation and the resource", async () => {
    await t.control.post("/_emulator/faults", {
      kind: "workflow",
      outcome: "FAILED",
      method: "POST",
      path: "/v1/workspaces/*/disks",
      times: 1,
    });
    const answer = await client.post(`/v1/workspaces/${t.workspaceId}/disks`, {
      name: "d",
      size: 1024 ** 3,
      backend: "LOCAL",
      region: "NA_01",
    });
    const err = await rejection(
      waitForWorkflow(client, workflowOf(answer), { deadline: Date.now() + 10_000, label: 'Disk "d"', operation: "create" }),
    );
    expect(err).toBeInstanceOf(WorkflowError);
    expect(err.message).toMatch(/^Disk "d": create failed: workflow create-disk \d+ ended FAILED$/);
    expect(progress.some((line) => /^svc: Disk "d": create: workflow create-disk \d+ QUEUED$/.test(line))).toBe(true);
  });

  it.each(["ABORTED", "TIMED_OUT"])("treats a workflow ending %s as a failure too", async (outcome) => {
    await t.control.post("/_emulator/faults", { kind: "workflow", outcome, method: "POST", path: "/v1/workspaces/*/disks", times: 1 });
    const answer = await client.post(`/v1/workspaces/${t.workspaceId}/disks`, {
      name: "d2",
      size: 1024 ** 3,
      backend: "LOCAL",
      region: "NA_01",
    });
    await expect(
      waitForWorkflow(client, workflowOf(answer), { deadline: Date.now() + 10_000, label: "Disk", operation: "create" }),
    ).rejects.toThrow(`ended ${outcome}`);
  });

  it("gives up at the deadline with what is still running", async () => {
    await t.control.post("/_emulator/faults", { kind: "stuck", method: "POST", path: "/v1/workspaces/*/disks", times: 1 });
    const answer = await client.post(`/v1/workspaces/${t.workspaceId}/disks`, {
      name: "stuck",
      size: 1024 ** 3,
      backend: "LOCAL",
      region: "NA_01",
    });
    const err = await rejection(
      waitForWorkflow(client, workflowOf(answer), { deadline: Date.now() + 700, label: 'Disk "stuck"', operation: "create" }),
    );
    expect(err).toBeInstanceOf(DeadlineError);
    expect(err.message).toMatch(
      /Disk "stuck": create did not finish before its deadline \(workflow \d+ still RUNNING\); raise timeouts.create/,
    );
  });
});

describe("polling schedule", () => {
  const waits = (random: () => number, n: number) => {
    const delays = pollDelays(POLL_SCHEDULE, random);
    return Array.from({ length: n }, () => delays.next());
  };

  it("waits 250 ms while little time has passed, then a quarter of the time waited, capped at 5 s", () => {
    const middle = waits(() => 0, 40);
    expect(middle.slice(0, 5)).toEqual([250, 250, 250, 250, 250]);
    let waited = 0;
    for (const wait of middle) {
      expect(wait).toBe(Math.min(5000, Math.max(250, Math.round(waited / 4))));
      waited += wait;
    }
    expect(middle.slice(-3)).toEqual([5000, 5000, 5000]);
  });

  it("jitter only shortens a wait, by at most 20%", () => {
    const shortest = waits(() => 1, 40);
    expect(shortest[0]).toBe(200);
    expect(Math.max(...shortest)).toBe(4000);
    const random = [0.3, 0.9, 0.1, 0.5];
    let i = 0;
    for (const wait of waits(() => random[i++ % random.length], 40)) {
      expect(wait).toBeGreaterThanOrEqual(200);
      expect(wait).toBeLessThanOrEqual(5000);
    }
  });

  it.each([250, 1000, 4000, 16000, 60000, 600000])(
    "sees the end of %i ms of work within max(250 ms, a quarter of it) and 5 s",
    (durationMs) => {
      const { noticedAfterMs, polls } = pollSchedule(durationMs);
      expect(noticedAfterMs).toBeLessThanOrEqual(Math.min(5000, Math.max(250, durationMs / 4)));
      expect(polls).toBeGreaterThan(0);
    },
  );

  it("costs at most 3 + log1.5(T / 250 ms) polls for work up to 3 s, and 4 + log1.25(T / 1 s) beyond until the cap", () => {
    for (const t of [250, 500, 1000, 2000, 3000]) expect(pollSchedule(t).polls).toBeLessThanOrEqual(3 + Math.log(t / 250) / Math.log(1.5));
    for (const t of [4000, 8000, 16000])
      expect(pollSchedule(t).polls).toBeLessThanOrEqual(Math.ceil(4 + Math.log(t / 1000) / Math.log(1.25)) + 1);
  });
});
