/**
 * The policy pack `pulumi-svc` (policy/ in the package): `pulumi preview --policy-pack
 * node_modules/pulumi-svc/policy` prices every svc resource of the stack through the API and
 *
 *  - `svc-cost` (advisory, reports only): prints the stack's estimated monthly and hourly cost, the
 *    change against the current state, and a line per priced resource;
 *  - `svc-budget` (mandatory; config `maxMonthlyCost` in USD): fails when the estimate is above the
 *    budget, naming the budget, the estimate and the biggest contributors. `advisory` only warns.
 *
 * `svc-cost` is a stack policy: the engine runs it once every change is planned, with each
 * resource as it will be (a change's inputs, the recorded outputs of the rest). `svc-budget` is a
 * resource policy keeping a running total (budget.ts), so it stops a preview, and an up even
 * without its preview, before the resource that takes the stack over the budget is made.
 *
 * The API is reached with the stack's own settings (svc:baseUrl, svc:token, svc:workspaceId, or the
 * SVC_* environment): the CLI hands a policy pack the stack's configuration, in its environment or
 * in ConfigureStack (deployment.ts).
 */
import * as pulumi from "@pulumi/pulumi";
import { PolicyPack, type PolicyResource, type ResourceValidationPolicy, type StackValidationPolicy } from "@pulumi/policy";
import { RunningBudget } from "./budget";
import { costOf, type Priceable } from "./estimate";
import { STANDALONE_IP_REGION } from "./pricing";
import { memo, priceApi } from "./priceApi";
import { breakdownLines, stackLine, type StackCost } from "./report";
import { fromConfigureStack, listenForStack, stackFromEnv, type StackRef } from "./deployment";
import { recordedResources, type RecordedResource } from "./state";

const api = priceApi;

const nameOf = (urn: string) => urn.slice(urn.lastIndexOf("::") + 2);

/** The stack the engine runs the pack for, once it is named (deployment.ts). */
let stack: StackRef | undefined;
/**
 * The state as the deployment found it: asked as soon as the engine names the stack, when it
 * starts the pack, before any step (an up records each step as it completes).
 */
let recorded: Promise<RecordedResource[]> = Promise.reject(new Error("the engine named no stack"));
recorded.catch(() => undefined); // reported by currentCost when asked

function stackNamed(ref: StackRef): void {
  if (stack) return;
  stack = ref;
  recorded = recordedResources(ref);
  recorded.catch(() => undefined);
}

const fromEnv = stackFromEnv(process.env);
if (fromEnv) stackNamed(fromEnv);
listenForStack((request) => {
  const told = fromConfigureStack(request);
  // A language host of the engine's release put the configuration in PULUMI_CONFIG already.
  if (!process.env.PULUMI_CONFIG) pulumi.runtime.setAllConfig(told.config, told.secretKeys);
  stackNamed(told.stack);
});

/** The current state's cost, or why it is not known. */
const currentCost = memo(async (standaloneIpRegion: string): Promise<StackCost | string> => {
  try {
    return await costOf(
      (await recorded).map((r) => ({ name: nameOf(r.urn), type: r.type, props: r.outputs ?? {} })),
      api,
      standaloneIpRegion,
    );
  } catch (err) {
    return (err as Error).message.split("\n")[0];
  }
});

const asPriceable = (resources: PolicyResource[]): Priceable[] => resources.map((r) => ({ name: r.name, type: r.type, props: r.props }));

interface CostConfig {
  standaloneIpRegion?: string;
}
const COST_CONFIG_SCHEMA = { standaloneIpRegion: { type: "string", default: STANDALONE_IP_REGION } } as const;

const costPolicy: StackValidationPolicy = {
  name: "svc-cost",
  description:
    "Reports the stack's estimated monthly and hourly cost from the svc API's rate cards, and the change against the current state.",
  enforcementLevel: "advisory",
  configSchema: { properties: COST_CONFIG_SCHEMA },
  validateStack: async (args) => {
    const region = args.getConfig<CostConfig>().standaloneIpRegion ?? STANDALONE_IP_REGION;
    const name = stack?.stack ?? "(unknown)";
    // The CLI shows what a policy pack prints among the deployment's diagnostics. A report that
    // cannot be made (the API unreachable) says why and lets the deployment go on: the budget,
    // which fails on the same error, is the policy that guards.
    try {
      const [proposed, current] = await Promise.all([costOf(asPriceable(args.resources), api, region), currentCost(region)]);
      console.log([stackLine(name, proposed, current), ...breakdownLines(proposed)].join("\n"));
    } catch (err) {
      console.log(`svc cost of stack ${name}: not known (${(err as Error).message.split("\n")[0]})`);
    }
    await new Promise((resolve) => setTimeout(resolve, REPORT_SETTLE_MS));
  },
};

/**
 * How long the report waits before the policy answers. The engine reads a policy pack's stdout on
 * a goroutine of its own and turns each line into a diagnostic; the answer to this call lets the
 * deployment end, and a line not yet turned into a diagnostic by then is not shown. On a loaded
 * machine a fresh-clone CI once lost the whole report that way (the node22 smoke set, while the
 * floor's ran beside it).
 */
const REPORT_SETTLE_MS = 500;

interface BudgetConfig extends CostConfig {
  /** USD per month; without it there is no budget to check. */
  maxMonthlyCost?: number;
}

/** One running total per deployment (the CLI starts the pack for each), made at the first resource. */
let running: RunningBudget | undefined;

const budgetPolicy: ResourceValidationPolicy = {
  name: "svc-budget",
  description: "Stops a preview or an up whose estimated monthly cost is above maxMonthlyCost (USD).",
  enforcementLevel: "mandatory",
  configSchema: {
    properties: { maxMonthlyCost: { type: "number", minimum: 0 }, ...COST_CONFIG_SCHEMA },
  },
  validateResource: async (args, reportViolation) => {
    const config = args.getConfig<BudgetConfig>();
    if (config.maxMonthlyCost === undefined) return;
    running ??= new RunningBudget(Math.round(config.maxMonthlyCost * 1_000_000));
    const cost = await costOf(
      [{ name: args.name, type: args.type, props: args.props }],
      api,
      config.standaloneIpRegion ?? STANDALONE_IP_REGION,
    );
    const exceeded = running.add(args.urn, cost.resources[0]);
    if (exceeded) reportViolation(exceeded);
  },
};

new PolicyPack("pulumi-svc", { policies: [costPolicy, budgetPolicy] });
