/**
 * Part 3 Managed Kubernetes (/v1/workspaces/{wid}/k3s) against the emulator over real HTTP: the cluster, worker nodes,
 * secrets, cross-area cleanup and access rules. Services, live pods and logs are in
 * part3-k3s-services.test.ts.
 */
import { fireHook } from "../src/core/hooks";
import { useTestEmulator, type TestEmulator } from "../src/testing";
import { makeInstance, makeUser, makeWorkspace } from "./k3sBilling";

let t: TestEmulator;
let k3s: string;

useTestEmulator((started) => {
  t = started;
  k3s = `/v1/workspaces/${t.workspaceId}/k3s`;
});
beforeEach(async () => {
  // Reset keeps settings: put the quick workflow clock back after tests that slowed it.
  await t.control.post("/_emulator/settings", { workflowMs: 30 });
});

async function activeCluster() {
  const res = await t.api.post(k3s);
  expect(res.status).toBe(202);
  expect(await t.waitWorkflow(res.body.id)).toBe("COMPLETED");
}

async function joinNode(instanceId: string) {
  const res = await t.api.post(`${k3s}/nodes`, undefined, { rawBody: `{"instance_id":${instanceId}}` });
  expect(res.status).toBe(202);
  expect(await t.waitWorkflow(res.body.id)).toBe("COMPLETED");
  return (await t.api.get(`/v1/instances/${instanceId}/k3s`)).body;
}

async function slowWorkflows(ms = 60_000) {
  await t.control.post("/_emulator/settings", { workflowMs: ms });
}

describe("cluster", () => {
  it("answers 404 while the workspace has no cluster", async () => {
    const res = await t.api.get(k3s);
    expect(res.status).toBe(404);
    expect(res.message).toBe("Kubernetes cluster not found");
  });

  it("provisions PROVISIONING -> ACTIVE through a workflow, with a derived namespace name", async () => {
    await slowWorkflows();
    const res = await t.api.post(k3s);
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ id: expect.any(String), name: "k3s-cluster-create", state: "QUEUED" });
    const provisioning = await t.api.get(k3s);
    expect(provisioning.body).toEqual({
      id: expect.any(String),
      owner: { id: t.workspaceId, name: "demo-workspace" },
      name: `ws-${t.workspaceId}`,
      status: "PROVISIONING",
    });
    await t.control.post("/_emulator/clock", { advanceMs: 60_000 });
    expect((await t.api.get(`/v1/workflows/${res.body.id}`)).body.state).toBe("COMPLETED");
    expect((await t.api.get(k3s)).body.status).toBe("ACTIVE");
  });

  it("refuses a second cluster with 409", async () => {
    await activeCluster();
    const res = await t.api.post(k3s);
    expect(res.status).toBe(409);
    expect(res.message).toContain("already has a Kubernetes cluster");
  });

  it("ends FAILED when the provisioning workflow fails, and can then be deleted", async () => {
    await t.control.post("/_emulator/faults", {
      kind: "workflow",
      method: "POST",
      path: "/v1/workspaces/*/k3s",
      outcome: "FAILED",
      times: 1,
    });
    const res = await t.api.post(k3s);
    expect(await t.waitWorkflow(res.body.id)).toBe("FAILED");
    expect((await t.api.get(k3s)).body.status).toBe("FAILED");
    const del = await t.api.delete(k3s);
    expect(del.status).toBe(202);
    expect(await t.waitWorkflow(del.body.id)).toBe("COMPLETED");
    expect((await t.api.get(k3s)).status).toBe(404);
  });

  it("tears down DEPROVISIONING -> removed, taking nodes, services and secrets with it", async () => {
    await activeCluster();
    const inst = makeInstance(t);
    await joinNode(inst.id);
    expect((await t.api.post(`${k3s}/secrets`, { name: "db", data: { PASSWORD: "x" } })).status).toBe(201);
    const svc = await t.api.post(`${k3s}/services`, {
      name: "web",
      image: "nginx:1.27",
      mode: "PINNED",
      target_instances: [BigInt(inst.id)],
      secret_refs: ["db"],
    });
    await t.waitWorkflow(svc.body.id);
    const inventory = (await t.control.get(`/_emulator/inventory?workspace=${t.workspaceId}`)).body.resources;
    expect([inventory.k3sClusters.length, inventory.k3sNodes.length, inventory.k3sServices.length, inventory.k3sSecrets.length]).toEqual([
      1, 1, 1, 1,
    ]);
    expect(inventory.k3sNodes[0]).toEqual({ id: expect.any(String), name: inst.hostname, workspaceId: t.workspaceId, state: "READY" });

    await slowWorkflows();
    const del = await t.api.delete(k3s);
    expect(del.status).toBe(202);
    expect(del.body.name).toBe("k3s-cluster-delete");
    expect((await t.api.get(k3s)).body.status).toBe("DEPROVISIONING");
    // The control plane is going away: live views are null and writes inside the cluster are refused.
    expect((await t.api.get(`/v1/instances/${inst.id}/k3s`)).body.live).toBeNull();
    const write = await t.api.post(`${k3s}/secrets`, { name: "other", data: {} });
    expect(write.status).toBe(409);
    expect(write.message).toContain("DEPROVISIONING");
    expect((await t.api.delete(k3s)).status).toBe(409);

    await t.control.post("/_emulator/clock", { advanceMs: 60_000 });
    expect((await t.api.get(k3s)).status).toBe(404);
    const after = (await t.control.get(`/_emulator/inventory?workspace=${t.workspaceId}`)).body;
    expect(after.total).toBe(1); // only the fixture instance is left
    expect((await t.api.get(`${k3s}/secrets`)).body.items).toEqual([]);
  });

  it("answers 404 to DELETE without a cluster", async () => {
    expect((await t.api.delete(k3s)).status).toBe(404);
  });
});

describe("nodes", () => {
  it("refuses to enrol a node without an ACTIVE cluster (409)", async () => {
    const inst = makeInstance(t);
    const res = await t.api.post(`${k3s}/nodes`, { instance_id: BigInt(inst.id) });
    expect(res.status).toBe(409);
    expect(res.message).toContain("no Kubernetes cluster");
  });

  it("joins JOINING -> READY with live status, keeping a big instance id exact", async () => {
    await activeCluster();
    const inst = makeInstance(t);
    expect(BigInt(inst.id)).toBeGreaterThan(2n ** 53n);
    await slowWorkflows();
    const res = await t.api.post(`${k3s}/nodes`, undefined, { rawBody: `{"instance_id":${inst.id}}` });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ name: "k3s-node-join", state: "QUEUED" });
    const joining = (await t.api.get(`/v1/instances/${inst.id}/k3s`)).body;
    expect(joining).toEqual({
      node: {
        id: expect.any(String),
        workspace: { id: t.workspaceId, name: "demo-workspace" },
        instance: { id: inst.id, name: inst.name },
        node_name: inst.hostname,
        status: "JOINING",
      },
      live: {
        ready: false,
        conditions: expect.objectContaining({ Ready: "False" }),
        allocatable: { cpu: "2", memory: "4194304Ki", pods: "110" },
      },
    });
    await t.control.post("/_emulator/clock", { advanceMs: 60_000 });
    const ready = (await t.api.get(`${k3s}/nodes/${joining.node.id}`)).body;
    expect(ready.node.status).toBe("READY");
    expect(ready.live).toEqual({
      ready: true,
      conditions: { Ready: "True", MemoryPressure: "False", DiskPressure: "False", PIDPressure: "False", NetworkUnavailable: "False" },
      allocatable: { cpu: "2", memory: "4194304Ki", pods: "110" },
    });
  });

  it("reports a powered-off instance's node as not ready (Ready Unknown)", async () => {
    await activeCluster();
    const inst = makeInstance(t);
    const node = await joinNode(inst.id);
    await t.control.patch(`/_emulator/tables/instances/${inst.id}`, { online: false });
    const res = (await t.api.get(`${k3s}/nodes/${node.node.id}`)).body;
    expect(res.node.status).toBe("READY");
    expect(res.live.ready).toBe(false);
    expect(res.live.conditions.Ready).toBe("Unknown");
  });

  it("validates the enrolment: instance_id required, same workspace (400), running (409), one node per instance (409)", async () => {
    await activeCluster();
    const missing = await t.api.post(`${k3s}/nodes`, {});
    expect(missing.status).toBe(400);
    expect(missing.message).toContain("instance_id");
    expect(missing.body.errors[0].field).toBe("instance_id");

    const stringId = await t.api.post(`${k3s}/nodes`, { instance_id: "123" });
    expect(stringId.status).toBe(400);

    const owner = makeUser(t);
    const foreign = makeInstance(t, { workspaceId: makeWorkspace(t, owner.id) });
    const other = await t.api.post(`${k3s}/nodes`, { instance_id: BigInt(foreign.id) });
    expect(other.status).toBe(400);
    expect(other.message).toBe("instance_id: must be an instance of this workspace");
    expect((await t.api.post(`${k3s}/nodes`, { instance_id: 12345 })).status).toBe(400);

    const off = makeInstance(t, { online: false });
    const offline = await t.api.post(`${k3s}/nodes`, { instance_id: BigInt(off.id) });
    expect(offline.status).toBe(409);
    expect(offline.message).toContain("must be running");
    const pending = makeInstance(t, { state: "PENDING" });
    expect((await t.api.post(`${k3s}/nodes`, { instance_id: BigInt(pending.id) })).status).toBe(409);

    const inst = makeInstance(t);
    await joinNode(inst.id);
    const again = await t.api.post(`${k3s}/nodes`, { instance_id: BigInt(inst.id) });
    expect(again.status).toBe(409);
    expect(again.message).toContain("already a node");
  });

  it("gives nodes unique names even when hostnames collide", async () => {
    await activeCluster();
    const a = makeInstance(t, { hostname: "Worker_A" });
    const b = makeInstance(t, { hostname: "worker-a" });
    expect((await joinNode(a.id)).node.node_name).toBe("worker-a");
    expect((await joinNode(b.id)).node.node_name).toBe(`worker-a-${b.id.slice(-6)}`);
  });

  it("ends FAILED when the join workflow fails (live null)", async () => {
    await activeCluster();
    const inst = makeInstance(t);
    await t.control.post("/_emulator/faults", { kind: "workflow", path: "/v1/workspaces/*/k3s/nodes", outcome: "TIMED_OUT", times: 1 });
    const res = await t.api.post(`${k3s}/nodes`, { instance_id: BigInt(inst.id) });
    expect(await t.waitWorkflow(res.body.id)).toBe("TIMED_OUT");
    const node = (await t.api.get(`/v1/instances/${inst.id}/k3s`)).body;
    expect(node.node.status).toBe("FAILED");
    expect(node.live).toBeNull();
  });

  it("lists with id, status and instance filters, page numbers and keyset cursors", async () => {
    await activeCluster();
    const instances = [makeInstance(t), makeInstance(t), makeInstance(t)];
    const nodes = [];
    for (const inst of instances) nodes.push(await joinNode(inst.id));
    await slowWorkflows();
    const joining = makeInstance(t);
    await t.api.post(`${k3s}/nodes`, { instance_id: BigInt(joining.id) });

    const all = (await t.api.get(`${k3s}/nodes`)).body;
    expect(all.items).toHaveLength(4);
    expect(all.items[0]).toHaveProperty("live");
    expect(
      (await t.api.get(`${k3s}/nodes`, { status: "JOINING" })).body.items.map(
        (n: { node: { instance: { id: string } } }) => n.node.instance.id,
      ),
    ).toEqual([joining.id]);
    expect((await t.api.get(`${k3s}/nodes`, { status: "READY" })).body.items).toHaveLength(3);
    const byInstance = (await t.api.get(`${k3s}/nodes`, { instance: [instances[0].id, instances[2].id] })).body.items;
    expect(byInstance.map((n: { node: { instance: { id: string } } }) => n.node.instance.id).sort()).toEqual(
      [instances[0].id, instances[2].id].sort(),
    );
    expect((await t.api.get(`${k3s}/nodes`, { id: nodes[1].node.id })).body.items.map((n: { node: { id: string } }) => n.node.id)).toEqual([
      nodes[1].node.id,
    ]);
    expect((await t.api.get(`${k3s}/nodes`, { status: "SLEEPING" })).status).toBe(400);

    const page1 = (await t.api.get(`${k3s}/nodes`, { limit: 3 })).body;
    expect(page1).toMatchObject({ hasNext: true, hasPrevious: false, before: null });
    const page2 = (await t.api.get(`${k3s}/nodes`, { limit: 3, page: 2 })).body;
    expect(page2.items).toHaveLength(1);
    expect(page2.hasPrevious).toBe(true);
    const next = (await t.api.get(`${k3s}/nodes`, { limit: 3, after: page1.after })).body;
    expect(next.items).toEqual(page2.items);
    const back = (await t.api.get(`${k3s}/nodes`, { limit: 3, before: next.before })).body;
    expect(back.items).toEqual(page1.items);
  });

  it("drains DRAINING -> removed on DELETE; a second DELETE while draining is 409", async () => {
    await activeCluster();
    const inst = makeInstance(t);
    const node = await joinNode(inst.id);
    await slowWorkflows();
    const del = await t.api.delete(`${k3s}/nodes/${node.node.id}`);
    expect(del.status).toBe(202);
    expect(del.body.name).toBe("k3s-node-drain");
    expect((await t.api.get(`${k3s}/nodes/${node.node.id}`)).body.node.status).toBe("DRAINING");
    expect((await t.api.delete(`${k3s}/nodes/${node.node.id}`)).status).toBe(409);
    await t.control.post("/_emulator/clock", { advanceMs: 60_000 });
    expect((await t.api.get(`${k3s}/nodes/${node.node.id}`)).status).toBe(404);
    const byInstance = await t.api.get(`/v1/instances/${inst.id}/k3s`);
    expect(byInstance.status).toBe(404);
    expect(byInstance.message).toBe("Kubernetes node for this instance not found");
  });

  it("answers 404 for unknown nodes, unknown instances and nodes of another workspace", async () => {
    await activeCluster();
    expect((await t.api.get(`${k3s}/nodes/12345`)).status).toBe(404);
    expect((await t.api.get(`/v1/instances/12345/k3s`)).status).toBe(404);
    expect((await t.api.get(`${k3s}/nodes/not-a-number`)).status).toBe(400);
  });

  it("drops a deleted instance's node and removes it from service targets (instance.deleted hook)", async () => {
    await activeCluster();
    const [a, b] = [makeInstance(t), makeInstance(t)];
    await joinNode(a.id);
    await joinNode(b.id);
    const svc = await t.api.post(`${k3s}/services`, {
      name: "web",
      image: "nginx:1.27",
      mode: "PINNED",
      target_instances: [BigInt(a.id), BigInt(b.id)],
    });
    await t.waitWorkflow(svc.body.id);
    t.emu.services.store.t.instances.delete(b.id);
    fireHook(t.emu.services, "instance.deleted", { instanceId: b.id, workspaceId: t.workspaceId });
    expect((await t.api.get(`/v1/instances/${b.id}/k3s`)).status).toBe(404);
    const list = (await t.api.get(`${k3s}/services`)).body.items;
    expect(list[0].service.target_instances).toEqual([{ id: a.id, name: a.name }]);
    expect(list[0].live.pods).toHaveLength(1);
  });
});

describe("secrets", () => {
  it("creates a secret (201) showing key names only, and stores values sealed", async () => {
    await activeCluster();
    const res = await t.api.post(`${k3s}/secrets`, { name: "db-creds", data: { PASSWORD: "hunter2-plain", USER: "app" } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: expect.any(String), name: "db-creds", keys: ["PASSWORD", "USER"] });
    const row = t.emu.services.store.t.k3sSecrets.get(res.body.id)!;
    expect(JSON.stringify(row)).not.toContain("hunter2-plain");
    expect(row.sealed.PASSWORD).toMatch(/^enc:v1:/);
    const list = await t.api.get(`${k3s}/secrets`);
    expect(list.text).not.toContain("hunter2");
    expect(list.body.items).toEqual([res.body]);
    // The request log masks the values too.
    const logged = (await t.control.get("/_emulator/requests", { path: `${k3s}/secrets`, method: "POST" })).body.requests;
    expect(JSON.stringify(logged)).not.toContain("hunter2");
  });

  it.each([
    ["no name", { data: {} }, "name"],
    ["an invalid name", { name: "Bad_Name", data: {} }, "name"],
    ["no data", { name: "s1" }, "data"],
    ["data that is not an object", { name: "s1", data: "x" }, "data"],
    ["a non-string value", { name: "s1", data: { A: 1 } }, "data.A"],
    ["an invalid key", { name: "s1", data: { "bad key": "v" } }, "data"],
  ])("refuses %s with 400", async (_label, body, field) => {
    await activeCluster();
    const res = await t.api.post(`${k3s}/secrets`, body);
    expect(res.status).toBe(400);
    expect(res.message).toContain(field);
  });

  it("refuses a duplicate name with 409 and needs an ACTIVE cluster", async () => {
    expect((await t.api.post(`${k3s}/secrets`, { name: "s1", data: {} })).status).toBe(409);
    await activeCluster();
    expect((await t.api.post(`${k3s}/secrets`, { name: "s1", data: {} })).status).toBe(201);
    const dup = await t.api.post(`${k3s}/secrets`, { name: "s1", data: { A: "b" } });
    expect(dup.status).toBe(409);
    expect(dup.message).toContain("already exists");
  });

  it("replaces data on PUT: keys not present are removed", async () => {
    await activeCluster();
    const s = (await t.api.post(`${k3s}/secrets`, { name: "api", data: { A: "1", B: "2" } })).body;
    const res = await t.api.put(`${k3s}/secrets/${s.id}`, { data: { B: "3", C: "4" } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: s.id, name: "api", keys: ["B", "C"] });
    expect((await t.api.put(`${k3s}/secrets/${s.id}`, {})).status).toBe(400);
    expect((await t.api.put(`${k3s}/secrets/12345`, { data: {} })).status).toBe(404);
  });

  it("deletes with 204, but 409 while a service lists the secret in secret_refs", async () => {
    await activeCluster();
    const inst = makeInstance(t);
    await joinNode(inst.id);
    const s = (await t.api.post(`${k3s}/secrets`, { name: "db", data: { P: "x" } })).body;
    const svc = await t.api.post(`${k3s}/services`, {
      name: "web",
      image: "nginx:1.27",
      mode: "PINNED",
      target_instances: [BigInt(inst.id)],
      secret_refs: ["db"],
    });
    await t.waitWorkflow(svc.body.id);
    const blocked = await t.api.delete(`${k3s}/secrets/${s.id}`);
    expect(blocked.status).toBe(409);
    expect(blocked.message).toContain("referenced by service web");
    const svcId = (await t.api.get(`${k3s}/services`)).body.items[0].service.id;
    const put = await t.api.put(`${k3s}/services/${svcId}`, { image: "nginx:1.27", target_instances: [BigInt(inst.id)] });
    await t.waitWorkflow(put.body.id);
    const del = await t.api.delete(`${k3s}/secrets/${s.id}`);
    expect(del.status).toBe(204);
    expect(del.text).toBe("");
    expect((await t.api.get(`${k3s}/secrets`)).body.items).toEqual([]);
  });

  it("pages secrets with page numbers and keyset cursors, sortable by name", async () => {
    await activeCluster();
    for (const name of ["c-one", "a-two", "b-three"]) await t.api.post(`${k3s}/secrets`, { name, data: {} });
    const byName = (await t.api.get(`${k3s}/secrets`, { sort: "name" })).body.items.map((s: { name: string }) => s.name);
    expect(byName).toEqual(["a-two", "b-three", "c-one"]);
    const first = (await t.api.get(`${k3s}/secrets`, { sort: "name", limit: 2 })).body;
    expect(first.hasNext).toBe(true);
    const rest = (await t.api.get(`${k3s}/secrets`, { sort: "name", limit: 2, after: first.after })).body;
    expect(rest.items.map((s: { name: string }) => s.name)).toEqual(["c-one"]);
    expect((await t.api.get(`${k3s}/secrets`, { sort: "name", limit: 2, page: 2 })).body.items).toEqual(rest.items);
  });
});

describe("access", () => {
  it("answers 403 with an empty body without a token", async () => {
    const res = await t.anon.get(k3s);
    expect(res.status).toBe(403);
    expect(res.text).toBe("");
    expect(res.message).toContain("Authorization");
  });

  it("lets a VIEWER read but not write (403)", async () => {
    await activeCluster();
    const viewer = makeUser(t, { role: "VIEWER" });
    expect((await viewer.api.get(k3s)).status).toBe(200);
    expect((await viewer.api.get(`${k3s}/secrets`)).status).toBe(200);
    const write = await viewer.api.post(`${k3s}/secrets`, { name: "s1", data: {} });
    expect(write.status).toBe(403);
    expect(write.message).toContain("EDITOR");
    expect((await viewer.api.delete(k3s)).status).toBe(403);
    const editor = makeUser(t, { role: "EDITOR" });
    expect((await editor.api.post(`${k3s}/secrets`, { name: "s1", data: {} })).status).toBe(201);
  });

  it("needs WORKSPACE WRITE on the token to write and READ to read", async () => {
    await activeCluster();
    const readOnly = makeUser(t, { role: "OWNER", grants: { WORKSPACE: "READ" } });
    expect((await readOnly.api.get(`${k3s}/nodes`)).status).toBe(200);
    const res = await readOnly.api.post(`${k3s}/secrets`, { name: "s1", data: {} });
    expect(res.status).toBe(403);
    expect(res.message).toContain("WRITE permission on WORKSPACE");
    const noGrant = makeUser(t, { role: "OWNER", grants: { INSTANCE: "WRITE" } });
    expect((await noGrant.api.get(k3s)).status).toBe(403);
  });

  it("hides other workspaces' clusters (404)", async () => {
    await activeCluster();
    const stranger = makeUser(t);
    expect((await stranger.api.get(k3s)).status).toBe(404);
    expect((await stranger.api.post(k3s)).status).toBe(404);
    const inst = makeInstance(t);
    await joinNode(inst.id);
    expect((await stranger.api.get(`/v1/instances/${inst.id}/k3s`)).status).toBe(404);
    expect((await t.api.get(`/v1/workspaces/12345/k3s`)).status).toBe(404);
    expect((await t.staff.get(`/v1/workspaces/12345/k3s`)).status).toBe(404);
  });
});
