/**
 * Billing end to end through the real pulumi engine: Coupon (operator only: this stack's
 * svc:token is the emulator's staff token) and the estimate, wallet and usage lookups, checked
 * against the API after an instance has run for a while on the emulator's clock.
 *
 * Kinds: Coupon (scripts/testsOf.js: this file is their end-to-end proof)
 */
import { startE2E, writes as requestLines, type Declaration, type E2E, type LoggedRequest } from "./harness";

jest.setTimeout(900_000);

const GiB = 1024 ** 3;
const HOUR_MS = 3_600_000;

describe("Billing through the real pulumi engine (operator token)", () => {
  let e2e: E2E;
  let wid: string;
  let demoUserId: string;
  let vmId: string;
  let from: string;
  let to: string;

  beforeAll(async () => {
    e2e = await startE2E("billing", { staff: true });
    wid = e2e.emu.workspaceId;
    demoUserId = (await e2e.emu.api.get("/v1/users/@me")).body.id;
    // The demo user runs an instance for two hours of emulator time.
    const plans = (await e2e.emu.api.get("/v1/plans", { name: "lightning-2" })).body.items as Array<{ id: string; name: string }>;
    const start = Date.parse((await e2e.emu.control.get("/_emulator/clock")).body.now);
    const vm = await e2e.emu.api.post(`/v1/workspaces/${wid}/instances`, {
      type: "PLAN",
      name: "billed-vm",
      region: "NA_01",
      plan: BigInt(plans.find((p) => p.name === "lightning-2")!.id),
    });
    expect(vm.status).toBe(202);
    vmId = String(vm.body.resource.id);
    await e2e.emu.waitFor(`/v1/instances/${vmId}`, (b: { state: string }) => b.state === "AVAILABLE", 10_000);
    await e2e.emu.control.post("/_emulator/clock", { advanceMs: 2 * HOUR_MS });
    from = new Date(start - HOUR_MS).toISOString();
    to = new Date(start + 3 * HOUR_MS).toISOString();
  });
  afterAll(async () => {
    await e2e?.stop();
  });

  const parts = [
    { type: "CPU", cpu: 2, serviceGroup: "LIGHTNING" },
    { type: "MEMORY", memoryBytes: 4 * GiB },
    { type: "STORAGE", storageBytes: 50 * GiB, storageBacking: "ceph" },
    { type: "BANDWIDTH", direction: "UPLOAD", speedBytesSec: 200_000_000 },
    { type: "FLOATING_IP", family: "IPv4", ddos: true },
  ];
  const welcome: Record<string, unknown> = {
    amount: 5_000_000,
    uses: 2,
    code: "Welcome-2026",
    flags: ["BETA_ACCESS", "BETA_ACCESS"],
    note: "e2e welcome",
  };
  const generated: Record<string, unknown> = { amount: 1_000_000, uses: 1 };
  const extra: Declaration[] = [];
  const declaration = (): Declaration[] => [
    { type: "Coupon", name: "welcome", args: { ...welcome } },
    { type: "Coupon", name: "generated", args: { ...generated } },
    { lookup: "getBillingEstimate", name: "estimate", args: { region: "NA_01", parts } },
    { lookup: "getWallet", name: "demoWallet", args: { userId: demoUserId } },
    { lookup: "getWallet", name: "myWallet", args: {} },
    { lookup: "getUsage", name: "usage", args: { from, to, userId: demoUserId } },
    { lookup: "getWorkspaceUsage", name: "wsUsage", args: { from, to } },
    { lookup: "getResourceUsage", name: "vmUsage", args: { from, to, resourceId: vmId } },
    ...extra,
  ];

  const staff = () => e2e.emu.staff;
  const exported = async (name: string) => (await e2e.stack.outputs())[name]?.value as Record<string, unknown>;
  /** Mutating requests, without the estimate (a read-only POST). */
  const writes = (requests: LoggedRequest[]) => requests.filter((r) => r.path !== "/v1/billing/estimate");
  const upLogged = async (decl = declaration()) => {
    const { result, mutations } = await e2e.upLogged(decl);
    return { result, mutations: writes(mutations) };
  };

  it("creates coupons (declared and generated codes); the estimate, wallet and usage lookups match the API", async () => {
    const result = await e2e.up(declaration());
    expect(result.summary.resourceChanges).toEqual({ create: 3 });

    const w = await e2e.resource("welcome");
    expect(w.outputs).toMatchObject({
      code: "Welcome-2026",
      amount: 5_000_000,
      uses: 2,
      maxUses: 2,
      usesRemaining: 2,
      expiryDays: 30,
      flags: ["BETA_ACCESS"],
      note: "e2e welcome",
    });
    expect((await staff().get(`/v1/coupons/${w.id}`)).body).toMatchObject({
      code: "WELCOME-2026",
      amount: 5_000_000,
      max_uses: 2,
      uses_remaining: 2,
      expiry_days: 30,
      flags: ["BETA_ACCESS"],
    });
    const g = await e2e.resource("generated");
    expect(g.outputs.code).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}$/);
    expect((await staff().get(`/v1/coupons/${g.id}`)).body).toMatchObject({ code: g.outputs.code, max_uses: 1, note: null });

    const apiParts = [
      { type: "CPU", cpu: 2, service_group: "LIGHTNING" },
      { type: "MEMORY", memory_bytes: 4 * GiB },
      { type: "STORAGE", storage_bytes: 50 * GiB, storage_backing: "ceph" },
      { type: "BANDWIDTH", direction: "UPLOAD", speed_bytes_sec: 200_000_000 },
      { type: "FLOATING_IP", family: "IPv4", ddos: true },
    ];
    const est = (await staff().post("/v1/billing/estimate", { region: "NA_01", parts: apiParts })).body;
    const estimate = await exported("estimate");
    expect(estimate).toEqual({
      hourlyRate: est.hourly_rate,
      monthlyPrice: est.monthly_price,
      parts: est.parts.map((p: Record<string, number>) => ({
        type: p.type,
        quantity: p.quantity,
        unitRate: p.unit_rate,
        hourlyRate: p.hourly_rate,
        monthlyPrice: p.monthly_price,
      })),
    });
    expect(estimate.monthlyPrice).toBe((estimate.hourlyRate as number) * 672);
    expect((estimate.parts as unknown[]).length).toBe(5);

    const wallet = (await staff().get(`/v1/wallet/${demoUserId}`)).body;
    expect(await exported("demoWallet")).toEqual({ balance: wallet.balance, usage: wallet.usage, overage: wallet.overage });
    expect(wallet.usage).toBeGreaterThan(0);
    expect(await exported("myWallet")).toEqual((await staff().get(`/v1/wallet/@me`)).body);

    const usage = (await staff().get(`/v1/wallet/${demoUserId}/usage`, { from, to })).body;
    const u = await exported("usage");
    expect(u).toMatchObject({ totalMinutes: usage.total_minutes, totalCost: usage.total_cost });
    const demoWs = (u.workspaces as Array<{ workspaceId: string; resources: Array<Record<string, unknown>> }>).find(
      (x) => x.workspaceId === wid,
    )!;
    const vmRow = demoWs.resources.find((r) => r.resourceId === vmId)!;
    expect(vmRow).toMatchObject({ resourceKind: "INSTANCE", resourceName: "billed-vm" });
    expect(vmRow.minutes).toBeGreaterThanOrEqual(120);
    expect(vmRow.cost).toBeGreaterThan(0);

    const wsUsage = (await staff().get(`/v1/workspaces/${wid}/usage`, { from, to })).body;
    expect(await exported("wsUsage")).toEqual({
      workspaceId: wid,
      workspaceName: wsUsage.workspace_name,
      from: wsUsage.from,
      to: wsUsage.to,
      totalMinutes: wsUsage.total_minutes,
      totalCost: wsUsage.total_cost,
      resources: wsUsage.resources.map((r: Record<string, unknown>) => ({
        resourceId: r.resource_id,
        resourceKind: r.resource_kind,
        resourceName: r.resource_name,
        minutes: r.minutes,
        cost: r.cost,
      })),
    });
    const vmUsage = (await staff().get(`/v1/workspaces/${wid}/usage/${vmId}`, { from, to })).body;
    expect(await exported("vmUsage")).toEqual({
      resourceId: vmId,
      resourceKind: "INSTANCE",
      resourceName: "billed-vm",
      minutes: vmUsage.minutes,
      cost: vmUsage.cost,
    });
  });

  it("previews no change and sends no mutating request (the estimate is a read-only POST)", async () => {
    const since = await e2e.lastSeq();
    const preview = await e2e.preview(declaration());
    expect(preview.changeSummary).toEqual({ same: 3 });
    expect(writes(await e2e.mutations(since))).toEqual([]);
  });

  it.each([
    ["a zero amount", { amount: 0 }, /amount.*must be at least 1.*spec part 3/s],
    ["a fractional number of uses", { uses: 1.5 }, /uses.*must be a whole number/s],
    ["an empty flag", { flags: [""] }, /flags\[0\].*must not be empty/s],
  ])("preview rejects %s, naming the property and the rule, before any API request", async (_what, change, message) => {
    const decl = declaration().map((d) => (d.name === "welcome" ? { ...d, args: { ...d.args, ...change } } : d));
    const since = await e2e.lastSeq();
    await expect(e2e.preview(decl)).rejects.toThrow(message);
    // Only the lookups (estimate, wallet, usage) reach the API; no resource check does.
    const lookups = /^\/v1\/(billing\/estimate|wallet\/.*|workspaces\/\d+\/usage(\/\d+)?)$/;
    expect((await e2e.requests(since)).filter((r) => !lookups.test(r.path))).toEqual([]);
  });

  it("replaces a coupon on any change; keeping the code, the old one is deleted first", async () => {
    const before = await e2e.idOf("welcome");
    welcome.amount = 7_500_000;
    const { result, mutations } = await upLogged();
    expect(result.summary.resourceChanges).toMatchObject({ replace: 1 });
    const after = await e2e.idOf("welcome");
    expect(after).not.toBe(before);
    expect(requestLines(mutations)).toEqual([`DELETE /v1/coupons/${before}`, "POST /v1/coupons"]);
    expect((await staff().get(`/v1/coupons/${before}`)).status).toBe(404);
    expect((await staff().get(`/v1/coupons/${after}`)).body).toMatchObject({ code: "WELCOME-2026", amount: 7_500_000 });
  });

  it("refresh reads redemptions (usesRemaining) without a diff, and drops a coupon deleted outside Pulumi", async () => {
    expect((await e2e.emu.api.post("/v1/coupons/redeem", { code: "welcome-2026" })).status).toBe(200);
    const gone = await e2e.idOf("generated");
    expect((await staff().delete(`/v1/coupons/${gone}`)).status).toBe(204);
    await e2e.refresh();
    expect(await e2e.outputsOf("welcome")).toMatchObject({ usesRemaining: 1, maxUses: 2 });
    expect((await e2e.state()).some((r) => r.urn.endsWith("::generated"))).toBe(false);
    const { result } = await upLogged();
    expect(result.summary.resourceChanges).toMatchObject({ create: 1 });
    expect(await e2e.idOf("generated")).not.toBe(gone);
    expect((await e2e.preview(declaration())).changeSummary).toEqual({ same: 3 });
  });

  it("adopts an existing coupon by adoptId without creating one", async () => {
    const made = await staff().post("/v1/coupons", { amount: 2_000_000, uses: 5, code: "LEGACY-1", expiry_days: 60 });
    expect(made.status).toBe(201);
    extra.push({
      type: "Coupon",
      name: "legacy",
      args: { amount: 2_000_000, uses: 5, code: "LEGACY-1", expiryDays: 60, adoptId: made.body.id },
    });
    const { mutations } = await upLogged();
    expect(mutations).toEqual([]);
    expect(await e2e.idOf("legacy")).toBe(made.body.id);
    expect(await e2e.outputsOf("legacy")).toMatchObject({ code: "LEGACY-1", usesRemaining: 5, expiryDays: 60 });
  });

  it("recovers from lost create answers (by code, and by fields for a generated code): one coupon each", async () => {
    expect((await e2e.emu.control.post("/_emulator/faults", { kind: "drop", method: "POST", path: "/v1/coupons", times: 2 })).status).toBe(
      201,
    );
    extra.push(
      { type: "Coupon", name: "dropped-code", args: { amount: 3_000_000, uses: 3, code: "DROPPED-1" } },
      { type: "Coupon", name: "dropped-gen", args: { amount: 3_333_333, uses: 4, note: "lost answer" } },
    );
    const { result, mutations } = await upLogged();
    expect(result.summary.resourceChanges).toMatchObject({ create: 2 });
    expect(mutations.filter((m) => m.method === "POST")).toHaveLength(2);
    const all = (await staff().get("/v1/coupons", { limit: 100 })).body.items as Array<{ id: string; code: string; amount: number }>;
    expect(all.filter((c) => c.code === "DROPPED-1").map((c) => c.id)).toEqual([await e2e.idOf("dropped-code")]);
    expect(all.filter((c) => c.amount === 3_333_333).map((c) => c.id)).toEqual([await e2e.idOf("dropped-gen")]);
    expect(e2e.output()).toMatch(/the create answer was lost .* found the Coupon the API created/);
  });

  it("a token that is not an operator's is refused with a message saying so", async () => {
    await e2e.stack.setConfig("svc:token", { value: e2e.emu.emu.token, secret: true });
    try {
      const message = await e2e.upFails([...declaration(), { type: "Coupon", name: "not-staff", args: { amount: 1, uses: 1 } }]);
      expect(message).toMatch(/coupons are operator only .*Set svc:token to an operator \(staff or system\) token/s);
    } finally {
      await e2e.stack.setConfig("svc:token", { value: e2e.emu.emu.staffToken, secret: true });
    }
    expect((await e2e.state()).some((r) => r.urn.endsWith("::not-staff"))).toBe(false);
  });

  it("a fully redeemed coupon cannot be deleted: a clear message, then retainOnDelete lets go of it", async () => {
    extra.push({ type: "Coupon", name: "once", args: { amount: 1_000_000, uses: 1, code: "ONCE-1" } });
    await e2e.up(declaration());
    const onceId = await e2e.idOf("once");
    expect((await e2e.emu.api.post("/v1/coupons/redeem", { code: "ONCE-1" })).status).toBe(200);
    const declared = extra.pop()!;
    const message = await e2e.upFails(declaration());
    expect(message).toMatch(
      /Coupon ONCE-1: the API refuses to delete coupon \d+ \(409: The coupon is fully redeemed and is kept for the record\): only unredeemed coupons or those with uses remaining can be deleted.*set the retainOnDelete resource option/s,
    );
    expect(await e2e.idOf("once")).toBe(onceId);
    await e2e.up([...declaration(), { ...declared, opts: { retainOnDelete: true } }]);
    await e2e.up(declaration());
    expect((await e2e.state()).some((r) => r.urn.endsWith("::once"))).toBe(false);
    expect((await staff().get(`/v1/coupons/${onceId}`)).body).toMatchObject({ code: "ONCE-1", uses_remaining: 0 });
  });

  it("destroy deletes every deletable coupon; only the fully redeemed one is kept by the API", async () => {
    await e2e.destroy();
    const deleted = await e2e.emu.api.delete(`/v1/instances/${vmId}`);
    await e2e.emu.waitWorkflow(deleted.body.id, 10_000);
    const inventory = await e2e.inventoryTotal();
    expect((inventory.resources.coupons as Array<{ name: string }>).map((c) => c.name)).toEqual(["ONCE-1"]);
    expect(inventory.total).toBe(1);
  });
});
