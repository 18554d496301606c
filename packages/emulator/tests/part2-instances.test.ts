/**
 * Part 2 Instances: create (PLAN and CUSTOM), list, fetch, settings, power, delete, metrics,
 * and the floating-IP allocation endpoints (/v1/workspaces/{wid}/ips, a documented choice).
 */
import { useTestEmulator, type TestEmulator } from "../src/testing";
import { onHook } from "../src/core/hooks";
import {
  createInstance,
  imageId,
  member,
  newUser,
  nodeId,
  otherWorkspace,
  patchRow,
  planId,
  resourceToken,
  advanceClock,
  withSlowWorkflows,
} from "./compute";

let t: TestEmulator;
let wsPath: string;

const powerEvents: Array<{ instanceId: string; online: boolean }> = [];
const deletedEvents: Array<{ instanceId: string; workspaceId: string }> = [];
onHook("instance.power", (_s, e) => void powerEvents.push(e));
onHook("instance.deleted", (_s, e) => void deletedEvents.push(e));

useTestEmulator((started) => {
  t = started;
  wsPath = `/v1/workspaces/${t.workspaceId}`;
});

const store = () => t.emu.services.store;

function planBody(overrides: Record<string, unknown> = {}) {
  return {
    type: "PLAN",
    name: "web-1",
    region: "NA_01",
    plan: planId(t, "lightning-1"),
    image: imageId(t, "Ubuntu 24.04 LTS"),
    ...overrides,
  };
}

function customBody(overrides: Record<string, unknown> = {}) {
  return {
    type: "CUSTOM",
    name: "custom-1",
    region: "NA_01",
    group: "LIGHTNING",
    cpu: 2,
    memory_bytes: 2 * 1024 ** 3,
    storage: [
      { size_bytes: 20 * 1024 ** 3, boot: true, backing: "LOCAL" },
      { size_bytes: 50 * 1024 ** 3, boot: false, backing: "CEPH" },
    ],
    bandwidth: { upload_bytes_sec: 50_000_000, download_bytes_sec: 60_000_000 },
    ...overrides,
  };
}

async function expect400(body: unknown, field: string | null, messagePart?: RegExp) {
  const res = await t.api.post(`${wsPath}/instances`, body);
  expect(res.status).toBe(400);
  expect(res.message).toBeTruthy();
  if (messagePart) expect(res.message).toMatch(messagePart);
  if (field) expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
  return res;
}

describe("create", () => {
  test("PLAN: 202 WorkflowWithResource, PENDING, then AVAILABLE and online with its disk and IPs", async () => {
    const res = await t.api.post(`${wsPath}/instances`, planBody({ cloud_init: "#cloud-config\n", disable_cloud_init: true }));
    expect(res.status).toBe(202);
    expect(res.body.workflow).toEqual({ id: expect.any(String), name: "create-instance", state: "QUEUED" });
    const inst = res.body.resource;
    expect(inst.state).toBe("PENDING");
    expect(inst.online).toBe(false);
    expect(BigInt(inst.id)).toBeGreaterThan(2n ** 53n);

    expect(await t.waitWorkflow(res.body.workflow.id)).toBe("COMPLETED");
    const got = (await t.api.get(`/v1/instances/${inst.id}`)).body;
    expect(got).toMatchObject({
      id: inst.id,
      name: "web-1",
      state: "AVAILABLE",
      online: true,
      locked: false,
      pending_upgrades: false,
      type: "PLAN",
      plan: { id: String(planId(t, "lightning-1")), name: "lightning-1" },
      group: "LIGHTNING",
      cpu: 1,
      memory: 1024 ** 3,
      bandwidth: { upload_bytes_sec: 100_000_000, download_bytes_sec: 100_000_000 },
      region: "NA_01",
      image: { id: String(imageId(t, "Ubuntu 24.04 LTS")), name: "Ubuntu 24.04 LTS" },
      iso: null,
      boot: "DISK",
      os_name: "Ubuntu 24.04",
      disable_cloud_init: true,
      vpcs: [],
      termination_scheduled_at: null,
      network_suspended: false,
      workspace: { id: t.workspaceId, name: "demo-workspace" },
    });
    expect(got.io_limits).toEqual({ read_bytes_sec: 500_000_000, write_bytes_sec: 250_000_000, read_iops: 20_000, write_iops: 10_000 });
    expect(got.node.name).toMatch(/^na01-l/);
    expect(got.disks).toEqual([{ id: expect.any(String), name: "web-1-boot", size: 25 * 1024 ** 3, boot: true, backend: "LOCAL" }]);
    expect(got.ips.map((ip: { family: string }) => ip.family).sort()).toEqual(["IPv4", "IPv6"]);
    for (const ip of got.ips)
      expect(ip).toMatchObject({ instance_id: inst.id, instance: { id: inst.id, name: "web-1" }, ddos: false, protected: false });

    // Billing: the plan's flat rate; the boot disk is part of it; each IP is its own subject.
    const subjects = store().t.billingSubjects.filter((b) => b.workspaceId === t.workspaceId && b.endedAt === null);
    expect(subjects.find((b) => b.resourceId === inst.id)).toMatchObject({ resourceKind: "INSTANCE", hourlyRate: 6_000 });
    expect(subjects.filter((b) => b.resourceKind === "FLOATING_IP")).toHaveLength(2);
    expect(subjects.filter((b) => b.resourceKind === "DISK")).toHaveLength(0);

    const inv = (await t.control.get("/_emulator/inventory", { workspace: t.workspaceId })).body.resources;
    expect(inv.instances).toEqual([{ id: inst.id, name: "web-1", workspaceId: t.workspaceId, state: "AVAILABLE" }]);
    expect(inv.disks).toHaveLength(1);
    expect(inv.floatingIps).toHaveLength(2);
  });

  test("start false settles AVAILABLE but offline; the power hook fires only when it comes online", async () => {
    powerEvents.length = 0;
    const offline = await createInstance(t, { start: false });
    expect(offline).toMatchObject({ state: "AVAILABLE", online: false });
    expect(powerEvents.filter((e) => e.instanceId === offline.id)).toEqual([]);
    const online = await createInstance(t);
    expect(powerEvents.filter((e) => e.instanceId === online.id)).toEqual([{ instanceId: online.id, online: true }]);
  });

  test("CUSTOM: specs from the body, one disk per storage entry, CEPH placed on a CEPH node, disks billed on their own", async () => {
    const inst = await createInstance(t, customBody());
    expect(inst).toMatchObject({
      type: "CUSTOM",
      plan: null,
      group: "LIGHTNING",
      cpu: 2,
      memory: 2 * 1024 ** 3,
      bandwidth: { upload_bytes_sec: 50_000_000, download_bytes_sec: 60_000_000 },
      io_limits: null,
    });
    expect(inst.disks).toEqual([
      { id: expect.any(String), name: "custom-1-boot", size: 20 * 1024 ** 3, boot: true, backend: "LOCAL" },
      { id: expect.any(String), name: "custom-1-disk-1", size: 50 * 1024 ** 3, boot: false, backend: "CEPH" },
    ]);
    const node = store().t.nodes.get(inst.node.id)!;
    expect(node.flags).toContain("CEPH");
    const subjects = store().t.billingSubjects.filter((b) => b.endedAt === null);
    // CPU 2 x 3,600 (LIGHTNING, current card) + 2 GiB x 1,800 memory.
    expect(subjects.find((b) => b.resourceId === inst.id)!.hourlyRate).toBe(2 * 3_600 + 2 * 1_800);
    expect(
      subjects
        .filter((b) => b.resourceKind === "DISK")
        .map((b) => b.resourceId)
        .sort(),
    ).toEqual(inst.disks.map((d: { id: string }) => d.id).sort());
  });

  test("CUSTOM without bandwidth gets the default caps; a named node is used", async () => {
    const body = customBody({
      bandwidth: undefined,
      region: undefined,
      node: nodeId(t, "na01-r1.svc.internal"),
      group: "RYZEN",
      storage: [{ size_bytes: 10 * 1024 ** 3, boot: true }],
    });
    const inst = await createInstance(t, body);
    expect(inst.node).toEqual({ id: String(nodeId(t, "na01-r1.svc.internal")), name: "na01-r1.svc.internal" });
    expect(inst.bandwidth).toEqual({ upload_bytes_sec: 100_000_000, download_bytes_sec: 100_000_000 });
    expect(inst.disks[0].backend).toBe("LOCAL");
  });

  test("an ISO image is attached (boot ISO by default); explicit ips and VPCs are honoured", async () => {
    const s = store();
    const vpc = s.t.vpcs.insert({
      id: s.newId(),
      workspaceId: t.workspaceId,
      name: "backend",
      description: "",
      range: "10.10.0.0/24",
      vlan: 100,
      created: new Date().toISOString(),
    });
    const inst = await createInstance(t, {
      image: imageId(t, "Ubuntu 24.04 Live Server ISO"),
      ips: [{ family: "IPv4", ddos: true }],
      vpcs: [BigInt(vpc.id)],
    });
    expect(inst.iso).toEqual({ id: String(imageId(t, "Ubuntu 24.04 Live Server ISO")), name: "Ubuntu 24.04 Live Server ISO" });
    expect(inst.image).toBeNull();
    expect(inst.boot).toBe("ISO");
    expect(inst.ips).toHaveLength(1);
    expect(inst.ips[0]).toMatchObject({ family: "IPv4", ddos: true });
    expect(inst.vpcs).toEqual([{ id: vpc.id, name: "backend", ip: "10.10.0.2" }]);
    const second = await createInstance(t, { vpcs: [BigInt(vpc.id)], ips: [] });
    expect(second.vpcs[0].ip).toBe("10.10.0.3");
    expect(second.ips).toEqual([]);
  });

  test("identifiers above 2^53 round-trip exactly as raw JSON integers", async () => {
    const plan = planId(t, "lightning-2");
    expect(plan).toBeGreaterThan(2n ** 53n);
    const raw = `{"type":"PLAN","name":"raw-big","region":"NA_01","plan":${plan.toString()},"ips":[]}`;
    const res = await t.api.post(`${wsPath}/instances`, undefined, { rawBody: raw });
    expect(res.status).toBe(202);
    expect(res.text).toContain(`"id":"${plan.toString()}"`);
    expect(res.body.resource.plan.id).toBe(plan.toString());
    const missing = await t.api.post(`${wsPath}/instances`, undefined, { rawBody: raw.replace(plan.toString(), "9007199254740993") });
    expect(missing.status).toBe(404);
    expect(missing.message).toMatch(/Plan not found/);
  });

  test("body validation answers 400 with X-Message and field errors", async () => {
    await expect400({ name: "x", region: "NA_01" }, "type");
    await expect400(planBody({ type: "SPOT" }), "type");
    await expect400(planBody({ name: "" }), "name");
    await expect400(planBody({ plan: undefined }), "plan");
    await expect400(planBody({ plan: String(planId(t, "lightning-1")) }), "plan", /integer/);
    await expect400(planBody({ region: undefined }), "region", /region/);
    await expect400(planBody({ boot: "NETWORK" }), "boot");
    await expect400(planBody({ ips: [{ family: "IPv5" }] }), "ips[0].family");
    await expect400(planBody({ ips: [{ family: "IPv6", ddos: true }] }), "ips[0].ddos", /IPv4/);
    await expect400(planBody({ start: "yes" }), "start");
    await expect400(customBody({ storage: undefined }), "storage");
    await expect400(customBody({ storage: [] }), "storage");
    await expect400(customBody({ storage: [{ size_bytes: 1024 ** 3, boot: false }] }), "storage", /exactly one/);
    await expect400(
      customBody({
        storage: [
          { size_bytes: 1024 ** 3, boot: true },
          { size_bytes: 1024 ** 3, boot: true },
        ],
      }),
      "storage",
      /exactly one/,
    );
    await expect400(customBody({ storage: [{ size_bytes: 1024 ** 3, boot: true, backing: "TAPE" }] }), "storage[0].backing");
    await expect400(customBody({ group: "SPOT" }), "group");
    await expect400(customBody({ cpu: 0 }), "cpu");
    await expect400(customBody({ memory_bytes: 1024 }), "memory_bytes");
    await expect400(customBody({ bandwidth: { upload_bytes_sec: 0, download_bytes_sec: 1 } }), "bandwidth.upload_bytes_sec");
  });

  test("catalogue and placement rules", async () => {
    await expect400(planBody({ plan: planId(t, "lightning-legacy") }), "plan", /disabled/);
    // No DEDICATED... there is one in NA_01, but none in EU_01.
    await expect400(planBody({ plan: planId(t, "dedicated-16"), region: "EU_01" }), "region", /DEDICATED/);
    await expect400(planBody({ region: "MARS_01" }), "region");
    // PRIVATE_CLOUD only through the private-cloud workspace's own nodes.
    await expect400(planBody({ plan: planId(t, "dedicated-16"), region: "PRIVATE_CLOUD" }), "region");
    const privateNode = await t.api.post(`${wsPath}/instances`, planBody({ region: undefined, node: nodeId(t, "pc-01.private.internal") }));
    expect(privateNode.status).toBe(404);
    expect(privateNode.message).toMatch(/Node not found/);
    await expect400(planBody({ region: undefined, node: nodeId(t, "na01-r1.svc.internal") }), "node", /RYZEN/);
    await expect400(planBody({ region: "EU_01", node: nodeId(t, "na01-l1.svc.internal") }), "region");
    await expect400(customBody({ region: undefined, node: nodeId(t, "na01-l1.svc.internal"), cpu: 100 }), "node");
    await expect400(customBody({ region: undefined, node: nodeId(t, "na01-r1.svc.internal"), group: "RYZEN" }), "storage", /CEPH/);
  });

  test("the private-cloud workspace places PRIVATE_CLOUD instances on its own node", async () => {
    const pcws = store().t.workspaces.find((w) => w.privateCloud)!;
    const res = await t.staff.post(
      `/v1/workspaces/${pcws.id}/instances`,
      planBody({ plan: planId(t, "dedicated-16"), region: "PRIVATE_CLOUD", ips: [] }),
    );
    expect(res.status).toBe(202);
    expect(res.body.resource.node.name).toBe("pc-01.private.internal");
    expect(res.body.resource.region).toBe("PRIVATE_CLOUD");
  });

  test("image rules: visible, AVAILABLE, and fits the boot disk", async () => {
    const s = store();
    const other = otherWorkspace(t);
    const foreign = s.t.images.insert({
      ...s.t.images.find((i) => i.kind === "TEMPLATE")!,
      id: s.newId(),
      seed: false,
      workspaceId: other.workspaceId,
      official: false,
    });
    const res = await t.api.post(`${wsPath}/instances`, planBody({ image: BigInt(foreign.id) }));
    expect(res.status).toBe(404);
    expect(res.message).toMatch(/Image not found/);

    const pending = s.t.images.insert({
      ...s.t.images.find((i) => i.kind === "TEMPLATE")!,
      id: s.newId(),
      seed: false,
      workspaceId: t.workspaceId,
      official: false,
      state: "PENDING",
    });
    const busy = await t.api.post(`${wsPath}/instances`, planBody({ image: BigInt(pending.id) }));
    expect(busy.status).toBe(409);
    expect(busy.message).toMatch(/AVAILABLE/);

    const windows = await t.api.post(`${wsPath}/instances`, planBody({ image: imageId(t, "Windows Server 2022") }));
    expect(windows.status).toBe(202); // 20 GiB image on a 25 GiB disk fits
    await expect400(
      customBody({ image: imageId(t, "Windows Server 2022"), storage: [{ size_bytes: 10 * 1024 ** 3, boot: true }] }),
      "image",
      /boot disk/,
    );
    await expect400(planBody({ boot: "ISO" }), "boot", /ISO/);
  });

  test("quotas: max_instances, max_storage_bytes and floating IPs", async () => {
    const quota = { ...store().t.workspaces.get(t.workspaceId)!.quota };
    await patchRow(t, "workspaces", t.workspaceId, { quota: { ...quota, max_instances: 1 } });
    await createInstance(t);
    await expect400(planBody(), null, /max_instances/);

    await t.control.post("/_emulator/reset");
    await patchRow(t, "workspaces", t.workspaceId, { quota: { ...quota, max_storage_bytes: 30 * 1024 ** 3 } });
    await createInstance(t, { ips: [] });
    await expect400(planBody(), "storage", /max_storage_bytes/);

    await t.control.post("/_emulator/reset");
    await patchRow(t, "workspaces", t.workspaceId, { quota: { ...quota, max_floating_ipv6: 1 } });
    await createInstance(t);
    await expect400(planBody(), "ips", /max_floating_ipv6/);
    await patchRow(t, "workspaces", t.workspaceId, { quota: { ...quota, max_floating_ips: 3 } });
    await expect400(planBody({ ips: [{ family: "IPv4" }, { family: "IPv4" }] }), "ips", /max_floating_ips/);
  });

  test("VPC rules: other workspaces' VPCs are refused; a full range answers 409", async () => {
    const s = store();
    const other = otherWorkspace(t);
    const foreign = s.t.vpcs.insert({
      id: s.newId(),
      workspaceId: other.workspaceId,
      name: "theirs",
      description: "",
      range: "10.0.0.0/24",
      vlan: 5,
      created: new Date().toISOString(),
    });
    const res = await t.api.post(`${wsPath}/instances`, planBody({ vpcs: [BigInt(foreign.id)] }));
    expect(res.status).toBe(404);
    const tiny = s.t.vpcs.insert({
      id: s.newId(),
      workspaceId: t.workspaceId,
      name: "tiny",
      description: "",
      range: "10.1.0.0/30",
      vlan: 6,
      created: new Date().toISOString(),
    });
    await createInstance(t, { vpcs: [BigInt(tiny.id)], ips: [] });
    const full = await t.api.post(`${wsPath}/instances`, planBody({ vpcs: [BigInt(tiny.id)] }));
    expect(full.status).toBe(409);
    await expect400(planBody({ vpcs: [BigInt(tiny.id), BigInt(tiny.id)] }), "vpcs", /repeat/);
  });

  test("a failed create workflow leaves the instance and its disks FAILED", async () => {
    await t.control.post("/_emulator/faults", {
      kind: "workflow",
      outcome: "FAILED",
      method: "POST",
      path: "/v1/workspaces/*/instances",
      times: 1,
    });
    const res = await t.api.post(`${wsPath}/instances`, planBody());
    expect(await t.waitWorkflow(res.body.workflow.id)).toBe("FAILED");
    const got = (await t.api.get(`/v1/instances/${res.body.resource.id}`)).body;
    expect(got.state).toBe("FAILED");
    expect(store().t.disks.get(got.disks[0].id)!.state).toBe("FAILED");
  });

  test("authorization: no token 403, VIEWER/EDITOR 403, another workspace 404, token without INSTANCE write 403", async () => {
    const none = await t.anon.post(`${wsPath}/instances`, planBody());
    expect(none.status).toBe(403);
    expect(none.text).toBe("");
    for (const role of ["VIEWER", "EDITOR"] as const) {
      const res = await member(t, t.workspaceId, role).post(`${wsPath}/instances`, planBody());
      expect(res.status).toBe(403);
      expect(res.message).toMatch(/ADMINISTRATOR/);
    }
    const admin = await member(t, t.workspaceId, "ADMINISTRATOR").post(`${wsPath}/instances`, planBody());
    expect(admin.status).toBe(202);
    const readOnly = await member(t, t.workspaceId, "OWNER", { INSTANCE: "READ" }).post(`${wsPath}/instances`, planBody());
    expect(readOnly.status).toBe(403);
    const stranger = newUser(t).api;
    expect((await stranger.post(`${wsPath}/instances`, planBody())).status).toBe(404);
  });
});

describe("read", () => {
  test("fetch: unknown 404, other workspace 404, resource token reaches only its instance", async () => {
    const a = await createInstance(t, { name: "alpha" });
    const b = await createInstance(t, { name: "beta" });
    expect((await t.api.get(`/v1/instances/9007199254740993`)).status).toBe(404);
    expect((await t.api.get(`/v1/instances/abc`)).status).toBe(400);
    const other = otherWorkspace(t);
    expect((await other.api.get(`/v1/instances/${a.id}`)).status).toBe(404);
    expect((await t.anon.get(`/v1/instances/${a.id}`)).status).toBe(403);
    const viewer = member(t, t.workspaceId, "VIEWER");
    expect((await viewer.get(`/v1/instances/${a.id}`)).status).toBe(200);
    const rt = resourceToken(t, a.id);
    expect((await rt.get(`/v1/instances/${a.id}`)).body.name).toBe("alpha");
    expect((await rt.get(`/v1/instances/${b.id}`)).status).toBe(404);
  });

  test("list: newest first, every filter, page numbers and keyset cursors", async () => {
    const a = await createInstance(t, { name: "alpha-web" });
    await advanceClock(t, 1000);
    const b = await createInstance(t, { name: "beta-db", plan: planId(t, "lightning-2"), start: false });
    await advanceClock(t, 1000);
    const c = await createInstance(t, { name: "gamma-web", image: imageId(t, "Ubuntu 24.04 Live Server ISO") });
    await advanceClock(t, 1000);
    const d = await createInstance(t, { name: "delta", region: "EU_01" });
    const names = async (query: Record<string, string | number | boolean | string[]>) =>
      (await t.api.get(`${wsPath}/instances`, query)).body.items.map((i: { name: string }) => i.name);

    expect(await names({})).toEqual(["delta", "gamma-web", "beta-db", "alpha-web"]);
    expect(await names({ sort: "name" })).toEqual(["alpha-web", "beta-db", "delta", "gamma-web"]);
    expect(await names({ name: "web" })).toEqual(["gamma-web", "alpha-web"]);
    expect(await names({ q: "DB" })).toEqual(["beta-db"]);
    expect(await names({ q: b.id })).toEqual(["beta-db"]);
    expect(await names({ q: a.ips[0].address })).toEqual(["alpha-web"]);
    expect(await names({ ip: c.ips[1].address })).toEqual(["gamma-web"]);
    expect(await names({ id: [a.id, d.id] })).toEqual(["delta", "alpha-web"]);
    expect(await names({ id: `${a.id},${b.id}` })).toEqual(["beta-db", "alpha-web"]);
    expect(await names({ plan: String(planId(t, "lightning-2")) })).toEqual(["beta-db"]);
    expect(await names({ node: d.node.id })).toEqual(["delta"]);
    expect(await names({ iso: c.iso.id })).toEqual(["gamma-web"]);
    expect(await names({ online: false })).toEqual(["beta-db"]);
    expect(await names({ online: true, name: "a" })).toEqual(["delta", "gamma-web", "alpha-web"]);
    expect(await names({ state: "AVAILABLE", name: "beta" })).toEqual(["beta-db"]);
    expect(await names({ state: "FAILED" })).toEqual([]);
    expect((await t.api.get(`${wsPath}/instances`, { state: "BROKEN" })).status).toBe(400);
    expect((await t.api.get(`${wsPath}/instances`, { online: "maybe" })).status).toBe(400);

    const p1 = (await t.api.get(`${wsPath}/instances`, { limit: 3 })).body;
    expect(p1.items.map((i: { name: string }) => i.name)).toEqual(["delta", "gamma-web", "beta-db"]);
    expect(p1).toMatchObject({ hasNext: true, hasPrevious: false, before: null });
    const p2 = (await t.api.get(`${wsPath}/instances`, { limit: 3, page: 2 })).body;
    expect(p2.items.map((i: { name: string }) => i.name)).toEqual(["alpha-web"]);
    expect(p2).toMatchObject({ hasNext: false, hasPrevious: true, after: null });
    const k2 = (await t.api.get(`${wsPath}/instances`, { limit: 3, after: p1.after })).body;
    expect(k2.items.map((i: { name: string }) => i.name)).toEqual(["alpha-web"]);
    const back = (await t.api.get(`${wsPath}/instances`, { limit: 3, before: k2.before })).body;
    expect(back.items.map((i: { name: string }) => i.name)).toEqual(["delta", "gamma-web", "beta-db"]);

    // List items are the detail view.
    expect(p1.items[0]).toEqual((await t.api.get(`/v1/instances/${d.id}`)).body);
  });

  test("list authorization: no token 403, other workspace 404, resource token 403", async () => {
    const a = await createInstance(t);
    expect((await t.anon.get(`${wsPath}/instances`)).status).toBe(403);
    expect((await otherWorkspace(t).api.get(`${wsPath}/instances`)).status).toBe(404);
    expect((await resourceToken(t, a.id).get(`${wsPath}/instances`)).status).toBe(403);
    expect((await member(t, t.workspaceId, "VIEWER").get(`${wsPath}/instances`)).body.items).toHaveLength(1);
  });
});

describe("settings", () => {
  test("PATCH updates the documented settings synchronously", async () => {
    const inst = await createInstance(t);
    const res = await t.api.patch(`/v1/instances/${inst.id}`, {
      name: "renamed",
      uefi: true,
      secure_boot: true,
      attach_virtio_cdb: true,
      sync_hostname: false,
      firewall_enabled: true,
      os_name: "Custom Linux",
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: "renamed",
      uefi: true,
      secure_boot: true,
      attach_virtio_cdb: true,
      sync_hostname: false,
      firewall_enabled: true,
      os_name: "Custom Linux",
      boot: "DISK",
    });
    expect((await t.api.get(`/v1/instances/${inst.id}`)).body.name).toBe("renamed");
    const unchanged = await t.api.patch(`/v1/instances/${inst.id}`, {});
    expect(unchanged.body.name).toBe("renamed");
  });

  test("PATCH rules: validation 400, boot ISO without an ISO 409, VIEWER 403, other workspace 404", async () => {
    const inst = await createInstance(t);
    for (const body of [{ boot: "USB" }, { uefi: "yes" }, { name: "" }, { os_name: 5 }]) {
      const res = await t.api.patch(`/v1/instances/${inst.id}`, body);
      expect(res.status).toBe(400);
      expect(res.message).toBeTruthy();
    }
    const iso = await t.api.patch(`/v1/instances/${inst.id}`, { boot: "ISO" });
    expect(iso.status).toBe(409);
    expect(iso.message).toMatch(/ISO/);
    expect((await member(t, t.workspaceId, "VIEWER").patch(`/v1/instances/${inst.id}`, { name: "x" })).status).toBe(403);
    expect((await member(t, t.workspaceId, "EDITOR").patch(`/v1/instances/${inst.id}`, { name: "by-editor" })).status).toBe(200);
    expect((await otherWorkspace(t).api.patch(`/v1/instances/${inst.id}`, { name: "x" })).status).toBe(404);
  });
});

describe("power", () => {
  test("POWER_OFF / POWER_ON / SHUTDOWN / POWER_CYCLE: 202 workflow, online flips when it completes, hook fires", async () => {
    const inst = await createInstance(t);
    powerEvents.length = 0;
    const { off, during } = await withSlowWorkflows(t, 1000, async () => {
      const off = await t.api.post(`/v1/instances/${inst.id}/power`, { action: "POWER_OFF" });
      return { off, during: (await t.api.get(`/v1/instances/${inst.id}`)).body };
    });
    expect(off.status).toBe(202);
    expect(off.body).toEqual({ id: expect.any(String), name: "power-instance", state: "QUEUED" });
    expect(during.online).toBe(true);
    expect(await t.waitWorkflow(off.body.id)).toBe("COMPLETED");
    expect((await t.api.get(`/v1/instances/${inst.id}`)).body.online).toBe(false);
    expect(powerEvents).toEqual([{ instanceId: inst.id, online: false }]);

    const on = await t.api.post(`/v1/instances/${inst.id}/power`, { action: "POWER_ON" });
    await t.waitWorkflow(on.body.id);
    expect((await t.api.get(`/v1/instances/${inst.id}`)).body.online).toBe(true);
    const shutdown = await t.api.post(`/v1/instances/${inst.id}/power`, { action: "SHUTDOWN" });
    await t.waitWorkflow(shutdown.body.id);
    expect((await t.api.get(`/v1/instances/${inst.id}`)).body.online).toBe(false);
    const cycle = await t.api.post(`/v1/instances/${inst.id}/power`, { action: "POWER_CYCLE" });
    await t.waitWorkflow(cycle.body.id);
    expect((await t.api.get(`/v1/instances/${inst.id}`)).body.online).toBe(true);
  });

  test("power rules: action required, AVAILABLE only (409), VIEWER 403, a failed workflow changes nothing", async () => {
    const inst = await createInstance(t);
    for (const body of [{}, { action: "REBOOT" }]) {
      const res = await t.api.post(`/v1/instances/${inst.id}/power`, body);
      expect(res.status).toBe(400);
      expect(res.body.errors[0].field).toBe("action");
    }
    expect((await member(t, t.workspaceId, "VIEWER").post(`/v1/instances/${inst.id}/power`, { action: "POWER_OFF" })).status).toBe(403);
    await t.control.post("/_emulator/faults", { kind: "workflow", outcome: "FAILED", path: "/v1/instances/*/power", times: 1 });
    const failed = await t.api.post(`/v1/instances/${inst.id}/power`, { action: "POWER_OFF" });
    expect(await t.waitWorkflow(failed.body.id)).toBe("FAILED");
    expect((await t.api.get(`/v1/instances/${inst.id}`)).body).toMatchObject({ state: "AVAILABLE", online: true });
    await patchRow(t, "instances", inst.id, { state: "SUSPENDED" });
    const suspended = await t.api.post(`/v1/instances/${inst.id}/power`, { action: "POWER_ON" });
    expect(suspended.status).toBe(409);
    expect(suspended.message).toMatch(/SUSPENDED/);
  });
});

describe("delete", () => {
  test("DELETING, then removed with its resources freed and the hook fired", async () => {
    const s = store();
    const vpc = s.t.vpcs.insert({
      id: s.newId(),
      workspaceId: t.workspaceId,
      name: "net",
      description: "",
      range: "10.2.0.0/24",
      vlan: 9,
      created: new Date().toISOString(),
    });
    const inst = await createInstance(t, customBody({ vpcs: [BigInt(vpc.id)] }));
    const allocated = await t.api.post(`${wsPath}/ips`, { family: "IPv4" });
    await patchRow(t, "floatingIps", allocated.body.id, { instanceId: inst.id });
    s.t.netLbMembers.insert({ id: s.newId(), lbId: "1", instanceId: inst.id, state: "AVAILABLE" });
    const snapshotWf = await t.api.post("/v1/commands/create-snapshot", { instance_id: BigInt(inst.id) });
    await t.waitWorkflow(snapshotWf.body.id);
    const [boot, data] = inst.disks;
    const instanceIps = inst.ips.map((ip: { id: string }) => ip.id);
    deletedEvents.length = 0;

    const { res, during, again } = await withSlowWorkflows(t, 1000, async () => {
      const res = await t.api.delete(`/v1/instances/${inst.id}`);
      return { res, during: (await t.api.get(`/v1/instances/${inst.id}`)).body, again: await t.api.delete(`/v1/instances/${inst.id}`) };
    });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ name: "delete-instance", state: "QUEUED" });
    expect(during.state).toBe("DELETING");
    expect(again.status).toBe(409);
    expect(await t.waitWorkflow(res.body.id)).toBe("COMPLETED");

    expect((await t.api.get(`/v1/instances/${inst.id}`)).status).toBe(404);
    expect((await t.api.get(`/v1/disks/${boot.id}`)).status).toBe(404);
    expect((await t.api.get(`/v1/disks/${data.id}`)).body).toMatchObject({ instance: null, state: "AVAILABLE" });
    for (const id of instanceIps) expect(s.t.floatingIps.get(id)).toBeUndefined();
    expect((await t.api.get(`/v1/ips/${allocated.body.id}`)).body).toMatchObject({ instance_id: null, instance: null });
    expect(s.t.vpcMembers.filter((m) => m.instanceId === inst.id)).toEqual([]);
    expect(s.t.netLbMembers.filter((m) => m.instanceId === inst.id)).toEqual([]);
    expect(s.t.snapshots.filter((m) => m.instanceId === inst.id)).toEqual([]);
    const subjects = s.t.billingSubjects.filter((b) => [inst.id, boot.id, ...instanceIps].includes(b.resourceId));
    expect(subjects.length).toBeGreaterThan(0);
    expect(subjects.every((b) => b.endedAt !== null)).toBe(true);
    expect(s.t.billingSubjects.find((b) => b.resourceId === data.id && b.endedAt === null)).toBeDefined();
    expect(deletedEvents).toEqual([{ instanceId: inst.id, workspaceId: t.workspaceId }]);
  });

  test("delete needs ADMINISTRATOR; other workspace 404", async () => {
    const inst = await createInstance(t);
    expect((await member(t, t.workspaceId, "EDITOR").delete(`/v1/instances/${inst.id}`)).status).toBe(403);
    expect((await otherWorkspace(t).api.delete(`/v1/instances/${inst.id}`)).status).toBe(404);
    expect((await t.anon.delete(`/v1/instances/${inst.id}`)).status).toBe(403);
  });
});

describe("metrics", () => {
  test("deterministic CPU, memory, disk and network series of raw values", async () => {
    const inst = await createInstance(t);
    const query = { instance: inst.id, start: 1_700_000_000, end: 1_700_000_600, step: 60 };
    const res = await t.api.get("/v1/metrics", query);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ instance: inst.id, start: 1_700_000_000, end: 1_700_000_600, step: 60 });
    const series = res.body.series;
    expect(Object.keys(series).sort()).toEqual(["cpu", "disk_read", "disk_write", "memory", "network_rx", "network_tx"]);
    for (const points of Object.values(series) as Array<Array<{ time: number; value: number }>>) {
      expect(points).toHaveLength(11);
      expect(points[0].time).toBe(1_700_000_000);
      expect(points[10].time).toBe(1_700_000_600);
    }
    for (const p of series.cpu) expect(p.value).toBeGreaterThanOrEqual(0);
    for (const p of series.memory) expect(p.value).toBeLessThanOrEqual(1024 ** 3);
    expect((await t.api.get("/v1/metrics", query)).body).toEqual(res.body);
  });

  test("required parameters, step minimum 15, access", async () => {
    const inst = await createInstance(t);
    const base = { instance: inst.id, start: 1_700_000_000, end: 1_700_000_600, step: 60 };
    for (const missing of ["instance", "start", "end", "step"] as const) {
      const query: Record<string, string | number> = { ...base };
      delete query[missing];
      const res = await t.api.get("/v1/metrics", query);
      expect(res.status).toBe(400);
      expect(res.message).toMatch(new RegExp(missing));
    }
    const small = await t.api.get("/v1/metrics", { ...base, step: 14 });
    expect(small.status).toBe(400);
    expect(small.message).toMatch(/15/);
    expect((await t.api.get("/v1/metrics", { ...base, end: base.start - 1 })).status).toBe(400);
    expect((await t.api.get("/v1/metrics", { ...base, step: 15, end: base.start + 15 * 20_000 })).status).toBe(400);
    expect((await t.api.get("/v1/metrics", { ...base, instance: "9007199254740993" })).status).toBe(404);
    expect((await otherWorkspace(t).api.get("/v1/metrics", base)).status).toBe(404);
    expect((await t.anon.get("/v1/metrics", base)).status).toBe(403);
  });
});

describe("floating IPs (choice endpoints)", () => {
  test("allocate, fetch, list with filters and paging, release", async () => {
    const v4 = await t.api.post(`${wsPath}/ips`, { family: "IPv4", ddos: true });
    expect(v4.status).toBe(201);
    expect(v4.body).toMatchObject({
      family: "IPv4",
      ddos: true,
      protected: false,
      instance_id: null,
      instance: null,
      workspace: { id: t.workspaceId },
    });
    expect(v4.body.address).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    await advanceClock(t, 1000);
    const v6 = await t.api.post(`${wsPath}/ips`, { family: "IPv6" });
    expect(v6.body.address).toContain(":");
    expect((await t.api.get(`/v1/ips/${v4.body.id}`)).body).toEqual(v4.body);

    const list = async (query: Record<string, string | number | boolean> = {}) => (await t.api.get(`${wsPath}/ips`, query)).body;
    expect((await list()).items.map((i: { id: string }) => i.id)).toEqual([v6.body.id, v4.body.id]);
    expect((await list({ family: "IPv4" })).items.map((i: { id: string }) => i.id)).toEqual([v4.body.id]);
    expect((await list({ ddos: false })).items.map((i: { id: string }) => i.id)).toEqual([v6.body.id]);
    expect((await list({ q: v4.body.address })).items).toHaveLength(1);
    const p1 = await list({ limit: 1 });
    expect(p1.hasNext).toBe(true);
    expect((await list({ limit: 1, after: p1.after })).items[0].id).toBe(v4.body.id);
    expect((await list({ limit: 1, page: 2 })).items[0].id).toBe(v4.body.id);

    const released = await t.api.delete(`/v1/ips/${v6.body.id}`);
    expect(released.status).toBe(204);
    expect((await t.api.get(`/v1/ips/${v6.body.id}`)).status).toBe(404);
    expect(store().t.billingSubjects.find((b) => b.resourceId === v6.body.id)!.endedAt).not.toBeNull();
  });

  test("rules: validation, quota, attached or protected 409, roles and workspaces", async () => {
    expect((await t.api.post(`${wsPath}/ips`, { family: "IPv5" })).status).toBe(400);
    expect((await t.api.post(`${wsPath}/ips`, { family: "IPv6", ddos: true })).status).toBe(400);
    const ws = store().t.workspaces.get(t.workspaceId)!;
    await patchRow(t, "workspaces", t.workspaceId, { quota: { ...ws.quota, max_floating_ipv4: 0 } });
    const quota = await t.api.post(`${wsPath}/ips`, { family: "IPv4" });
    expect(quota.status).toBe(400);
    expect(quota.message).toMatch(/max_floating_ipv4/);

    const inst = await createInstance(t, { ips: [{ family: "IPv6" }] });
    const attached = await t.api.delete(`/v1/ips/${inst.ips[0].id}`);
    expect(attached.status).toBe(409);
    const ip = (await t.api.post(`${wsPath}/ips`, { family: "IPv6" })).body;
    await patchRow(t, "floatingIps", ip.id, { protected: true });
    expect((await t.api.delete(`/v1/ips/${ip.id}`)).status).toBe(409);

    expect((await member(t, t.workspaceId, "EDITOR").post(`${wsPath}/ips`, { family: "IPv6" })).status).toBe(403);
    expect((await member(t, t.workspaceId, "VIEWER").get(`/v1/ips/${ip.id}`)).status).toBe(200);
    expect((await otherWorkspace(t).api.get(`/v1/ips/${ip.id}`)).status).toBe(404);
    expect((await t.anon.get(`${wsPath}/ips`)).status).toBe(403);
  });
});
