/**
 * What a person sees: which lines are shown, and the heartbeat's schedule and wording, decided
 * without a clock (a scripted one drives the heartbeat).
 */
import {
  formatElapsed,
  rateLimitSummary,
  rateWaitStatus,
  heartbeatMessage,
  nextBeatAt,
  setProgressSink,
  shown,
  startHeartbeat,
  verboseFrom,
  notice,
  detail,
  type HeartbeatClock,
  type ProgressKind,
} from "../../../provider/runtime/progress";

describe("which progress lines are shown", () => {
  it("shows notices and heartbeats always, details only when verbose", () => {
    expect(shown("notice", false)).toBe(true);
    expect(shown("heartbeat", false)).toBe(true);
    expect(shown("detail", false)).toBe(false);
    expect(shown("detail", true)).toBe(true);
  });

  it.each([
    ["1", true],
    ["true", true],
    ["YES", true],
    ["", false],
    ["0", false],
    [undefined, false],
  ])("PULUMI_SVC_VERBOSE=%s is verbose: %s", (value, expected) => {
    expect(verboseFrom(value === undefined ? {} : { PULUMI_SVC_VERBOSE: value })).toBe(expected);
  });

  it("hands every line to the sink with its kind, labelled with the resource", () => {
    const lines: Array<[string, ProgressKind]> = [];
    setProgressSink((line, kind) => lines.push([line, kind]));
    notice('Disk "d"', "the create answer was lost; adopted it");
    detail('Disk "d"', "created id 7");
    expect(lines).toEqual([
      ['svc: Disk "d": the create answer was lost; adopted it', "notice"],
      ['svc: Disk "d": created id 7', "detail"],
    ]);
  });
});

describe("the heartbeat", () => {
  it("beats every 10 s up to 30 s, then every 30 s: nothing before 10 s", () => {
    const beats: number[] = [];
    for (let at = nextBeatAt(0); at <= 150_000; at = nextBeatAt(at)) beats.push(at / 1000);
    expect(beats).toEqual([10, 20, 30, 60, 90, 120, 150]);
    expect(nextBeatAt(9_999)).toBe(10_000);
    expect(nextBeatAt(31_000)).toBe(60_000);
  });

  it("says what the operation is doing, how long it has taken and what it waits on", () => {
    expect(heartbeatMessage("create", 30_000, "workflow RUNNING")).toBe("still creating… (30s elapsed; workflow RUNNING)");
    expect(heartbeatMessage("delete", 90_000)).toBe("still deleting… (1m30s elapsed)");
    expect(heartbeatMessage("update", 10_000, "PROVISIONING")).toBe("still updating… (10s elapsed; PROVISIONING)");
    expect(formatElapsed(3_725_000)).toBe("1h2m5s");
  });

  /** A clock the test moves: timers fire when `advance` passes their time. */
  function scriptedClock() {
    let now = 0;
    let timers: Array<{ at: number; fn: () => void }> = [];
    const clock: HeartbeatClock = {
      now: () => now,
      after(ms, fn) {
        const timer = { at: now + ms, fn };
        timers.push(timer);
        return () => (timers = timers.filter((t) => t !== timer));
      },
    };
    const advance = (to: number) => {
      for (;;) {
        const due = timers.filter((t) => t.at <= to).sort((a, b) => a.at - b.at)[0];
        if (!due) break;
        timers = timers.filter((t) => t !== due);
        now = due.at;
        due.fn();
      }
      now = to;
    };
    return { clock, advance, pending: () => timers.length };
  }

  it("prints nothing for an operation that ends within 10 s, and stops when it ends", () => {
    const lines: string[] = [];
    setProgressSink((line) => lines.push(line));
    const { clock, advance, pending } = scriptedClock();
    const beat = startHeartbeat('Vpc "net"', "create", clock);
    advance(9_000);
    beat.stop();
    advance(60_000);
    expect(lines).toEqual([]);
    expect(pending()).toBe(0);
  });

  it("beats on schedule with the latest status while the operation runs", () => {
    const lines: Array<[string, ProgressKind]> = [];
    setProgressSink((line, kind) => lines.push([line, kind]));
    const { clock, advance } = scriptedClock();
    const beat = startHeartbeat('K3sCluster "c"', "create", clock);
    beat.status("workflow QUEUED");
    advance(15_000);
    beat.status("workflow RUNNING");
    advance(61_000);
    beat.stop();
    advance(200_000);
    expect(lines).toEqual([
      ['svc: K3sCluster "c": still creating… (10s elapsed; workflow QUEUED)', "heartbeat"],
      ['svc: K3sCluster "c": still creating… (20s elapsed; workflow RUNNING)', "heartbeat"],
      ['svc: K3sCluster "c": still creating… (30s elapsed; workflow RUNNING)', "heartbeat"],
      ['svc: K3sCluster "c": still creating… (1m0s elapsed; workflow RUNNING)', "heartbeat"],
    ]);
  });
});

describe("what waiting on the rate limit shows", () => {
  it("adds the time waited to the heartbeat from a second on", () => {
    expect(rateWaitStatus(900)).toBeUndefined();
    expect(rateWaitStatus(14_200)).toBe("waiting on the API's rate limit, 14s so far");
  });

  it("sums a process's paces into one line, and says nothing when nothing waited", () => {
    expect(rateLimitSummary([{ sent: 100, rateLimited: 0, waitingMs: 400 }])).toBeUndefined();
    expect(
      rateLimitSummary([
        { sent: 400, rateLimited: 9, waitingMs: 31_000 },
        { sent: 12, rateLimited: 0, waitingMs: 0 },
      ]),
    ).toBe("412 sent, 9 answered 429 (2.2%), 31s waiting on the API's rate limit");
  });
});
