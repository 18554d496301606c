/**
 * Pace benchmark: the rate-limit policy alone (provider/client/limiter.ts, provider/client/pace.ts), K processes
 * on one token simulated on a clock of its own, so a scenario of minutes runs in a second and the
 * same seed gives the same figures. It is how the policy was tuned; bench:ratelimit, through the
 * real engine, is what the targets are judged on (bench/README.md, "Many processes on one token").
 *
 * Each process is a stack of N resources as bench/programs/svc declares them: N/2 Disks (a POST,
 * the workflow's T seconds, one poll and the read-back) and N/2 Vpcs (a POST). Its engine starts at
 * a random moment in the first `--start-spread` ms and asks for one resource every `--engine-ms`;
 * every answer takes `--latency-ms`. The API is a token bucket (R requests/s, burst 20) answering
 * 429 with Retry-After 1 s beyond it; `+cap` gives each process svc:maxRequestsPerSecond = R/K, as
 * bench:ratelimit's. The processes share one pace, as processes on one machine do (paceStore.ts);
 * `+alone` gives each its own, as processes on different machines have. Reported per scenario, over `--seeds` seeds: the share of
 * requests answered 429 and the wall time over the floor (the requests needed / R).
 *
 *   npm run build && node dist/bench/pace.bench.js [--scenarios 8x40@5/2,16x40@5/2] [--settings '{"increaseShare":0.01}']
 *
 * `--settings` overrides PACE_SETTINGS for the run, to compare policies side by side.
 */
import { Limiter, type LimiterClock, type Priority } from "../provider/client/limiter";
import { memoryPace } from "../provider/client/paceStore";
import { PACE_SETTINGS, type PaceSettings } from "../provider/client/pace";
import { environment, parseArgs, writeResult } from "./common";

const options = parseArgs({
  scenarios: {
    default: "1x100@10/2,4x100@10/2,8x40@5/2,16x40@5/2,1x200@2/10,4x100@10/2+alone,16x40@5/2+alone",
    help: "KxN@R/T[+cap][+alone] as bench:ratelimit",
  },
  settings: { default: "{}", help: "JSON merged over PACE_SETTINGS" },
  seeds: { default: "1,2,3", help: "seeds of the simulation's random numbers" },
  "start-spread": { default: "8000", help: "the engines start within this many ms" },
  "engine-ms": { default: "30", help: "ms between two resources an engine asks for" },
  "latency-ms": { default: "20", help: "ms each answer takes" },
  out: { default: "bench/results", help: "where the JSON result goes" },
});

interface Scenario {
  stacks: number;
  n: number;
  rate: number;
  workflowMs: number;
  /** svc:maxRequestsPerSecond on each process (R/K), or null. */
  cap: number | null;
  /** Each process keeps its own pace (processes on different machines). */
  alone: boolean;
  label: string;
}

function parseScenario(text: string): Scenario {
  const m = /^(\d+)x(\d+)@([\d.]+)\/([\d.]+)(\+cap)?(\+alone)?$/.exec(text.trim());
  if (!m) throw new Error(`bench: scenario "${text}" is not KxN@R/T[+cap][+alone] (e.g. 8x40@5/2)`);
  const [stacks, rate] = [+m[1], +m[3]];
  const cap = m[5] ? rate / stacks : null;
  return { stacks, n: +m[2], rate, workflowMs: +m[4] * 1000, cap, alone: !!m[6], label: text.trim() };
}

/** Timers in order of their time; `run` advances the clock from one to the next, letting promises settle between. */
function simulatedClock() {
  let now = 0;
  const timers: Array<{ at: number; fn: () => void; cancelled: boolean }> = [];
  const clock: LimiterClock = {
    now: () => now,
    after(ms, fn) {
      const t = { at: now + ms, fn, cancelled: false };
      timers.push(t);
      return () => (t.cancelled = true);
    },
  };
  const settle = () => new Promise<void>((r) => setImmediate(r));
  return {
    clock,
    sleep: (ms: number) => new Promise<void>((r) => clock.after(ms, r)),
    async run(done: () => boolean) {
      while (!done()) {
        await settle();
        let next = -1;
        for (let i = 0; i < timers.length; i++) if (!timers[i].cancelled && (next < 0 || timers[i].at < timers[next].at)) next = i;
        if (next < 0) continue;
        const [t] = timers.splice(next, 1);
        now = Math.max(now, t.at);
        t.fn();
      }
    },
  };
}

async function simulate(s: Scenario, seed: number) {
  const sim = simulatedClock();
  const now = sim.clock.now;
  let state = seed;
  const random = () => (state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  let tokens = 20;
  let filledAt = 0;
  let answered = 0;
  let refused = 0;
  const api = (): { status: number; retryAfterMs?: number } => {
    tokens = Math.min(20, tokens + ((now() - filledAt) / 1000) * s.rate);
    filledAt = now();
    if (tokens >= 1) {
      tokens -= 1;
      answered++;
      return { status: 200 };
    }
    refused++;
    return { status: 429, retryAfterMs: 1000 };
  };
  const finished: number[] = [];
  const machine = memoryPace(s.cap, "shared");
  const stack = async (index: number) => {
    const limiter = new Limiter(s.cap, sim.clock, random, s.alone ? memoryPace(s.cap) : machine);
    const send = async (priority: Priority) => {
      for (;;) {
        const ticket = await limiter.admit(priority);
        await sim.sleep(Number(options["latency-ms"]));
        const answer = api();
        limiter.answered(ticket, answer.status, answer.retryAfterMs);
        if (answer.status !== 429) return;
      }
    };
    const disk = async () => {
      await send("change");
      await sim.sleep(s.workflowMs);
      await send("read");
      await send("read");
    };
    await sim.sleep(random() * Number(options["start-spread"]));
    await Promise.all(
      Array.from({ length: s.n }, async (_, i) => {
        await sim.sleep(i * Number(options["engine-ms"]));
        return i % 2 ? send("change") : disk();
      }),
    );
    finished[index] = now();
  };
  let done = false;
  const all = Promise.all(Array.from({ length: s.stacks }, (_, k) => stack(k))).then(() => (done = true));
  await sim.run(() => done);
  await all;
  const needed = s.stacks * (Math.ceil(s.n / 2) * 3 + Math.floor(s.n / 2));
  const floorMs = (needed / s.rate) * 1000;
  return { share429: refused / (answered + refused), wallOverFloor: Math.max(...finished) / floorMs };
}

async function main() {
  const overrides = JSON.parse(options.settings) as Partial<PaceSettings>;
  Object.assign(PACE_SETTINGS, overrides);
  const seeds = options.seeds.split(",").map(Number);
  const results = [];
  console.log(`pace settings: ${JSON.stringify(PACE_SETTINGS)}`);
  console.log("\n| scenario | 429s (each seed) | wall / floor (each seed) |\n|---|---|---|");
  for (const s of options.scenarios.split(",").filter(Boolean).map(parseScenario)) {
    const runs = [];
    for (const seed of seeds) runs.push(await simulate(s, seed));
    results.push({ scenario: s, runs });
    const pct = runs.map((r) => `${(100 * r.share429).toFixed(1)}%`).join(", ");
    console.log(`| ${s.label} | ${pct} | ${runs.map((r) => r.wallOverFloor.toFixed(2)).join(", ")} |`);
  }
  const file = writeResult(options.out, "pace", { environment: environment(), options, settings: PACE_SETTINGS, results });
  console.log(`\nwritten ${file}`);
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
