/**
 * Part 2 Apps (custom images): create, detail with live data, PATCH redeploy, start/stop/restart,
 * delete, lists with filters and paging, metrics, authorization and cross-area hooks.
 */
import { fireHook } from "../src/core/hooks";
import { useTestEmulator, type TestEmulator } from "../src/testing";
import {
  makeForeignWorkspace,
  makeInstance,
  makeMember,
  MISSING_BIG_ID,
  resourceToken,
  restrictedToken,
  type InstanceFixture,
} from "./apps";

let t: TestEmulator;

// Long enough that a state read right after a request still sees PENDING/DELETING.
useTestEmulator((started) => (t = started), { workflowMs: 150 });

const web = (host_port = 8080, extra: Record<string, unknown> = {}) => ({
  name: `web-${host_port}`,
  image: "nginx:1.27",
  environment: { MODE: "production" },
  mounts: [{ host_path: "/srv/www", container_path: "/usr/share/nginx/html", read_only: true }],
  ports: [{ host_port, container_port: 80, protocol: "TCP", http: true }],
  ...extra,
});

async function deploy(fx: InstanceFixture, body: Record<string, unknown> = web()) {
  const res = await t.api.post(`/v1/instances/${fx.instance.id}/apps`, body);
  expect(res.status).toBe(201);
  expect(await t.waitWorkflow(res.body.workflow.id)).toBe("COMPLETED");
  return (await t.api.get(`/v1/apps/${res.body.resource.id}`)).body;
}

async function advanceClock(ms: number) {
  await t.control.post("/_emulator/clock", { advanceMs: ms });
}

describe("create", () => {
  test("answers 201 with the workflow and a PENDING app that settles at AVAILABLE with a running container", async () => {
    const fx = makeInstance(t);
    const res = await t.api.post(`/v1/instances/${fx.instance.id}/apps`, web(8080, { domain: "shop.example.com" }));
    expect(res.status).toBe(201);
    expect(res.body.workflow).toMatchObject({ name: "deploy-app", state: "QUEUED" });
    const app = res.body.resource;
    expect(app).toMatchObject({
      name: "web-8080",
      image: "nginx:1.27",
      environment: { MODE: "production" },
      mounts: [{ host_path: "/srv/www", container_path: "/usr/share/nginx/html", read_only: true }],
      ports: [{ host_port: 8080, container_port: 80, protocol: "TCP", http: true }],
      domain: "shop.example.com",
      state: "PENDING",
      running: false,
      template_id: null,
      owner: { id: t.workspaceId },
      instance: { id: fx.instance.id, name: fx.instance.name },
      live: { container_id: null, statistics: null, ports: [{ host_port: 8080, container_port: 80, protocol: "TCP", http: true }] },
    });
    expect(BigInt(app.id) > 2n ** 53n).toBe(true);
    expect(t.emu.services.store.t.apps.get(app.id)?.name).toBe("web-8080");

    expect(await t.waitWorkflow(res.body.workflow.id)).toBe("COMPLETED");
    const detail = (await t.api.get(`/v1/apps/${app.id}`)).body;
    expect(detail.state).toBe("AVAILABLE");
    expect(detail.running).toBe(true);
    expect(detail.live.container_id).toMatch(/^[0-9a-f]{64}$/);
    expect(detail.live.statistics).toMatchObject({ container_id: detail.live.container_id, network_rx: 0, network_tx: 0 });
    expect(detail.live.statistics.cpu).toBeGreaterThan(0);
    expect(detail.live.statistics.memory).toBeGreaterThan(0);
  });

  test("defaults: environment {}, mounts [], ports [], protocol TCP, http false, read_only false, domain null", async () => {
    const fx = makeInstance(t);
    const res = await t.api.post(`/v1/instances/${fx.instance.id}/apps`, {
      name: "worker",
      image: "ghcr.io/acme/worker:v2.1.0",
      mounts: [{ host_path: "/data", container_path: "/data" }],
      ports: [{ host_port: 9000, container_port: 9000 }],
    });
    expect(res.status).toBe(201);
    expect(res.body.resource).toMatchObject({
      environment: {},
      domain: null,
      mounts: [{ host_path: "/data", container_path: "/data", read_only: false }],
      ports: [{ host_port: 9000, container_port: 9000, protocol: "TCP", http: false }],
    });
  });

  test.each([
    ["name missing", { image: "nginx:1.27" }, /name/],
    ["image without a tag", { name: "a", image: "nginx" }, /image: must be a container image reference with a tag/],
    ["image with an empty tag", { name: "a", image: "nginx:" }, /image/],
    [
      "relative host path",
      { name: "a", image: "nginx:1", mounts: [{ host_path: "data", container_path: "/data" }] },
      /mounts\[0\]\.host_path: must be an absolute path/,
    ],
    [
      "relative container path",
      { name: "a", image: "nginx:1", mounts: [{ host_path: "/data", container_path: "data" }] },
      /mounts\[0\]\.container_path/,
    ],
    [
      "unknown protocol",
      { name: "a", image: "nginx:1", ports: [{ host_port: 1, container_port: 1, protocol: "SCTP" }] },
      /ports\[0\]\.protocol/,
    ],
    ["host port out of range", { name: "a", image: "nginx:1", ports: [{ host_port: 70000, container_port: 1 }] }, /ports\[0\]\.host_port/],
    ["environment not an object", { name: "a", image: "nginx:1", environment: ["A=1"] }, /environment/],
    ["environment value not a string", { name: "a", image: "nginx:1", environment: { A: 1 } }, /environment\.A/],
    [
      "domain without an http port",
      { name: "a", image: "nginx:1", domain: "a.example.com", ports: [{ host_port: 81, container_port: 80 }] },
      /domain: a domain needs at least one port with http true/,
    ],
    [
      "domain that is not a domain",
      { name: "a", image: "nginx:1", domain: "not a domain", ports: [{ host_port: 81, container_port: 80, http: true }] },
      /domain/,
    ],
    [
      "the same host port twice",
      {
        name: "a",
        image: "nginx:1",
        ports: [
          { host_port: 81, container_port: 80 },
          { host_port: 81, container_port: 90 },
        ],
      },
      /ports\[1\]\.host_port: host port 81\/TCP is mapped twice/,
    ],
  ])("400 for %s", async (_label, body, message) => {
    const fx = makeInstance(t);
    const res = await t.api.post(`/v1/instances/${fx.instance.id}/apps`, body);
    expect(res.status).toBe(400);
    expect(res.message).toMatch(message);
    expect(res.body.errors.length).toBeGreaterThan(0);
  });

  test("the same port number may be used once per protocol", async () => {
    const fx = makeInstance(t);
    const res = await t.api.post(`/v1/instances/${fx.instance.id}/apps`, {
      name: "dns",
      image: "coredns/coredns:1.11.3",
      ports: [
        { host_port: 53, container_port: 53, protocol: "TCP" },
        { host_port: 53, container_port: 53, protocol: "UDP" },
      ],
    });
    expect(res.status).toBe(201);
  });

  test("409 for a name already used in the workspace, even on another instance", async () => {
    const a = makeInstance(t);
    const b = makeInstance(t);
    await deploy(a, web(8080));
    const res = await t.api.post(`/v1/instances/${b.instance.id}/apps`, web(9090, { name: "web-8080" }));
    expect(res.status).toBe(409);
    expect(res.message).toMatch(/already exists/);
  });

  test("409 for a host port already allocated on the instance; another instance is free", async () => {
    const a = makeInstance(t);
    const b = makeInstance(t);
    await deploy(a, web(8080));
    const clash = await t.api.post(`/v1/instances/${a.instance.id}/apps`, web(8080, { name: "other" }));
    expect(clash.status).toBe(409);
    expect(clash.message).toMatch(/Host port 8080\/TCP is already allocated/);
    expect((await t.api.post(`/v1/instances/${b.instance.id}/apps`, web(8080, { name: "other" }))).status).toBe(201);
  });

  test("409 when the instance is not AVAILABLE", async () => {
    const fx = makeInstance(t, { state: "SUSPENDED" });
    const res = await t.api.post(`/v1/instances/${fx.instance.id}/apps`, web());
    expect(res.status).toBe(409);
    expect(res.message).toMatch(/Instance is SUSPENDED/);
  });

  test("404 for an unknown instance (a big identifier) and 400 for a malformed one", async () => {
    expect((await t.api.post(`/v1/instances/${MISSING_BIG_ID}/apps`, web())).status).toBe(404);
    const bad = await t.api.post(`/v1/instances/abc/apps`, web());
    expect(bad.status).toBe(400);
    expect(bad.message).toMatch(/iid must be an integer/);
  });

  test("a failed deploy workflow leaves the app FAILED", async () => {
    const fx = makeInstance(t);
    await t.control.post("/_emulator/faults", {
      kind: "workflow",
      outcome: "FAILED",
      method: "POST",
      path: "/v1/instances/*/apps",
      times: 1,
    });
    const res = await t.api.post(`/v1/instances/${fx.instance.id}/apps`, web());
    expect(await t.waitWorkflow(res.body.workflow.id)).toBe("FAILED");
    const app = (await t.api.get(`/v1/apps/${res.body.resource.id}`)).body;
    expect(app.state).toBe("FAILED");
    expect(app.live.statistics).toBeNull();
  });
});

describe("authorization", () => {
  test("no token 403; VIEWER reads but cannot create (403); EDITOR creates", async () => {
    const fx = makeInstance(t);
    const app = await deploy(fx);
    const none = await t.anon.get(`/v1/apps/${app.id}`);
    expect(none.status).toBe(403);
    expect(none.text).toBe("");
    const viewer = makeMember(t, "VIEWER");
    expect((await viewer.get(`/v1/apps/${app.id}`)).status).toBe(200);
    expect((await viewer.get(`/v1/workspaces/${t.workspaceId}/apps`)).status).toBe(200);
    const denied = await viewer.post(`/v1/instances/${fx.instance.id}/apps`, web(9000, { name: "v" }));
    expect(denied.status).toBe(403);
    expect(denied.message).toMatch(/EDITOR/);
    expect((await viewer.post(`/v1/apps/${app.id}/stop`)).status).toBe(403);
    expect((await viewer.delete(`/v1/apps/${app.id}`)).status).toBe(403);
    const editor = makeMember(t, "EDITOR");
    expect((await editor.post(`/v1/instances/${fx.instance.id}/apps`, web(9000, { name: "e" }))).status).toBe(201);
  });

  test("grants: READ on APP reads but cannot write; no APP grant cannot read", async () => {
    const fx = makeInstance(t);
    const app = await deploy(fx);
    const reader = restrictedToken(t, { APP: "READ" });
    expect((await reader.get(`/v1/apps/${app.id}`)).status).toBe(200);
    const write = await reader.patch(`/v1/apps/${app.id}`, { image: "nginx:1.28" });
    expect(write.status).toBe(403);
    expect(write.message).toMatch(/WRITE permission on APP/);
    const none = restrictedToken(t, { INSTANCE: "WRITE" });
    expect((await none.get(`/v1/apps/${app.id}`)).status).toBe(403);
  });

  test("another workspace's instance and app answer 404", async () => {
    const foreign = makeForeignWorkspace(t);
    const fx = makeInstance(t, { workspaceId: foreign.workspaceId });
    const created = await foreign.owner.post(`/v1/instances/${fx.instance.id}/apps`, web());
    expect(created.status).toBe(201);
    expect((await t.api.post(`/v1/instances/${fx.instance.id}/apps`, web())).status).toBe(404);
    expect((await t.api.get(`/v1/apps/${created.body.resource.id}`)).status).toBe(404);
    expect((await t.api.get(`/v1/instances/${fx.instance.id}/apps`)).status).toBe(404);
    expect((await t.api.get(`/v1/workspaces/${foreign.workspaceId}/apps`)).status).toBe(404);
  });

  test("a resource token reaches its own app only", async () => {
    const fx = makeInstance(t);
    const mine = await deploy(fx, web(8080));
    const other = await deploy(fx, web(8081));
    const token = resourceToken(t, "APP", mine.id);
    expect((await token.get(`/v1/apps/${mine.id}`)).status).toBe(200);
    expect((await token.post(`/v1/apps/${mine.id}/restart`)).status).toBe(202);
    expect((await token.get(`/v1/apps/${other.id}`)).status).toBe(404);
  });
});

describe("PATCH redeploys", () => {
  test("given fields replace the old values, others stay; PENDING then AVAILABLE with a new container", async () => {
    const fx = makeInstance(t);
    const app = await deploy(fx);
    const res = await t.api.patch(`/v1/apps/${app.id}`, { image: "nginx:1.28", environment: { MODE: "staging", DEBUG: "1" } });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ name: "deploy-app", state: "QUEUED" });
    expect((await t.api.get(`/v1/apps/${app.id}`)).body.state).toBe("PENDING");
    expect(await t.waitWorkflow(res.body.id)).toBe("COMPLETED");
    const after = (await t.api.get(`/v1/apps/${app.id}`)).body;
    expect(after).toMatchObject({
      state: "AVAILABLE",
      image: "nginx:1.28",
      environment: { MODE: "staging", DEBUG: "1" },
      mounts: app.mounts,
      ports: app.ports,
      running: true,
    });
    expect(after.live.container_id).not.toBe(app.live.container_id);
  });

  test("ports replace the allocation: the old host port is freed, a taken one is 409", async () => {
    const fx = makeInstance(t);
    const a = await deploy(fx, web(8080));
    await deploy(fx, web(8081));
    const clash = await t.api.patch(`/v1/apps/${a.id}`, { ports: [{ host_port: 8081, container_port: 80, http: true }] });
    expect(clash.status).toBe(409);
    const moved = await t.api.patch(`/v1/apps/${a.id}`, { ports: [{ host_port: 8082, container_port: 80, http: true }] });
    expect(moved.status).toBe(202);
    await t.waitWorkflow(moved.body.id);
    expect((await t.api.post(`/v1/instances/${fx.instance.id}/apps`, web(8080, { name: "reuse" }))).status).toBe(201);
  });

  test("400 for null fields, an untagged image, or dropping the http port of an app with a domain", async () => {
    const fx = makeInstance(t);
    const app = await deploy(fx, web(8080, { domain: "a.example.com" }));
    const nulled = await t.api.patch(`/v1/apps/${app.id}`, { image: null });
    expect(nulled.status).toBe(400);
    expect(nulled.message).toMatch(/image/);
    expect((await t.api.patch(`/v1/apps/${app.id}`, { image: "nginx" })).status).toBe(400);
    const noHttp = await t.api.patch(`/v1/apps/${app.id}`, { ports: [{ host_port: 8080, container_port: 80 }] });
    expect(noHttp.status).toBe(400);
    expect(noHttp.message).toMatch(/domain/);
  });

  test("409 while another operation is in flight", async () => {
    const fx = makeInstance(t);
    await t.control.post("/_emulator/faults", { kind: "stuck", method: "POST", path: "/v1/instances/*/apps", times: 1 });
    const created = await t.api.post(`/v1/instances/${fx.instance.id}/apps`, web());
    const res = await t.api.patch(`/v1/apps/${created.body.resource.id}`, { image: "nginx:1.28" });
    expect(res.status).toBe(409);
    expect(res.message).toMatch(/PENDING/);
  });

  test("a stopped app stays stopped after a redeploy", async () => {
    const fx = makeInstance(t);
    const app = await deploy(fx);
    await t.waitWorkflow((await t.api.post(`/v1/apps/${app.id}/stop`)).body.id);
    await t.waitWorkflow((await t.api.patch(`/v1/apps/${app.id}`, { image: "nginx:1.28" })).body.id);
    const after = (await t.api.get(`/v1/apps/${app.id}`)).body;
    expect(after).toMatchObject({ state: "AVAILABLE", running: false, image: "nginx:1.28" });
    expect(after.live.statistics).toBeNull();
  });
});

describe("start, stop, restart", () => {
  test("stop clears live statistics, start brings them back, each through PENDING", async () => {
    const fx = makeInstance(t);
    const app = await deploy(fx);
    const stop = await t.api.post(`/v1/apps/${app.id}/stop`);
    expect(stop.status).toBe(202);
    expect(stop.body.name).toBe("stop-app");
    expect((await t.api.get(`/v1/apps/${app.id}`)).body.state).toBe("PENDING");
    expect(await t.waitWorkflow(stop.body.id)).toBe("COMPLETED");
    const stopped = (await t.api.get(`/v1/apps/${app.id}`)).body;
    expect(stopped).toMatchObject({ state: "AVAILABLE", running: false, live: { statistics: null, container_id: app.live.container_id } });

    const start = await t.api.post(`/v1/apps/${app.id}/start`);
    expect(start.body.name).toBe("start-app");
    await t.waitWorkflow(start.body.id);
    const started = (await t.api.get(`/v1/apps/${app.id}`)).body;
    expect(started).toMatchObject({ state: "AVAILABLE", running: true });
    expect(started.live.statistics).not.toBeNull();
  });

  test("restart starts a new run: the network series read 0 again for the first 60 seconds", async () => {
    const fx = makeInstance(t);
    const app = await deploy(fx);
    await advanceClock(120_000);
    const warm = (await t.api.get(`/v1/apps/${app.id}`)).body.live.statistics;
    expect(warm.network_rx).toBeGreaterThan(0);
    expect(warm.network_tx).toBeGreaterThan(0);
    expect(warm.uptime_seconds).toBeGreaterThanOrEqual(120);
    const restart = await t.api.post(`/v1/apps/${app.id}/restart`);
    expect(restart.body.name).toBe("restart-app");
    await t.waitWorkflow(restart.body.id);
    const cold = (await t.api.get(`/v1/apps/${app.id}`)).body.live.statistics;
    expect(cold).toMatchObject({ network_rx: 0, network_tx: 0 });
    expect(cold.uptime_seconds).toBeLessThan(60);
    await advanceClock(61_000);
    expect((await t.api.get(`/v1/apps/${app.id}`)).body.live.statistics.network_rx).toBeGreaterThan(0);
  });

  test("409 before the first deploy has completed, and while DELETING", async () => {
    const fx = makeInstance(t);
    await t.control.post("/_emulator/faults", { kind: "stuck", method: "POST", path: "/v1/instances/*/apps", times: 1 });
    const pending = await t.api.post(`/v1/instances/${fx.instance.id}/apps`, web(8080));
    const early = await t.api.post(`/v1/apps/${pending.body.resource.id}/start`);
    expect(early.status).toBe(409);
    expect(early.message).toMatch(/App is PENDING/);
    const app = await deploy(fx, web(8081));
    await t.control.post("/_emulator/faults", { kind: "stuck", method: "DELETE", path: "/v1/apps/*", times: 1 });
    await t.api.delete(`/v1/apps/${app.id}`);
    const late = await t.api.post(`/v1/apps/${app.id}/restart`);
    expect(late.status).toBe(409);
    expect(late.message).toMatch(/App is DELETING/);
    // A stuck deploy does not block the delete.
    expect((await t.api.delete(`/v1/apps/${pending.body.resource.id}`)).status).toBe(202);
  });

  test("an app whose first deploy failed has no container: start is 409 not deployed", async () => {
    const fx = makeInstance(t);
    await t.control.post("/_emulator/faults", {
      kind: "workflow",
      outcome: "FAILED",
      method: "POST",
      path: "/v1/instances/*/apps",
      times: 1,
    });
    const created = await t.api.post(`/v1/instances/${fx.instance.id}/apps`, web());
    await t.waitWorkflow(created.body.workflow.id);
    const res = await t.api.post(`/v1/apps/${created.body.resource.id}/start`);
    expect(res.status).toBe(409);
    expect(res.message).toMatch(/not been deployed/);
  });
});

describe("delete", () => {
  test("DELETING, then gone with its port allocations; inventory tracks it", async () => {
    const fx = makeInstance(t);
    const app = await deploy(fx, web(8080));
    const inv = (await t.control.get("/_emulator/inventory")).body;
    expect(inv.resources.apps).toEqual([{ id: app.id, name: app.name, workspaceId: t.workspaceId, state: "AVAILABLE" }]);
    const res = await t.api.delete(`/v1/apps/${app.id}`);
    expect(res.status).toBe(202);
    expect(res.body.name).toBe("delete-app");
    expect((await t.api.get(`/v1/apps/${app.id}`)).body.state).toBe("DELETING");
    expect((await t.api.delete(`/v1/apps/${app.id}`)).status).toBe(409);
    expect(await t.waitWorkflow(res.body.id)).toBe("COMPLETED");
    expect((await t.api.get(`/v1/apps/${app.id}`)).status).toBe(404);
    expect((await t.control.get("/_emulator/inventory")).body.resources.apps).toEqual([]);
    expect((await t.api.post(`/v1/instances/${fx.instance.id}/apps`, web(8080))).status).toBe(201);
  });

  test("an instance.deleted event removes the instance's apps and frees the name", async () => {
    const fx = makeInstance(t);
    const other = makeInstance(t);
    const app = await deploy(fx, web(8080));
    const kept = await deploy(other, web(8081));
    fireHook(t.emu.services, "instance.deleted", { instanceId: fx.instance.id, workspaceId: t.workspaceId });
    expect((await t.api.get(`/v1/apps/${app.id}`)).status).toBe(404);
    expect((await t.api.get(`/v1/apps/${kept.id}`)).status).toBe(200);
    expect((await t.api.post(`/v1/instances/${other.instance.id}/apps`, web(8080))).status).toBe(201);
  });

  test("an instance going offline nulls statistics; back online the containers start a new run", async () => {
    const fx = makeInstance(t);
    const app = await deploy(fx);
    await advanceClock(90_000);
    t.emu.services.store.t.instances.update(fx.instance.id, { online: false });
    fireHook(t.emu.services, "instance.power", { instanceId: fx.instance.id, online: false });
    expect((await t.api.get(`/v1/apps/${app.id}`)).body.live.statistics).toBeNull();
    t.emu.services.store.t.instances.update(fx.instance.id, { online: true });
    fireHook(t.emu.services, "instance.power", { instanceId: fx.instance.id, online: true });
    const stats = (await t.api.get(`/v1/apps/${app.id}`)).body.live.statistics;
    expect(stats).toMatchObject({ network_rx: 0, network_tx: 0 });
    expect(stats.uptime_seconds).toBeLessThan(5);
  });
});

describe("lists", () => {
  async function three(fx: InstanceFixture) {
    const ids: string[] = [];
    for (const [i, image] of ["nginx:1.27", "redis:7.4", "postgres:16.4"].entries()) {
      const res = await t.api.post(`/v1/instances/${fx.instance.id}/apps`, {
        name: `app-${i}`,
        image,
        ports: [{ host_port: 7000 + i, container_port: 80 }],
      });
      ids.push(res.body.resource.id);
      await advanceClock(1000);
    }
    return ids;
  }

  test("newest first, with live data; filters q, name, image, state and instance", async () => {
    const a = makeInstance(t);
    const b = makeInstance(t);
    const ids = await three(a);
    const onB = (await t.api.post(`/v1/instances/${b.instance.id}/apps`, { name: "on-b", image: "nginx:1.27" })).body.resource.id;
    await advanceClock(1000);
    // app-0 stays DELETING (its delete workflow never ends), the others settle AVAILABLE.
    await t.control.post("/_emulator/faults", { kind: "stuck", method: "DELETE", path: "/v1/apps/*" });
    await t.api.delete(`/v1/apps/${ids[0]}`);
    const list = (await t.api.get(`/v1/workspaces/${t.workspaceId}/apps`)).body;
    expect(list.items.map((x: { id: string }) => x.id)).toEqual([onB, ids[2], ids[1], ids[0]]);
    expect(list.items[0].live).toHaveProperty("statistics");
    const names = async (query: Record<string, string | string[]>, path = `/v1/workspaces/${t.workspaceId}/apps`) =>
      (await t.api.get(path, query)).body.items.map((x: { name: string }) => x.name).sort();
    expect(await names({ q: "redis" })).toEqual(["app-1"]);
    expect(await names({ q: ids[2] })).toEqual(["app-2"]);
    expect(await names({ name: "APP-" })).toEqual(["app-0", "app-1", "app-2"]);
    expect(await names({ image: "nginx" })).toEqual(["app-0", "on-b"]);
    expect(await names({ instance: b.instance.id })).toEqual(["on-b"]);
    expect(await names({ state: "DELETING" })).toEqual(["app-0"]);
    expect(await names({ state: ["AVAILABLE", "FAILED"] })).toEqual(["app-1", "app-2", "on-b"]);
    expect(await names({ state: "PENDING" })).toEqual([]);
    expect(await names({}, `/v1/instances/${a.instance.id}/apps`)).toEqual(["app-0", "app-1", "app-2"]);
    expect(await names({ image: "redis" }, `/v1/instances/${a.instance.id}/apps`)).toEqual(["app-1"]);
    const bad = await t.api.get(`/v1/workspaces/${t.workspaceId}/apps`, { state: "ASLEEP" });
    expect(bad.status).toBe(400);
    expect(bad.message).toMatch(/state must be one of/);
  });

  test("page numbers and keyset cursors", async () => {
    const fx = makeInstance(t);
    const ids = await three(fx);
    const path = `/v1/instances/${fx.instance.id}/apps`;
    const first = (await t.api.get(path, { limit: 2 })).body;
    expect(first.items.map((x: { id: string }) => x.id)).toEqual([ids[2], ids[1]]);
    expect(first).toMatchObject({ hasNext: true, hasPrevious: false, before: null });
    const second = (await t.api.get(path, { limit: 2, after: first.after })).body;
    expect(second.items.map((x: { id: string }) => x.id)).toEqual([ids[0]]);
    expect(second).toMatchObject({ hasNext: false, hasPrevious: true, after: null });
    const back = (await t.api.get(path, { limit: 2, before: second.before })).body;
    expect(back.items.map((x: { id: string }) => x.id)).toEqual([ids[2], ids[1]]);
    const page2 = (await t.api.get(path, { limit: 2, page: 2 })).body;
    expect(page2.items.map((x: { id: string }) => x.id)).toEqual([ids[0]]);
    const byName = (await t.api.get(path, { sort: "name", dir: "asc" })).body;
    expect(byName.items.map((x: { name: string }) => x.name)).toEqual(["app-0", "app-1", "app-2"]);
  });
});

describe("metrics", () => {
  test("four series; network 0 for the first 60 s of a run, zeros before it; no points in the future", async () => {
    const fx = makeInstance(t);
    const app = await deploy(fx);
    const startedMs = Date.parse(app.live.statistics.started);
    await advanceClock(200_000);
    const start = Math.floor(startedMs / 1000) - 30;
    const res = await t.api.get(`/v1/apps/${app.id}/metrics`, { start, end: start + 600, step: 15 });
    expect(res.status).toBe(200);
    const m = res.body;
    expect(Object.keys(m).sort()).toEqual(["cpu", "end", "memory", "network_rx", "network_tx", "start", "step"]);
    const nowSec = Math.floor(t.emu.services.clock.now() / 1000);
    expect(m.cpu.length).toBe(Math.floor((Math.min(start + 600, nowSec) - start) / 15) + 1);
    m.cpu.forEach((point: { time: number; value: number }, i: number) => {
      const ms = point.time * 1000;
      const rx = m.network_rx[i].value;
      const tx = m.network_tx[i].value;
      expect(m.memory[i].time).toBe(point.time);
      if (ms < startedMs) {
        expect([point.value, m.memory[i].value, rx, tx]).toEqual([0, 0, 0, 0]);
      } else if (ms - startedMs < 60_000) {
        expect(point.value).toBeGreaterThan(0);
        expect([rx, tx]).toEqual([0, 0]);
      } else {
        expect(point.value).toBeGreaterThan(0);
        expect(rx).toBeGreaterThan(0);
        expect(tx).toBeGreaterThan(0);
      }
    });
    expect(m.cpu.some((p: { time: number }) => p.time * 1000 - startedMs >= 60_000)).toBe(true);
  });

  test("a stopped container reads zeros from the moment it stopped", async () => {
    const fx = makeInstance(t);
    const app = await deploy(fx);
    await advanceClock(100_000);
    await t.waitWorkflow((await t.api.post(`/v1/apps/${app.id}/stop`)).body.id);
    const stoppedSec = Math.ceil(t.emu.services.clock.now() / 1000) + 1;
    await advanceClock(100_000);
    const m = (await t.api.get(`/v1/apps/${app.id}/metrics`, { start: stoppedSec, end: stoppedSec + 90, step: 15 })).body;
    expect(m.cpu.length).toBe(7);
    expect(m.cpu.every((p: { value: number }) => p.value === 0)).toBe(true);
    expect(m.network_rx.every((p: { value: number }) => p.value === 0)).toBe(true);
  });

  test.each([
    [{ end: 100, step: 15 }, /start is required/],
    [{ start: 0, step: 15 }, /end is required/],
    [{ start: 0, end: 100 }, /step is required/],
    [{ start: 0, end: 100, step: 14 }, /step must be at least 15/],
    [{ start: 200, end: 100, step: 15 }, /end must not be before start/],
    [{ start: "x", end: 100, step: 15 }, /start must be an integer/],
    [{ start: 0, end: 10_000_000, step: 15 }, /at most 10000 points/],
  ])("400 for %j", async (query, message) => {
    const fx = makeInstance(t);
    const app = await deploy(fx);
    const res = await t.api.get(`/v1/apps/${app.id}/metrics`, query as Record<string, number>);
    expect(res.status).toBe(400);
    expect(res.message).toMatch(message);
  });
});

describe("with the instances area", () => {
  test("an app on a real instance: addresses from its floating IPs, stopped with its power, removed with it", async () => {
    const plan = (await t.api.get("/v1/plans")).body.items.find((p: { disabled: boolean }) => !p.disabled);
    const created = await t.api.post(`/v1/workspaces/${t.workspaceId}/instances`, {
      type: "PLAN",
      name: "app-host",
      region: "NA_01",
      plan: BigInt(plan.id),
    });
    expect(created.status).toBe(202);
    const iid = created.body.resource.id as string;
    expect(await t.waitWorkflow(created.body.workflow.id)).toBe("COMPLETED");
    const ip4 = t.emu.services.store.t.floatingIps.find((ip) => ip.instanceId === iid && ip.family === "IPv4")!.address;

    const templateId = (await t.api.get("/v1/app-templates", { name: "Uptime Kuma" })).body.items[0].id;
    const res = await t.api.post(`/v1/instances/${iid}/apps/from-template`, { template_id: templateId, name: "kuma" });
    expect(res.status).toBe(201);
    expect(res.body.resource.environment.PUBLIC_URL).toBe(`http://${ip4}:3001`);
    await t.waitWorkflow(res.body.workflow.id);
    const appId = res.body.resource.id as string;
    expect((await t.api.get(`/v1/apps/${appId}`)).body.live.statistics).not.toBeNull();

    const off = await t.api.post(`/v1/instances/${iid}/power`, { action: "POWER_OFF" });
    expect(off.status).toBe(202);
    await t.waitWorkflow(off.body.id);
    expect((await t.api.get(`/v1/apps/${appId}`)).body.live.statistics).toBeNull();

    const del = await t.api.delete(`/v1/instances/${iid}`);
    expect(del.status).toBe(202);
    expect(await t.waitWorkflow(del.body.id)).toBe("COMPLETED");
    expect((await t.api.get(`/v1/apps/${appId}`)).status).toBe(404);
    expect((await t.control.get("/_emulator/inventory")).body.resources.apps).toEqual([]);
  });
});
