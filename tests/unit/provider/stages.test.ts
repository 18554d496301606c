/**
 * The stages of the client's request pipeline (provider/client/stages.ts), each on its own with a
 * stand-in for the stages it wraps. The pipeline against real HTTP and real faults is in
 * tests/integration/provider/client.test.ts; on both faces in tests/inprocess/provider.test.ts and
 * faults.test.ts; through the engine in tests/e2e/ratelimit.test.ts.
 */
import { ApiError, NetworkError } from "../../../provider/errors";
import type { Limiter, Ticket } from "../../../provider/client/limiter";
import {
  isAmbiguous,
  mapErrors,
  pace,
  pipeline,
  retry,
  UnreachableError,
  type ApiRequest,
  type Handler,
  type HttpAnswer,
  type Outcome,
  type RetryEvent,
  type Stage,
} from "../../../provider/client/stages";

const request = (method = "GET"): ApiRequest => ({ method, path: "/v1/plans", opts: {}, deadline: Date.now() + 60_000 });
const response = (status: number, headers: Record<string, string> = {}) => ({ status, headers, data: "" }) as HttpAnswer;
/** A handler that answers the given outcomes in turn. */
const answers = (...outcomes: Outcome[]): Handler => {
  let i = 0;
  return async () => outcomes[Math.min(i++, outcomes.length - 1)];
};

describe("pipeline", () => {
  it("runs the stages outermost first and their endings in reverse", async () => {
    const seen: string[] = [];
    const named =
      (name: string): Stage =>
      (next) =>
      async (c) => {
        seen.push(`${name} in`);
        const outcome = await next(c);
        seen.push(`${name} out`);
        return outcome;
      };
    const send = pipeline(named("a"), named("b"), async () => (seen.push("send"), { status: 200 }));
    expect(await send(request())).toEqual({ status: 200 });
    expect(seen).toEqual(["a in", "b in", "send", "b out", "a out"]);
  });
});

describe("mapErrors", () => {
  const read = (outcome: Outcome) => mapErrors("http://api.test")(answers(outcome))(request());

  it("leaves a success without failure, reading its Retry-After", async () => {
    expect(await read({ response: response(200, { "retry-after": "2" }), status: 200 })).toMatchObject({
      retryAfterMs: 2000,
      failure: undefined,
    });
  });

  it("turns a non-2xx answer into an ApiError naming method, path, status and reason", async () => {
    const { failure, retryAfterMs } = await read({ response: response(503, { "x-message": "busy", "retry-after": "1" }), status: 503 });
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure!.message).toBe("GET /v1/plans answered 503 Service Unavailable: busy.");
    expect(retryAfterMs).toBe(1000);
  });

  it("tells a connection never made (naming the address) from one lost after sending", async () => {
    const refused = (await read({ code: "ECONNREFUSED" })).failure as NetworkError;
    expect(refused).toBeInstanceOf(UnreachableError);
    expect(refused.notSent).toBe(true);
    expect(refused.message).toMatch(/nothing answers at http:\/\/api\.test/);
    const reset = (await read({ code: "ECONNRESET" })).failure as NetworkError;
    expect(reset).not.toBeInstanceOf(UnreachableError);
    expect(reset.notSent).toBe(false);
  });
});

describe("pace", () => {
  const ticket: Ticket = { sentAt: 1, waitedMs: 30, waited: true };
  const limiter = () => {
    const events: unknown[][] = [];
    const fake = {
      admit: async (...args: unknown[]) => (events.push(["admit", ...args]), ticket),
      answered: (...args: unknown[]) => events.push(["answered", ...args]),
    };
    return { events, limiter: fake as unknown as Limiter };
  };

  it("admits the request by its priority and deadline, passes on the wait, then tells the answer", async () => {
    const { events, limiter: l } = limiter();
    const c = request("POST");
    let waited: number | undefined;
    await pace(l)(async (inner) => ((waited = inner.waitedMs), { status: 429, retryAfterMs: 5000 }))(c);
    expect(events).toEqual([
      ["admit", "change", c.deadline],
      ["answered", ticket, 429, 5000],
    ]);
    expect(waited).toBe(30);
  });

  it("counts nothing as answered when a stage inside refused to send (the engine is gone)", async () => {
    const { events, limiter: l } = limiter();
    await expect(
      pace(l)(() => {
        throw new Error("engine gone");
      })(request()),
    ).rejects.toThrow("engine gone");
    expect(events.map((e) => e[0])).toEqual(["admit"]);
  });
});

describe("retry", () => {
  const fast = { maxAttempts: 4, baseDelayMs: 1, maxDelayMs: 2 };
  const failed = (status: number, method = "GET"): Outcome => ({
    status,
    response: response(status),
    failure: new ApiError(method, "/v1/plans", status, null),
  });

  it("tries again while decide() allows, reporting each retry, and ends with the success", async () => {
    const events: RetryEvent[] = [];
    const outcome = await retry(fast, (e) => events.push(e))(answers(failed(503), failed(502), { status: 200 }))(request());
    expect(outcome.status).toBe(200);
    expect(events.map((e) => [e.attempt, e.cause])).toEqual([
      [1, "503"],
      [2, "502"],
    ]);
  });

  it("throws a POST's server fault at once, marked ambiguous", async () => {
    const events: RetryEvent[] = [];
    const err = await retry(fast, (e) => events.push(e))(answers(failed(502, "POST")))(request("POST")).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(isAmbiguous(err)).toBe(true);
    expect(events).toEqual([]);
  });
});
