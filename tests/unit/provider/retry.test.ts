import { backoffDelay, decide, DEFAULT_RETRY_RULES, parseRetryAfter } from "../../../provider/client/retry";

const policy = { maxAttempts: 4, baseDelayMs: 100, maxDelayMs: 1000 };

describe("retry policy", () => {
  it.each([
    ["GET", 429],
    ["GET", 500],
    ["GET", 502],
    ["GET", 503],
    ["GET", 504],
    ["PUT", 503],
    ["PATCH", 502],
    ["DELETE", 504],
    ["DELETE", 500],
  ])("retries %s on %i", (method, status) => {
    expect(decide({ method, attempt: 1, status }, policy)).toMatchObject({ retry: true });
  });

  it.each([400, 401, 403, 404, 409])("never retries a %i", (status) => {
    expect(decide({ method: "GET", attempt: 1, status }, policy)).toEqual({ retry: false, ambiguous: false });
  });

  it("retries a POST only when the server provably did not process it", () => {
    expect(decide({ method: "POST", attempt: 1, status: 429 }, policy)).toMatchObject({ retry: true });
    expect(decide({ method: "POST", attempt: 1, network: { notSent: true } }, policy)).toMatchObject({ retry: true });
  });

  it.each([[500], [502], [503], [504]])("treats a POST answered %i as ambiguous instead of resending it", (status) => {
    expect(decide({ method: "POST", attempt: 1, status }, policy)).toEqual({ retry: false, ambiguous: true });
  });

  it("treats a POST whose connection dropped as ambiguous", () => {
    expect(decide({ method: "POST", attempt: 1, network: { notSent: false } }, policy)).toEqual({ retry: false, ambiguous: true });
  });

  it("resends a POST the caller marked repeatable", () => {
    expect(decide({ method: "POST", attempt: 1, status: 503, repeatable: true }, policy)).toMatchObject({ retry: true });
  });

  it("tries a request that never reached the server only maxNotSentAttempts times", () => {
    const fewer = { ...policy, maxNotSentAttempts: 2 };
    const refused = (attempt: number, method = "GET") => decide({ method, attempt, network: { notSent: true } }, fewer, () => 0);
    expect(refused(1)).toMatchObject({ retry: true });
    expect(refused(2)).toEqual({ retry: false, ambiguous: false });
    expect(refused(2, "POST")).toEqual({ retry: false, ambiguous: false });
    // Other failures keep the full budget.
    expect(decide({ method: "GET", attempt: 2, status: 503 }, fewer)).toMatchObject({ retry: true });
    expect(decide({ method: "GET", attempt: 2, network: { notSent: false } }, fewer)).toMatchObject({ retry: true });
  });

  it("spends about a second or two, not ten attempts, on an address nothing answers at by default", () => {
    const p = DEFAULT_RETRY_RULES;
    let waited = 0;
    let attempt = 1;
    for (;;) {
      const d = decide({ method: "GET", attempt, network: { notSent: true } }, p, () => 1);
      if (!d.retry) break;
      waited += d.delayMs;
      attempt++;
    }
    expect(attempt).toBe(p.maxNotSentAttempts);
    expect(attempt).toBeLessThan(p.maxAttempts);
    expect(waited).toBeLessThanOrEqual(2_000);
  });

  it("gives up after maxAttempts", () => {
    expect(decide({ method: "GET", attempt: 4, status: 503 }, policy)).toEqual({ retry: false, ambiguous: false });
  });

  it("stops retrying when the wait would outlive the operation's deadline", () => {
    expect(decide({ method: "GET", attempt: 1, status: 500, remainingMs: 10_000 }, policy, () => 0)).toEqual({ retry: true, delayMs: 50 });
    expect(decide({ method: "GET", attempt: 1, status: 500, remainingMs: 40 }, policy, () => 0)).toEqual({
      retry: false,
      ambiguous: false,
    });
    expect(decide({ method: "GET", attempt: 1, status: 429, retryAfterMs: 5000, remainingMs: 4000 }, policy)).toEqual({
      retry: false,
      ambiguous: false,
    });
  });

  it("retries a 429 for as long as the deadline allows, however many attempts that takes", () => {
    expect(decide({ method: "POST", attempt: 50, status: 429, retryAfterMs: 1000, remainingMs: 60_000 }, policy)).toEqual({
      retry: true,
      delayMs: 1000,
    });
    expect(decide({ method: "POST", attempt: 50, status: 429, retryAfterMs: 1000, remainingMs: 900 }, policy)).toEqual({
      retry: false,
      ambiguous: false,
    });
    // Other failures keep their count; a 429 with no deadline at all keeps it too.
    expect(decide({ method: "GET", attempt: 50, status: 503, remainingMs: 60_000 }, policy)).toEqual({ retry: false, ambiguous: false });
    expect(decide({ method: "GET", attempt: 50, status: 429 }, policy)).toEqual({ retry: false, ambiguous: false });
  });

  it("honours Retry-After over the computed backoff", () => {
    expect(decide({ method: "GET", attempt: 1, status: 429, retryAfterMs: 3000 }, policy)).toEqual({ retry: true, delayMs: 3000 });
  });

  it("backs off exponentially with jitter, capped", () => {
    const low = (a: number) => backoffDelay(a, policy, () => 0);
    const high = (a: number) => backoffDelay(a, policy, () => 0.999999);
    expect([low(1), low(2), low(3)]).toEqual([50, 100, 200]);
    expect(high(1)).toBeLessThanOrEqual(100);
    expect(high(3)).toBeGreaterThan(low(3));
    expect(high(10)).toBeLessThanOrEqual(1000);
    expect(low(10)).toBe(500);
  });

  it("starts at a quarter second by default", () => {
    expect(DEFAULT_RETRY_RULES.baseDelayMs).toBeLessThanOrEqual(250);
  });

  it("reads Retry-After as seconds or an HTTP date", () => {
    expect(parseRetryAfter("2")).toBe(2000);
    const now = Date.parse("2026-11-22T00:00:00Z");
    expect(parseRetryAfter("Sun, 22 Nov 2026 00:00:05 GMT", now)).toBe(5000);
    expect(parseRetryAfter("soon")).toBeUndefined();
    expect(parseRetryAfter(undefined)).toBeUndefined();
  });
});
