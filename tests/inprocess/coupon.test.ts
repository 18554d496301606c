/**
 * Coupon on both faces, in process (tests/support/inProcess.ts), with the emulator's operator token
 * (coupons are operator only): coupons with a declared and a generated code, checked against the
 * API; no change for the same declaration; the refusals at preview, each rule named; every change
 * replacing, the old coupon deleted first when the code stays; redemptions read without a diff;
 * deletion read as gone; adoption; lost create answers; a token that is not an operator's; a fully
 * redeemed coupon the API will not delete. Coupon's defaults and diffs at preview are
 * tests/unit/resources/coupon.test.ts; the billing lookups are billingLookups.test.ts, and
 * retainOnDelete letting go of a resource is the engine's (tests/e2e/conformance.ts).
 */
import { setProgressSink } from "../../provider/runtime/progress";
import {
  CallError,
  describeEachFace,
  dynamicFace,
  pluginFace,
  up,
  type Props,
  type Recorded,
  lastSeqOf,
  requestsSince,
} from "../support/inProcess";

// Progress lines (notices such as a recovered create) are collected, not printed: both faces write them here.
const progress: string[] = [];
setProgressSink((line) => progress.push(line));

describeEachFace(
  "Coupon (operator token)",
  (ctx) => {
    const state: Record<string, Recorded> = {};
    const staff = () => ctx().emu.staff;
    const lastSeq = () => lastSeqOf(ctx().emu);
    const requests = (since: number) => requestsSince(ctx().emu, since);
    const mutations = async (since: number) => (await requests(since)).filter((r) => r.method !== "GET" && r.path.startsWith("/v1/"));
    const upLogged = async (name: string, declared: Props) => {
      const since = await lastSeq();
      const result = await up(ctx().face, "Coupon", declared, state[name]);
      state[name] = result.now;
      return { ...result, mutations: await mutations(since) };
    };

    const welcome: Props = { amount: 5_000_000, uses: 2, code: "Welcome-2026", flags: ["BETA_ACCESS", "BETA_ACCESS"], note: "welcome" };
    const generated: Props = { amount: 1_000_000, uses: 1 };

    it("creates coupons with a declared code (kept as declared, flags deduplicated) and a generated one", async () => {
      const w = await upLogged("welcome", welcome);
      expect(w.step).toBe("create");
      expect(w.now.outs).toMatchObject({
        code: "Welcome-2026",
        amount: 5_000_000,
        uses: 2,
        maxUses: 2,
        usesRemaining: 2,
        expiryDays: 30,
        flags: ["BETA_ACCESS"],
        note: "welcome",
      });
      expect((await staff().get(`/v1/coupons/${w.now.id}`)).body).toMatchObject({
        code: "WELCOME-2026",
        amount: 5_000_000,
        max_uses: 2,
        uses_remaining: 2,
        expiry_days: 30,
        flags: ["BETA_ACCESS"],
      });
      const g = await upLogged("generated", generated);
      expect(g.now.outs.code).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}$/);
      expect((await staff().get(`/v1/coupons/${g.now.id}`)).body).toMatchObject({ code: g.now.outs.code, max_uses: 1, note: null });
    });

    it("diffs the same declarations as no change and sends no mutating request", async () => {
      for (const [name, declared] of [
        ["welcome", welcome],
        ["generated", generated],
      ] as const) {
        const { step, mutations } = await upLogged(name, declared);
        expect({ name, step, mutations }).toEqual({ name, step: "same", mutations: [] });
      }
    });

    // tests/unit/resources/coupon.test.ts proves which properties a zero amount and fractional uses
    // fail on; the rule each names, and an empty flag, are proven here.
    it.each([
      ["a zero amount", { amount: 0 }, "amount", /must be at least 1 \(spec part 3/],
      ["a fractional number of uses", { uses: 1.5 }, "uses", /must be a whole number/],
      ["an empty flag", { flags: [""] }, "flags[0]", /must not be empty/],
    ])("refuses %s at preview, naming the property and the rule, before any API request", async (_what, change, property, reason) => {
      const since = await lastSeq();
      const { failures } = await ctx().face.check("Coupon", { ...welcome, ...change }, state.welcome.inputs);
      expect(failures).toEqual([{ property, reason: expect.stringMatching(reason) }]);
      expect(await requests(since)).toEqual([]);
    });

    it("replaces a coupon on any change; keeping the code, the old one is deleted first", async () => {
      const before = state.welcome.id;
      welcome.amount = 7_500_000;
      const { step, diff, now, mutations } = await upLogged("welcome", welcome);
      expect({ step, replaces: diff?.replaces, deleteBeforeReplace: diff?.deleteBeforeReplace }).toEqual({
        step: "replace",
        replaces: ["amount"],
        deleteBeforeReplace: true,
      });
      expect(now.id).not.toBe(before);
      expect(mutations.map((m) => `${m.method} ${m.path}`)).toEqual([`DELETE /v1/coupons/${before}`, "POST /v1/coupons"]);
      expect((await staff().get(`/v1/coupons/${before}`)).status).toBe(404);
      expect((await staff().get(`/v1/coupons/${now.id}`)).body).toMatchObject({ code: "WELCOME-2026", amount: 7_500_000 });
    });

    it("a read finds redemptions (usesRemaining) and the next diff is no change", async () => {
      expect((await ctx().emu.api.post("/v1/coupons/redeem", { code: "welcome-2026" })).status).toBe(200);
      const read = await ctx().face.read("Coupon", state.welcome.id, state.welcome.outs, state.welcome.inputs);
      expect(read.outs).toMatchObject({ usesRemaining: 1, maxUses: 2 });
      state.welcome = { ...state.welcome, outs: read.outs, ...(read.inputs ? { inputs: read.inputs } : {}) };
      const { step, mutations } = await upLogged("welcome", welcome);
      expect({ step, mutations }).toEqual({ step: "same", mutations: [] });
    });

    it("a read of a coupon deleted outside Pulumi answers no id (the engine drops it); the next up makes a new one", async () => {
      const gone = state.generated.id;
      expect((await staff().delete(`/v1/coupons/${gone}`)).status).toBe(204);
      expect((await ctx().face.read("Coupon", gone, state.generated.outs, state.generated.inputs)).id).toBe("");
      delete state.generated;
      const { step, now } = await upLogged("generated", generated);
      expect(step).toBe("create");
      expect(now.id).not.toBe(gone);
    });

    it("adopts an existing coupon by adoptId without any mutating request", async () => {
      const made = await staff().post("/v1/coupons", { amount: 2_000_000, uses: 5, code: "LEGACY-1", expiry_days: 60 });
      expect(made.status).toBe(201);
      const { now, mutations } = await upLogged("legacy", {
        amount: 2_000_000,
        uses: 5,
        code: "LEGACY-1",
        expiryDays: 60,
        adoptId: made.body.id,
      });
      expect(mutations).toEqual([]);
      expect(now.id).toBe(made.body.id);
      expect(now.outs).toMatchObject({ code: "LEGACY-1", usesRemaining: 5, expiryDays: 60 });
    });

    it("recovers from lost create answers (by code, and by fields for a generated code): one POST and one coupon each", async () => {
      await ctx().emu.control.post("/_emulator/faults", { kind: "drop", method: "POST", path: "/v1/coupons", times: 2 });
      const mark = progress.length;
      const byCode = await upLogged("dropped-code", { amount: 3_000_000, uses: 3, code: "DROPPED-1" });
      const byFields = await upLogged("dropped-gen", { amount: 3_333_333, uses: 4, note: "lost answer" });
      for (const { mutations } of [byCode, byFields]) expect(mutations.filter((m) => m.method === "POST")).toHaveLength(1);
      const all = (await staff().get("/v1/coupons", { limit: 100 })).body.items as Array<{ id: string; code: string; amount: number }>;
      expect(all.filter((c) => c.code === "DROPPED-1").map((c) => c.id)).toEqual([byCode.now.id]);
      expect(all.filter((c) => c.amount === 3_333_333).map((c) => c.id)).toEqual([byFields.now.id]);
      const found = progress.slice(mark).filter((line) => /the create answer was lost .* found the Coupon the API created/.test(line));
      expect(found).toHaveLength(2);
    });

    it("a fully redeemed coupon cannot be deleted: the message says why and names retainOnDelete", async () => {
      const { now } = await upLogged("once", { amount: 1_000_000, uses: 1, code: "ONCE-1" });
      expect((await ctx().emu.api.post("/v1/coupons/redeem", { code: "ONCE-1" })).status).toBe(200);
      await expect(ctx().face.delete("Coupon", now.id, now.outs)).rejects.toThrow(
        /Coupon ONCE-1: the API refuses to delete coupon \d+ \(409: The coupon is fully redeemed and is kept for the record\): only unredeemed coupons or those with uses remaining can be deleted.*set the retainOnDelete resource option/s,
      );
      expect((await staff().get(`/v1/coupons/${now.id}`)).body).toMatchObject({ code: "ONCE-1", uses_remaining: 0 });
      // The engine keeps a resource whose delete failed; retainOnDelete lets go of it without a delete.
      delete state.once;
    });

    it("deletes every deletable coupon; only the fully redeemed one is kept by the API", async () => {
      for (const name of Object.keys(state)) {
        await ctx().face.delete("Coupon", state[name].id, state[name].outs);
        delete state[name];
      }
      const inventory = (await ctx().emu.control.get("/_emulator/inventory")).body as {
        total: number;
        resources: Record<string, Array<{ name: string }>>;
      };
      expect(inventory.resources.coupons.map((c) => c.name)).toEqual(["ONCE-1"]);
      expect(inventory.total).toBe(1);
    });

    // Last: a dynamic-provider host process serves one configuration, so on the dynamic face a face
    // configured with another token replaces this one's settings for the rest of the file.
    it("refuses a token that is not an operator's with a message saying so, and keeps nothing", async () => {
      const settings = { baseUrl: ctx().emu.emu.url, token: ctx().emu.emu.token, workspaceId: ctx().emu.workspaceId };
      const user = await (ctx().face.name === "plugin" ? pluginFace : dynamicFace)(settings);
      try {
        const err = await up(user, "Coupon", { amount: 1, uses: 1 }).then(
          () => new Error("expected the create to fail, but it succeeded"),
          (e: unknown) => e,
        );
        expect(err).toBeInstanceOf(CallError);
        expect((err as CallError).message).toMatch(/coupons are operator only .*Set svc:token to an operator \(staff or system\) token/s);
        expect((err as CallError).kept).toBeUndefined();
      } finally {
        await user.stop();
      }
      const inventory = (await ctx().emu.control.get("/_emulator/inventory")).body as {
        resources: Record<string, Array<{ name: string }>>;
      };
      expect(inventory.resources.coupons.map((c) => c.name)).toEqual(["ONCE-1"]);
    });
  },
  { staff: true },
);
