/**
 * A user's unit test of a program: under pulumi.runtime.setMocks, lookups are answered by the
 * mocks' `call` (token svc:index:<lookup>) instead of going to the network, in both forms.
 */
import * as pulumi from "@pulumi/pulumi";
import * as svc from "../../..";

const calls: pulumi.runtime.MockCallArgs[] = [];
const plan = {
  id: "42",
  name: "ryzen-4",
  group: "RYZEN",
  cpu: 4,
  memory: 8 * 2 ** 30,
  diskSize: 100 * 2 ** 30,
  upload: 1e8,
  download: 1e8,
  rate: 30_000,
  disabled: false,
  backupPlan: null,
};

beforeAll(async () => {
  await pulumi.runtime.setMocks(
    {
      newResource: (args) => ({ id: `${args.name}-id`, state: args.inputs }),
      call: (args) => {
        calls.push(args);
        // An invoke answers an object: list lookups take their list from `items`.
        if (args.token === "svc:index:getPlans") return { items: [plan] };
        if (args.token === "svc:index:getPlan") return plan;
        throw new Error(`unexpected invoke ${args.token}`);
      },
    },
    "project",
    "stack",
    false,
  );
});

const valueOf = <T>(o: pulumi.Output<T>) => new Promise<T>((resolve) => o.apply(resolve));

describe("lookups under pulumi.runtime.setMocks", () => {
  it("answers the plain form from the mocks, with the lookup's token and arguments", async () => {
    expect(await svc.getPlans({ group: "RYZEN" })).toEqual([plan]);
    expect(calls.at(-1)).toMatchObject({ token: "svc:index:getPlans", inputs: { group: "RYZEN" } });
  });

  it("answers the Output form from the mocks, its Input arguments resolved", async () => {
    const found = svc.getPlanOutput({ name: pulumi.output("ryzen-4") });
    expect(await valueOf(found.id)).toBe("42");
    expect(calls.at(-1)).toMatchObject({ token: "svc:index:getPlan", inputs: { name: "ryzen-4" } });
  });

  it("lets a resource use a looked-up value, all without an API", async () => {
    const vm = new svc.Instance("vm", { name: "vm", planId: svc.getPlanOutput({ name: "ryzen-4" }).id, region: "NA_01" });
    expect(await valueOf(vm.planId)).toBe("42");
  });
});
