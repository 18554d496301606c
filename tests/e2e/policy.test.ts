/**
 * The policy pack (policy/) through the real CLI: `--policy-pack` on the quickstart, both faces.
 * The estimate it prints equals what the emulator answers for the same parts (its plans' flat
 * rates and POST /v1/billing/estimate, asked here directly); a budget below it stops `pulumi up`
 * before anything is made (mandatory) or only warns (advisory); a bigger plan shows the difference
 * against the current state.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { HOURS_PER_MONTH } from "../../policy/pricing";
import { usd } from "../../policy/report";
import { PACKAGE_DIR, startE2E, type E2E } from "./harness";

jest.setTimeout(300_000);

const REPO = path.resolve(__dirname, "..", "..");
/** The pack as the package ships it (the installed copy on another SDK of the matrix). */
const POLICY = path.join(PACKAGE_DIR, "policy");
const GIB = 1024 ** 3;

/** The emulator's own prices (micro-USD per hour) of the quickstart's parts: its plans' flat rates and POST /v1/billing/estimate. */
async function emulatorPrices(e2e: E2E, planName: string): Promise<{ instance: number; stack: number }> {
  const plans = (await e2e.emu.api.get("/v1/plans", { name: planName })).body.items as Array<{ name: string; rate: number }>;
  const plan = plans.find((p) => p.name === planName)!;
  const estimate = async (parts: object[]) =>
    (await e2e.emu.api.post("/v1/billing/estimate", { region: "NA_01", parts })).body.hourly_rate as number;
  // A plan instance with its default addresses (one IPv4, one IPv6), and the 20 GiB LOCAL disk.
  const instance =
    plan.rate +
    (await estimate([
      { type: "FLOATING_IP", family: "IPv4", ddos: false },
      { type: "FLOATING_IP", family: "IPv6" },
    ]));
  const disk = await estimate([{ type: "STORAGE", storage_bytes: 20 * GIB, storage_backing: "local" }]);
  return { instance, stack: 2 * instance + disk };
}

/** The emulator's price of the whole quickstart, micro-USD per hour. */
const quickstartHourly = async (e2e: E2E, planName: string) => (await emulatorPrices(e2e, planName)).stack;

/** The stack's line the pack prints for this estimate. */
const stackLine = (hourly: number) => `${usd(hourly * HOURS_PER_MONTH)}/month (${usd(hourly, 4)}/hour)`;

/** A --policy-pack-config file for svc-budget. */
function budget(e2e: E2E, level: "mandatory" | "advisory", maxMonthlyCost: number): string {
  const file = path.join(e2e.dir, `budget-${level}.json`);
  fs.writeFileSync(file, JSON.stringify({ "svc-budget": { enforcementLevel: level, maxMonthlyCost } }));
  return file;
}

describe("policy pack on the TypeScript quickstart (dynamic resources)", () => {
  let e2e: E2E;
  let hourly: number;
  beforeAll(async () => {
    e2e = await startE2E("policy-ts", { programDir: path.join(REPO, "examples", "quickstart") });
    hourly = await quickstartHourly(e2e, "lightning-2");
  });
  afterAll(async () => {
    await e2e?.stop();
  });

  it("prints the stack's estimate, equal to the emulator's, with a line per priced resource", async () => {
    const preview = await e2e.stack.preview({ policyPacks: [POLICY], color: "never" });
    expect(preview.stdout).toContain(
      `svc cost of stack e2e: ${stackLine(hourly)}, ${usd(hourly * HOURS_PER_MONTH).replace("$", "+$")}/month against current state ($0.00/month)`,
    );
    expect(preview.stdout).toMatch(/web-1 \(Instance\): \$[\d.]+\/month = plan lightning-2 /);
    expect(preview.stdout).toMatch(/data \(Disk\): \$[\d.]+\/month = 20 GiB local storage /);
  });

  it("a mandatory budget below the estimate stops pulumi up before anything is made", async () => {
    const config = budget(e2e, "mandatory", 10);
    const since = await e2e.lastSeq();
    const failure = await e2e.cli(["up", "--yes", "--policy-pack", POLICY, "--policy-pack-config", config]).then(
      () => "",
      (err: Error & { stdout?: string }) => `${err.message}\n${err.stdout ?? ""}`,
    );
    const { instance } = await emulatorPrices(e2e, "lightning-2");
    expect(failure).toContain("[mandatory]  svc-budget");
    // The first instance the engine sees takes it over (the two register in either order).
    const first = /biggest contributors: (web-[12]) (\S+) \(reached at (web-[12]);/.exec(failure);
    expect(failure).toContain(`estimated ${usd(instance * HOURS_PER_MONTH)}/month exceeds the budget maxMonthlyCost $10.00/month`);
    expect(first?.slice(2)).toEqual([usd(instance * HOURS_PER_MONTH), first?.[1]]);
    // The estimate is a POST that creates nothing (spec part 3, Billing and usage); nothing else was sent.
    expect((await e2e.mutations(since)).filter((r) => r.path !== "/v1/billing/estimate")).toEqual([]);
    expect(await e2e.state()).toEqual([]);
  });

  it("without its preview (the automation API's up), it stops at the resource that takes the stack over the budget", async () => {
    const since = await e2e.lastSeq();
    const failure = await e2e.stack.up({ policyPacks: [POLICY], policyPackConfigs: [budget(e2e, "mandatory", 20)], color: "never" }).then(
      () => "",
      (err: Error) => err.message,
    );
    const { instance } = await emulatorPrices(e2e, "lightning-2");
    expect(failure).toContain(`estimated ${usd(2 * instance * HOURS_PER_MONTH)}/month exceeds the budget maxMonthlyCost $20.00/month`);
    // One instance is made; the other, which takes the stack over the budget, is not.
    const created = (await e2e.mutations(since))
      .filter((r) => r.method === "POST" && r.path.endsWith("/instances"))
      .map((r) => (r.body as { name: string }).name);
    expect(created).toEqual([expect.stringMatching(/^web-[12]$/)]);
    expect(failure).toContain(`(reached at ${created[0] === "web-1" ? "web-2" : "web-1"};`);
  });

  it("an advisory budget only warns", async () => {
    const preview = await e2e.stack.preview({ policyPacks: [POLICY], policyPackConfigs: [budget(e2e, "advisory", 10)], color: "never" });
    expect(preview.stdout).toContain("[advisory]  svc-budget");
    expect(preview.stdout).toContain("exceeds the budget maxMonthlyCost $10.00/month");
  });

  it("a bigger plan shows the difference against the current state", async () => {
    await e2e.up([]);
    await e2e.stack.setConfig("svc-quickstart:plan", { value: "lightning-4" });
    const bigger = await quickstartHourly(e2e, "lightning-4");
    const preview = await e2e.stack.preview({ policyPacks: [POLICY], color: "never" });
    expect(preview.stdout).toContain(
      `svc cost of stack e2e: ${stackLine(bigger)}, +${usd((bigger - hourly) * HOURS_PER_MONTH)}/month against current state (${usd(hourly * HOURS_PER_MONTH)}/month)`,
    );
    expect(preview.stdout).toMatch(/web-1 \(Instance\): \$[\d.]+\/month = plan lightning-4 /);
  });
});

describe("policy pack on the YAML quickstart (provider plugin)", () => {
  let e2e: E2E;
  beforeAll(async () => {
    e2e = await startE2E("policy-yaml", { programDir: path.join(REPO, "examples", "yaml-quickstart") });
  });
  afterAll(async () => {
    await e2e?.stop();
  });

  it("prints the same estimate as the emulator's, and the budget sees the plugin's resources too", async () => {
    const hourly = await quickstartHourly(e2e, "lightning-2");
    const preview = await e2e.stack.preview({ policyPacks: [POLICY], policyPackConfigs: [budget(e2e, "advisory", 1)], color: "never" });
    expect(preview.stdout).toContain(`svc cost of stack e2e: ${stackLine(hourly)}`);
    expect(preview.stdout).toMatch(/web-2 \(Instance\): \$[\d.]+\/month = plan lightning-2 /);
    expect(preview.stdout).toContain("[advisory]  svc-budget  (svc:index:Instance: web-");
    expect(preview.stdout).toContain("exceeds the budget maxMonthlyCost $1.00/month");
  });
});
