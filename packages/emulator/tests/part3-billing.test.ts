/**
 * Part 3 Billing against the emulator over real HTTP: estimates, rate cards (prices, effective
 * dating) and usage statements. Wallets and coupons are in part3-billing-wallet.test.ts.
 */
import { useTestEmulator, type TestEmulator } from "../src/testing";
import { makeSubject, makeUser, makeWorkspace } from "./k3sBilling";

let t: TestEmulator;
useTestEmulator((started) => (t = started));

const GiB = 1024 ** 3;
const at = (iso: string) => Date.parse(iso);

describe("estimate", () => {
  // The seeded NA_01 cards in force (from 2026-06-01): the 2025 rates times 1.2.
  const parts = [
    { type: "CPU", cpu: 2, service_group: "LIGHTNING" },
    { type: "MEMORY", memory_bytes: 4 * GiB },
    { type: "STORAGE", storage_bytes: 50 * GiB, storage_backing: "ceph" },
    { type: "BANDWIDTH", direction: "UPLOAD", speed_bytes_sec: 100_000_000 },
    { type: "FLOATING_IP", family: "IPv4", ddos: true },
  ];

  it("prices every part from the rate cards in force; monthly = hourly * 672", async () => {
    const res = await t.api.post("/v1/billing/estimate", { region: "NA_01", parts });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      hourly_rate: 36_600,
      monthly_price: 36_600 * 672,
      parts: [
        { type: "CPU", quantity: 2, unit_rate: 3_600, hourly_rate: 7_200, monthly_price: 7_200 * 672 },
        { type: "MEMORY", quantity: 4, unit_rate: 1_800, hourly_rate: 7_200, monthly_price: 7_200 * 672 },
        { type: "STORAGE", quantity: 50, unit_rate: 180, hourly_rate: 9_000, monthly_price: 9_000 * 672 },
        { type: "BANDWIDTH", quantity: 100, unit_rate: 24, hourly_rate: 2_400, monthly_price: 2_400 * 672 },
        { type: "FLOATING_IP", quantity: 1, unit_rate: 10_800, hourly_rate: 10_800, monthly_price: 10_800 * 672 },
      ],
    });
  });

  it("takes the unscoped card for an omitted selector, the most specific matching one otherwise, and regional prices", async () => {
    const res = await t.api.post("/v1/billing/estimate", {
      region: "EU_01",
      parts: [
        { type: "CPU", cpu: 1 },
        { type: "CPU", cpu: 1, service_group: "ryzen" },
        { type: "CPU", cpu: 1, service_group: "RYZEN", cpu_model: "EPYC-9654" },
        { type: "STORAGE", storage_bytes: GiB },
        { type: "FLOATING_IP", family: "IPv6" },
      ],
    });
    expect(res.body.parts.map((p: { unit_rate: number }) => p.unit_rate)).toEqual(
      [4_000, 5_000, 6_000, 100, 500].map((base) => Math.round(base * 1.1 * 1.2)),
    );
  });

  it("answers any authenticated caller, including a workspace token; no token is 403", async () => {
    const ws = makeUser(t, { role: "VIEWER", workspaceToken: true, grants: { INSTANCE: "READ" } });
    expect((await ws.api.post("/v1/billing/estimate", { region: "NA_01", parts })).status).toBe(200);
    expect((await t.anon.post("/v1/billing/estimate", { region: "NA_01", parts })).status).toBe(403);
  });

  it.each([
    ["no region", { parts }, "region"],
    ["an unknown region", { region: "MARS_01", parts }, "region: unknown region MARS_01"],
    ["no parts", { region: "NA_01" }, "parts"],
    ["empty parts", { region: "NA_01", parts: [] }, "parts"],
    ["an unknown part type", { region: "NA_01", parts: [{ type: "GPU", gpus: 1 }] }, "parts[0].type"],
    ["a part without its quantity", { region: "NA_01", parts: [{ type: "MEMORY" }] }, "parts[0].memory_bytes"],
    ["zero cores", { region: "NA_01", parts: [{ type: "CPU", cpu: 0 }] }, "parts[0].cpu"],
    [
      "an unknown direction",
      { region: "NA_01", parts: [{ type: "BANDWIDTH", direction: "BOTH", speed_bytes_sec: 1 }] },
      "parts[0].direction",
    ],
    ["DDoS protection on IPv6", { region: "NA_01", parts: [{ type: "FLOATING_IP", family: "IPv6", ddos: true }] }, "parts[0].ddos"],
  ])("refuses %s with 400", async (_label, body, message) => {
    const res = await t.api.post("/v1/billing/estimate", body);
    expect(res.status).toBe(400);
    expect(res.message).toContain(message);
  });
});

describe("prices", () => {
  it("lists the entry in force of every rate card (operator only)", async () => {
    const res = await t.staff.get("/v1/prices");
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(14 * 3);
    expect(res.body.every((r: { effective_from: string }) => r.effective_from === "2026-06-01T00:00:00.000Z")).toBe(true);
    const find = (pred: (r: Record<string, unknown>) => boolean) => res.body.find(pred);
    expect(find((r) => r.type === "CPU" && r.region === "NA_01" && r.service_group === null)).toEqual({
      id: expect.any(String),
      type: "CPU",
      region: "NA_01",
      service_group: null,
      cpu_model: null,
      storage_backing: null,
      direction: null,
      family: null,
      ddos: null,
      unit_rate: 4_800,
      effective_from: "2026-06-01T00:00:00.000Z",
    });
    expect(find((r) => r.type === "CPU" && r.region === "NA_01" && r.cpu_model === "EPYC-9654")).toMatchObject({
      service_group: "RYZEN",
      unit_rate: 7_200,
    });
    expect(find((r) => r.type === "STORAGE" && r.region === "NA_01" && r.storage_backing === "nvme")).toMatchObject({
      service_group: null,
      unit_rate: 144,
    });
    expect(find((r) => r.type === "IP" && r.region === "NA_01" && r.family === "IPv6")).toMatchObject({ ddos: false, direction: null });
  });

  it("lists every entry of a type, latest first; an unknown type is 400", async () => {
    const res = await t.staff.get("/v1/prices/BANDWIDTH");
    expect(res.body).toHaveLength(2 * 2 * 3);
    expect(res.body.slice(0, 6).every((r: { effective_from: string }) => r.effective_from.startsWith("2026"))).toBe(true);
    expect(res.body.slice(6).every((r: { effective_from: string }) => r.effective_from.startsWith("2025"))).toBe(true);
    const bad = await t.staff.get("/v1/prices/GPU");
    expect(bad.status).toBe(400);
    expect(bad.message).toContain("type must be one of CPU, MEMORY, STORAGE, BANDWIDTH, IP");
  });

  it("refuses user tokens (400, administrator only) and workspace tokens (403)", async () => {
    const user = await t.api.get("/v1/prices");
    expect(user.status).toBe(400);
    expect(user.message).toContain("administrator");
    expect((await t.api.post("/v1/prices", { type: "MEMORY", region: "NA_01", unit_rate: 1 })).status).toBe(400);
    const ws = makeUser(t, { role: "OWNER", workspaceToken: true });
    expect((await ws.api.get("/v1/prices/CPU")).status).toBe(403);
  });

  it("applies a POSTed future rate from its effective_from on (effective dating)", async () => {
    const now = Date.parse((await t.control.get("/_emulator/clock")).body.now);
    const from = new Date(now + 86_400_000).toISOString();
    const created = await t.staff.post("/v1/prices", {
      type: "CPU",
      region: "NA_01",
      service_group: "lightning",
      unit_rate: 5_000,
      effective_from: from,
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      type: "CPU",
      region: "NA_01",
      service_group: "LIGHTNING",
      cpu_model: null,
      storage_backing: null,
      direction: null,
      family: null,
      ddos: null,
      unit_rate: 5_000,
      effective_from: from,
    });
    const estimate = () =>
      t.api.post("/v1/billing/estimate", { region: "NA_01", parts: [{ type: "CPU", cpu: 2, service_group: "LIGHTNING" }] });
    expect((await estimate()).body.hourly_rate).toBe(7_200);
    const current = (await t.staff.get("/v1/prices")).body.find((r: { id: string }) => r.id === created.body.id);
    expect(current).toBeUndefined();
    expect((await t.staff.get("/v1/prices/CPU")).body[0]).toEqual(created.body);

    await t.control.post("/_emulator/clock", { advanceMs: 86_400_000 + 1_000 });
    expect((await estimate()).body).toMatchObject({ hourly_rate: 10_000, monthly_price: 6_720_000 });
    const listed = (await t.staff.get("/v1/prices")).body;
    expect(listed).toHaveLength(42);
    expect(listed).toContainEqual(created.body);
  });

  it("adds a new card with an immediate rate when effective_from is omitted", async () => {
    const res = await t.staff.post("/v1/prices", { type: "STORAGE", region: "EU_01", storage_backing: "HDD", unit_rate: 50 });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ storage_backing: "hdd", unit_rate: 50 });
    expect((await t.staff.get("/v1/prices")).body).toHaveLength(43);
    const est = await t.api.post("/v1/billing/estimate", {
      region: "EU_01",
      parts: [{ type: "STORAGE", storage_bytes: 10 * GiB, storage_backing: "hdd" }],
    });
    expect(est.body.hourly_rate).toBe(500);
  });

  it.each([
    ["no type", { region: "NA_01", unit_rate: 1 }, "type"],
    ["an unknown type", { type: "GPU", region: "NA_01", unit_rate: 1 }, "type"],
    ["no region", { type: "MEMORY", unit_rate: 1 }, "region"],
    ["an unknown region", { type: "MEMORY", region: "XX", unit_rate: 1 }, "region: unknown region XX"],
    ["no unit_rate", { type: "MEMORY", region: "NA_01" }, "unit_rate"],
    ["a negative unit_rate", { type: "MEMORY", region: "NA_01", unit_rate: -1 }, "unit_rate"],
    ["a fractional unit_rate", { type: "MEMORY", region: "NA_01", unit_rate: 1.5 }, "unit_rate"],
    ["a bandwidth card without direction", { type: "BANDWIDTH", region: "NA_01", unit_rate: 1 }, "direction"],
    ["an IP card without family", { type: "IP", region: "NA_01", unit_rate: 1 }, "family"],
    ["DDoS on IPv6", { type: "IP", region: "NA_01", unit_rate: 1, family: "IPv6", ddos: true }, "ddos"],
    ["a malformed effective_from", { type: "MEMORY", region: "NA_01", unit_rate: 1, effective_from: "tomorrow" }, "effective_from"],
    [
      "an effective_from in the past",
      { type: "MEMORY", region: "NA_01", unit_rate: 1, effective_from: "2026-01-01T00:00:00Z" },
      "effective_from: must not be in the past",
    ],
  ])("refuses %s with 400", async (_label, body, message) => {
    const res = await t.staff.post("/v1/prices", body);
    expect(res.status).toBe(400);
    expect(res.message).toContain(message);
  });

  it("refuses a second entry of a card at the same instant (409)", async () => {
    const from = new Date(Date.now() + 3_600_000).toISOString();
    const body = { type: "IP", region: "NA_01", family: "IPv4", unit_rate: 6_000, effective_from: from };
    expect((await t.staff.post("/v1/prices", body)).status).toBe(201);
    const dup = await t.staff.post("/v1/prices", { ...body, ddos: false, unit_rate: 7_000 });
    expect(dup.status).toBe(409);
    expect((await t.staff.post("/v1/prices", { ...body, ddos: true })).status).toBe(201);
  });
});

describe("usage", () => {
  /**
   * The bootstrap user's workspace: R1 10 h at 60,000/h, R2 running since 05:00 at 30,000/h,
   * R3 rebilled from 60,000 to 120,000 after an hour. Another owned workspace has R4; a workspace
   * owned by someone else (the user is only a member) has R5, which the user's summary leaves out.
   */
  function fixtures() {
    const r1 = makeSubject(t, {
      resourceName: "web-1",
      startedAt: at("2025-03-01T00:00:00Z"),
      endedAt: at("2025-03-01T10:00:00Z"),
      hourlyRate: 60_000,
    });
    const r2 = makeSubject(t, { resourceName: "db-1", resourceKind: "DISK", startedAt: at("2025-03-01T05:00:00Z"), hourlyRate: 30_000 });
    const r3a = makeSubject(t, {
      resourceName: "app-1",
      startedAt: at("2025-03-01T01:00:00Z"),
      endedAt: at("2025-03-01T02:00:00Z"),
      hourlyRate: 60_000,
    });
    makeSubject(t, {
      resourceId: r3a.resourceId,
      resourceName: "app-1",
      startedAt: at("2025-03-01T02:00:00Z"),
      endedAt: at("2025-03-01T03:00:00Z"),
      hourlyRate: 120_000,
    });
    const second = makeWorkspace(t, t.emu.userId, "second-space");
    const r4 = makeSubject(t, {
      workspaceId: second,
      resourceName: "batch",
      startedAt: at("2025-03-01T12:00:00Z"),
      endedAt: at("2025-03-01T12:30:00Z"),
      hourlyRate: 12_000,
    });
    const other = makeUser(t);
    const foreign = makeWorkspace(t, other.id, "foreign-space");
    t.emu.services.store.t.memberships.insert({
      id: t.emu.services.store.newId(),
      workspaceId: foreign,
      userId: t.emu.userId,
      role: "EDITOR",
      inviteId: null,
    });
    makeSubject(t, { workspaceId: foreign, startedAt: at("2025-03-01T00:00:00Z"), hourlyRate: 99_000 });
    return { r1, r2, r3: r3a, r4, second, other };
  }
  const day = { from: "2025-03-01T00:00:00Z", to: "2025-03-02T00:00:00Z" };

  it("summarises a user's owned workspaces: minutes overlapping the window and cost = minutes * hourly / 60", async () => {
    const f = fixtures();
    const res = await t.api.get("/v1/wallet/@me/usage", day);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      from: "2025-03-01T00:00:00.000Z",
      to: "2025-03-02T00:00:00.000Z",
      total_minutes: 600 + 1140 + 120 + 30,
      total_cost: 600_000 + 570_000 + 180_000 + 6_000,
      workspaces: [
        {
          workspace_id: t.workspaceId,
          workspace_name: "demo-workspace",
          total_minutes: 1860,
          total_cost: 1_350_000,
          resources: [
            { resource_id: f.r1.resourceId, resource_kind: "INSTANCE", resource_name: "web-1", minutes: 600, cost: 600_000 },
            { resource_id: f.r3.resourceId, resource_kind: "INSTANCE", resource_name: "app-1", minutes: 120, cost: 180_000 },
            { resource_id: f.r2.resourceId, resource_kind: "DISK", resource_name: "db-1", minutes: 1140, cost: 570_000 },
          ],
        },
        {
          workspace_id: f.second,
          workspace_name: "second-space",
          total_minutes: 30,
          total_cost: 6_000,
          resources: [{ resource_id: f.r4.resourceId, resource_kind: "INSTANCE", resource_name: "batch", minutes: 30, cost: 6_000 }],
        },
      ],
    });
    expect(BigInt(f.r1.resourceId)).toBeGreaterThan(2n ** 53n);
  });

  it("counts only the overlap with the window (from inclusive, to exclusive)", async () => {
    const f = fixtures();
    const res = await t.api.get(`/v1/workspaces/${t.workspaceId}/usage`, { from: "2025-03-01T09:30:00Z", to: "2025-03-01T10:30:00Z" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      workspace_id: t.workspaceId,
      workspace_name: "demo-workspace",
      from: "2025-03-01T09:30:00.000Z",
      to: "2025-03-01T10:30:00.000Z",
      total_minutes: 90,
      total_cost: 60_000,
      resources: [
        { resource_id: f.r1.resourceId, resource_kind: "INSTANCE", resource_name: "web-1", minutes: 30, cost: 30_000 },
        { resource_id: f.r2.resourceId, resource_kind: "DISK", resource_name: "db-1", minutes: 60, cost: 30_000 },
      ],
    });
  });

  it("reports one resource across its rebilled segments; unknown resources are 404", async () => {
    const f = fixtures();
    const res = await t.api.get(`/v1/workspaces/${t.workspaceId}/usage/${f.r3.resourceId}`, {
      from: "2025-03-01T01:30:00Z",
      to: "2025-03-01T02:30:00Z",
    });
    expect(res.body).toEqual({
      resource_id: f.r3.resourceId,
      resource_kind: "INSTANCE",
      resource_name: "app-1",
      minutes: 60,
      cost: 30_000 + 60_000,
    });
    const outside = await t.api.get(`/v1/workspaces/${t.workspaceId}/usage/${f.r3.resourceId}`, {
      from: "2025-04-01T00:00:00Z",
      to: "2025-04-02T00:00:00Z",
    });
    expect(outside.body).toMatchObject({ minutes: 0, cost: 0 });
    expect((await t.api.get(`/v1/workspaces/${t.workspaceId}/usage/${f.r4.resourceId}`, day)).status).toBe(404);
    expect((await t.api.get(`/v1/workspaces/${t.workspaceId}/usage/12345`, day)).status).toBe(404);
  });

  it("caps a subject's cost at hourly * 672 per calendar month", async () => {
    const s = makeSubject(t, { startedAt: at("2025-04-01T00:00:00Z"), endedAt: at("2025-05-02T00:00:00Z"), hourlyRate: 10_000 });
    const april = (
      await t.api.get(`/v1/workspaces/${t.workspaceId}/usage/${s.resourceId}`, { from: "2025-04-01T00:00:00Z", to: "2025-05-01T00:00:00Z" })
    ).body;
    expect(april).toMatchObject({ minutes: 30 * 24 * 60, cost: 10_000 * 672 });
    const lateApril = (
      await t.api.get(`/v1/workspaces/${t.workspaceId}/usage/${s.resourceId}`, { from: "2025-04-29T00:00:00Z", to: "2025-05-01T00:00:00Z" })
    ).body;
    expect(lateApril).toMatchObject({ minutes: 2 * 24 * 60, cost: 0 }); // the cap was reached on day 28
    const may = (
      await t.api.get(`/v1/workspaces/${t.workspaceId}/usage/${s.resourceId}`, { from: "2025-04-15T00:00:00Z", to: "2025-06-01T00:00:00Z" })
    ).body;
    expect(may).toMatchObject({ minutes: 17 * 24 * 60, cost: 10_000 * (672 - 14 * 24) + 10_000 * 24 });
  });

  it("validates from and to: required ISO 8601, from before to", async () => {
    for (const [query, field] of [
      [{ to: day.to }, "from is required"],
      [{ from: day.from }, "to is required"],
      [{ from: "yesterday", to: day.to }, "from must be an ISO 8601 timestamp"],
      [{ from: day.to, to: day.from }, "from must be before to"],
      [{ from: day.from, to: day.from }, "from must be before to"],
    ] as const) {
      const res = await t.api.get("/v1/wallet/@me/usage", query);
      expect(res.status).toBe(400);
      expect(res.message).toContain(field);
    }
  });

  it("resolves uid: @me or the caller's own id; other users' ids only for operators", async () => {
    const f = fixtures();
    expect((await t.api.get(`/v1/wallet/${t.emu.userId}/usage`, day)).body.total_cost).toBe(1_356_000);
    const other = await t.api.get(`/v1/wallet/${f.other.id}/usage`, day);
    expect(other.status).toBe(404);
    const asStaff = await t.staff.get(`/v1/wallet/${t.emu.userId}/usage`, day);
    expect(asStaff.body.total_cost).toBe(1_356_000);
    const foreignOwner = await t.staff.get(`/v1/wallet/${f.other.id}/usage`, day);
    expect(foreignOwner.body.workspaces[0]).toMatchObject({ workspace_name: "foreign-space", total_cost: 99_000 * 24 });
    expect((await t.staff.get("/v1/wallet/12345/usage", day)).status).toBe(404);
    expect((await t.api.get("/v1/wallet/me/usage", day)).status).toBe(400);
  });

  it("needs Read on the workspace for workspace usage; strangers get 404, no token 403", async () => {
    fixtures();
    const viewer = makeUser(t, { role: "VIEWER", grants: { WORKSPACE: "READ" } });
    expect((await viewer.api.get(`/v1/workspaces/${t.workspaceId}/usage`, day)).body.total_cost).toBe(1_350_000);
    const noGrant = makeUser(t, { role: "OWNER", grants: { INSTANCE: "READ" } });
    expect((await noGrant.api.get(`/v1/workspaces/${t.workspaceId}/usage`, day)).status).toBe(403);
    const stranger = makeUser(t);
    expect((await stranger.api.get(`/v1/workspaces/${t.workspaceId}/usage`, day)).status).toBe(404);
    const anon = await t.anon.get(`/v1/workspaces/${t.workspaceId}/usage`, day);
    expect(anon.status).toBe(403);
    expect(anon.text).toBe("");
    const wsToken = makeUser(t, { role: "OWNER", workspaceToken: true });
    expect((await wsToken.api.get("/v1/wallet/@me/usage", day)).status).toBe(403);
  });
});
