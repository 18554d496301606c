/**
 * A resource's name where the program declares none (provider/lifecycle/autoname.ts), and the
 * dynamic face's reading of `pulumi:autonaming` (provider/dynamic/autonaming.ts): pure, as tables.
 * Both faces' check, create and replacement through the emulator are tests/inprocess/autonaming.test.ts.
 */
import { createHash } from "node:crypto";
import { z } from "zod";
import { defaultName, fillName, type Asked, type Naming } from "../../../provider/lifecycle/autoname";
import { askedBy, drawRandom, settingFor, type AutonamingSetting, type StackNames } from "../../../provider/dynamic/autonaming";
import { compile } from "../../../provider/lifecycle/compile";
import { definitionOf, kinds } from "../../../resources/kinds";

const vpcName = z.string().min(4, "must be 4 to 32 characters").max(32, "must be 4 to 32 characters");
const SEED = new Uint8Array(32).fill(7);

describe("defaultName", () => {
  it.each([
    ["net", null, /^net-[0-9a-f]{7}$/, 11],
    ["net", 32, /^net-[0-9a-f]{7}$/, 11],
    ["a-logical-name-far-longer-than-the-limit", 32, /^a-logical-name-far-longe-[0-9a-f]{7}$/, 32],
    ["abc", 9, /^a-[0-9a-f]{7}$/, 9],
  ])("%s fitted to %s characters", (logical, max, shape, length) => {
    const name = defaultName(logical, max, SEED);
    expect(name).toMatch(shape);
    expect(name).toHaveLength(length);
  });
});

describe("fillName: the name check records", () => {
  const fill = (raw: Record<string, unknown>, recorded?: Record<string, unknown>, asked?: Asked) => {
    const naming: Naming = { logicalName: "net", seed: SEED, ...(asked ? { asked } : {}) };
    const named = fillName("name", vpcName, naming, recorded, raw);
    return { name: raw.name, marked: named.marked, failures: named.failures.map((f) => `${f.property}: ${f.reason}`) };
  };
  const seeded = defaultName("net", 32, createHash("sha256").update(SEED).digest());

  it.each<[string, Record<string, unknown>, Record<string, unknown> | undefined, Asked | undefined, ReturnType<typeof fill>]>([
    ["a declared name wins", { name: "mine" }, undefined, undefined, { name: "mine", marked: false, failures: [] }],
    ["a declared name wins over any mode", { name: "mine" }, undefined, { mode: "disable" }, { name: "mine", marked: false, failures: [] }],
    ["none declared: the default, from the engine's seed", {}, undefined, undefined, { name: seeded, marked: true, failures: [] }],
    ["none declared, one recorded: kept", {}, { name: "net-1234567" }, undefined, { name: "net-1234567", marked: true, failures: [] }],
    [
      "a proposed name",
      {},
      undefined,
      { mode: "propose", name: "dev-net-ab12", fresh: true },
      { name: "dev-net-ab12", marked: true, failures: [] },
    ],
    [
      "an enforced name with no random part: not made anew",
      {},
      undefined,
      { mode: "enforce", name: "net-verbatim", fresh: false },
      { name: "net-verbatim", marked: false, failures: [] },
    ],
    [
      "an asked name that breaks the rule, named",
      {},
      undefined,
      { mode: "enforce", name: "n", fresh: false },
      {
        name: undefined,
        marked: false,
        failures: ['name: the name pulumi:autonaming made, "n", breaks this kind\'s rule: must be 4 to 32 characters'],
      },
    ],
    [
      "disabled with none declared: refused with how to set it",
      {},
      { name: "net-1234567" },
      { mode: "disable" },
      {
        name: undefined,
        marked: false,
        failures: [
          'name: no name declared, and pulumi:autonaming\'s mode "disabled" makes none: declare name, or set pulumi:autonaming to another mode',
        ],
      },
    ],
  ])("%s", (_title, raw, recorded, asked, expected) => {
    expect(fill(raw, recorded, asked)).toEqual(expected);
  });

  it("a kind without a name field is left alone", () => {
    const raw = {};
    expect(fillName(undefined, undefined, { logicalName: "x" }, undefined, raw)).toEqual({ failures: [], relax: [], marked: false });
    expect(raw).toEqual({});
  });
});

// The one copy of each kind's name rule is its field's schema: the default name of the longest
// logical name must pass it.
describe("every kind with a name field names itself within its rule", () => {
  const named = kinds().filter((k) => definitionOf(k).autonamed);
  it("is the kinds with a name", () => {
    expect(named.sort()).toEqual(
      [
        "ApiToken",
        "App",
        "AppTemplate",
        "Disk",
        "Image",
        "Instance",
        "K3sSecret",
        "K3sService",
        "NetLoadBalancer",
        "Recipe",
        "SshKey",
        "Vpc",
        "Workspace",
      ].sort(),
    );
  });
  it.each(named)("%s", (kind) => {
    const c = compile(definitionOf(kind));
    const field = definitionOf(kind).autonamed!;
    for (const logical of ["x", "web", "a-logical-name-of-sixty-characters-to-overflow-every-limit-x"]) {
      const raw: Record<string, unknown> = {};
      expect(fillName(field, c.shape[field], { logicalName: logical }, undefined, raw).failures).toEqual([]);
      expect(z.safeParse(c.shape[field] as z.ZodType, raw[field]).success).toBe(true);
    }
  });
});

describe("pulumi:autonaming on the dynamic face", () => {
  const setting: AutonamingSetting = {
    mode: "verbatim",
    providers: {
      svc: { pattern: "${stack}-${name}", resources: { "svc:index:App": { mode: "disabled" } } },
      aws: { mode: "disabled" },
    },
  };
  it.each([
    ["svc:index:App", { mode: "disabled" }],
    ["svc:index:Vpc", { pattern: "${stack}-${name}" }],
    ["svc:index:Disk", { pattern: "${stack}-${name}" }],
  ])("the most specific setting wins: %s", (type, expected) => {
    expect(settingFor(setting, "svc", type)).toEqual(expected);
  });
  it("a provider entry that says nothing falls back to the stack's", () => {
    expect(settingFor({ mode: "verbatim", providers: { svc: { resources: {} } } }, "svc", "svc:index:Vpc")).toEqual({ mode: "verbatim" });
    expect(settingFor(undefined, "svc", "svc:index:Vpc")).toBeUndefined();
  });

  const stack: StackNames = { organization: "acme", project: "shop", stack: "pr-12", config: (k) => ({ region: "eu" })[k] };
  it.each<[string, Parameters<typeof askedBy>[0], Asked | undefined]>([
    ["default", { mode: "default" }, undefined],
    ["none", undefined, undefined],
    ["verbatim", { mode: "verbatim" }, { mode: "enforce", name: "web", fresh: false }],
    ["disabled", { mode: "disabled" }, { mode: "disable" }],
    [
      "a pattern of stack expressions",
      { pattern: "${organization}-${project}-${stack}-${config.region}-${name}" },
      { mode: "propose", name: "acme-shop-pr-12-eu-web", fresh: false },
    ],
    ["an enforced pattern", { pattern: "${name}", enforce: true }, { mode: "enforce", name: "web", fresh: false }],
  ])("%s", (_title, s, expected) => {
    expect(askedBy(s, "web", stack)).toEqual(expected);
  });
  it("a pattern's random parts are drawn each time, and make a replacement's name fresh", () => {
    const asked = askedBy({ pattern: "${name}-${hex(6)}-${alphanum(3)}-${string(2)}-${num(4)}" }, "web", stack);
    expect(asked).toEqual({ mode: "propose", name: expect.stringMatching(/^web-[0-9a-f]{6}-[a-z0-9]{3}-[a-z]{2}-[0-9]{4}$/), fresh: true });
    expect(drawRandom("${uuid}").name).toMatch(/^[0-9a-f-]{36}$/);
  });
  it("an unset config key fails as the engine's does", () => {
    expect(() => askedBy({ pattern: "${config.nope}-${name}" }, "web", stack)).toThrow('no value found for key "nope"');
  });
});
