/**
 * Part 3 wallets and coupons against the emulator over real HTTP: balance, grants, history,
 * movements, operator top-ups (idempotent by payment_ref), adjustments, refunds, wallet coupons,
 * the coupon catalogue and redemption. The clock is moved to a fixed instant so the metering
 * of running resources is exact.
 */
import { useTestEmulator, type TestEmulator } from "../src/testing";
import { makeSubject, makeUser, makeWorkspace, setClock } from "./k3sBilling";
import { setTimeout as sleep } from "node:timers/promises";

let t: TestEmulator;
let me: string;

useTestEmulator((started) => {
  t = started;
  me = `/v1/wallet/${t.emu.userId}`;
});

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const T0 = "2030-01-15T12:00:00.000Z";
const at = (iso: string) => Date.parse(iso);
const advance = (ms: number) => t.control.post("/_emulator/clock", { advanceMs: ms });

describe("wallet ledger", () => {
  it("starts empty", async () => {
    const res = await t.api.get("/v1/wallet/@me");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ balance: 0, usage: 0, overage: 0 });
    expect((await t.api.get("/v1/wallet/@me/grants")).body).toEqual([]);
  });

  it("goes negative with overage when usage exceeds the grants, and a top-up pays the debt", async () => {
    await setClock(t, T0);
    makeSubject(t, { startedAt: at("2030-01-15T00:00:00Z"), endedAt: at("2030-01-15T10:00:00Z"), hourlyRate: 60_000 });
    makeSubject(t, { startedAt: at("2029-12-31T00:00:00Z"), endedAt: at("2029-12-31T01:00:00Z"), hourlyRate: 60_000 }); // last month
    expect((await t.api.get("/v1/wallet/@me")).body).toEqual({ balance: -660_000, usage: 600_000, overage: 660_000 });
    await t.staff.post(`${me}/topup`, { amount: 1_000_000 });
    expect((await t.api.get("/v1/wallet/@me")).body).toEqual({ balance: 340_000, usage: 600_000, overage: 0 });
  });

  it("burns coupon credit before top-up credit, loses an expired coupon's remainder, and replays history by day", async () => {
    await setClock(t, T0);
    // Used before any credit existed: the first top-up pays it off.
    makeSubject(t, {
      resourceName: "early",
      startedAt: at("2030-01-15T00:00:00Z"),
      endedAt: at("2030-01-15T06:00:00Z"),
      hourlyRate: 100_000,
    });
    const topup = (await t.staff.post(`${me}/topup`, { amount: 10_000_000, payment_ref: "pay-1" })).body;
    const coupon = (await t.staff.post(`${me}/coupon`, { amount: 2_000_000, code: "welcome", expiry_days: 1 })).body;
    makeSubject(t, { resourceName: "worker", startedAt: at(T0), hourlyRate: 60_000 });

    await advance(10 * HOUR);
    expect((await t.api.get("/v1/wallet/@me")).body).toEqual({ balance: 10_800_000, usage: 1_200_000, overage: 0 });

    await advance(24 * HOUR); // the coupon expired 10 hours ago with 560,000 unused
    expect((await t.api.get("/v1/wallet/@me")).body).toEqual({ balance: 8_800_000, usage: 600_000 + 34 * 60_000, overage: 0 });

    const history = await t.api.get("/v1/wallet/@me/history", { from: "2030-01-15T00:00:00Z", to: "2030-01-17T00:00:00Z" });
    expect(history.status).toBe(200);
    expect(history.body).toEqual([
      {
        from: "2030-01-15T00:00:00.000Z",
        to: "2030-01-16T00:00:00.000Z",
        usage: 600_000 + 12 * 60_000,
        balance: 10_680_000,
        grant_balances: { [topup.id]: 9_400_000, [coupon.id]: 1_280_000 },
      },
      {
        from: "2030-01-16T00:00:00.000Z",
        to: "2030-01-17T00:00:00.000Z",
        usage: 22 * 60_000,
        balance: 8_800_000,
        grant_balances: { [topup.id]: 8_800_000, [coupon.id]: 0 },
      },
    ]);

    const monthly = await t.api.get("/v1/wallet/@me/history", {
      from: "2029-12-01T00:00:00Z",
      to: "2030-02-01T00:00:00Z",
      window: "MONTH",
    });
    expect(monthly.body.map((s: { from: string; usage: number; balance: number }) => [s.from, s.usage, s.balance])).toEqual([
      ["2029-12-01T00:00:00.000Z", 0, 0],
      ["2030-01-01T00:00:00.000Z", 600_000 + 34 * 60_000, 8_800_000],
    ]);
  });

  it("lists grants with their original amounts and expiry", async () => {
    await setClock(t, T0);
    await t.staff.post(`${me}/topup`, { amount: 5_000_000, payment_ref: "pay-9" });
    await t.staff.post(`${me}/coupon`, { amount: 1_000_000 });
    await t.staff.post(`${me}/adjust`, { amount: 250_000, memo: "goodwill" });
    const res = await t.api.get("/v1/wallet/@me/grants");
    expect(res.body).toEqual([
      {
        id: expect.any(String),
        type: "topup",
        amount: 5_000_000,
        effective_at: expect.stringMatching(/^2030-01-15T12:00/),
        expires_at: null,
        code: null,
        payment_ref: "pay-9",
      },
      {
        id: expect.any(String),
        type: "coupon",
        amount: 1_000_000,
        effective_at: expect.any(String),
        expires_at: expect.stringMatching(/^2030-02-14T12:00/),
        code: null,
        payment_ref: null,
      },
      {
        id: expect.any(String),
        type: "adjustment",
        amount: 250_000,
        effective_at: expect.any(String),
        expires_at: null,
        code: null,
        payment_ref: null,
      },
    ]);
  });

  it("validates history: window DAY by default, HOUR/WEEK/MONTH accepted, bounded segment count", async () => {
    const q = { from: "2030-01-01T00:00:00Z", to: "2030-01-03T00:00:00Z" };
    expect((await t.api.get("/v1/wallet/@me/history", q)).body).toHaveLength(2);
    expect((await t.api.get("/v1/wallet/@me/history", { ...q, window: "HOUR" })).body).toHaveLength(48);
    expect((await t.api.get("/v1/wallet/@me/history", { ...q, window: "week" })).body).toEqual([
      { from: "2030-01-01T00:00:00.000Z", to: "2030-01-03T00:00:00.000Z", usage: 0, balance: 0, grant_balances: {} },
    ]);
    const bad = await t.api.get("/v1/wallet/@me/history", { ...q, window: "FORTNIGHT" });
    expect(bad.status).toBe(400);
    expect(bad.message).toContain("window must be one of HOUR, DAY, WEEK, MONTH");
    const many = await t.api.get("/v1/wallet/@me/history", { from: "2020-01-01T00:00:00Z", to: "2030-01-01T00:00:00Z" });
    expect(many.status).toBe(400);
    expect(many.message).toContain("more than 1000 segments");
    expect((await t.api.get("/v1/wallet/@me/history", { from: q.from })).status).toBe(400);
  });
});

describe("operator writes", () => {
  it("tops up once per payment_ref: the second call is a no-op returning the first grant", async () => {
    const first = await t.staff.post(`${me}/topup`, { amount: 3_000_000, payment_ref: "stripe_pi_1" });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ type: "topup", amount: 3_000_000, payment_ref: "stripe_pi_1", expires_at: null, code: null });
    const again = await t.staff.post(`${me}/topup`, { amount: 3_000_000, payment_ref: "stripe_pi_1" });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect((await t.api.get("/v1/wallet/@me")).body.balance).toBe(3_000_000);
    expect((await t.api.get("/v1/wallet/@me/movements")).body.items).toHaveLength(1);
    const other = makeUser(t);
    const elsewhere = await t.staff.post(`/v1/wallet/${other.id}/topup`, { amount: 1, payment_ref: "stripe_pi_1" });
    expect(elsewhere.status).toBe(409);
    expect(elsewhere.message).toBe("payment_ref was already used for another wallet");
    // Without a payment_ref every call adds credit.
    await t.staff.post(`${me}/topup`, { amount: 1_000 });
    await t.staff.post(`${me}/topup`, { amount: 1_000 });
    expect((await t.api.get("/v1/wallet/@me")).body.balance).toBe(3_002_000);
  });

  it("adjusts both ways and refunds; refunds and debits never count as resource usage", async () => {
    await setClock(t, T0);
    makeSubject(t, { startedAt: at("2030-01-15T00:00:00Z"), endedAt: at("2030-01-15T01:00:00Z"), hourlyRate: 100_000 });
    await t.staff.post(`${me}/topup`, { amount: 1_000_000, payment_ref: "p1" });
    const up = await t.staff.post(`${me}/adjust`, { amount: 500_000, memo: "goodwill" });
    expect(up.status).toBe(200);
    expect(up.body).toEqual({ balance: 1_400_000, usage: 100_000, overage: 0 });
    expect((await t.staff.post(`${me}/adjust`, { amount: -200_000, memo: "correction" })).body).toEqual({
      balance: 1_200_000,
      usage: 100_000,
      overage: 0,
    });
    const refund = await t.staff.post(`${me}/refund`, { amount: 1_500_000, reference: "rf-7", memo: "card refund" });
    expect(refund.body).toEqual({ balance: -300_000, usage: 100_000, overage: 300_000 });
    const usage = await t.api.get("/v1/wallet/@me/usage", { from: "2030-01-01T00:00:00Z", to: "2030-02-01T00:00:00Z" });
    expect(usage.body.total_cost).toBe(100_000);

    const movements = (await t.api.get("/v1/wallet/@me/movements")).body.items;
    expect(
      movements.map((m: { type: string; amount: number; memo: string | null; reference: string | null }) => [
        m.type,
        m.amount,
        m.memo,
        m.reference,
      ]),
    ).toEqual([
      ["REFUND", -1_500_000, "card refund", "rf-7"],
      ["ADJUSTMENT", -200_000, "correction", null],
      ["ADJUSTMENT", 500_000, "goodwill", null],
      ["TOP_UP", 1_000_000, null, "p1"],
    ]);
    expect(movements[0]).toEqual({
      id: expect.any(String),
      type: "REFUND",
      amount: -1_500_000,
      memo: "card refund",
      reference: "rf-7",
      created_at: expect.stringMatching(/^2030-01-15T12:00/),
    });
  });

  it("adds an expiring coupon grant (default 30 days) with a COUPON movement", async () => {
    await setClock(t, T0);
    const res = await t.staff.post(`${me}/coupon`, { amount: 750_000, code: "spring-25" });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      type: "coupon",
      amount: 750_000,
      code: "SPRING-25",
      payment_ref: null,
      expires_at: expect.stringMatching(/^2030-02-14T12:00/),
    });
    const [movement] = (await t.api.get("/v1/wallet/@me/movements")).body.items;
    expect(movement).toMatchObject({ type: "COUPON", amount: 750_000, reference: "SPRING-25" });
    await advance(30 * DAY + 1_000);
    expect((await t.api.get("/v1/wallet/@me")).body.balance).toBe(0);
  });

  it.each([
    ["topup", { payment_ref: "x" }, "amount"],
    ["topup", { amount: 0 }, "amount"],
    ["topup", { amount: 1.5 }, "amount"],
    ["topup", { amount: 1, payment_ref: "" }, "payment_ref"],
    ["adjust", { amount: 0 }, "amount: must not be zero"],
    ["adjust", { memo: "x" }, "amount"],
    ["refund", { amount: -5 }, "amount"],
    ["coupon", { amount: 1, expiry_days: 0 }, "expiry_days"],
    ["coupon", { amount: 1, code: "no spaces" }, "code"],
  ])("refuses a bad %s body %j with 400", async (op, body, message) => {
    const res = await t.staff.post(`${me}/${op}`, body);
    expect(res.status).toBe(400);
    expect(res.message).toContain(message);
  });

  it("refuses user tokens (400, operator only) and workspace tokens (403); unknown wallets are 404", async () => {
    for (const op of ["topup", "adjust", "refund", "coupon"]) {
      const res = await t.api.post(`${me}/${op}`, { amount: 1 });
      expect(res.status).toBe(400);
      expect(res.message).toContain("administrator");
    }
    const ws = makeUser(t, { role: "OWNER", workspaceToken: true });
    expect((await ws.api.post(`${me}/topup`, { amount: 1 })).status).toBe(403);
    expect((await t.anon.post(`${me}/topup`, { amount: 1 })).status).toBe(403);
    expect((await t.staff.post("/v1/wallet/12345/topup", { amount: 1 })).status).toBe(404);
    // The operator's own wallet is @me for an operator session.
    expect((await t.staff.post("/v1/wallet/@me/topup", { amount: 7 })).status).toBe(201);
    expect((await t.staff.get("/v1/wallet/@me")).body.balance).toBe(7);
    expect((await t.api.get("/v1/wallet/@me")).body.balance).toBe(0);
  });
});

describe("wallet reads", () => {
  it("resolves to the caller's own wallet, or any wallet for operators", async () => {
    const other = makeUser(t);
    await t.staff.post(`/v1/wallet/${other.id}/topup`, { amount: 42 });
    expect((await other.api.get("/v1/wallet/@me")).body.balance).toBe(42);
    expect((await other.api.get(`/v1/wallet/${other.id}`)).body.balance).toBe(42);
    expect((await t.staff.get(`/v1/wallet/${other.id}`)).body.balance).toBe(42);
    const theirs = await t.api.get(`/v1/wallet/${other.id}`);
    expect(theirs.status).toBe(404);
    expect(theirs.message).toBe("Wallet not found");
    expect((await t.api.get(`/v1/wallet/${other.id}/movements`)).status).toBe(404);
    expect((await t.staff.get(`/v1/wallet/${other.id}/grants`)).body).toHaveLength(1);
    const ws = makeUser(t, { role: "OWNER", workspaceToken: true });
    const wsRead = await ws.api.get("/v1/wallet/@me");
    expect(wsRead.status).toBe(403);
    expect(wsRead.message).toContain("user-scoped token");
    expect((await t.anon.get("/v1/wallet/@me")).status).toBe(403);
  });

  it("pages movements newest first with page numbers and keyset cursors", async () => {
    for (let i = 1; i <= 5; i++) await t.staff.post(`${me}/topup`, { amount: i, payment_ref: `ref-${i}` });
    const amounts = (items: Array<{ amount: number }>) => items.map((m) => m.amount);
    const first = (await t.api.get("/v1/wallet/@me/movements", { limit: 2 })).body;
    expect(amounts(first.items)).toEqual([5, 4]);
    expect(first).toMatchObject({ hasNext: true, hasPrevious: false, before: null });
    const second = (await t.api.get("/v1/wallet/@me/movements", { limit: 2, after: first.after })).body;
    expect(amounts(second.items)).toEqual([3, 2]);
    expect(amounts((await t.api.get("/v1/wallet/@me/movements", { limit: 2, page: 3 })).body.items)).toEqual([1]);
    expect(amounts((await t.api.get("/v1/wallet/@me/movements", { limit: 2, before: second.before })).body.items)).toEqual([5, 4]);
    expect(amounts((await t.api.get("/v1/wallet/@me/movements", { sort: "amount" })).body.items)).toEqual([1, 2, 3, 4, 5]);
  });
});

describe("coupons", () => {
  const newCoupon = (over: Record<string, unknown> = {}) =>
    t.staff.post("/v1/coupons", { amount: 5_000_000, uses: 2, flags: ["BETA_K3S"], note: "launch promo", ...over });

  it("creates a coupon with a generated code and defaults (201)", async () => {
    const res = await newCoupon();
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      code: expect.stringMatching(/^[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}$/),
      amount: 5_000_000,
      expiry_days: 30,
      flags: ["BETA_K3S"],
      note: "launch promo",
      max_uses: 2,
      uses_remaining: 2,
      created_at: expect.any(String),
    });
    expect(BigInt(res.body.id)).toBeGreaterThan(2n ** 53n);
    expect((await t.staff.get(`/v1/coupons/${res.body.id}`)).body).toEqual(res.body);
    const inventory = (await t.control.get("/_emulator/inventory")).body.resources.coupons;
    expect(inventory).toEqual([{ id: res.body.id, name: res.body.code, workspaceId: null, state: null }]);
  });

  it("normalises a given code to upper case and refuses duplicates (409)", async () => {
    expect((await newCoupon({ code: "summer-2030" })).body.code).toBe("SUMMER-2030");
    const dup = await newCoupon({ code: "SUMMER-2030" });
    expect(dup.status).toBe(409);
    expect(dup.message).toBe("A coupon with code SUMMER-2030 already exists");
  });

  it.each([
    ["no amount", { amount: undefined }, "amount"],
    ["no uses", { uses: undefined }, "uses"],
    ["zero uses", { uses: 0 }, "uses"],
    ["a lower-case flag", { flags: ["beta"] }, "flags[0]"],
    ["a negative expiry", { expiry_days: -1 }, "expiry_days"],
    ["a long note", { note: "n".repeat(501) }, "note"],
  ])("refuses %s with 400", async (_label, over, field) => {
    const res = await newCoupon(over);
    expect(res.status).toBe(400);
    expect(res.message).toContain(field);
  });

  it("is operator only: user tokens 400, workspace tokens 403", async () => {
    const user = await t.api.post("/v1/coupons", { amount: 1, uses: 1 });
    expect(user.status).toBe(400);
    expect(user.message).toContain("administrator");
    expect((await t.api.get("/v1/coupons")).status).toBe(400);
    const ws = makeUser(t, { role: "OWNER", workspaceToken: true });
    expect((await ws.api.get("/v1/coupons")).status).toBe(403);
  });

  it("redeems once per user: credit as a coupon grant, flags on owned workspaces, 409 when used up", async () => {
    await setClock(t, T0);
    const coupon = (await newCoupon({ code: "launch" })).body;
    const second = makeWorkspace(t, t.emu.userId, "second-space", ["EXISTING"]);
    const res = await t.api.post("/v1/coupons/redeem", { code: "Launch" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      amount: 5_000_000,
      expires_at: expect.stringMatching(/^2030-02-14T12:00/),
      flags: ["BETA_K3S"],
      workspaces: 2,
    });
    const ws = t.emu.services.store.t.workspaces;
    expect(ws.get(t.workspaceId)!.flags).toEqual(["BETA_K3S"]);
    expect(ws.get(second)!.flags).toEqual(["EXISTING", "BETA_K3S"]);
    expect((await t.api.get("/v1/wallet/@me/grants")).body).toEqual([
      expect.objectContaining({ type: "coupon", amount: 5_000_000, code: "LAUNCH" }),
    ]);
    expect((await t.api.get("/v1/wallet/@me/movements")).body.items[0]).toMatchObject({
      type: "COUPON",
      amount: 5_000_000,
      reference: "LAUNCH",
      memo: "launch promo",
    });
    expect((await t.api.get("/v1/wallet/@me")).body.balance).toBe(5_000_000);

    const twice = await t.api.post("/v1/coupons/redeem", { code: "LAUNCH" });
    expect(twice.status).toBe(409);
    expect(twice.message).toBe("You have already redeemed this coupon");

    const bob = makeUser(t); // owns no workspace
    expect((await bob.api.post("/v1/coupons/redeem", { code: "LAUNCH" })).body).toMatchObject({ workspaces: 0 });
    expect((await t.staff.get(`/v1/coupons/${coupon.id}`)).body.uses_remaining).toBe(0);
    const carol = makeUser(t);
    const none = await carol.api.post("/v1/coupons/redeem", { code: "LAUNCH" });
    expect(none.status).toBe(409);
    expect(none.message).toBe("The coupon has no uses left");
  });

  it("answers 404 for an unknown code, 400 without one, 403 for workspace tokens", async () => {
    const unknown = await t.api.post("/v1/coupons/redeem", { code: "NOPE-NOPE" });
    expect(unknown.status).toBe(404);
    expect(unknown.message).toBe("Coupon not found");
    expect((await t.api.post("/v1/coupons/redeem", {})).status).toBe(400);
    await newCoupon({ code: "ws-token" });
    const ws = makeUser(t, { role: "OWNER", workspaceToken: true });
    expect((await ws.api.post("/v1/coupons/redeem", { code: "WS-TOKEN" })).status).toBe(403);
    expect((await t.anon.post("/v1/coupons/redeem", { code: "WS-TOKEN" })).status).toBe(403);
  });

  it("deletes unredeemed or partly redeemed coupons (204) but not used-up ones (409)", async () => {
    const fresh = (await newCoupon({ code: "fresh" })).body;
    expect((await t.staff.delete(`/v1/coupons/${fresh.id}`)).status).toBe(204);
    expect((await t.staff.get(`/v1/coupons/${fresh.id}`)).status).toBe(404);

    const partly = (await newCoupon({ code: "partly" })).body;
    await t.api.post("/v1/coupons/redeem", { code: "PARTLY" });
    expect((await t.staff.delete(`/v1/coupons/${partly.id}`)).status).toBe(204);

    const spent = (await newCoupon({ code: "spent", uses: 1 })).body;
    await t.api.post("/v1/coupons/redeem", { code: "SPENT" });
    const res = await t.staff.delete(`/v1/coupons/${spent.id}`);
    expect(res.status).toBe(409);
    expect(res.message).toContain("fully redeemed");
    expect((await t.staff.delete("/v1/coupons/12345")).status).toBe(404);
    // The credit already granted stays.
    expect((await t.api.get("/v1/wallet/@me")).body.balance).toBe(10_000_000);
  });

  it("lists coupons newest first with page numbers and keyset cursors", async () => {
    for (const code of ["c-one", "c-two", "c-three"]) {
      await newCoupon({ code });
      await sleep(5);
    }
    const codes = (items: Array<{ code: string }>) => items.map((c) => c.code);
    const page1 = (await t.staff.get("/v1/coupons", { limit: 2 })).body;
    expect(codes(page1.items)).toEqual(["C-THREE", "C-TWO"]);
    const next = (await t.staff.get("/v1/coupons", { limit: 2, after: page1.after })).body;
    expect(codes(next.items)).toEqual(["C-ONE"]);
    expect(codes((await t.staff.get("/v1/coupons", { limit: 2, page: 2 })).body.items)).toEqual(["C-ONE"]);
    expect(codes((await t.staff.get("/v1/coupons", { sort: "code" })).body.items)).toEqual(["C-ONE", "C-THREE", "C-TWO"]);
  });
});
