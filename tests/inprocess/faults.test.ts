/**
 * The faults that used to lose something, on both faces, in process (tests/support/inProcess.ts):
 * each reproduced with the emulator's fault controls (/_emulator/faults), the measure what the API
 * holds against what the engine would record. A 500 retried on a lookup, a workflow poll and a
 * read-back (defect 1); the cluster an accepted create made found although the GET after its POST
 * answered 500 (defect 2); the instance a dropped create made adopted although the recovery lookup
 * answered 500 (defect 3); the exact adoptId named when a natural key is held by an object the
 * stack did not record, adopted once told (defect 4); a create whose id no lookup could find before
 * its deadline answered as pending, and a later read resolving it; a VPC whose delete is refused
 * naming the instances attached outside the stack (defect 7); a create whose workflow failed
 * leaving nothing, and the next create making one AVAILABLE disk. Each case builds on the last.
 *
 * Elsewhere: the refusals at preview (defect 6) are tests/unit/resources/<kind>.test.ts; retries of
 * single requests (503, 429), a lost create answer and deadlines are tests/inprocess/provider.test.ts;
 * what only the engine proves stays in tests/e2e/faults.test.ts (the pending create that `pulumi
 * refresh` re-records under its real id; the Node.js host's onError hook limit).
 */
import { setTimeout as sleep } from "node:timers/promises";
import { setProgressSink } from "../../provider/runtime/progress";
import { CallError, describeEachFace, opened, up, type Props, type Recorded, lastSeqOf, requestsSince } from "../support/inProcess";

const GiB = 1024 ** 3;

/** Every progress line the providers print (both faces run in this process), for the notices a person would see. */
const lines: string[] = [];
beforeAll(() => setProgressSink((line) => lines.push(line)));
beforeEach(() => (lines.length = 0));

describeEachFace("Faults the provider recovers from", (ctx) => {
  let wid: string;
  let plan: string;
  const state: Record<string, Recorded> = {};
  const face = () => ctx().face;
  const api = () => ctx().emu.api;
  const control = () => ctx().emu.control;
  const fault = async (rule: Record<string, unknown>) => expect((await control().post("/_emulator/faults", rule)).status).toBe(201);
  const lastSeq = () => lastSeqOf(ctx().emu);
  const requests = (since: number) => requestsSince(ctx().emu, since);
  const answered = async (since: number, method: string, path: RegExp, status: number) =>
    (await requests(since)).filter((r) => r.method === method && path.test(r.path) && r.status === status);
  const mutations = async (since: number) => (await requests(since)).filter((r) => r.method !== "GET" && r.path.startsWith("/v1/"));
  const inventory = async (table: string) =>
    (((await control().get("/_emulator/inventory")).body as { resources: Record<string, unknown[]> }).resources[table] ?? []) as Array<{
      id: string;
      name?: string;
      state?: string;
    }>;
  const failureOf = (operation: Promise<unknown>) =>
    operation.then(
      () => {
        throw new Error("expected the call to fail, but it succeeded");
      },
      (err: unknown) => err as CallError,
    );
  /** Polls until `condition` holds: the moment to arm a fault between two requests of one operation. */
  const waitUntil = async (condition: () => Promise<boolean>, timeoutMs = 10_000) => {
    const deadline = Date.now() + timeoutMs;
    while (!(await condition())) {
      if (Date.now() > deadline) throw new Error("condition not met in time");
      await sleep(10);
    }
  };
  const clusterPath = () => new RegExp(`^/v1/workspaces/${wid}/k3s$`);

  beforeAll(async () => {
    wid = ctx().emu.workspaceId;
    plan = ((await api().get("/v1/plans", { name: "lightning-2" })).body.items as Array<{ id: string; name: string }>).find(
      (p) => p.name === "lightning-2",
    )!.id;
  });
  afterEach(async () => {
    await control().delete("/_emulator/faults");
  });

  it("retries a 500 on a lookup, a workflow poll and a read-back (defect 1)", async () => {
    await fault({ kind: "status", status: 500, method: "GET", path: "/v1/plans", times: 1 });
    await fault({ kind: "status", status: 500, method: "GET", path: "/v1/workflows/*", times: 1 });
    await fault({ kind: "status", status: 500, method: "GET", path: "/v1/disks/*", times: 1 });
    const since = await lastSeq();
    // The lookup first: no request of the disk's up may take the plans' 500 (check's probe of the API reads /v1/plans).
    expect(await face().invoke("getPlan", { name: "lightning-2" })).toMatchObject({ id: plan, name: "lightning-2" });
    state.scratch = (await up(face(), "Disk", { name: "scratch-disk", size: 10 * GiB, backend: "LOCAL", region: "NA_01" })).now;
    expect(await answered(since, "GET", /^\/v1\/plans$/, 500)).toHaveLength(1);
    expect(await answered(since, "GET", /^\/v1\/workflows\//, 500)).toHaveLength(1);
    expect(await answered(since, "GET", /^\/v1\/disks\//, 500)).toHaveLength(1);
    expect((await inventory("disks")).map((d) => String(d.id))).toEqual([state.scratch.id]);
    expect(state.scratch.outs.state).toBe("AVAILABLE");
    // A retry is told under the resource's name, whatever the verbosity.
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^svc: Disk "scratch-disk": GET \/v1\/workflows\/\d+ answered 500; retrying in/),
        expect.stringMatching(new RegExp(`^svc: Disk "scratch-disk": GET /v1/disks/${state.scratch.id} answered 500; retrying in`)),
      ]),
    );
  });

  it("finds the cluster an accepted create made although the GET after its POST answered 500 (defect 2)", async () => {
    // The POST is slowed so that the 500s, armed once the check before it answered 404, land on the GETs after it.
    await fault({ kind: "slow", method: "POST", path: `/v1/workspaces/${wid}/k3s`, delayMs: 1000, times: 1 });
    const since = await lastSeq();
    const creating = up(face(), "K3sCluster", {});
    await waitUntil(async () => (await answered(since, "GET", clusterPath(), 404)).length > 0);
    await fault({ kind: "status", status: 500, method: "GET", path: `/v1/workspaces/${wid}/k3s`, times: 3 });
    state.cluster = (await creating).now;
    expect(await answered(since, "GET", clusterPath(), 500)).toHaveLength(3);
    expect((await inventory("k3sClusters")).map((c) => String(c.id))).toEqual([state.cluster.id]);
    expect(state.cluster.outs.status).toBe("ACTIVE");
    expect((await up(face(), "K3sCluster", {}, state.cluster)).step).toBe("same");
  });

  it("adopts the instance a dropped create made although the recovery lookup answered 500 (defect 3)", async () => {
    await fault({ kind: "drop", method: "POST", path: `/v1/workspaces/${wid}/instances`, times: 1 });
    await fault({ kind: "status", status: 500, method: "GET", path: `/v1/workspaces/${wid}/instances`, times: 1 });
    const since = await lastSeq();
    state.vm = (await up(face(), "Instance", { name: "fault-vm", type: "PLAN", planId: plan, region: "NA_01" })).now;
    expect(await answered(since, "GET", new RegExp(`^/v1/workspaces/${wid}/instances$`), 500)).toHaveLength(1);
    // One POST: what the lookup found was adopted, nothing sent again.
    expect((await mutations(since)).filter((r) => r.method === "POST").map((r) => r.path)).toEqual([`/v1/workspaces/${wid}/instances`]);
    const instances = await inventory("instances");
    expect(instances.map((i) => ({ id: String(i.id), name: i.name }))).toEqual([{ id: state.vm.id, name: "fault-vm" }]);
    expect(lines).toContainEqual(expect.stringContaining(`found the Instance the API created (id ${state.vm.id}) and adopted it`));
  });

  it("names the exact adoptId when a natural key is held by an object the stack did not record, and adopts it once told (defect 4)", async () => {
    const made = await api().post(`/v1/workspaces/${wid}/k3s/secrets`, { name: "db-creds", data: { PASSWORD: "made-by-a-person" } });
    expect(made.status).toBe(201);
    const id = String(made.body.id);
    const declared: Props = { name: "db-creds", data: { PASSWORD: "declared-pw" } };
    const since = await lastSeq();
    const err = await failureOf(up(face(), "K3sSecret", declared));
    expect(err).toBeInstanceOf(CallError);
    expect(err.message).toContain(
      `K3sSecret "db-creds": a secret named "db-creds" already exists in the workspace (id ${id}). It differs from this declaration in data. ` +
        `This stack has no record of creating it, so it is not taken over on its own. To manage it here, set adoptId: "${id}"; otherwise choose another name.`,
    );
    // Refused before any write, and nothing for the engine to record.
    expect(err.kept).toBeUndefined();
    expect(await mutations(since)).toEqual([]);
    state.creds = (await up(face(), "K3sSecret", { ...declared, adoptId: id })).now;
    expect(state.creds.id).toBe(id);
    expect((await inventory("k3sSecrets")).map((s) => String(s.id))).toEqual([id]);
  });

  it("answers a cluster create whose id no lookup could find before the deadline as pending; a later read resolves it", async () => {
    // Start over for the cluster: the secret goes with it, and the workspace holds no cluster.
    await face().delete("K3sSecret", state.creds.id, state.creds.outs);
    await face().delete("K3sCluster", state.cluster.id, state.cluster.outs);
    delete state.creds;
    delete state.cluster;
    expect(await inventory("k3sClusters")).toEqual([]);

    await fault({ kind: "slow", method: "POST", path: `/v1/workspaces/${wid}/k3s`, delayMs: 1000, times: 1 });
    const since = await lastSeq();
    const declared: Props = { timeouts: { create: "2s" } };
    const creating = failureOf(up(face(), "K3sCluster", declared));
    await waitUntil(async () => (await answered(since, "GET", clusterPath(), 404)).length > 0);
    // Every lookup after the POST fails until the deadline.
    await fault({ kind: "status", status: 503, method: "GET", path: `/v1/workspaces/${wid}/k3s` });
    const err = await creating;
    expect(err).toBeInstanceOf(CallError);
    expect(err.message).toMatch(
      /the API accepted the create \(workflow \d+\) but the lookup of the K3sCluster just created kept failing until the deadline/,
    );
    expect(err.message).toMatch(/kept in the stack as pending-create-\d+/);
    // What the engine records (ErrorResourceInitFailed): the provisional id and the inputs, as outputs.
    expect(err.kept?.id).toMatch(/^pending-create-\d+$/);
    const kept = opened(err.kept!.properties).value as Props;
    expect(kept).toMatchObject({ ...declared, workspaceId: wid });
    const inputs = opened((await face().check("K3sCluster", declared)).inputs).value as Props;
    const pending: Recorded = { id: err.kept!.id, inputs, outs: err.kept!.properties };
    // The next up without a refresh replaces the record, deleting first what the attempt made.
    expect(await face().diff("K3sCluster", pending.id, pending.outs, inputs, inputs)).toMatchObject({
      changes: true,
      replaces: ["id"],
      deleteBeforeReplace: true,
    });

    await control().delete("/_emulator/faults");
    const clusters = await inventory("k3sClusters");
    expect(clusters).toHaveLength(1);
    const read = await face().read("K3sCluster", pending.id, pending.outs, pending.inputs);
    expect(read.id).toBe(String(clusters[0].id));
    expect(lines).toContainEqual(
      expect.stringContaining(`the pending create ${pending.id} made K3sCluster ${read.id}; recorded under its id`),
    );
    state.cluster = { id: read.id, inputs: read.inputs ?? inputs, outs: read.outs };
    // Recorded under its real id, the cluster is this declaration's: no replacement, nothing orphaned.
    expect((await face().diff("K3sCluster", state.cluster.id, state.cluster.outs, inputs, state.cluster.inputs)).replaces).toEqual([]);
    state.cluster = (await up(face(), "K3sCluster", declared, state.cluster)).now;
    expect(state.cluster.id).toBe(read.id);
    expect((await inventory("k3sClusters")).map((c) => String(c.id))).toEqual([read.id]);
  });

  it("a VPC whose delete is refused names the instances attached outside the stack (defect 7)", async () => {
    state.net = (await up(face(), "Vpc", { name: "fault-net", description: "faults in process", range: "10.77.0.0/16" })).now;
    const vpcId = state.net.id;
    const outsider = String(
      (await api().post(`/v1/workspaces/${wid}/instances`, { type: "PLAN", name: "outsider", region: "NA_01", plan: BigInt(plan) })).body
        .resource.id,
    );
    await ctx().emu.waitFor(`/v1/instances/${outsider}`, (b: { state: string }) => b.state === "AVAILABLE");
    expect((await api().post(`/v1/instances/${outsider}/vpcs`, { vpc: BigInt(vpcId) })).status).toBeLessThan(300);
    const refused = await failureOf(face().delete("Vpc", vpcId, state.net.outs));
    expect(refused.message).toContain(
      `Vpc "fault-net": the API refuses to delete VPC ${vpcId} while instance outsider (id ${outsider}) is attached`,
    );
    expect(refused.message).toContain(`otherwise detach it outside Pulumi (DELETE /v1/instances/{iid}/vpcs/${vpcId})`);
    expect((await api().get(`/v1/vpcs/${vpcId}`)).status).toBe(200);
    // Detached outside Pulumi, as the message says, the same delete goes through.
    expect((await api().delete(`/v1/instances/${outsider}/vpcs/${vpcId}`)).status).toBeLessThan(300);
    expect((await api().delete(`/v1/instances/${outsider}`)).status).toBeLessThan(300);
    await face().delete("Vpc", vpcId, state.net.outs);
    delete state.net;
    expect((await api().get(`/v1/vpcs/${vpcId}`)).status).toBe(404);
  });

  it("a create whose workflow failed leaves nothing behind, and the next create makes one AVAILABLE disk", async () => {
    await fault({ kind: "workflow", outcome: "FAILED", method: "POST", path: `/v1/workspaces/${wid}/disks`, times: 1 });
    const flaky: Props = { name: "flaky-disk", size: 10 * GiB, backend: "LOCAL", region: "NA_01" };
    const err = await failureOf(up(face(), "Disk", flaky));
    expect(err).toBeInstanceOf(CallError);
    expect(err.message).toMatch(
      /Disk "flaky-disk": create failed: workflow create-disk \d+ ended FAILED\. The Disk it made \(id \d+\) ended FAILED, which a later up would replace, so it was deleted: calling the create again \(an onError hook's retry, or the next pulumi up\) makes it anew/,
    );
    // No id: the engine records nothing, and its retry (or the next up) is a create.
    expect(err.kept).toBeUndefined();
    expect((await inventory("disks")).filter((d) => d.name === "flaky-disk")).toEqual([]);
    state.flaky = (await up(face(), "Disk", flaky)).now;
    const flakyDisks = (await inventory("disks")).filter((d) => d.name === "flaky-disk");
    expect(flakyDisks.map((d) => ({ id: String(d.id), state: d.state }))).toEqual([{ id: state.flaky.id, state: "AVAILABLE" }]);
  });

  it("deletes everything the cases recorded, leaving the inventory empty: nothing orphaned, nothing duplicated", async () => {
    for (const [name, kind] of [
      ["flaky", "Disk"],
      ["scratch", "Disk"],
      ["vm", "Instance"],
      ["cluster", "K3sCluster"],
    ] as const) {
      await face().delete(kind, state[name].id, state[name].outs);
      delete state[name];
    }
    // The outsider instance's deletion is scheduled (its own delete); let its grace period pass.
    await control().post("/_emulator/clock", { advanceMs: 73 * 3_600_000 });
    expect(((await control().get("/_emulator/inventory")).body as { total: number; resources: unknown }).total).toBe(0);
  });
});
