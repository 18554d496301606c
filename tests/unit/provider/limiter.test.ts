import { Limiter, priorityOf, type LimiterClock } from "../../../provider/client/limiter";
import { memoryPace } from "../../../provider/client/paceStore";

/** A clock the test moves by hand: timers run in order of their time as it advances. */
function fakeClock() {
  let now = 0;
  let timers: Array<{ at: number; fn: () => void }> = [];
  const clock: LimiterClock = {
    now: () => now,
    after(ms, fn) {
      const t = { at: now + ms, fn };
      timers.push(t);
      return () => (timers = timers.filter((x) => x !== t));
    },
  };
  const flush = () => new Promise((r) => setImmediate(r));
  return {
    clock,
    now: () => now,
    /** Runs every timer due up to `to`, letting promises settle after each. */
    async advance(to: number) {
      for (;;) {
        await flush();
        const next = timers.filter((t) => t.at <= to).sort((a, b) => a.at - b.at)[0];
        if (!next) break;
        timers = timers.filter((t) => t !== next);
        now = next.at;
        next.fn();
      }
      now = to;
      await flush();
    },
  };
}

describe("the process's limiter", () => {
  it("treats GET as a read and every other method as a change", () => {
    expect(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"].map(priorityOf)).toEqual([
      "read",
      "read",
      "change",
      "change",
      "change",
      "change",
    ]);
  });

  it("lets requests through at once, uncounted as waiting, while unpaced", async () => {
    const t = fakeClock();
    const limiter = new Limiter(null, t.clock);
    const tickets = await Promise.all([limiter.admit("change"), limiter.admit("read")]);
    expect(tickets.map((x) => x.waitedMs)).toEqual([0, 0]);
    expect(limiter.stats()).toEqual({ sent: 2, rateLimited: 0, waitingMs: 0 });
  });

  it("gives the next slot to a change before a read that waited longer", async () => {
    const t = fakeClock();
    const limiter = new Limiter(2, t.clock);
    const order: string[] = [];
    const go = (name: string, p: "change" | "read") => limiter.admit(p).then(() => order.push(name));
    const all = [go("first", "change"), go("read-1", "read"), go("read-2", "read"), go("change-1", "change")];
    await t.advance(2000);
    await Promise.all(all);
    expect(order).toEqual(["first", "change-1", "read-1", "read-2"]);
    expect(limiter.stats()).toMatchObject({ sent: 4, waitingMs: 1500 });
  });

  it("holds every request until a 429's Retry-After has passed", async () => {
    const t = fakeClock();
    const limiter = new Limiter(null, t.clock, () => 0);
    const ticket = await limiter.admit("change");
    limiter.answered(ticket, 429, 3000);
    let sentAt = -1;
    const next = limiter.admit("read").then((x) => (sentAt = x.sentAt));
    await t.advance(2999);
    expect(sentAt).toBe(-1);
    await t.advance(3000);
    await next;
    expect(sentAt).toBe(3000);
    expect(limiter.stats()).toMatchObject({ rateLimited: 1 });
  });

  it("fails a request whose deadline comes before its slot, naming the rate limit", async () => {
    const t = fakeClock();
    const limiter = new Limiter(0.5, t.clock);
    await limiter.admit("change");
    const late = limiter.admit("change", 1000);
    const failed = late.catch((e: Error) => e.message);
    await t.advance(2000);
    expect(await failed).toMatch(/rate limit until the operation's deadline/);
  });
});

/**
 * K processes on one token, simulated: each sends its requests, 8 at a time, to an API that allows
 * `rate` requests/s with a burst of 20 and answers 429 (Retry-After 1 s) beyond it. The clock is
 * the test's, so this measures the policy, not the machine. Harsher than a real stack (every
 * process keeps 8 requests in flight, answered at once, from the first instant); the real
 * engine's figures are bench:ratelimit's (bench/README.md).
 */
async function simulate(
  processes: number,
  requestsEach: number,
  rate: number,
  machines: "one machine" | "a machine each" = "a machine each",
) {
  const t = fakeClock();
  let tokens = 20;
  let filledAt = 0;
  const api = (): { status: number; retryAfterMs?: number } => {
    tokens = Math.min(20, tokens + ((t.now() - filledAt) / 1000) * rate);
    filledAt = t.now();
    if (tokens >= 1) {
      tokens -= 1;
      return { status: 200 };
    }
    return { status: 429, retryAfterMs: 1000 };
  };
  // The pause's spread from a fixed sequence (a linear congruential generator), so each run is the same.
  let seed = 42;
  const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  // On one machine the processes share one pace (provider/client/paceStore.ts); on several, each has its own.
  const machine = memoryPace(null, "shared");
  const limiters = Array.from(
    { length: processes },
    () => new Limiter(null, t.clock, random, machines === "one machine" ? machine : memoryPace(null)),
  );
  const finished: number[] = [];
  let refused = 0;
  let answered = 0;
  /** Refused, of those sent after the first instant (when every process sends unpaced, knowing nothing yet). */
  let refusedAfterOpening = 0;
  const send = async (limiter: Limiter) => {
    for (;;) {
      const ticket = await limiter.admit("change");
      const answer = api();
      limiter.answered(ticket, answer.status, answer.retryAfterMs);
      if (answer.status === 200) return void answered++;
      refused++;
      if (ticket.sentAt > 0) refusedAfterOpening++;
    }
  };
  const processRun = async (limiter: Limiter, index: number) => {
    let left = requestsEach;
    const worker = async () => {
      while (left > 0) {
        left--;
        await send(limiter);
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    finished[index] = t.now();
  };
  const runs = Promise.all(limiters.map(processRun));
  for (let at = 0; finished.filter((f) => f !== undefined).length < processes && at < 900_000; at += 100) await t.advance(at);
  await runs;
  const floorMs = ((processes * requestsEach) / rate) * 1000;
  return {
    answered,
    share: refused / (answered + refused),
    shareAfterOpening: refusedAfterOpening / (answered + refused),
    wall: Math.max(...finished) / floorMs,
    fair: Math.min(...finished) / Math.max(...finished),
  };
}

describe("processes sharing one token (simulated)", () => {
  it("four on 10/s: all finish, under a tenth of requests refused, within 1.3x the time the limit allows, none starved", async () => {
    const r = await simulate(4, 200, 10);
    expect(r.answered).toBe(800);
    expect({ share: r.share < 0.1, wall: r.wall < 1.3, fair: r.fair > 0.5 }).toEqual({ share: true, wall: true, fair: true });
  });

  it("sixteen on 5/s on a machine each, each with a share under one request a second: all finish, within 1.3x, refused less than an absolute probe was", async () => {
    const r = await simulate(16, 50, 5);
    expect(r.answered).toBe(800);
    // The absolute probe alone (0.15 requests/s per second at any pace) had 40% refused here; the
    // issue's target, 5%, is not met by a pace each: bench/README.md, "Many processes on one token".
    expect({ share: r.share < 0.3, wall: r.wall < 1.3 }).toEqual({ share: true, wall: true });
  });

  it("sixteen on 5/s on one machine, sharing one pace: all finish, within 1.3x, at most 5% refused after the opening", async () => {
    const [one, each] = [await simulate(16, 50, 5, "one machine"), await simulate(16, 50, 5)];
    expect(one.answered).toBe(800);
    // The opening burst (128 requests at the first instant, 20 granted) is refused either way: no
    // process knows of the limit before its first answer. What the sharing changes is after it.
    expect({ share: one.shareAfterOpening <= 0.05, wall: one.wall < 1.3 }).toEqual({ share: true, wall: true });
    expect(one.shareAfterOpening).toBeLessThan(each.shareAfterOpening / 3);
  });
});
