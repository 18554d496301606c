/**
 * Part 3 Kubernetes services against the emulator over real HTTP: create/replace/redeploy/
 * rollback/delete workflows, the live rollout view on the workflow clock, logs and the SSE
 * follow stream.
 */
import type { InstanceRow } from "../src/model";
import { useTestEmulator, type TestEmulator } from "../src/testing";
import { makeInstance, makeUser } from "./k3sBilling";
import { setTimeout as sleep } from "node:timers/promises";

let t: TestEmulator;
let k3s: string;
let services: string;

useTestEmulator((started) => {
  t = started;
  k3s = `/v1/workspaces/${t.workspaceId}/k3s`;
  services = `${k3s}/services`;
});
beforeEach(async () => {
  await t.control.post("/_emulator/settings", { workflowMs: 30 });
});

interface Pod {
  name: string;
  phase: string;
  restart_count: number;
  ready: boolean;
  node_name: string | null;
}

async function settle(res: { status: number; body: { id: string } }) {
  expect(res.status).toBe(202);
  expect(await t.waitWorkflow(res.body.id)).toBe("COMPLETED");
}

/** An ACTIVE cluster with `count` READY nodes. */
async function clusterWithNodes(count: number): Promise<InstanceRow[]> {
  await settle(await t.api.post(k3s));
  const instances: InstanceRow[] = [];
  for (let i = 0; i < count; i++) {
    const inst = makeInstance(t, { hostname: `node-${i}` });
    await settle(await t.api.post(`${k3s}/nodes`, { instance_id: BigInt(inst.id) }));
    instances.push(inst);
  }
  return instances;
}

const body = (over: Record<string, unknown> = {}) => ({
  name: "web",
  image: "nginx:1.27",
  mode: "SPREAD",
  target_instances: [] as bigint[],
  ...over,
});
const ids = (instances: InstanceRow[]) => instances.map((i) => BigInt(i.id));

async function createService(over: Record<string, unknown>) {
  await settle(await t.api.post(services, body(over)));
  const list = await t.api.get(services, { name: over.name as string | undefined });
  return list.body.items[0] as { service: { id: string; name: string }; live: { pods: Pod[] } };
}

const getService = async (id: string) => (await t.api.get(`${services}/${id}`)).body;

async function slowWorkflows(ms = 10_000) {
  await t.control.post("/_emulator/settings", { workflowMs: ms });
}
const advance = (ms: number) => t.control.post("/_emulator/clock", { advanceMs: ms });

describe("create", () => {
  it("deploys DEPLOYING -> RUNNING and returns the full desired state (environment never returned)", async () => {
    const nodes = await clusterWithNodes(2);
    await t.api.post(`${k3s}/secrets`, { name: "db", data: { PASSWORD: "pw" } });
    await slowWorkflows();
    const res = await t.api.post(services, {
      name: "api",
      image: "ghcr.io/acme/api:v2.1",
      mode: "PINNED",
      target_instances: ids(nodes),
      ports: [
        { host_port: 8080, container_port: 80, http: true },
        { host_port: 5353, container_port: 53, protocol: "UDP" },
      ],
      volumes: [{ host_path: "/srv/data", container_path: "/data" }],
      environment: { LOG_LEVEL: "debug" },
      secret_refs: ["db"],
    });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ id: expect.any(String), name: "k3s-service-deploy", state: "QUEUED" });
    const deploying = (await t.api.get(services)).body.items[0];
    expect(deploying.service.status).toBe("DEPLOYING");
    await advance(10_000);
    expect(await t.waitWorkflow(res.body.id)).toBe("COMPLETED");

    const svc = await getService(deploying.service.id);
    expect(svc.service).toEqual({
      id: deploying.service.id,
      name: "api",
      image: "ghcr.io/acme/api:v2.1",
      mode: "PINNED",
      target_instances: nodes.map((n) => ({ id: n.id, name: n.name })),
      replicas: 1,
      ports: [
        { host_port: 8080, container_port: 80, protocol: "TCP", http: true },
        { host_port: 5353, container_port: 53, protocol: "UDP", http: false },
      ],
      volumes: [{ host_path: "/srv/data", container_path: "/data" }],
      secret_refs: ["db"],
      update_strategy: "ROLLING",
      status: "RUNNING",
    });
    expect(svc.service).not.toHaveProperty("environment");
    // PINNED: one pod on each target instance.
    expect(svc.live).toMatchObject({
      desired_replicas: 2,
      available_replicas: 2,
      unavailable_replicas: 0,
      updated_replicas: 2,
      updating: false,
    });
    expect(svc.live.pods.map((p: Pod) => p.node_name)).toEqual(["node-0", "node-1"]);
    for (const pod of svc.live.pods) {
      expect(pod).toEqual({
        name: expect.stringMatching(/^api-[a-z0-9]{10}-[a-z0-9]{5}$/),
        phase: "Running",
        restart_count: 0,
        ready: true,
        node_name: expect.any(String),
      });
    }
  });

  it("spreads SPREAD replicas round-robin over the target nodes", async () => {
    const nodes = await clusterWithNodes(2);
    const svc = await createService({ mode: "SPREAD", replicas: 3, target_instances: ids(nodes) });
    expect(svc.live.pods.map((p) => p.node_name)).toEqual(["node-0", "node-1", "node-0"]);
  });

  it("keeps big target instance ids exact when sent as raw JSON integers", async () => {
    const [node] = await clusterWithNodes(1);
    expect(BigInt(node.id)).toBeGreaterThan(2n ** 53n);
    const res = await t.api.post(services, undefined, {
      rawBody: `{"name":"big","image":"redis:7","mode":"PINNED","target_instances":[${node.id}]}`,
    });
    await settle(res);
    expect((await t.api.get(services)).body.items[0].service.target_instances).toEqual([{ id: node.id, name: node.name }]);
  });

  it("shows pods coming up one by one as the deploy workflow runs", async () => {
    const nodes = await clusterWithNodes(2);
    await slowWorkflows(100_000);
    await t.api.post(services, body({ replicas: 2, target_instances: ids(nodes) }));
    const id = (await t.api.get(services)).body.items[0].service.id;
    const start = await getService(id);
    expect(start.service.status).toBe("DEPLOYING");
    expect(start.live).toMatchObject({ desired_replicas: 2, available_replicas: 0, unavailable_replicas: 2, updating: true });
    expect(start.live.pods.map((p: Pod) => [p.phase, p.ready])).toEqual([
      ["Pending", false],
      ["Pending", false],
    ]);
    await advance(50_000);
    const half = await getService(id);
    expect(half.live.available_replicas).toBe(1);
    expect(half.live.pods.map((p: Pod) => p.phase)).toEqual(["Running", "Pending"]);
    await advance(50_000);
    const done = await getService(id);
    expect(done.service.status).toBe("RUNNING");
    expect(done.live).toMatchObject({ available_replicas: 2, unavailable_replicas: 0, updating: false });
  });

  it.each([
    ["no name", { name: undefined }, "name"],
    ["an invalid name", { name: "Web_1" }, "name"],
    ["no image", { image: undefined }, "image"],
    ["an image without a tag", { image: "nginx" }, "image"],
    ["no mode", { mode: undefined }, "mode"],
    ["an unknown mode", { mode: "RANDOM" }, "mode"],
    ["no target_instances", { target_instances: undefined }, "target_instances"],
    ["empty target_instances", { target_instances: [] }, "target_instances"],
    ["zero replicas", { replicas: 0 }, "replicas"],
    ["a fractional replica count", { replicas: 1.5 }, "replicas"],
    ["a port out of range", { ports: [{ host_port: 70000, container_port: 80 }] }, "ports[0].host_port"],
    ["an unknown protocol", { ports: [{ host_port: 80, container_port: 80, protocol: "SCTP" }] }, "ports[0].protocol"],
    ["http on a UDP port", { ports: [{ host_port: 53, container_port: 53, protocol: "UDP", http: true }] }, "ports[0].http"],
    [
      "a duplicate host port",
      {
        ports: [
          { host_port: 80, container_port: 80 },
          { host_port: 80, container_port: 81 },
        ],
      },
      "ports[1]",
    ],
    ["a relative volume path", { volumes: [{ host_path: "data", container_path: "/data" }] }, "volumes[0].host_path"],
    ["a non-string environment value", { environment: { PORT: 80 } }, "environment.PORT"],
    ["an invalid environment name", { environment: { "1BAD": "x" } }, "environment"],
    ["an unknown secret reference", { secret_refs: ["missing"] }, "secret_refs[0]"],
    ["an unknown update strategy", { update_strategy: "RECREATE" }, "update_strategy"],
  ])("refuses %s with 400", async (_label, over, field) => {
    const nodes = await clusterWithNodes(1);
    const res = await t.api.post(services, body({ target_instances: ids(nodes), ...over }));
    expect(res.status).toBe(400);
    expect(res.message).toContain(field);
    expect(res.body.errors[0].field).toContain(field.split("[")[0]);
  });

  it("refuses targets outside the workspace (400), targets that are not READY nodes (409), a duplicate name (409), no cluster (409)", async () => {
    expect((await t.api.post(services, body({ target_instances: [1n] }))).status).toBe(409);
    const nodes = await clusterWithNodes(1);
    const outside = await t.api.post(services, body({ target_instances: [12345] }));
    expect(outside.status).toBe(400);
    expect(outside.message).toBe("target_instances[0]: instance 12345 is not an instance of this workspace");
    const loose = makeInstance(t);
    const notNode = await t.api.post(services, body({ target_instances: [BigInt(loose.id)] }));
    expect(notNode.status).toBe(409);
    expect(notNode.message).toContain("is not a READY node");
    await createService({ target_instances: ids(nodes) });
    const dup = await t.api.post(services, body({ target_instances: ids(nodes) }));
    expect(dup.status).toBe(409);
    expect(dup.message).toBe("A service named web already exists in the workspace");
  });
});

describe("replace, redeploy, rollback", () => {
  it("replaces the desired state UPDATING -> RUNNING; omitted optional fields are cleared", async () => {
    const nodes = await clusterWithNodes(2);
    await t.api.post(`${k3s}/secrets`, { name: "db", data: { P: "x" } });
    const svc = await createService({
      target_instances: ids(nodes),
      replicas: 3,
      ports: [{ host_port: 80, container_port: 8080 }],
      volumes: [{ host_path: "/a", container_path: "/b" }],
      secret_refs: ["db"],
      update_strategy: "START_FIRST",
    });
    await slowWorkflows();
    const res = await t.api.put(`${services}/${svc.service.id}`, { image: "nginx:1.28", target_instances: ids(nodes.slice(0, 1)) });
    expect(res.status).toBe(202);
    expect(res.body.name).toBe("k3s-service-update");
    expect((await getService(svc.service.id)).service.status).toBe("UPDATING");
    await advance(10_000);
    expect(await t.waitWorkflow(res.body.id)).toBe("COMPLETED");
    const after = await getService(svc.service.id);
    expect(after.service).toMatchObject({
      image: "nginx:1.28",
      target_instances: [{ id: nodes[0].id, name: nodes[0].name }],
      replicas: 1,
      ports: [],
      volumes: [],
      secret_refs: [],
      update_strategy: "ROLLING",
      status: "RUNNING",
    });
    expect(after.live.pods).toHaveLength(1);
    expect(after.live.pods[0].name).not.toBe(svc.live.pods[0].name);
  });

  it("refuses a changed name or mode (400), a missing image or target list (400), and a PUT mid-rollout (409)", async () => {
    const nodes = await clusterWithNodes(1);
    const svc = await createService({ target_instances: ids(nodes) });
    const path = `${services}/${svc.service.id}`;
    const keep = { image: "nginx:1.28", target_instances: ids(nodes) };
    const rename = await t.api.put(path, { ...keep, name: "other" });
    expect(rename.status).toBe(400);
    expect(rename.message).toBe("name: cannot change; delete and re-create the service");
    expect((await t.api.put(path, { ...keep, mode: "PINNED" })).message).toBe("mode: cannot change; delete and re-create the service");
    expect((await t.api.put(path, { target_instances: ids(nodes) })).message).toContain("image");
    expect((await t.api.put(path, { image: "nginx:1.28" })).message).toContain("target_instances");
    expect((await t.api.put(`${services}/12345`, keep)).status).toBe(404);

    await slowWorkflows();
    expect((await t.api.put(path, { ...keep, name: "web", mode: "SPREAD" })).status).toBe(202);
    const busy = await t.api.put(path, keep);
    expect(busy.status).toBe(409);
    expect(busy.message).toBe("The service is UPDATING; wait for the current operation to finish");
    expect((await t.api.post(`${path}/redeploy`)).status).toBe(409);
    expect((await t.api.post(`${path}/rollback`)).status).toBe(409);
  });

  it("rolls ROLLING updates one pod at a time and START_FIRST updates all new pods first", async () => {
    const nodes = await clusterWithNodes(2);
    const rolling = await createService({ name: "rolling", replicas: 2, target_instances: ids(nodes) });
    const surge = await createService({ name: "surge", replicas: 2, target_instances: ids(nodes), update_strategy: "START_FIRST" });
    await slowWorkflows(100_000);
    await t.api.put(`${services}/${rolling.service.id}`, { image: "nginx:1.28", replicas: 2, target_instances: ids(nodes) });
    await t.api.put(`${services}/${surge.service.id}`, {
      image: "nginx:1.28",
      replicas: 2,
      target_instances: ids(nodes),
      update_strategy: "START_FIRST",
    });
    const oldNames = new Set([...rolling.live.pods, ...surge.live.pods].map((p) => p.name));

    const r0 = (await getService(rolling.service.id)).live;
    // One old pod gone, its replacement being created, the other old pod still serving.
    expect(r0).toMatchObject({ desired_replicas: 2, available_replicas: 1, unavailable_replicas: 1, updated_replicas: 1, updating: true });
    expect(r0.pods.map((p: Pod) => [oldNames.has(p.name), p.ready])).toEqual([
      [true, true],
      [false, false],
    ]);

    const s0 = (await getService(surge.service.id)).live;
    // Every new pod starting while both old pods keep serving.
    expect(s0).toMatchObject({ desired_replicas: 2, available_replicas: 2, unavailable_replicas: 0, updated_replicas: 2, updating: true });
    expect(s0.pods.map((p: Pod) => [oldNames.has(p.name), p.ready])).toEqual([
      [true, true],
      [true, true],
      [false, false],
      [false, false],
    ]);

    await advance(100_000);
    for (const id of [rolling.service.id, surge.service.id]) {
      const done = await getService(id);
      expect(done.service.status).toBe("RUNNING");
      expect(done.live.pods.every((p: Pod) => p.ready && !oldNames.has(p.name))).toBe(true);
      expect(done.live.pods).toHaveLength(2);
    }
  });

  it("redeploys with the same configuration and fresh pods", async () => {
    const nodes = await clusterWithNodes(1);
    const svc = await createService({
      target_instances: ids(nodes),
      environment: { A: "1" },
      ports: [{ host_port: 80, container_port: 80 }],
    });
    const before = await getService(svc.service.id);
    await slowWorkflows();
    const res = await t.api.post(`${services}/${svc.service.id}/redeploy`);
    expect(res.body.name).toBe("k3s-service-redeploy");
    expect((await getService(svc.service.id)).service.status).toBe("UPDATING");
    await advance(10_000);
    await settle(res);
    const after = await getService(svc.service.id);
    expect(after.service).toEqual(before.service);
    expect(after.live.pods[0].name).not.toBe(svc.live.pods[0].name);
    // A redeploy is not a revision: there is still nothing to roll back to.
    expect((await t.api.post(`${services}/${svc.service.id}/rollback`)).status).toBe(409);
  });

  it("rolls back to the previous revision, and answers 409 once there is none", async () => {
    const nodes = await clusterWithNodes(1);
    const svc = await createService({ target_instances: ids(nodes) });
    const path = `${services}/${svc.service.id}`;
    const none = await t.api.post(`${path}/rollback`);
    expect(none.status).toBe(409);
    expect(none.message).toBe("The service has no previous revision to roll back to");
    await settle(await t.api.put(path, { image: "nginx:1.28", target_instances: ids(nodes) }));
    await settle(await t.api.put(path, { image: "nginx:1.29", target_instances: ids(nodes), replicas: 2 }));
    const back = await t.api.post(`${path}/rollback`);
    expect(back.body.name).toBe("k3s-service-rollback");
    await settle(back);
    expect((await getService(svc.service.id)).service).toMatchObject({ image: "nginx:1.28", replicas: 1, status: "RUNNING" });
    await settle(await t.api.post(`${path}/rollback`));
    expect((await getService(svc.service.id)).service.image).toBe("nginx:1.27");
    expect((await t.api.post(`${path}/rollback`)).status).toBe(409);
  });

  it("ends FAILED when a rollout fails (pods Failed) and recovers with a redeploy", async () => {
    const nodes = await clusterWithNodes(1);
    const svc = await createService({ target_instances: ids(nodes) });
    await t.control.post("/_emulator/faults", { kind: "workflow", method: "PUT", path: `${services}/*`, outcome: "FAILED", times: 1 });
    const res = await t.api.put(`${services}/${svc.service.id}`, { image: "nginx:broken", target_instances: ids(nodes) });
    expect(await t.waitWorkflow(res.body.id)).toBe("FAILED");
    const failed = await getService(svc.service.id);
    expect(failed.service.status).toBe("FAILED");
    expect(failed.live).toMatchObject({ available_replicas: 0, unavailable_replicas: 1, updating: false });
    expect(failed.live.pods[0]).toMatchObject({ phase: "Failed", ready: false });
    await settle(await t.api.post(`${services}/${svc.service.id}/redeploy`));
    expect((await getService(svc.service.id)).service.status).toBe("RUNNING");
  });
});

describe("scheduling", () => {
  it("reschedules SPREAD pods off a drained node; PINNED pods on it go Pending; a powered-off node's pods are Unknown", async () => {
    const nodes = await clusterWithNodes(2);
    const spread = await createService({ name: "spread", replicas: 2, target_instances: ids(nodes) });
    const pinned = await createService({ name: "pinned", mode: "PINNED", target_instances: ids(nodes) });
    expect(spread.live.pods.map((p) => p.node_name)).toEqual(["node-0", "node-1"]);

    await t.control.patch(`/_emulator/tables/instances/${nodes[0].id}`, { online: false });
    const dark = (await getService(pinned.service.id)).live;
    expect(dark.pods.map((p: Pod) => [p.node_name, p.phase, p.ready])).toEqual([
      ["node-0", "Unknown", false],
      ["node-1", "Running", true],
    ]);
    expect(dark.available_replicas).toBe(1);
    await t.control.patch(`/_emulator/tables/instances/${nodes[0].id}`, { online: true });

    const node1 = (await t.api.get(`/v1/instances/${nodes[1].id}/k3s`)).body.node.id;
    await settle(await t.api.delete(`${k3s}/nodes/${node1}`));
    expect((await getService(spread.service.id)).live.pods.map((p: Pod) => p.node_name)).toEqual(["node-0", "node-0"]);
    const pinnedPods = (await getService(pinned.service.id)).live.pods;
    expect(pinnedPods.map((p: Pod) => [p.node_name, p.phase])).toEqual([
      ["node-0", "Running"],
      [null, "Pending"],
    ]);
  });
});

describe("delete and list", () => {
  it("deletes DELETING -> removed; a second DELETE while deleting is 409", async () => {
    const nodes = await clusterWithNodes(1);
    const svc = await createService({ target_instances: ids(nodes) });
    await slowWorkflows();
    const res = await t.api.delete(`${services}/${svc.service.id}`);
    expect(res.status).toBe(202);
    expect(res.body.name).toBe("k3s-service-delete");
    const deleting = await getService(svc.service.id);
    expect(deleting.service.status).toBe("DELETING");
    expect(deleting.live).toMatchObject({ desired_replicas: 0, available_replicas: 0, updating: false });
    expect((await t.api.delete(`${services}/${svc.service.id}`)).status).toBe(409);
    await advance(60_000);
    expect((await t.api.get(`${services}/${svc.service.id}`)).status).toBe(404);
  });

  it("filters by q, id, name, mode and status, with page numbers and keyset cursors", async () => {
    const nodes = await clusterWithNodes(1);
    const a = await createService({ name: "alpha-web", target_instances: ids(nodes) });
    await createService({ name: "beta-web", mode: "PINNED", target_instances: ids(nodes) });
    await createService({ name: "gamma-db", target_instances: ids(nodes) });
    await slowWorkflows();
    await t.api.post(`${services}/${a.service.id}/redeploy`);
    const names = async (query: Record<string, string | string[]>) =>
      (await t.api.get(services, { sort: "name", ...query })).body.items.map((s: { service: { name: string } }) => s.service.name);
    expect(await names({})).toEqual(["alpha-web", "beta-web", "gamma-db"]);
    expect(await names({ q: "web" })).toEqual(["alpha-web", "beta-web"]);
    expect(await names({ q: a.service.id })).toEqual(["alpha-web"]);
    expect(await names({ name: "DB" })).toEqual(["gamma-db"]);
    expect(await names({ mode: "PINNED" })).toEqual(["beta-web"]);
    expect(await names({ status: "UPDATING" })).toEqual(["alpha-web"]);
    expect(await names({ id: [a.service.id] })).toEqual(["alpha-web"]);
    expect((await t.api.get(services, { mode: "BOTH" })).status).toBe(400);

    const first = (await t.api.get(services, { sort: "name", limit: 2 })).body;
    expect(first).toMatchObject({ hasNext: true, hasPrevious: false });
    const second = (await t.api.get(services, { sort: "name", limit: 2, after: first.after })).body;
    expect(second.items.map((s: { service: { name: string } }) => s.service.name)).toEqual(["gamma-db"]);
    expect((await t.api.get(services, { sort: "name", limit: 2, page: 2 })).body.items).toEqual(second.items);
    expect((await t.api.get(services, { sort: "name", limit: 2, before: second.before })).body.items).toEqual(first.items);
  });
});

describe("logs", () => {
  async function runningService(replicas = 1) {
    const nodes = await clusterWithNodes(1);
    return createService({ replicas, target_instances: ids(nodes), ports: [{ host_port: 80, container_port: 8080 }] });
  }

  it("returns text/plain lines, the last 100 by default, filtered by tail and since_seconds", async () => {
    const svc = await runningService();
    const logs = `${services}/${svc.service.id}/logs`;
    await advance(600_000); // ten minutes: 121 lines at one per five seconds
    const all = await t.api.get(logs);
    expect(all.status).toBe(200);
    expect(all.headers.get("content-type")).toContain("text/plain");
    const lines = all.text.trimEnd().split("\n");
    expect(lines).toHaveLength(100);
    for (const line of lines) expect(line).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z \[(info|debug)\] /);

    const tail = (await t.api.get(logs, { tail: 3, since_seconds: 0 })).text.trimEnd().split("\n");
    expect(tail).toEqual(lines.slice(-3));
    const head = (await t.api.get(logs, { tail: 1000 })).text.trimEnd().split("\n");
    expect(head[0]).toContain("[info] starting nginx:1.27");
    expect(head[2]).toContain("listening on 0.0.0.0:8080/tcp");
    expect(head).toHaveLength(121);

    const cut = Math.ceil(Date.parse(head[110].slice(0, 24)) / 1000); // lines strictly newer than this second
    expect((await t.api.get(logs, { since_seconds: cut })).text.trimEnd().split("\n")).toEqual(head.slice(111));
    expect((await t.api.get(logs, { tail: 0 })).text).toBe("");
  });

  it("selects a pod with pod_index (400 when out of range) and validates the query", async () => {
    const svc = await runningService(2);
    const logs = `${services}/${svc.service.id}/logs`;
    await advance(30_000);
    expect((await t.api.get(logs, { pod_index: 1 })).text).toContain(`pod=${svc.live.pods[1].name}`);
    expect((await t.api.get(logs)).text).toContain(`pod=${svc.live.pods[0].name}`);
    const out = await t.api.get(logs, { pod_index: 2 });
    expect(out.status).toBe(400);
    expect(out.message).toContain("pod_index 2 is out of range");
    expect((await t.api.get(logs, { tail: -1 })).status).toBe(400);
    expect((await t.api.get(logs, { tail: "many" })).status).toBe(400);
    expect((await t.api.get(logs, { follow: "maybe" })).status).toBe(400);
    expect((await t.api.get(`${services}/12345/logs`)).status).toBe(404);
  });

  it("follows as server-sent events, streaming new lines and ending when the service is deleted", async () => {
    const svc = await runningService();
    const url = new URL(`${services}/${svc.service.id}/logs?follow&tail=2`, t.emu.url);
    await advance(60_000);
    const res = await fetch(url, { headers: { authorization: `Bearer ${t.emu.token}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = "";
    const readUntil = async (done: (s: string) => boolean) => {
      const deadline = Date.now() + 5_000;
      while (!done(text)) {
        if (Date.now() > deadline) throw new Error(`stream did not deliver in time: ${text}`);
        const chunk = await reader.read();
        if (chunk.done) break;
        text += decoder.decode(chunk.value);
      }
    };
    await readUntil((s) => (s.match(/^data: /gm) ?? []).length >= 2);
    expect(text).toMatch(/^id: 11\ndata: .*\n\nid: 12\ndata: .*\n\n$/);

    await advance(10_000); // two more lines on the emulator clock
    await readUntil((s) => s.includes("id: 14\n"));
    expect((text.match(/^data: /gm) ?? []).length).toBe(4);

    await settle(await t.api.delete(`${services}/${svc.service.id}`));
    await sleep(50);
    await readUntil((s) => s.includes("event: end"));
    expect(text).toContain("event: end\ndata: service deleted\n\n");
    expect((await reader.read()).done).toBe(true);
  });
});

describe("access", () => {
  it("lets a VIEWER read services and logs but not change them (403); strangers get 404", async () => {
    const nodes = await clusterWithNodes(1);
    const svc = await createService({ target_instances: ids(nodes) });
    const viewer = makeUser(t, { role: "VIEWER" });
    expect((await viewer.api.get(`${services}/${svc.service.id}`)).status).toBe(200);
    expect((await viewer.api.get(`${services}/${svc.service.id}/logs`)).status).toBe(200);
    for (const res of [
      await viewer.api.post(`${services}/${svc.service.id}/redeploy`),
      await viewer.api.delete(`${services}/${svc.service.id}`),
      await viewer.api.post(services, body({ name: "x", target_instances: ids(nodes) })),
    ]) {
      expect(res.status).toBe(403);
      expect(res.text).toBe("");
    }
    const stranger = makeUser(t);
    expect((await stranger.api.get(`${services}/${svc.service.id}`)).status).toBe(404);
    expect((await stranger.api.get(services)).status).toBe(404);
    expect((await t.anon.get(services)).status).toBe(403);
  });
});
