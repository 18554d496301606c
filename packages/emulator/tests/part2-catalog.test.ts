/**
 * Part 2 Plans and nodes: keyset-paged plan list with its filters, plan detail with io_limits,
 * the administrator node list, node detail, and the workspace node list (private cloud only).
 */
import { useTestEmulator, type TestEmulator } from "../src/testing";
import { member, newUser, nodeId, otherWorkspace, planId } from "./compute";

let t: TestEmulator;

useTestEmulator((started) => (t = started), {}, { resetEachTest: false });

const names = (body: { items: Array<{ name: string }> }) => body.items.map((i) => i.name);
const privateCloudId = () => t.emu.services.store.t.workspaces.find((w) => w.privateCloud)!.id;

describe("plans", () => {
  test("list: enabled plans by default, every field, any valid token", async () => {
    const res = await t.api.get("/v1/plans", { sort: "name" });
    expect(res.status).toBe(200);
    expect(names(res.body)).toEqual(["dedicated-16", "lightning-1", "lightning-2", "lightning-4", "ryzen-2", "ryzen-8"]);
    const l2 = res.body.items.find((p: { name: string }) => p.name === "lightning-2");
    expect(l2).toEqual({
      id: String(planId(t, "lightning-2")),
      name: "lightning-2",
      group: "LIGHTNING",
      cpu: 2,
      memory: 4 * 1024 ** 3,
      disk_size: 50 * 1024 ** 3,
      upload: 200_000_000,
      download: 200_000_000,
      rate: 18_000,
      disabled: false,
      backup_plan: { id: expect.any(String), name: "daily-7" },
    });
    expect(res.body.items.find((p: { name: string }) => p.name === "lightning-1").backup_plan).toBeNull();
    expect((await newUser(t).api.get("/v1/plans")).status).toBe(200);
    expect((await t.anon.get("/v1/plans")).status).toBe(403);
    expect((await t.api.as("svc_not_a_token").get("/v1/plans")).status).toBe(401);
  });

  test("filters: disabled, group, rate, name, q, id", async () => {
    const q = async (query: Record<string, string | number | boolean | string[]>) =>
      names((await t.api.get("/v1/plans", { sort: "name", ...query })).body);
    expect(await q({ disabled: true })).toEqual([
      "dedicated-16",
      "dedicated-64",
      "lightning-1",
      "lightning-2",
      "lightning-4",
      "lightning-legacy",
      "ryzen-2",
      "ryzen-8",
    ]);
    expect(await q({ disabled: false, group: "DEDICATED" })).toEqual(["dedicated-16"]);
    expect(await q({ group: "RYZEN" })).toEqual(["ryzen-2", "ryzen-8"]);
    expect(await q({ rate: 18_000 })).toEqual(["lightning-1", "lightning-2"]);
    expect(await q({ rate: 18_000, disabled: true })).toEqual(["lightning-1", "lightning-2", "lightning-legacy"]);
    expect(await q({ name: "LIGHT" })).toEqual(["lightning-1", "lightning-2", "lightning-4"]);
    expect(await q({ q: "ryzen-8" })).toEqual(["ryzen-8"]);
    expect(await q({ q: String(planId(t, "lightning-4")) })).toEqual(["lightning-4"]);
    expect(await q({ id: [String(planId(t, "ryzen-2")), String(planId(t, "lightning-legacy"))], disabled: true })).toEqual([
      "lightning-legacy",
      "ryzen-2",
    ]);
    for (const bad of [{ group: "SPOT" }, { rate: "cheap" }, { disabled: "maybe" }, { id: "x" }, { sort: "colour" }]) {
      const res = await t.api.get("/v1/plans", bad);
      expect(res.status).toBe(400);
      expect(res.message).toBeTruthy();
    }
  });

  test("keyset paging forward and back, and page numbers", async () => {
    const p1 = (await t.api.get("/v1/plans", { sort: "rate", limit: 2 })).body;
    expect(names(p1)).toEqual(["lightning-1", "lightning-2"]);
    expect(p1).toMatchObject({ hasNext: true, hasPrevious: false, before: null });
    const p2 = (await t.api.get("/v1/plans", { sort: "rate", limit: 2, after: p1.after })).body;
    expect(names(p2)).toEqual(["ryzen-2", "lightning-4"]);
    expect(p2.hasPrevious).toBe(true);
    const p3 = (await t.api.get("/v1/plans", { sort: "rate", limit: 2, after: p2.after })).body;
    expect(names(p3)).toEqual(["ryzen-8", "dedicated-16"]);
    expect(p3).toMatchObject({ hasNext: false, after: null });
    expect(names((await t.api.get("/v1/plans", { sort: "rate", limit: 2, before: p3.before })).body)).toEqual(names(p2));
    expect(names((await t.api.get("/v1/plans", { sort: "rate", limit: 2, page: 3 })).body)).toEqual(names(p3));
    expect((await t.api.get("/v1/plans", { after: "not-a-cursor" })).status).toBe(400);
  });

  test("detail adds io_limits (null when the plan has none); disabled plans are fetchable; 404", async () => {
    const res = await t.api.get(`/v1/plans/${planId(t, "lightning-1")}`);
    expect(res.status).toBe(200);
    expect(res.body.io_limits).toEqual({
      read_bytes_sec: 500_000_000,
      write_bytes_sec: 250_000_000,
      read_iops: 20_000,
      write_iops: 10_000,
    });
    expect(res.text).toContain(`"id":"${planId(t, "lightning-1")}"`);
    const legacy = await t.api.get(`/v1/plans/${planId(t, "lightning-legacy")}`);
    expect(legacy.body).toMatchObject({ disabled: true, io_limits: null });
    expect((await t.api.get("/v1/plans/9007199254740993")).status).toBe(404);
    expect((await t.api.get("/v1/plans/nope")).status).toBe(400);
  });
});

describe("nodes", () => {
  test("GET /v1/nodes: administrator only (user token 400), every field and filter", async () => {
    const user = await t.api.get("/v1/nodes");
    expect(user.status).toBe(400);
    expect(user.message).toMatch(/administrator/i);
    expect((await t.anon.get("/v1/nodes")).status).toBe(403);
    const all = (await t.staff.get("/v1/nodes", { sort: "name" })).body;
    expect(all.items).toHaveLength(7);
    const pc = all.items.find((n: { name: string }) => n.name === "pc-01.private.internal");
    expect(pc).toEqual({
      id: String(nodeId(t, "pc-01.private.internal")),
      name: "pc-01.private.internal",
      owner: { id: privateCloudId(), name: "private-cloud" },
      group: "DEDICATED",
      region: "PRIVATE_CLOUD",
      max_memory: 384 * 1024 ** 3,
      cores: 96,
      flags: [],
    });
    expect(all.items.find((n: { name: string }) => n.name === "na01-l1.svc.internal")).toMatchObject({ owner: null, flags: ["CEPH"] });

    const q = async (query: Record<string, string | string[]>) => names((await t.staff.get("/v1/nodes", { sort: "name", ...query })).body);
    expect(await q({ region: "EU_01" })).toEqual(["eu01-l1.svc.internal", "eu01-r1.svc.internal"]);
    expect(await q({ group: "RYZEN" })).toEqual(["eu01-r1.svc.internal", "na01-r1.svc.internal"]);
    expect(await q({ group: "LIGHTNING", region: "NA_01" })).toEqual(["na01-l1.svc.internal", "na01-l2.svc.internal"]);
    expect(await q({ name: "PRIVATE" })).toEqual(["pc-01.private.internal"]);
    expect(await q({ owner: privateCloudId() })).toEqual(["pc-01.private.internal"]);
    expect(await q({ q: "d1" })).toEqual(["na01-d1.svc.internal"]);
    expect(await q({ id: String(nodeId(t, "eu01-r1.svc.internal")) })).toEqual(["eu01-r1.svc.internal"]);
    const p1 = (await t.staff.get("/v1/nodes", { sort: "name", limit: 4 })).body;
    const p2 = (await t.staff.get("/v1/nodes", { sort: "name", limit: 4, after: p1.after })).body;
    expect([...names(p1), ...names(p2)]).toEqual(names(all));
    expect(names((await t.staff.get("/v1/nodes", { sort: "name", limit: 4, page: 2 })).body)).toEqual(names(p2));
  });

  test("node detail: platform nodes for anyone, private nodes for their workspace and staff", async () => {
    const platform = await t.api.get(`/v1/nodes/${nodeId(t, "na01-l1.svc.internal")}`);
    expect(platform.status).toBe(200);
    expect(platform.body).toMatchObject({ name: "na01-l1.svc.internal", owner: null, region: "NA_01" });
    const pcNode = nodeId(t, "pc-01.private.internal");
    expect((await t.api.get(`/v1/nodes/${pcNode}`)).status).toBe(404);
    expect((await t.staff.get(`/v1/nodes/${pcNode}`)).body.name).toBe("pc-01.private.internal");
    expect((await member(t, privateCloudId(), "VIEWER").get(`/v1/nodes/${pcNode}`)).status).toBe(200);
    expect((await t.api.get("/v1/nodes/9007199254740993")).status).toBe(404);
    expect((await t.anon.get(`/v1/nodes/${pcNode}`)).status).toBe(403);
  });

  test("workspace nodes: private cloud lists its own, standard workspaces get an empty list, strangers 404", async () => {
    const standard = await t.api.get(`/v1/workspaces/${t.workspaceId}/nodes`);
    expect(standard.status).toBe(200);
    expect(standard.body).toEqual({ items: [], hasNext: false, hasPrevious: false, after: null, before: null });
    const pc = await t.staff.get(`/v1/workspaces/${privateCloudId()}/nodes`);
    expect(names(pc.body)).toEqual(["pc-01.private.internal"]);
    const viewer = member(t, privateCloudId(), "VIEWER");
    expect(names((await viewer.get(`/v1/workspaces/${privateCloudId()}/nodes`, { region: "PRIVATE_CLOUD" })).body)).toEqual([
      "pc-01.private.internal",
    ]);
    expect(names((await viewer.get(`/v1/workspaces/${privateCloudId()}/nodes`, { region: "NA_01" })).body)).toEqual([]);
    expect((await t.api.get(`/v1/workspaces/${privateCloudId()}/nodes`)).status).toBe(404);
    expect((await otherWorkspace(t).api.get(`/v1/workspaces/${t.workspaceId}/nodes`)).status).toBe(404);
    expect((await t.anon.get(`/v1/workspaces/${t.workspaceId}/nodes`)).status).toBe(403);
  });
});
