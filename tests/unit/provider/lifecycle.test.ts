import { z } from "zod";
import { fieldSet, fromFields, input, owningWorkspace } from "../../../provider/fields/declare";
import { buildLifecycle, UNKNOWN } from "../../../provider/lifecycle";
import { type ResourceDefinition } from "../../../provider/definition";
import type { SvcClient } from "../../../provider/client/client";
import { setProgressSink } from "../../../provider/runtime/progress";
import { checkOnlyRuntime } from "../../support/preview";
import { depends, remember, replace, updateRequest, updateSteps } from "../../../provider/fields/changeEffects";

const steps = updateSteps("resize", "attach", "upgrade");

type Inputs = {
  name: string;
  size: number;
  region: string;
  portStart?: number;
  portEnd?: number;
  instanceId?: string;
  deletion?: string;
  tier?: number;
};

const widgetFields = fieldSet({
  workspaceId: owningWorkspace,
  name: input(z.string().min(4, "must be 4 to 32 characters"), { doc: "Name.", onChange: updateRequest }),
  size: input(z.number().int().positive("must be positive"), { doc: "Size.", onChange: steps.resize }),
  region: input(z.enum(["NA_01", "EU_01"]), { doc: "Region.", onChange: replace }),
  portStart: input(z.number().int().min(1).max(65535).optional(), { doc: "First port.", onChange: replace }),
  portEnd: input(z.number().int().min(1).max(65535).optional(), { doc: "Last port.", onChange: replace }),
  instanceId: input(z.string().optional(), { doc: "Instance.", onChange: steps.attach }),
  deletion: input(z.enum(["immediate", "scheduled"]).optional(), { doc: "How delete deletes.", onChange: remember }),
  // Upgrading is in place; downgrading recreates.
  tier: input(z.number().optional(), {
    doc: "Tier.",
    onChange: depends((old, next) => (Number(next) >= Number(old) ? steps.upgrade : replace)),
  }),
});

const definition: ResourceDefinition<Inputs> = {
  kind: "Widget",
  doc: "A test kind.",
  ...fromFields(widgetFields),
  rules: [
    {
      fields: ["portStart", "portEnd"],
      property: "portEnd",
      check: (i) => (i.portEnd !== undefined && i.portStart === undefined ? "port_end needs port_start" : undefined),
    },
  ],
  pricing: { notMetered: "a test kind" },
  uniqueKey: ["name"],
  stableOutputs: ["vlan"],
  broken: (o) => o.state === "FAILED",
  api: {
    create: async () => ({ id: "1" }),
    get: async () => undefined,
    delete: async () => null,
    settled: (o) => o.state === "AVAILABLE",
  },
};

const lifecycle = buildLifecycle(definition, checkOnlyRuntime("42"));
const valid: Inputs = { name: "widget-a", size: 10, region: "NA_01" };

describe("check", () => {
  it("accepts valid inputs and fills the default workspace", async () => {
    const r = await lifecycle.check!({}, valid);
    expect(r.failures).toEqual([]);
    expect(r.inputs).toEqual({ ...valid, workspaceId: "42" });
  });

  it("reports every violated constraint with the property path", async () => {
    const r = await lifecycle.check!({}, { name: "ab", size: -1, region: "MARS" });
    expect(r.failures!.map((f) => f.property).sort()).toEqual(["name", "region", "size"]);
    expect(r.failures!.find((f) => f.property === "name")!.reason).toBe("must be 4 to 32 characters");
  });

  it("checks cross-field rules", async () => {
    const r = await lifecycle.check!({}, { ...valid, portEnd: 80 });
    expect(r.failures).toEqual([{ property: "portEnd", reason: "port_end needs port_start" }]);
  });

  it("skips rules that read a value not known until up", async () => {
    const r = await lifecycle.check!({}, { ...valid, portStart: UNKNOWN, portEnd: 80 });
    expect(r.failures).toEqual([]);
    expect(r.inputs!.portStart).toBe(UNKNOWN);
  });

  it("still validates the known fields when others are unknown", async () => {
    const r = await lifecycle.check!({}, { ...valid, name: UNKNOWN, size: 0 });
    expect(r.failures!.map((f) => f.property)).toEqual(["size"]);
  });

  it("rejects an unknown property", async () => {
    const r = await lifecycle.check!({}, { ...valid, colour: "red" });
    expect(r.failures!.length).toBe(1);
    expect(r.failures![0].reason).toMatch(/colour/);
  });

  it("validates timeouts and adoptId", async () => {
    const r = await lifecycle.check!({}, { ...valid, timeouts: { create: "soon" }, adoptId: "abc" });
    expect(r.failures!.map((f) => f.property).sort()).toEqual(["adoptId", "timeouts.create"]);
  });

  it("asks for a workspace when none is configured", async () => {
    const r = await buildLifecycle(definition, checkOnlyRuntime(null)).check!({}, valid);
    expect(r.failures).toEqual([{ property: "workspaceId", reason: expect.stringMatching(/svc:workspaceId/) }]);
  });
});

describe("the resource options, a typed call beside the properties", () => {
  it("are validated by check, a failing one named under where the face carries them, else `options`", async () => {
    const options = { import: "abc", replaceOnChanges: ["ports[x]"] };
    const named = async (optionsAt?: string) =>
      (await lifecycle.check({}, valid, { options, optionsAt })).failures!.map((f) => f.property).sort();
    expect(await named()).toEqual(["options.import", "options.replaceOnChanges[0]"]);
    expect(await named("carried")).toEqual(["carried.import", "carried.replaceOnChanges[0]"]);
  });

  it("come back from check as they apply, never among the inputs: the import only while the resource is new", async () => {
    const options = { import: "7", ignoreChanges: ["name"] };
    const recorded = { ...valid, workspaceId: "42" };
    expect(await lifecycle.check(recorded, valid, { options })).toEqual({
      inputs: recorded,
      failures: [],
      options: { ignoreChanges: ["name"] },
    });
    expect(await lifecycle.check(recorded, valid)).toEqual({ inputs: recorded, failures: [] });
  });

  it("steer diff: an ignored path keeps its recorded value, a replaceOnChanges path replaces", async () => {
    const olds = { ...valid, workspaceId: "42", state: "AVAILABLE" };
    const news = { ...valid, workspaceId: "42", name: "widget-b", size: 20 };
    expect(await lifecycle.diff("1", olds, news, { options: { ignoreChanges: ["name"] } })).toMatchObject({ replaces: [] });
    expect(Object.keys((await lifecycle.diff("1", olds, news, { options: { ignoreChanges: ["name"] } })).detailedDiff)).toEqual(["size"]);
    expect(await lifecycle.diff("1", olds, news, { options: { replaceOnChanges: ["size"] } })).toMatchObject({ replaces: ["size"] });
  });
});

describe("diff", () => {
  const olds = { ...valid, workspaceId: "42", state: "AVAILABLE", vlan: 7 };
  const diff = (news: Record<string, unknown>, o: Record<string, unknown> = olds) =>
    lifecycle.diff!("1", o, { workspaceId: "42", ...news });

  it("reports no change for identical inputs, ignoring computed outputs", async () => {
    expect(await diff(valid)).toMatchObject({ changes: false, replaces: [], stables: ["vlan"] });
  });

  it("changes an updateRequest field in place", async () => {
    expect(await diff({ ...valid, name: "widget-b" })).toMatchObject({ changes: true, replaces: [] });
  });

  it("runs a command field in place", async () => {
    expect(await diff({ ...valid, size: 20 })).toMatchObject({ changes: true, replaces: [] });
  });

  it("replaces on a replace field and deletes first when the unique name is kept", async () => {
    expect(await diff({ ...valid, region: "EU_01" })).toEqual({
      changes: true,
      replaces: ["region"],
      stables: ["vlan"],
      deleteBeforeReplace: true,
      replaceDeletesFirst: true,
      detailedDiff: { region: { kind: "update", replace: true } },
    });
  });

  it("says a replacement must delete first where the unique name is kept, whatever replaces it (the engine's replaceOnChanges)", async () => {
    expect(await diff({ ...valid, size: 20 })).toMatchObject({ replaces: [], deleteBeforeReplace: false, replaceDeletesFirst: true });
    expect(await diff({ ...valid, name: "widget-c" })).toMatchObject({ replaces: [], replaceDeletesFirst: false });
  });

  it("creates the replacement first when the unique name changes too", async () => {
    expect(await diff({ ...valid, region: "EU_01", name: "widget-c" })).toMatchObject({ replaces: ["region"], deleteBeforeReplace: false });
  });

  it("replaces when the workspace changes", async () => {
    expect((await diff({ ...valid, workspaceId: "43" })).replaces).toEqual(["workspaceId"]);
  });

  it("never diffs on timeouts or adoptId", async () => {
    expect(await diff({ ...valid, timeouts: { create: "1h" }, adoptId: "5" })).toMatchObject({ changes: false });
  });

  it("treats a value not known until up as a change", async () => {
    expect(await diff({ ...valid, region: UNKNOWN })).toMatchObject({ changes: true, replaces: ["region"] });
  });

  it("records a remembered setting with an in-place update that needs no API call", async () => {
    expect(await diff({ ...valid, deletion: "scheduled" }, { ...olds, deletion: "immediate" })).toMatchObject({
      changes: true,
      replaces: [],
    });
  });

  it("decides a depends-policy from how the value changes", async () => {
    expect(await diff({ ...valid, tier: 3 }, { ...olds, tier: 2 })).toMatchObject({ changes: true, replaces: [] });
    expect(await diff({ ...valid, tier: 1 }, { ...olds, tier: 2 })).toMatchObject({ changes: true, replaces: ["tier"] });
  });

  it("leaves unset optional inputs unmanaged", async () => {
    expect(await diff(valid, { ...olds, instanceId: "99" })).toMatchObject({ changes: false });
  });

  it("replaces a resource whose create failed", async () => {
    expect(await diff(valid, { ...olds, state: "FAILED" })).toMatchObject({ changes: true, replaces: ["state"] });
  });

  it("finishes a resource recorded mid-create with an in-place update", async () => {
    expect(await diff(valid, { ...olds, state: "PENDING" })).toMatchObject({ changes: true, replaces: [] });
  });
});

describe("check reports the provider's configuration", () => {
  const withPreflight = (answer: Array<{ property: string; reason: string }> = []) => {
    const asked: boolean[] = [];
    const p = buildLifecycle(definition, { ...checkOnlyRuntime("42"), preflight: async (probe) => (asked.push(probe), answer) });
    return { p, asked };
  };
  const recorded = { ...valid, workspaceId: "42" };

  it("puts configuration problems first, so preview fails on what up would fail on", async () => {
    const { p } = withPreflight([{ property: "", reason: "no API token: set svc:token" }]);
    const r = await p.check!({}, { ...valid, size: -1 });
    expect(r.failures!.map((f) => f.reason)).toEqual(["no API token: set svc:token", "must be positive"]);
  });

  it("asks the API only for valid inputs the plan will send: a create or a change", async () => {
    const { p, asked } = withPreflight();
    await p.check!({}, valid); // create
    await p.check!(recorded, { ...valid, size: 20 }); // update
    await p.check!(recorded, valid); // unchanged
    await p.check!({}, { ...valid, name: "ab" }); // rejected input
    await p.check!(recorded, { ...valid, timeouts: { create: "1h" } }); // no managed change
    expect(asked).toEqual([true, true, false, false, false]);
  });
});

describe("read after a change outside Pulumi", () => {
  const lines: string[] = [];
  beforeAll(() => setProgressSink((line) => lines.push(line)));
  beforeEach(() => (lines.length = 0));
  const inApi = { name: "widget-a", size: 10, region: "NA_01", workspaceId: "42", state: "AVAILABLE" };
  const reading = (current: Record<string, unknown>) => {
    const client = { withDeadline: () => client } as unknown as SvcClient;
    const config = () => ({ baseUrl: "http://127.0.0.1", token: "t", workspaceId: "42" });
    return buildLifecycle(
      { ...definition, api: { ...definition.api, get: async () => current as never } },
      { client: () => client, config, defaultWorkspace: () => "42" },
    );
  };

  it("names the drifted managed fields in one line, never their values", async () => {
    const r = await reading({ ...inApi, name: "renamed-by-hand", size: 30, state: "RESIZING" }).read!("1", inApi);
    expect(r.props).toMatchObject({ name: "renamed-by-hand", size: 30 });
    expect(lines).toEqual([
      'svc: Widget "widget-a": drifted outside Pulumi: name, size; the next pulumi up reverts them, unless the declaration changes to match',
    ]);
  });

  it("says when reverting means replacing", async () => {
    await reading({ ...inApi, region: "EU_01" }).read!("1", inApi);
    expect(lines).toEqual([
      expect.stringMatching(/drifted outside Pulumi: region; the next pulumi up reverts them, replacing the Widget for region/),
    ]);
  });

  it("says nothing when only computed outputs changed", async () => {
    await reading({ ...inApi, state: "RESIZING" }).read!("1", inApi);
    expect(lines).toEqual([]);
  });
});
