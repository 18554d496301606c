/**
 * Each fault that used to lose something, reproduced deterministically with the emulator's fault
 * controls through the real pulumi engine; the measure is the emulator's inventory against the
 * stack's state. One stack; each test leaves it converged for the next.
 */
import { failureOf, ref, secret, startE2E, type Declaration, type E2E } from "./harness";
import { setTimeout as sleep } from "node:timers/promises";

jest.setTimeout(600_000);

describe("faults the provider recovers from, through the real pulumi engine", () => {
  let e2e: E2E;
  let wid: string;
  let plan: string;
  let declared: Declaration[] = [];

  const api = () => e2e.emu.api;
  const fault = async (rule: Record<string, unknown>) => expect((await e2e.emu.control.post("/_emulator/faults", rule)).status).toBe(201);
  const clearFaults = () => e2e.emu.control.delete("/_emulator/faults");
  const inventory = async (table: string) => ((await e2e.inventoryTotal()).resources[table] ?? []) as Array<{ id: string; name?: string }>;
  const answered = async (since: number, method: string, path: RegExp, status: number) =>
    (await e2e.requests(since)).filter((r) => r.method === method && path.test(r.path) && r.status === status);

  beforeAll(async () => {
    e2e = await startE2E("faults");
    wid = e2e.emu.workspaceId;
    plan = (await api().get("/v1/plans", { name: "lightning-2" })).body.items.find((p: { name: string }) => p.name === "lightning-2").id;
  });
  afterEach(async () => {
    await clearFaults();
  });
  afterAll(async () => {
    await e2e?.stop();
  });

  it("refuses at preview what the spec says the API refuses, before the cluster, instance and node exist (defect 6)", async () => {
    const since = await e2e.lastSeq();
    const message = await failureOf(
      e2e.preview([
        { type: "Instance", name: "vm", args: { name: "fault-vm", type: "PLAN", planId: plan, region: "NA_01" } },
        { type: "K3sCluster", name: "cluster" },
        { type: "K3sNode", name: "node", args: { instanceId: ref("vm.id") }, opts: { dependsOn: ["cluster"] } },
        {
          type: "K3sService",
          name: "svc",
          args: { name: "web-1", image: "nginx", mode: "SPREAD", targetInstanceIds: [ref("vm.id")], replicas: 1.5 },
          opts: { dependsOn: ["node"] },
        },
      ]),
    );
    expect(message).toMatch(
      /property image value \{nginx\} has a problem: must be a container image with a tag.*\(spec part 3, Kubernetes service: image with tag\)/,
    );
    expect(message).toMatch(
      /property replicas value \{1\.5\} has a problem: must be a whole number \(spec part 3, Kubernetes service: replicas is an integer\)/,
    );
    expect(await e2e.mutations(since)).toEqual([]);
  });

  it("retries a 500 on a lookup, a workflow poll and a read-back (defect 1)", async () => {
    await fault({ kind: "status", status: 500, method: "GET", path: "/v1/plans", times: 1 });
    await fault({ kind: "status", status: 500, method: "GET", path: "/v1/workflows/*", times: 1 });
    await fault({ kind: "status", status: 500, method: "GET", path: "/v1/disks/*", times: 1 });
    const since = await e2e.lastSeq();
    declared = [
      { lookup: "getPlanOutput", name: "plan", args: { name: "lightning-2" } },
      { type: "Disk", name: "scratch", args: { name: "scratch-disk", size: 10 * 1024 ** 3, backend: "LOCAL", region: "NA_01" } },
    ];
    await e2e.up(declared);
    expect(await answered(since, "GET", /^\/v1\/plans$/, 500)).toHaveLength(1);
    expect(await answered(since, "GET", /^\/v1\/workflows\//, 500)).toHaveLength(1);
    expect(await answered(since, "GET", /^\/v1\/disks\//, 500)).toHaveLength(1);
    expect((await inventory("disks")).map((d) => d.id)).toEqual([await e2e.idOf("scratch")]);
  });

  it("finds the cluster an accepted create made although the GET after its POST answered 500 (defect 2)", async () => {
    // Slow the POST so that the 500 lands on the GET after it, not on the check before it.
    await fault({ kind: "slow", method: "POST", path: `/v1/workspaces/${wid}/k3s`, delayMs: 3000, times: 1 });
    const since = await e2e.lastSeq();
    declared = [...declared, { type: "K3sCluster", name: "cluster" }];
    const up = e2e.up(declared);
    await waitUntil(async () => (await answered(since, "GET", new RegExp(`^/v1/workspaces/${wid}/k3s$`), 404)).length > 0);
    await fault({ kind: "status", status: 500, method: "GET", path: `/v1/workspaces/${wid}/k3s`, times: 3 });
    await up;
    expect(await answered(since, "GET", new RegExp(`^/v1/workspaces/${wid}/k3s$`), 500)).toHaveLength(3);
    const clusters = await inventory("k3sClusters");
    expect(clusters).toHaveLength(1);
    expect(await e2e.idOf("cluster")).toBe(String(clusters[0].id));
    expect(Object.keys((await e2e.preview(declared)).changeSummary)).toEqual(["same"]);
  });

  it("adopts the instance a dropped create made although the recovery lookup answered 500 (defect 3)", async () => {
    await fault({ kind: "drop", method: "POST", path: `/v1/workspaces/${wid}/instances`, times: 1 });
    await fault({ kind: "status", status: 500, method: "GET", path: `/v1/workspaces/${wid}/instances`, times: 1 });
    const since = await e2e.lastSeq();
    declared = [...declared, { type: "Instance", name: "vm", args: { name: "fault-vm", type: "PLAN", planId: plan, region: "NA_01" } }];
    await e2e.up(declared);
    expect(await answered(since, "GET", new RegExp(`^/v1/workspaces/${wid}/instances$`), 500)).toHaveLength(1);
    const instances = await inventory("instances");
    expect(instances.map((i) => i.name)).toEqual(["fault-vm"]);
    expect(await e2e.idOf("vm")).toBe(String(instances[0].id));
    expect(e2e.output()).toContain(`found the Instance the API created (id ${instances[0].id}) and adopted it`);
  });

  it("names the exact adoptId when a natural key is held by an object the stack did not record, and adopts it once told (defect 4)", async () => {
    const made = await api().post(`/v1/workspaces/${wid}/k3s/secrets`, { name: "db-creds", data: { PASSWORD: "made-by-a-person" } });
    expect(made.status).toBe(201);
    const secretDecl: Declaration = {
      type: "K3sSecret",
      name: "creds",
      args: { name: "db-creds", data: secret({ PASSWORD: "declared-pw" }) },
      opts: { dependsOn: ["cluster"] },
    };
    const message = await e2e.upFails([...declared, secretDecl]);
    expect(message).toContain(
      `K3sSecret "db-creds": a secret named "db-creds" already exists in the workspace (id ${made.body.id}). It differs from this declaration in data. ` +
        `This stack has no record of creating it, so it is not taken over on its own. To manage it here, set adoptId: "${made.body.id}"; otherwise choose another name.`,
    );
    expect(await inventory("k3sSecrets")).toHaveLength(1);
    declared = [...declared, { ...secretDecl, args: { ...secretDecl.args, adoptId: String(made.body.id) } }];
    await e2e.up(declared);
    expect(await e2e.idOf("creds")).toBe(String(made.body.id));
    expect(await inventory("k3sSecrets")).toHaveLength(1);
  });

  it("records a cluster create whose id no lookup could find before the deadline as pending; refresh resolves it, nothing orphaned", async () => {
    const clusterDecl = declared.find((d) => d.name === "cluster")!;
    // Start over for the cluster: out of the stack (the secret depends on it), deleted from the API.
    declared = declared.filter((d) => d.name !== "creds" && d.name !== "cluster");
    await e2e.up(declared);
    await waitUntil(async () => (await inventory("k3sClusters")).length === 0);

    await fault({ kind: "slow", method: "POST", path: `/v1/workspaces/${wid}/k3s`, delayMs: 2000, times: 1 });
    const since = await e2e.lastSeq();
    const withDeadline: Declaration = { ...clusterDecl, args: { timeouts: { create: "6s" } } };
    const up = e2e.upFails([...declared, withDeadline]);
    await waitUntil(async () => (await answered(since, "GET", new RegExp(`^/v1/workspaces/${wid}/k3s$`), 404)).length > 0);
    await fault({ kind: "status", status: 503, method: "GET", path: `/v1/workspaces/${wid}/k3s` });
    const message = await up;
    expect(message).toMatch(
      /the API accepted the create \(workflow \d+\) but the lookup of the K3sCluster just created kept failing until the deadline/,
    );
    expect(message).toMatch(/kept in the stack as pending-create-\d+/);
    const pending = await e2e.resource("cluster");
    expect(pending.id).toMatch(/^pending-create-\d+$/);

    await clearFaults();
    await e2e.refresh();
    const clusters = await inventory("k3sClusters");
    expect(clusters).toHaveLength(1);
    expect(await e2e.idOf("cluster")).toBe(String(clusters[0].id));
    declared = [...declared, withDeadline];
    const preview = await e2e.preview(declared);
    expect(preview.changeSummary).not.toHaveProperty("replace");
    await e2e.up(declared);
    expect((await inventory("k3sClusters")).map((c) => String(c.id))).toEqual([await e2e.idOf("cluster")]);
  });

  it("a VPC whose delete is refused names the instances attached outside the stack (defect 7)", async () => {
    const vpcDecl: Declaration = {
      type: "Vpc",
      name: "net",
      args: { name: "fault-net", description: "faults e2e", range: "10.77.0.0/16" },
    };
    await e2e.up([...declared, vpcDecl]);
    const vpcId = await e2e.idOf("net");
    const outsider = (
      await api().post(`/v1/workspaces/${wid}/instances`, { type: "PLAN", name: "outsider", region: "NA_01", plan: BigInt(plan) })
    ).body.resource.id;
    await e2e.emu.waitFor(`/v1/instances/${outsider}`, (b: { state: string }) => b.state === "AVAILABLE", 10_000);
    expect((await api().post(`/v1/instances/${outsider}/vpcs`, { vpc: BigInt(vpcId) })).status).toBeLessThan(300);
    const message = await e2e.upFails(declared);
    expect(message).toContain(
      `Vpc "fault-net": the API refuses to delete VPC ${vpcId} while instance outsider (id ${outsider}) is attached`,
    );
    expect(message).toContain(`otherwise detach it outside Pulumi (DELETE /v1/instances/{iid}/vpcs/${vpcId})`);
    expect((await api().delete(`/v1/instances/${outsider}/vpcs/${vpcId}`)).status).toBeLessThan(300);
    expect((await api().delete(`/v1/instances/${outsider}`)).status).toBeLessThan(300);
    await e2e.up(declared);
  });

  it("a create whose workflow failed leaves nothing behind, and the second up makes one AVAILABLE disk (the dynamic face's retry)", async () => {
    await fault({ kind: "workflow", outcome: "FAILED", method: "POST", path: `/v1/workspaces/${wid}/disks`, times: 1 });
    const disk: Declaration = {
      type: "Disk",
      name: "flaky",
      args: { name: "flaky-disk", size: 10 * 1024 ** 3, backend: "LOCAL", region: "NA_01" },
    };
    const message = await e2e.upFails([...declared, disk]);
    expect(message).toMatch(
      /Disk "flaky-disk": create failed: workflow create-disk \d+ ended FAILED\. The Disk it made \(id \d+\) ended FAILED, which a later up would replace, so it was deleted: calling the create again \(an onError hook's retry, or the next pulumi up\) makes it anew/,
    );
    expect((await e2e.state()).some((r) => r.urn.endsWith("::flaky"))).toBe(false);
    expect((await inventory("disks")).filter((d) => d.name === "flaky-disk")).toEqual([]);
    declared = [...declared, disk];
    await e2e.up(declared);
    const flaky = (await inventory("disks")).filter((d) => d.name === "flaky-disk") as Array<{ id: string; state?: string }>;
    expect(flaky).toEqual([expect.objectContaining({ id: await e2e.idOf("flaky"), state: "AVAILABLE" })]);
  });

  it("cannot register an onError hook through the Node.js language host (3.163): its monitor proxy answers UNIMPLEMENTED", async () => {
    const since = await e2e.lastSeq();
    const hooked: Declaration = { type: "Vpc", name: "hooked", args: { name: "hooked", range: "10.78.0.0/16" }, opts: { retryOnError: 3 } };
    const message = await e2e.upFails([...declared, hooked]);
    expect(message).toContain("12 UNIMPLEMENTED: unknown method RegisterErrorHook");
    expect(await e2e.mutations(since)).toEqual([]);
  });

  it("destroy leaves nothing behind", async () => {
    await e2e.destroy();
    await waitUntil(async () => (await e2e.inventoryTotal()).total === 0);
  });
});

async function waitUntil(condition: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await sleep(50);
  }
}
