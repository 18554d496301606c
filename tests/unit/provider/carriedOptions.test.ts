/**
 * The resource options a generated class carries to the provider because the dynamic-provider
 * host drops them (provider/dynamic/carriedOptions.ts), through the face's adapter into the
 * lifecycle's call (provider/dynamic/adapter.ts, provider/lifecycle/options.ts): ignoreChanges
 * keeps a recorded value through diff and update, replaceOnChanges replaces on a change under its
 * paths, and the import option adopts a matching object with no write or names every differing
 * input. The same cases run end to end, on both faces, in tests/e2e/conformance.ts.
 */
import { z } from "zod";
import type { SvcClient } from "../../../provider/client/client";
import { forDynamicHost } from "../../../provider/dynamic/adapter";
import { CARRIED_KEY } from "../../../provider/dynamic/carriedOptions";
import { fieldSet, fromFields, input, owningWorkspace } from "../../../provider/fields/declare";
import { buildLifecycle, UNKNOWN, type ProviderRuntime } from "../../../provider/lifecycle";
import { type ResourceDefinition } from "../../../provider/definition";
import { replace, updateRequest } from "../../../provider/fields/changeEffects";

const widgetFields = fieldSet({
  workspaceId: owningWorkspace,
  name: input(z.string(), { doc: "Name.", onChange: updateRequest }),
  description: input(z.string(), { doc: "Description.", onChange: updateRequest }),
  region: input(z.string(), { doc: "Region.", onChange: replace }),
  ports: input(z.array(z.strictObject({ port: z.number().int(), name: z.string() })).optional(), {
    doc: "Ports.",
    onChange: updateRequest,
  }),
});
type Inputs = Record<string, unknown>;
type Outputs = Record<string, unknown>;

/** A Widget API whose calls are logged; `objects` is what it holds. */
function widgetApi() {
  const calls: string[] = [];
  const objects = new Map<string, Outputs>();
  const definition = {
    kind: "Widget",
    doc: "A test kind.",
    ...fromFields(widgetFields),
    pricing: { notMetered: "a test kind" },
    uniqueKey: ["name"],
    api: {
      async create(_ctx: unknown, i: Inputs) {
        calls.push("create");
        objects.set("100", { ...i });
        return { id: "100" };
      },
      async get(_ctx: unknown, id: string) {
        calls.push(`read ${id}`);
        const o = objects.get(id);
        return o && { ...o };
      },
      update: {
        async updateRequest(_ctx: unknown, id: string, _olds: Outputs, news: Inputs, changed: string[]) {
          calls.push(`update ${changed.join(",")} -> ${changed.map((f) => JSON.stringify(news[f])).join(",")}`);
          for (const f of changed) objects.get(id)![f] = news[f];
        },
      },
      async delete(_ctx: unknown, id: string) {
        calls.push(`delete ${id}`);
        objects.delete(id);
        return null;
      },
    },
  } as unknown as ResourceDefinition;
  const client = { withDeadline: () => client, paced: () => false } as unknown as SvcClient;
  const runtime: ProviderRuntime = {
    client: () => client,
    config: () => ({ baseUrl: "http://127.0.0.1", token: "t", workspaceId: "42" }),
    defaultWorkspace: () => "42",
  };
  return { host: forDynamicHost(buildLifecycle(definition, runtime)), calls, objects };
}

const declared = { name: "widget-a", description: "declared", region: "NA_01", workspaceId: "42" };
const withOptions = (options: Record<string, unknown>, inputs: Record<string, unknown> = declared) => ({
  ...inputs,
  [CARRIED_KEY]: options,
});

describe("ignoreChanges, kept through a refresh's drift (https://www.pulumi.com/docs/iac/concepts/options/ignorechanges/)", () => {
  const drifted = { ...declared, description: "edited in the API" };

  it("diff sees no change where only an ignored path drifted", async () => {
    const { host } = widgetApi();
    expect(await host.diff("100", drifted, withOptions({ ignoreChanges: ["description"] }))).toMatchObject({ changes: false });
    expect(await host.diff("100", drifted, declared)).toMatchObject({
      changes: true,
      detailedDiff: { description: { kind: "update" } },
    });
  });

  it("an update for another field sends the other field only, leaving the drifted value", async () => {
    const api = widgetApi();
    api.objects.set("100", { ...drifted });
    const news = withOptions({ ignoreChanges: ["description"] }, { ...declared, name: "widget-b" });
    const d = await api.host.diff("100", drifted, news);
    expect(Object.keys(d.detailedDiff)).toEqual(["name"]);
    const updated = await api.host.update("100", drifted, news);
    expect(api.calls.filter((c) => c.startsWith("update"))).toEqual(['update name -> "widget-b"']);
    expect(updated.outs).toMatchObject({ name: "widget-b", description: "edited in the API" });
  });

  it("keeps a nested path", async () => {
    const { host } = widgetApi();
    const olds = { ...declared, ports: [{ port: 80, name: "edited" }] };
    const news = withOptions({ ignoreChanges: ["ports[*].name"] }, { ...declared, ports: [{ port: 80, name: "web" }] });
    expect(await host.diff("100", olds, news)).toMatchObject({ changes: false });
  });
});

describe("replaceOnChanges (https://www.pulumi.com/docs/iac/concepts/options/replaceonchanges/)", () => {
  const olds = { ...declared, ports: [{ port: 80, name: "web" }] };

  it.each<[string, string[], Record<string, unknown>, string[]]>([
    ["replaces on an in-place field it names", ["description"], { description: "new" }, ["description"]],
    ["replaces on any field, with *", ["*"], { description: "new" }, ["description"]],
    ["replaces on a nested path whose leaf changed", ["ports[*].port"], { ports: [{ port: 8080, name: "web" }] }, ["ports"]],
    ["keeps in place what a nested path leaves the same", ["ports[*].port"], { ports: [{ port: 80, name: "www" }] }, []],
    ["keeps in place a field it does not name", ["name"], { description: "new" }, []],
  ])("%s", async (_title, paths, change, replaces) => {
    const { host } = widgetApi();
    const d = await host.diff("100", olds, withOptions({ replaceOnChanges: paths }, { ...olds, ...change }));
    expect(d).toMatchObject({ changes: true, replaces });
  });

  it("deletes first when the unique name stays, as a replacing policy does", async () => {
    const { host } = widgetApi();
    const d = await host.diff("100", olds, withOptions({ replaceOnChanges: ["description"] }, { ...olds, description: "new" }));
    expect(d.deleteBeforeReplace).toBe(true);
  });

  it("names each changed leaf by its path in the detailed diff, marked replacing where a path matched", async () => {
    const { host } = widgetApi();
    const news = withOptions(
      { replaceOnChanges: ["ports[*].port"] },
      {
        ...olds,
        ports: [
          { port: 8080, name: "www" },
          { port: 9, name: "x" },
        ],
      },
    );
    expect((await host.diff("100", olds, news)).detailedDiff).toEqual({
      "ports[0].port": { kind: "update", replace: true },
      "ports[0].name": { kind: "update", replace: false },
      "ports[1]": { kind: "add", replace: false },
    });
  });

  it("check refuses a path that is not one", async () => {
    const { host } = widgetApi();
    const r = await host.check({}, withOptions({ replaceOnChanges: ["ports[x]"] }));
    expect(r.failures).toEqual([
      { property: `${CARRIED_KEY}.replaceOnChanges[0]`, reason: expect.stringContaining("is not a property path") },
    ]);
  });
});

describe("the import option (https://www.pulumi.com/docs/iac/concepts/options/import/)", () => {
  const existing = { ...declared, description: "made by hand" };
  const importing = (inputs: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    withOptions({ import: "7", ...extra }, inputs);

  it("check passes a declaration that matches the object, and create records it with no write", async () => {
    const api = widgetApi();
    api.objects.set("7", { ...existing });
    const checked = await api.host.check({}, importing(existing));
    expect(checked.failures).toEqual([]);
    const created = await api.host.create(checked.inputs!);
    expect(created).toMatchObject({ id: "7", outs: { description: "made by hand" } });
    expect(api.calls).toEqual(["read 7", "read 7"]);
  });

  it("check names every differing input at preview, and create refuses with nothing written", async () => {
    const api = widgetApi();
    api.objects.set("7", { ...existing });
    const news = importing({ ...existing, description: "declared", name: "other-name" });
    const checked = await api.host.check({}, news);
    expect(checked.failures).toEqual([
      {
        property: "name",
        reason: expect.stringMatching(
          /^inputs to import do not match the existing resource: Widget 7 has "widget-a", the declaration "other-name"\./,
        ),
      },
      { property: "description", reason: expect.stringContaining('Widget 7 has "made by hand", the declaration "declared"') },
    ]);
    await expect(api.host.create(news)).rejects.toThrow(
      /inputs to import do not match the existing resource \(Widget 7\): name \(declared "other-name", actual "widget-a"\); description \(declared "declared", actual "made by hand"\)\..*nothing was written/,
    );
    expect(api.calls.filter((c) => !c.startsWith("read"))).toEqual([]);
  });

  it("leaves a value unknown at preview to create's comparison", async () => {
    const api = widgetApi();
    api.objects.set("7", { ...existing });
    expect((await api.host.check({}, importing({ ...existing, description: UNKNOWN }))).failures).toEqual([]);
  });

  it("matches through ignoreChanges", async () => {
    const api = widgetApi();
    api.objects.set("7", { ...existing });
    const news = importing({ ...existing, description: "declared" }, { ignoreChanges: ["description"] });
    expect((await api.host.check({}, news)).failures).toEqual([]);
    expect(await api.host.create(news)).toMatchObject({ id: "7", outs: { description: "made by hand" } });
  });

  it("says when the object does not exist, and refuses adoptId beside it", async () => {
    const api = widgetApi();
    expect((await api.host.check({}, importing(existing))).failures).toEqual([
      { property: "(inputs)", reason: "the import option names Widget 7, which is not visible to this token" },
    ]);
    expect((await api.host.check({}, importing({ ...existing, adoptId: "7" }))).failures).toEqual([
      { property: "adoptId", reason: "set adoptId or the import option, not both" },
    ]);
  });

  it("applies only while the resource is not in the stack (a replacement creates anew)", async () => {
    const api = widgetApi();
    const checked = await api.host.check(existing, importing(existing, { ignoreChanges: ["name"] }));
    expect(checked.failures).toEqual([]);
    expect(checked.inputs![CARRIED_KEY]).toEqual({ ignoreChanges: ["name"] });
    expect(api.calls).toEqual([]);
  });
});
