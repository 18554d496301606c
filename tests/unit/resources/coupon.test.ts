/**
 * Coupon: defaults and checks at preview, and the policy table (check and diff only; no API).
 */
import { couponDefinition } from "../../../resources/coupon";
import { checkOnly } from "../../support/preview";

describe("Coupon", () => {
  const p = checkOnly(couponDefinition);
  it("fills the API's defaults and drops duplicate flags", async () => {
    const r = await p.check!({}, { amount: 5_000_000, uses: 3, flags: ["BETA", "BETA"] });
    expect(r.failures).toEqual([]);
    expect(r.inputs).toEqual({ amount: 5_000_000, uses: 3, flags: ["BETA"], expiryDays: 30 });
  });
  it("rejects non-positive amounts and uses with the rule", async () => {
    const r = await p.check!({}, { amount: 0, uses: 1.5 });
    expect(r.failures!.map((f) => f.property).sort()).toEqual(["amount", "uses"]);
    expect(r.failures![0].reason).toMatch(/spec part 3/);
  });
  it("replaces on every change; a replacement that keeps the declared code deletes first", async () => {
    const olds = { amount: 1, uses: 1, code: "WELCOME", expiryDays: 30, flags: [] };
    expect(await p.diff!("1", olds, { ...olds, amount: 2 })).toMatchObject({ replaces: ["amount"], deleteBeforeReplace: true });
    expect(await p.diff!("1", olds, { ...olds, code: "OTHER" })).toMatchObject({ replaces: ["code"], deleteBeforeReplace: false });
    expect(await p.diff!("1", { ...olds, usesRemaining: 0 }, olds)).toMatchObject({ changes: false });
  });
});
