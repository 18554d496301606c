/**
 * The dynamic face's adapter (provider/dynamic/adapter.ts): what the dynamic-provider host sends
 * beside a resource's properties never reaches the lifecycle, and what the state records comes
 * back where the host does not add it itself: `__provider` in the properties a failure records,
 * `__options` wherever it was recorded (state's shape is a contract: tests/e2e/upgrade.test.ts).
 * What the options do is carriedOptions.test.ts's.
 */
import { z } from "zod";
import type { SvcClient } from "../../../provider/client/client";
import { forDynamicHost } from "../../../provider/dynamic/adapter";
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
    expect(failure!.properties).toEqual({ name: "w", __provider: TEXT });
  });

  it("is in the properties a failed update records", async () => {
    const { host } = widgetHost();
    const failure = await failureOf(
      host.update("7", { name: "w", note: "old", __provider: TEXT }, { name: "w", note: "new", __provider: TEXT }),
    );
    expect(failure).toBeInstanceOf(PartialFailure);
    expect(failure!.properties).toEqual({ name: "w", note: "old", __provider: TEXT });
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
    expect(created!.properties).toEqual({ name: "w", __options: carried, __provider: TEXT });
    const updated = await failureOf(
      host.update("7", { name: "w", __provider: TEXT }, { name: "w", note: "new", __options: carried, __provider: TEXT }),
    );
    expect(updated!.properties).toEqual({ name: "w", note: "old", __options: carried, __provider: TEXT });
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
