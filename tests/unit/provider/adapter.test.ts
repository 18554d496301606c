/**
 * The dynamic face's adapter (provider/dynamic/adapter.ts): what the dynamic-provider host sends
 * beside a resource's properties never reaches the lifecycle, and what the state records comes
 * back where the host does not add it itself: `__provider` in the properties a failure records,
 * `__options` wherever it was recorded, `__inputs` in what create and update record (state's shape
 * is a contract: tests/e2e/upgrade.test.ts).
 * What the options do is carriedOptions.test.ts's.
 */
import { z } from "zod";
import type { SvcClient } from "../../../provider/client/client";
import { forDynamicHost } from "../../../provider/dynamic/adapter";
import { declaredOf, withDeclared } from "../../../provider/dynamic/declaredInputs";
import { fieldSet, fromFields, input } from "../../../provider/fields/declare";
import { buildLifecycle, PartialFailure, type ProviderRuntime } from "../../../provider/lifecycle";
import { type ResourceDefinition } from "../../../provider/definition";
import { replace, updateRequest } from "../../../provider/fields/changeEffects";

const widgetFields = fieldSet({
  name: input(z.string(), { doc: "Name.", onChange: replace }),
  note: input(z.string().optional(), { doc: "Note.", onChange: updateRequest }),
});
type Props = Record<string, unknown>;

const TEXT = 'exports.handler = () => require("pulumi-svc/provider").shim("Widget");\n';

/** A Widget API that records what each call was given: its create is accepted with no id, its update refused. */
function widgetHost() {
  const given: Props[] = [];
  const objects = new Map<string, Props>([["7", { name: "w", note: "old" }]]);
  const definition = {
    kind: "Widget",
    doc: "A test kind.",
    ...fromFields(widgetFields),
    pricing: { notMetered: "a test kind" },
    api: {
      async create(_ctx: unknown, i: Props) {
        given.push(i);
        return { workflow: null };
      },
      async findExisting() {
        return undefined;
      },
      async get(_ctx: unknown, id: string, prior: Props) {
        given.push(prior);
        return objects.get(id) && { ...objects.get(id) };
      },
      update: {
        async updateRequest() {
          throw new Error("refused");
        },
      },
      async delete(_ctx: unknown, id: string, olds: Props) {
        given.push(olds);
        objects.delete(id);
        return null;
      },
    },
  } as unknown as ResourceDefinition;
  const client = { withDeadline: () => client, paced: () => false } as unknown as SvcClient;
  const runtime: ProviderRuntime = {
    client: () => client,
    config: () => ({ baseUrl: "http://127.0.0.1", token: "t", workspaceId: null }),
    defaultWorkspace: () => null,
  };
  return { host: forDynamicHost(buildLifecycle(definition, runtime)), given };
}

/** `__inputs` as create and update record it: the declared names, and the values no output holds. */
const declared = (names: string[], values: Props = {}) => ({ names, values });

const failureOf = (answer: Promise<unknown>) =>
  answer.then(
    () => undefined,
    (err: unknown) => err as PartialFailure,
  );

describe("__provider, the text the host finds the provider by", () => {
  it("never reaches check, whose strict schema would refuse it (the host adds it to the inputs itself)", async () => {
    const { host } = widgetHost();
    expect(await host.check({}, { name: "w", __provider: TEXT })).toEqual({ inputs: { name: "w" }, failures: [] });
  });

  it("never reaches the API mapping's calls", async () => {
    const { host, given } = widgetHost();
    await host.read("7", { name: "w", __provider: TEXT });
    await host.delete("7", { name: "w", __provider: TEXT });
    expect(given.filter((props) => "__provider" in props)).toEqual([]);
    expect(given).not.toHaveLength(0);
  });

  it("is in the properties a failed create records, as in every answer the host makes", async () => {
    const { host } = widgetHost();
    const failure = await failureOf(host.create({ name: "w", __provider: TEXT }));
    expect(failure).toBeInstanceOf(PartialFailure);
    expect(failure!.properties).toEqual({ name: "w", __inputs: declared(["name"]), __provider: TEXT });
  });

  it("is in the properties a failed update records", async () => {
    const { host } = widgetHost();
    const failure = await failureOf(
      host.update("7", { name: "w", note: "old", __provider: TEXT }, { name: "w", note: "new", __provider: TEXT }),
    );
    expect(failure).toBeInstanceOf(PartialFailure);
    expect(failure!.properties).toEqual({ name: "w", note: "old", __inputs: declared(["name", "note"]), __provider: TEXT });
  });
});

describe("__options, the resource options the classes carry", () => {
  const OPTIONS = { import: "7", ignoreChanges: ["note"] };

  it("comes back in check's inputs as check validated it, the import dropped once the resource is recorded", async () => {
    const { host } = widgetHost();
    const news = { name: "w", __options: OPTIONS, __provider: TEXT };
    expect((await host.check({}, news)).inputs).toEqual({ name: "w", __options: OPTIONS });
    expect((await host.check({ name: "w", __options: OPTIONS, __provider: TEXT }, news)).inputs).toEqual({
      name: "w",
      __options: { ignoreChanges: ["note"] },
    });
    expect((await host.check({}, { name: "w", __provider: TEXT })).inputs).toEqual({ name: "w" });
  });

  it("never reaches the API mapping's calls", async () => {
    const { host, given } = widgetHost();
    await failureOf(host.create({ name: "w", __options: { ignoreChanges: ["note"] }, __provider: TEXT }));
    await host.read("7", { name: "w", __options: OPTIONS, __provider: TEXT });
    await host.delete("7", { name: "w", __options: OPTIONS, __provider: TEXT });
    expect(given.filter((props) => "__options" in props)).toEqual([]);
  });

  it("is in the properties a failed create or update records, as it was in the request", async () => {
    const { host } = widgetHost();
    const carried = { replaceOnChanges: ["name"] };
    const created = await failureOf(host.create({ name: "w", __options: carried, __provider: TEXT }));
    expect(created!.properties).toEqual({ name: "w", __inputs: declared(["name"]), __options: carried, __provider: TEXT });
    const updated = await failureOf(
      host.update("7", { name: "w", __provider: TEXT }, { name: "w", note: "new", __options: carried, __provider: TEXT }),
    );
    expect(updated!.properties).toEqual({
      name: "w",
      note: "old",
      __inputs: declared(["name", "note"]),
      __options: carried,
      __provider: TEXT,
    });
  });

  it("stays in the inputs a refresh records where the recorded properties held it", async () => {
    const { host } = widgetHost();
    expect((await host.read("7", { name: "w", __options: OPTIONS, __provider: TEXT })).inputs).toEqual({
      name: "w",
      note: "old",
      __options: OPTIONS,
    });
    expect((await host.read("7", { name: "w", __provider: TEXT })).inputs).toEqual({ name: "w", note: "old" });
  });
});

describe("__inputs, the declared inputs read needs and the host never passes it", () => {
  it("is in what a create records: the declared names, and the values no output holds", async () => {
    const { host } = widgetHost();
    // The widget's create answers no id: its failure records what it was asked.
    const failure = await failureOf(host.create({ name: "w", note: "n", __autonamed: true, __provider: TEXT }));
    expect(declaredOf(failure!.properties)).toEqual({ __autonamed: true, name: "w", note: "n" });
    expect(withDeclared({ name: "w" }, { name: "w", __autonamed: true })).toEqual({
      name: "w",
      __inputs: declared(["__autonamed", "name"], { __autonamed: true }),
    });
  });

  it("makes a refresh record the declared inputs alone, as the API reports them, and carries them on", async () => {
    const { host, given } = widgetHost();
    const recorded = { name: "w", note: "mine", __inputs: declared(["__autonamed", "name"], { __autonamed: true }), __provider: TEXT };
    const read = await host.read("7", recorded);
    // note is the API's own (undeclared): neither recorded as an input nor drift.
    expect(read.inputs).toEqual({ __autonamed: true, name: "w" });
    expect(read.props).toEqual({ name: "w", note: "old", __inputs: declared(["__autonamed", "name"], { __autonamed: true }) });
    expect(given.filter((props) => "__inputs" in props)).toEqual([]);
  });

  it("absent (a resource written before it existed), a refresh records every input the outputs echo, as before", async () => {
    const { host } = widgetHost();
    const read = await host.read("7", { name: "w", __provider: TEXT });
    expect(read.inputs).toEqual({ name: "w", note: "old" });
    expect(read.props).not.toHaveProperty("__inputs");
  });
});
