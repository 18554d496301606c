import {
  effectiveRate,
  gainPerSecond,
  grantedRate,
  initialPace,
  isPaced,
  onAnswer,
  PACE_SETTINGS,
  takeSlot,
  type PaceState,
} from "../../../provider/client/pace";

const settings = PACE_SETTINGS;
/** The pause after a 429 at its shortest (the spread drawn as 0). */
const noSpread = () => 0;
/** A state that got `n` requests through, one every `everyMs`, the last at `at`. */
const grantedUntil = (s: PaceState, at: number, n: number, everyMs: number): PaceState => ({
  ...s,
  granted: Array.from({ length: n }, (_, i) => at - (n - 1 - i) * everyMs),
});
/** `n` requests through over the whole 5 s window before 10 s (the first at 5 s). */
const grantedOverWindow = (s: PaceState, n: number): PaceState => ({
  ...s,
  granted: Array.from({ length: n }, (_, i) => 5000 + (i * 4999) / Math.max(1, n - 1)),
});

describe("the pace of one process (pure decisions)", () => {
  it("sends at once while no 429 has been seen and no cap is set", () => {
    const s = initialPace();
    expect(isPaced(s)).toBe(false);
    const first = takeSlot(s, 1000);
    expect(first.at).toBe(1000);
    expect(takeSlot(first.state, 1000).at).toBe(1000);
  });

  it("spaces requests at the cap from the start", () => {
    const s = initialPace(4);
    expect(isPaced(s)).toBe(true);
    const a = takeSlot(s, 1000);
    const b = takeSlot(a.state, 1000);
    const c = takeSlot(b.state, 1000);
    expect([a.at, b.at, c.at]).toEqual([1000, 1250, 1500]);
  });

  it.each([
    // [case, rate before, granted in the last 5 s, granted since the last cut, last cut at, retryAfterMs, rate after, paused until]
    ["the first 429 cuts to 0.7 of what got through", null, 50, 0, -Infinity, 1000, 0.7 * 10, 11_000],
    ["a later 429 cuts to 0.7 of what got through since the last cut (the reserve was empty at both)", 4, 50, 30, 0, 2000, 0.7 * 3, 12_000],
    ["never from more than the pace", 4, 50, 50, 0, 2000, 0.7 * 4, 12_000],
    [
      "never from less than 0.7 of the pace: one that sent less than it allowed is not cut far below its share",
      4,
      50,
      5,
      0,
      2000,
      0.7 * 0.7 * 4,
      12_000,
    ],
    ["from the pace when the last cut was under 2 s ago (too few answers to measure)", 4, 50, 2, 8_500, 2000, 0.6 * 4, 12_000],
    ["a 429 within 5 s of the last cut cuts to 0.6: the token is crowded", 4, 50, 12, 6_000, 2000, 0.6 * 3, 12_000],
    ["a 429 without Retry-After pauses a second", 20, 25, 150, 0, undefined, 0.7 * 15, 11_000],
    ["never below the floor", 0.1, 0, 0, 0, 1000, settings.minRate, 11_000],
  ] as const)("%s", (_case, rate, granted, grantedSinceCut, cutAt, retryAfterMs, after, pausedUntil) => {
    const s = grantedOverWindow({ ...initialPace(), rate, cutAt, grantedSinceCut }, granted);
    const next = onAnswer(s, { status: 429, sentAt: 9_990, waited: true, retryAfterMs }, 10_000, settings, noSpread);
    expect(next.rate).toBeCloseTo(after, 5);
    expect(next.pausedUntil).toBe(pausedUntil);
    expect(next.grantedSinceCut).toBe(0);
    expect(takeSlot(next, 10_001).at).toBe(pausedUntil);
  });

  it("measures a burst over at least two seconds: what the API took from its reserve at once is no rate", () => {
    const s = grantedUntil(initialPace(), 10_000, 24, 10);
    expect(grantedRate(s, 10_000)).toBe(12);
  });

  it("cuts once per episode: 429s for requests sent before the cut only extend the pause", () => {
    const s = grantedUntil({ ...initialPace(), rate: 10, grantedSinceCut: 100 }, 9_999, 50, 100);
    const cut = onAnswer(s, { status: 429, sentAt: 9_990, waited: true, retryAfterMs: 1000 }, 10_000, settings, noSpread);
    expect(cut.rate).toBeCloseTo(7, 5);
    const again = onAnswer(cut, { status: 429, sentAt: 9_995, waited: true, retryAfterMs: 2000 }, 10_050, settings, noSpread);
    expect(again.rate).toBe(cut.rate);
    expect(again.pausedUntil).toBe(12_050);
    const later = onAnswer({ ...again, grantedSinceCut: 10 }, { status: 429, sentAt: 12_100, waited: true, retryAfterMs: 1000 }, 12_200);
    expect(later.rate).toBeLessThan(cut.rate!);
  });

  it("spreads the pause over up to half the Retry-After again, so processes refused together come back apart", () => {
    const s = grantedUntil({ ...initialPace(), rate: 10, grantedSinceCut: 100 }, 9_999, 50, 100);
    const at = (random: number) =>
      onAnswer(s, { status: 429, sentAt: 9_990, waited: true, retryAfterMs: 2000 }, 10_000, settings, () => random).pausedUntil;
    expect([at(0), at(0.5), at(1)]).toEqual([12_000, 12_500, 13_000]);
  });

  it.each([
    // [case, waited, quiet seconds since the cut, the pace cut from, gain per second]
    ["regains 0.3 of the gap per second below the pace it was cut from", true, 1, 8, 0.3 * 3],
    ["grows by 0.15/s per second of sending once past it", true, 1, 5, 0.15],
    ["grows no quicker up to 10 s after the cut", true, 10, 5, 0.15],
    ["grows quicker the longer no 429 comes", true, 16, 5, 0.15 * 3],
    ["learns nothing from a request the pace did not hold", false, 16, 8, 0],
  ] as const)("%s", (_case, waited, quietS, ceiling, gain) => {
    const s: PaceState = { ...initialPace(), rate: 5, cutAt: 0, ceiling };
    const next = onAnswer(s, { status: 200, sentAt: quietS * 1000 - 10, waited }, quietS * 1000);
    // One answer at pace r adds gain / r: r answers (one second of sending) add `gain`.
    expect((next.rate! - 5) * 5).toBeCloseTo(gain, 5);
  });

  it.each([
    // [case, pace, quiet seconds since the cut, gain per second]
    ["at one request a second and above, the probe is absolute", 1, 1, 0.15],
    ["below it, relative to the pace: 0.15 x pace^2, so many processes with small shares probe gently together", 0.5, 1, 0.15 * 0.25],
    ["a tenth of the share probes a hundredth as fast", 0.1, 1, 0.15 * 0.01],
    ["and grows as quickly as the absolute one the longer no 429 comes", 0.5, 16, 0.15 * 0.25 * 3],
  ] as const)("%s", (_case, rate, quietS, gain) => {
    const s: PaceState = { ...initialPace(), rate, cutAt: 0, ceiling: rate };
    expect(gainPerSecond(s, quietS * 1000)).toBeCloseTo(gain, 6);
    const next = onAnswer(s, { status: 200, sentAt: quietS * 1000 - 10, waited: true }, quietS * 1000);
    expect((next.rate! - rate) * rate).toBeCloseTo(gain, 6);
  });

  it("never grows past the cap", () => {
    const s: PaceState = { ...initialPace(3), rate: 2.999, cutAt: 0 };
    expect(effectiveRate(onAnswer(s, { status: 200, sentAt: 1, waited: true }, 100_000))).toBe(3);
  });

  it("stays unpaced on answers other than 429, and ignores a lost answer", () => {
    const s = initialPace();
    expect(onAnswer(s, { status: 503, sentAt: 1, waited: false }, 2).rate).toBeNull();
    expect(onAnswer(s, { status: undefined, sentAt: 1, waited: false }, 2)).toBe(s);
  });
});
