/**
 * The billing lookups on both faces, in process (tests/support/inProcess.ts), with the emulator's
 * operator token: the estimate, wallet and usage lookups (the plugin's Invoke, a program's call on
 * the dynamic face) against the API after an instance has run for two hours of the emulator's
 * clock. They are no resource kind, so test:kind does not run them; Coupon, the billing kind, is
 * coupon.test.ts. A lookup called from a real program is tests/e2e/lookups.test.ts.
 */
import { describeEachFace, type Props, lastSeqOf, requestsSince } from "../support/inProcess";

const GiB = 1024 ** 3;
const HOUR_MS = 3_600_000;

describeEachFace(
  "The billing lookups (operator token)",
  (ctx) => {
    let wid: string;
    let demoUserId: string;
    let vmId: string;
    let from: string;
    let to: string;
    const staff = () => ctx().emu.staff;
    const lastSeq = () => lastSeqOf(ctx().emu);
    const requests = (since: number) => requestsSince(ctx().emu, since);
    const mutations = async (since: number) => (await requests(since)).filter((r) => r.method !== "GET" && r.path.startsWith("/v1/"));
    const invoke = async (lookup: string, args: Props) => (await ctx().face.invoke(lookup, args)) as Props;

    beforeAll(async () => {
      wid = ctx().emu.workspaceId;
      demoUserId = (await ctx().emu.api.get("/v1/users/@me")).body.id;
      // The demo user runs an instance for two hours of emulator time.
      const plans = (await ctx().emu.api.get("/v1/plans", { name: "lightning-2" })).body.items as Array<{ id: string; name: string }>;
      const start = Date.parse((await ctx().emu.control.get("/_emulator/clock")).body.now);
      const vm = await ctx().emu.api.post(`/v1/workspaces/${wid}/instances`, {
        type: "PLAN",
        name: "billed-vm",
        region: "NA_01",
        plan: BigInt(plans.find((p) => p.name === "lightning-2")!.id),
      });
      expect(vm.status).toBe(202);
      vmId = String(vm.body.resource.id);
      await ctx().emu.waitFor(`/v1/instances/${vmId}`, (b: { state: string }) => b.state === "AVAILABLE", 10_000);
      await ctx().emu.control.post("/_emulator/clock", { advanceMs: 2 * HOUR_MS });
      from = new Date(start - HOUR_MS).toISOString();
      to = new Date(start + 3 * HOUR_MS).toISOString();
    });

    it("the estimate lookup prices every part as the API does, and sends only the read-only estimate POST", async () => {
      const parts = [
        { type: "CPU", cpu: 2, serviceGroup: "LIGHTNING" },
        { type: "MEMORY", memoryBytes: 4 * GiB },
        { type: "STORAGE", storageBytes: 50 * GiB, storageBacking: "ceph" },
        { type: "BANDWIDTH", direction: "UPLOAD", speedBytesSec: 200_000_000 },
        { type: "FLOATING_IP", family: "IPv4", ddos: true },
      ];
      const apiParts = [
        { type: "CPU", cpu: 2, service_group: "LIGHTNING" },
        { type: "MEMORY", memory_bytes: 4 * GiB },
        { type: "STORAGE", storage_bytes: 50 * GiB, storage_backing: "ceph" },
        { type: "BANDWIDTH", direction: "UPLOAD", speed_bytes_sec: 200_000_000 },
        { type: "FLOATING_IP", family: "IPv4", ddos: true },
      ];
      const since = await lastSeq();
      const estimate = await invoke("getBillingEstimate", { region: "NA_01", parts });
      expect((await mutations(since)).map((r) => [`${r.method} ${r.path}`, r.body])).toEqual([
        ["POST /v1/billing/estimate", { region: "NA_01", parts: apiParts }],
      ]);
      const est = (await staff().post("/v1/billing/estimate", { region: "NA_01", parts: apiParts })).body;
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
    });

    it("the wallet lookups answer a user's wallet and the caller's own", async () => {
      const wallet = (await staff().get(`/v1/wallet/${demoUserId}`)).body;
      expect(await invoke("getWallet", { userId: demoUserId })).toEqual({
        balance: wallet.balance,
        usage: wallet.usage,
        overage: wallet.overage,
      });
      expect(wallet.usage).toBeGreaterThan(0);
      expect(await invoke("getWallet", {})).toEqual((await staff().get(`/v1/wallet/@me`)).body);
    });

    it("the usage lookups (a user's, a workspace's, one resource's) match the API's statements", async () => {
      const usage = (await staff().get(`/v1/wallet/${demoUserId}/usage`, { from, to })).body;
      const u = await invoke("getUsage", { from, to, userId: demoUserId });
      expect(u).toMatchObject({ totalMinutes: usage.total_minutes, totalCost: usage.total_cost });
      const demoWs = (u.workspaces as Array<{ workspaceId: string; resources: Array<Props> }>).find((x) => x.workspaceId === wid)!;
      const vmRow = demoWs.resources.find((r) => r.resourceId === vmId)!;
      expect(vmRow).toMatchObject({ resourceKind: "INSTANCE", resourceName: "billed-vm" });
      expect(vmRow.minutes).toBeGreaterThanOrEqual(120);
      expect(vmRow.cost).toBeGreaterThan(0);

      const wsUsage = (await staff().get(`/v1/workspaces/${wid}/usage`, { from, to })).body;
      expect(await invoke("getWorkspaceUsage", { from, to })).toEqual({
        workspaceId: wid,
        workspaceName: wsUsage.workspace_name,
        from: wsUsage.from,
        to: wsUsage.to,
        totalMinutes: wsUsage.total_minutes,
        totalCost: wsUsage.total_cost,
        resources: wsUsage.resources.map((r: Props) => ({
          resourceId: r.resource_id,
          resourceKind: r.resource_kind,
          resourceName: r.resource_name,
          minutes: r.minutes,
          cost: r.cost,
        })),
      });
      const vmUsage = (await staff().get(`/v1/workspaces/${wid}/usage/${vmId}`, { from, to })).body;
      expect(await invoke("getResourceUsage", { from, to, resourceId: vmId })).toEqual({
        resourceId: vmId,
        resourceKind: "INSTANCE",
        resourceName: "billed-vm",
        minutes: vmUsage.minutes,
        cost: vmUsage.cost,
      });
    });
  },
  { staff: true },
);
