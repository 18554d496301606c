/**
 * The quickstart (examples/quickstart) under a storm of every fault kind at once, through the real
 * pulumi engine: 5% of API requests answered 429, about 4% each 500, 502 and 503, and 15% of
 * POST/PUT/PATCH/DELETE connections dropped after the server committed the write.
 *
 * 429s are few because each one cuts the process's pace (provider/client/pace.ts), as a token at
 * its limit must: drawn at random, they say nothing of a limit, and at 20% they held the pace near
 * its floor, so the file spent minutes waiting (one quiet run: 20% took 447 s, 10% 103 s, 5% 23 s).
 * The pace under a real limit is tests/e2e/ratelimit.test.ts's.
 *
 * The measure is the emulator's inventory against the stack's state: `pulumi up` converges within
 * two runs, then every object the stack's resources stand for exists exactly once and nothing else
 * does (no orphan, no duplicate, nothing missing); `pulumi destroy`, faults still on, leaves the
 * inventory empty.
 *
 * Seeded: the emulator draws its faults from its seeded generator, so SVC_STORM_SEEDS=7 replays
 * seed 7's storm (the engine runs steps concurrently, so the draws follow the same sequence but
 * may land on other requests). CI runs one seed (each storm draws every fault kind; a second seed
 * doubled the file's 330 s for more of the same draws); the issue's measurement ran five
 * (SVC_STORM_SEEDS=1,2,3,4,5).
 */
import * as path from "node:path";
import { startE2E, type E2E, type StateResource } from "./harness";
import { expectStateMatchesInventory } from "./inventory";
import { setTimeout as sleep } from "node:timers/promises";

jest.setTimeout(900_000);

const SEEDS = (process.env.SVC_STORM_SEEDS ?? "101").split(",").map(Number);
const QUICKSTART = path.join(__dirname, "..", "..", "examples", "quickstart");

const WRITES = ["POST", "PUT", "PATCH", "DELETE"];
const STORM = [
  { kind: "status", status: 429, share: 0.05 },
  { kind: "status", status: 500, share: 0.04 },
  { kind: "status", status: 502, share: 0.04 },
  { kind: "status", status: 503, share: 0.04 },
  ...WRITES.map((method) => ({ kind: "drop", method, share: 0.15 })),
].map((rule) => ({ ...rule, path: "/v1/**" }));

/**
 * Draws can miss a kind in a short run (4% of ~150 requests is zero 0.2% of the time), so each
 * kind also hits once for certain: the VPC's create answered 429, a workflow poll answered 500,
 * 502 and 503, and the first instance create dropped after commit.
 */
const CERTAIN = [
  { kind: "status", status: 429, method: "POST", path: "/v1/workspaces/*/vpcs", times: 1 },
  ...[500, 502, 503].map((status) => ({ kind: "status", status, method: "GET", path: "/v1/workflows/*", times: 1 })),
  { kind: "drop", method: "POST", path: "/v1/workspaces/*/instances", times: 1 },
];

/** The quickstart's declared resources, by kind. */
const DECLARED = { Vpc: 1, Instance: 2, FirewallRule: 4, Disk: 1, K3sCluster: 1, K3sNode: 2, K3sSecret: 1, K3sService: 1 };

const kindOf = (r: StateResource) => r.type.split(":").pop()!;

/** Attempts of an operation until it succeeds (at most `limit`); how many it took, and the failures seen. */
async function attempts(limit: number, run: () => Promise<unknown>): Promise<{ runs: number; failures: string[] }> {
  const failures: string[] = [];
  for (let runs = 1; runs <= limit; runs++) {
    try {
      await run();
      return { runs, failures };
    } catch (err) {
      // What failed: the error lines first, then the provider's last few lines before them.
      const lines = (err as Error).message.split("\n");
      const errors = lines.filter((l) => /error/i.test(l));
      const progress = lines.filter((l) => /svc:/.test(l)).slice(-6);
      failures.push([...errors.slice(0, 10), ...progress].join("\n"));
    }
  }
  return { runs: limit + 1, failures };
}

/** The test's own reads face the storm too: asked again until answered. */
async function throughTheStorm(get: () => Promise<{ status: number; body: unknown }>): Promise<unknown> {
  for (let attempt = 1; ; attempt++) {
    const res = await get();
    if (res.status === 200) return res.body;
    if (attempt >= 50) throw new Error(`no answer through the storm after 50 tries (last ${res.status})`);
    await sleep(100);
  }
}

/** Each instance has exactly one boot disk of its own (the inventory check leaves those out). */
async function expectOneBootDiskEach(e2e: E2E, instanceIds: string[], diskIds: string[]): Promise<void> {
  const bootOf = new Map<string, number>();
  for (const id of diskIds) {
    const disk = (await throughTheStorm(() => e2e.emu.api.get(`/v1/disks/${id}`))) as { boot: boolean; instance: { id: string } | null };
    const owner = disk.instance ? String(disk.instance.id) : "";
    if (disk.boot && instanceIds.includes(owner)) bootOf.set(owner, (bootOf.get(owner) ?? 0) + 1);
  }
  expect(Object.fromEntries(instanceIds.map((i) => [i, bootOf.get(i) ?? 0]))).toEqual(Object.fromEntries(instanceIds.map((i) => [i, 1])));
}

describe.each(SEEDS)("the quickstart under a fault storm (seed %i)", (seed) => {
  let e2e: E2E;
  beforeAll(async () => {
    e2e = await startE2E(`storm-${seed}`, { programDir: QUICKSTART, seed });
    await e2e.stack.setConfig("svc-quickstart:dbPassword", { value: "storm-db-pw", secret: true });
    for (const rule of [...CERTAIN, ...STORM]) expect((await e2e.emu.control.post("/_emulator/faults", rule)).status).toBe(201);
  });
  afterAll(async () => {
    await e2e?.emu.control.delete("/_emulator/faults");
    await e2e?.stop();
  });

  it("converges within two pulumi up runs, and the state equals the API's inventory", async () => {
    const up = await attempts(2, () => e2e.up([]));
    console.log(
      `storm seed ${seed}: pulumi up converged in ${up.runs} run(s)${up.failures.length ? `; the first failed with:\n${up.failures.join("\n")}` : ""}`,
    );
    expect({ seed, ...up, converged: up.runs <= 2 }).toMatchObject({ converged: true });

    const fired = (
      (await e2e.emu.control.get("/_emulator/faults")).body as { faults: Array<{ kind: string; status?: number; fired: number }> }
    ).faults;
    // The storm really blew: every fault kind hit this run.
    const hits = (kind: string, status?: number) =>
      fired.filter((r) => r.kind === kind && r.status === status).reduce((n, r) => n + r.fired, 0);
    const counts = {
      429: hits("status", 429),
      500: hits("status", 500),
      502: hits("status", 502),
      503: hits("status", 503),
      drop: hits("drop"),
    };
    console.log(`storm seed ${seed}: faults fired ${JSON.stringify(counts)}`);
    for (const n of Object.values(counts)) expect(n).toBeGreaterThan(0);

    const recorded = await expectStateMatchesInventory(e2e, (path) => throughTheStorm(() => e2e.emu.api.get(path)));
    const inventory = (await e2e.inventoryTotal()).resources as Record<string, Array<{ id: string }>>;
    await expectOneBootDiskEach(
      e2e,
      recorded.Instance,
      (inventory.disks ?? []).map((row) => String(row.id)),
    );
    const state = await e2e.state();
    expect(Object.fromEntries(Object.keys(DECLARED).map((k) => [k, state.filter((r) => kindOf(r) === k).length]))).toEqual(DECLARED);
    // Derived objects: the two instances' memberships of the VPC, nothing else.
    expect((inventory.vpcMembers ?? []).length).toBe(2);
  });

  it("destroy, with the storm still on, leaves the inventory empty", async () => {
    const destroy = await attempts(2, () => e2e.destroy());
    if (destroy.failures.length)
      console.log(`storm seed ${seed}: pulumi destroy failed ${destroy.failures.length} time(s):\n${destroy.failures.join("\n")}`);
    expect({ seed, ...destroy, converged: destroy.runs <= 2 }).toMatchObject({ converged: true });
    expect(await e2e.state()).toEqual([]);
    const inventory = await e2e.inventoryTotal();
    expect(Object.entries(inventory.resources).filter(([, rows]) => rows.length > 0)).toEqual([]);
  });
});
