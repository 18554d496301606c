/**
 * The policy pack's pricing and aggregation (policy/): which parts each kind is priced from, for
 * both faces' type tokens, inputs and recorded outputs; the stack's sum, its line, the breakdown
 * and the budget's verdict. The API is a fake that prices every unit at a known rate.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { EstimatePart, GetBillingEstimateArgs } from "../../resources/lookups/billing";
import { RunningBudget } from "../../policy/budget";
import { costOf } from "../../policy/estimate";
import { kindOf } from "../../provider/typeTokens";
import { plainProps, pricingOf, type PriceApi } from "../../policy/pricing";
import { kinds, definitionOf } from "../../resources/kinds";
import { breakdownLines, budgetExceeded, stackLine, usd } from "../../policy/report";
import { fromConfigureStack, stackFromEnv } from "../../policy/deployment";
import { qualified } from "../../policy/state";
import { AnalyzerStackConfigureRequest } from "@pulumi/pulumi/proto/analyzer_pb";

const GIB = 1024 ** 3;

/** Hourly micro-USD per part: recognisable numbers per type (and per region, to see the region used). */
const RATE: Record<EstimatePart["type"], number> = { CPU: 1000, MEMORY: 100, STORAGE: 10, BANDWIDTH: 1, FLOATING_IP: 5000 };

function fakeApi(): PriceApi & { asked: GetBillingEstimateArgs[] } {
  const asked: GetBillingEstimateArgs[] = [];
  return {
    asked,
    async estimate(args) {
      asked.push(args);
      const parts = args.parts.map((p) => {
        const quantity =
          p.type === "CPU" ? p.cpu : p.type === "MEMORY" ? p.memoryBytes / GIB : p.type === "STORAGE" ? p.storageBytes / GIB : 1;
        const hourlyRate = quantity * RATE[p.type] * (args.region === "EU_01" ? 2 : 1);
        return { type: p.type, quantity, unitRate: RATE[p.type], hourlyRate, monthlyPrice: hourlyRate * 672 };
      });
      const hourlyRate = parts.reduce((n, p) => n + p.hourlyRate, 0);
      return { hourlyRate, monthlyPrice: hourlyRate * 672, parts };
    },
    async plan(id) {
      if (id !== "42") throw new Error(`no plan with id ${id}`);
      return { name: "lightning-2", rate: 18000 };
    },
  };
}

describe("kindOf", () => {
  it.each([
    ["pulumi-nodejs:dynamic/svc:Instance", "Instance"],
    ["svc:index:Disk", "Disk"],
    ["pulumi:providers:svc", undefined],
    ["pulumi-nodejs:dynamic:Resource", undefined],
    ["aws:s3/bucket:Bucket", undefined],
  ])("%s -> %s", (type, kind) => expect(kindOf(type)).toBe(kind));
});

describe("pricingOf", () => {
  it("prices a PLAN instance by its plan and its default addresses (one IPv4, one IPv6)", () => {
    expect(pricingOf("Instance", { planId: "42", region: "NA_01" })).toEqual({
      request: {
        region: "NA_01",
        planId: "42",
        parts: [
          { type: "FLOATING_IP", family: "IPv4", ddos: false },
          { type: "FLOATING_IP", family: "IPv6" },
        ],
      },
    });
  });

  it("prices a CUSTOM instance by CPU of its group, memory, every storage entry and its declared addresses", () => {
    const props = {
      type: "CUSTOM",
      group: "RYZEN",
      cpu: 4,
      memoryBytes: 8 * GIB,
      region: "NA_01",
      storage: [{ sizeBytes: 50 * GIB, boot: true, backing: "CEPH" }],
      ips: [{ family: "IPv4", ddos: true }],
    };
    expect(pricingOf("Instance", props)).toEqual({
      request: {
        region: "NA_01",
        parts: [
          { type: "CPU", cpu: 4, serviceGroup: "RYZEN" },
          { type: "MEMORY", memoryBytes: 8 * GIB },
          { type: "STORAGE", storageBytes: 50 * GIB, storageBacking: "ceph" },
          { type: "FLOATING_IP", family: "IPv4", ddos: true },
        ],
      },
    });
  });

  it("prices a recorded instance by the addresses it holds (outputs carry ipAddresses, not ips)", () => {
    const recorded = {
      type: "PLAN",
      planId: "42",
      region: "NA_01",
      ipAddresses: [{ id: "1", address: "198.51.100.7", family: "IPv4", ddos: false }],
    };
    expect(pricingOf("Instance", recorded)).toMatchObject({ request: { parts: [{ type: "FLOATING_IP", family: "IPv4", ddos: false }] } });
  });

  it("prices a disk by size and backend, a standalone floating IP in the standalone region", () => {
    expect(pricingOf("Disk", { size: 20 * GIB, backend: "LOCAL", region: "EU_01" })).toEqual({
      request: { region: "EU_01", parts: [{ type: "STORAGE", storageBytes: 20 * GIB, storageBacking: "local" }] },
    });
    expect(pricingOf("FloatingIp", { family: "IPv6", ddos: false }, "EU_01")).toEqual({
      request: { region: "EU_01", parts: [{ type: "FLOATING_IP", family: "IPv6" }] },
    });
  });

  it("leaves kinds the API does not meter free", () => {
    for (const kind of ["Vpc", "FirewallRule", "K3sCluster", "K3sService"]) expect(pricingOf(kind, { name: "x" })).toEqual({ free: true });
  });

  // Pricing is part of each kind's spec (the compiler requires the member; this checks its content).
  it.each(kinds())("finds in %s's spec how it is priced, or why it is not metered", (kind) => {
    const pricing = definitionOf(kind).pricing;
    if ("notMetered" in pricing) expect(pricing.notMetered).toMatch(/\w{3,}.* \w{3,}/);
    else expect([typeof pricing.needs, typeof pricing.price]).toEqual(["function", "function"]);
  });

  it("meters exactly the kinds the API bills: instances, disks, floating IPs", () => {
    expect(kinds().filter((kind) => !("notMetered" in definitionOf(kind).pricing))).toEqual(["Disk", "Instance", "FloatingIp"]);
  });

  it("leaves a kind this version does not know free", () => {
    expect(pricingOf("Teapot", { name: "x" })).toEqual({ free: true });
  });

  it("names what is not known yet instead of guessing", () => {
    expect(pricingOf("Disk", { size: undefined, backend: "LOCAL", region: "NA_01" })).toEqual({ unpriced: "size not known until apply" });
    expect(pricingOf("Instance", { nodeId: "7", planId: "42" })).toEqual({
      unpriced: "placed by nodeId: its region is known only after create",
    });
  });

  it("reads properties through a proxy that throws on unknown values (as @pulumi/policy hands them)", () => {
    const unknownRegion = new Proxy({ size: 20 * GIB, backend: "LOCAL", region: "?" } as Record<string, unknown>, {
      get: (target, key) => {
        if (key === "region") throw new Error("unknown during preview");
        return target[key as string];
      },
    });
    expect(plainProps(unknownRegion)).toEqual({ size: 20 * GIB, backend: "LOCAL", region: undefined });
    expect(pricingOf("Disk", unknownRegion)).toEqual({ unpriced: "region not known until apply" });
  });
});

describe("costOf and the report", () => {
  const stack = [
    { name: "web-1", type: "pulumi-nodejs:dynamic/svc:Instance", props: { planId: "42", region: "NA_01" } },
    { name: "data", type: "svc:index:Disk", props: { size: 20 * GIB, backend: "LOCAL", region: "NA_01" } },
    { name: "net", type: "svc:index:Vpc", props: { name: "net" } },
    { name: "later", type: "svc:index:Disk", props: { size: undefined, backend: "LOCAL", region: "NA_01" } },
    { name: "bucket", type: "aws:s3/bucket:Bucket", props: {} },
  ];

  it("sums the priced resources of both faces, most expensive first, and lists what is not priced", async () => {
    const api = fakeApi();
    const cost = await costOf(stack, api);
    // web-1: plan 18000 + IPv4 5000 + IPv6 5000; data: 20 GiB x 10.
    expect(cost.resources.map((r) => [r.name, r.hourly])).toEqual([
      ["web-1", 28000],
      ["data", 200],
    ]);
    expect(cost.hourly).toBe(28200);
    expect(cost.monthly).toBe(28200 * 672);
    expect(cost.unpriced).toEqual([{ name: "later", reason: "size not known until apply" }]);
    expect(api.asked.map((a) => a.region)).toEqual(["NA_01", "NA_01"]);
  });

  it("says the stack's cost, its change against the current state, and each resource in one line", async () => {
    const proposed = await costOf(stack, fakeApi());
    const current = await costOf(stack.slice(1, 2), fakeApi());
    expect(stackLine("prod", proposed, current)).toBe(
      "svc cost of stack prod: $18.95/month ($0.0282/hour), +$18.82/month against current state ($0.13/month); 1 not priced yet",
    );
    expect(stackLine("prod", current, proposed)).toContain("-$18.82/month against current state ($18.95/month)");
    expect(stackLine("prod", proposed, "no stack")).toContain("change against current state unknown (no stack)");
    expect(breakdownLines(proposed)).toEqual([
      "  web-1 (Instance): $18.82/month = plan lightning-2 $0.0180/h + IPv4 address $0.0050/h + IPv6 address $0.0050/h",
      "  data (Disk): $0.13/month = 20 GiB local storage $0.0002/h",
      "  later: not priced (size not known until apply)",
    ]);
  });

  it("the budget passes at or under it, and otherwise names the budget, the estimate and the biggest contributors", async () => {
    const proposed = await costOf(stack, fakeApi());
    expect(budgetExceeded(proposed.monthly, proposed)).toBeUndefined();
    expect(budgetExceeded(10_000_000, proposed)).toBe(
      "estimated $18.95/month exceeds the budget maxMonthlyCost $10.00/month; biggest contributors: web-1 $18.82, data $0.13",
    );
  });

  it("formats micro-USD as dollars", () => {
    expect([usd(0), usd(1_234_567), usd(-500_000), usd(51_600, 4)]).toEqual(["$0.00", "$1.23", "-$0.50", "$0.0516"]);
  });
});

describe("RunningBudget", () => {
  const cost = (name: string, monthly: number) => ({ name, kind: "Instance", hourly: monthly / 672, monthly, lines: [] });

  it("answers once, at the resource that takes the running total over the budget", () => {
    const budget = new RunningBudget(25_000_000);
    expect(budget.add("urn:a", cost("a", 10_000_000))).toBeUndefined();
    expect(budget.add("urn:free", undefined)).toBeUndefined();
    expect(budget.add("urn:b", cost("b", 15_000_000))).toBeUndefined();
    expect(budget.add("urn:c", cost("c", 1_000_000))).toBe(
      "estimated $26.00/month exceeds the budget maxMonthlyCost $25.00/month; biggest contributors: b $15.00, a $10.00, c $1.00 (reached at c; resources declared after it are not counted)",
    );
    expect(budget.add("urn:d", cost("d", 5_000_000))).toBeUndefined();
  });

  it("counts a resource analyzed twice (a replacement's second pass) once", () => {
    const budget = new RunningBudget(25_000_000);
    expect(budget.add("urn:a", cost("a", 20_000_000))).toBeUndefined();
    expect(budget.add("urn:a", cost("a", 20_000_000))).toBeUndefined();
  });
});

it("the policy pack's version is the package's (the CLI shows it beside every result)", () => {
  const read = (p: string) => JSON.parse(fs.readFileSync(path.join(__dirname, "..", "..", p), "utf8")) as { version: string };
  expect(read("policy/package.json").version).toBe(read("package.json").version);
});

describe("the stack the engine runs the pack for (policy/deployment.ts)", () => {
  it("is read from the environment 3.163 and a language host of the engine's release give, PULUMI_NODEJS_* first", () => {
    const floor = { PULUMI_ORGANIZATION: "organization", PULUMI_PROJECT: "p", PULUMI_STACK: "dev" };
    expect(stackFromEnv(floor)).toEqual({ organization: "organization", project: "p", stack: "dev" });
    // What pulumi-language-nodejs's policy proxy sets on a newer CLI (no PULUMI_STACK).
    expect(stackFromEnv({ PULUMI_NODEJS_PROJECT: "p", PULUMI_NODEJS_STACK: "prod" })).toEqual({
      organization: undefined,
      project: "p",
      stack: "prod",
    });
    expect(stackFromEnv({ PULUMI_PROJECT: "p" })).toBeUndefined();
  });

  it("is read from ConfigureStack, with the stack's configuration and its secret keys", () => {
    const request = new AnalyzerStackConfigureRequest();
    request.setStack("e2e");
    request.setProject("svc-quickstart");
    request.setOrganization("organization");
    request.getConfigMap().set("svc:baseUrl", "http://127.0.0.1:1234");
    request.getConfigMap().set("svc:token", "secret-token");
    request.setConfigSecretKeysList(["svc:token"]);
    const told = fromConfigureStack(request);
    expect(told).toEqual({
      stack: { organization: "organization", project: "svc-quickstart", stack: "e2e" },
      config: { "svc:baseUrl": "http://127.0.0.1:1234", "svc:token": "secret-token" },
      secretKeys: ["svc:token"],
    });
    expect(qualified(told.stack)).toBe("organization/svc-quickstart/e2e");
    expect(qualified({ project: "p", stack: "s" })).toBe("organization/p/s");
  });
});
