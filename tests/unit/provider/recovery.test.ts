/**
 * The lifecycle's recovery paths, driven with a scripted API: a create the API accepted is never
 * lost (its id is found persistently, or it is recorded as pending and resolved later), a natural
 * key held by an object the stack did not record stops with one message naming adoptId, and an
 * update command whose answer was lost is checked before it is sent again. The same paths run
 * on both faces against the emulator's faults in tests/inprocess/faults.test.ts, and a pending
 * create resolved by `pulumi refresh` through the engine in tests/e2e/faults.test.ts.
 */
import { z } from "zod";
import { ApiError, NetworkError } from "../../../provider/errors";
import type { SvcClient } from "../../../provider/client/client";
import { buildLifecycle, type PartialFailure, type ProviderRuntime } from "../../../provider/lifecycle";
import { fieldSet, fromFields, input, owningWorkspace } from "../../../provider/fields/declare";
import { type ResourceDefinition } from "../../../provider/definition";
import { pendingSince } from "../../../provider/lifecycle/pending";
import { replace, updateSteps } from "../../../provider/fields/changeEffects";

const steps = updateSteps("resize");

type Inputs = { name: string; size: number; workspaceId: string };
const widgetFields = fieldSet({
  workspaceId: owningWorkspace,
  name: input(z.string(), { doc: "Name.", onChange: replace }),
  size: input(z.number(), { doc: "Size.", onChange: steps.resize }),
});
type Outputs = { name: string; size: number; workspaceId: string; state: string };

const serverFault = () => new ApiError("GET", "/v1/widgets", 500, "boom");
const lostAnswer = () => Object.assign(new NetworkError("POST", "/v1/widgets", "ECONNRESET", false), { ambiguous: true });

/** A scripted API for one Widget: `script` decides each call's fate in order. */
function widgetApi() {
  const calls: string[] = [];
  let nextId = 100;
  const failures: Record<string, Array<() => Error>> = {};
  const objects = new Map<string, Outputs>();
  /** How the next create's workflow ends: FAILED leaves the object FAILED, as the API's default failure effect does. */
  const next: { createOutcome: "COMPLETED" | "FAILED"; settlesAs: string } = { createOutcome: "COMPLETED", settlesAs: "READY" };
  const fail = (call: string, ...errors: Array<() => Error>) => (failures[call] = [...(failures[call] ?? []), ...errors]);
  const step = (call: string) => {
    calls.push(call);
    const next = failures[call]?.shift();
    if (next) throw next();
  };
  const definition: ResourceDefinition<Inputs, Outputs, "resize"> = {
    kind: "Widget",
    doc: "A test kind.",
    ...fromFields(widgetFields),
    pricing: { notMetered: "a test kind" },
    uniqueKey: ["name"],
    broken: (o) => o.state === "FAILED",
    api: {
      async conflict(_ctx, i) {
        step("conflict");
        const held = [...objects.entries()].find(([, o]) => o.name === i.name);
        return (
          held && { id: held[0], description: `a widget named "${i.name}" exists (id ${held[0]})`, alternative: "choose another name" }
        );
      },
      async create(_ctx, i) {
        step("create");
        const state = next.createOutcome === "FAILED" ? "FAILED" : next.settlesAs;
        objects.set(String(nextId++), { name: i.name, size: i.size, workspaceId: i.workspaceId, state });
        return { workflow: { id: "wf-1", name: "create", state: next.createOutcome } };
      },
      async findExisting(_ctx, i) {
        step("find");
        return [...objects.entries()].find(([, o]) => o.name === i.name)?.[0];
      },
      async get(_ctx, id) {
        step("read");
        const found = objects.get(id);
        return found && { ...found };
      },
      settled: (o) => (o.state === "FAILED" ? "widget is FAILED" : o.state === "READY"),
      update: {
        async resize(_ctx, id, _olds, news) {
          step("resize");
          objects.get(id)!.size = news.size;
        },
      },
      async delete(_ctx, id) {
        step("delete");
        objects.delete(id);
        return null;
      },
    },
  };
  const client = { withDeadline: () => client, paced: () => false } as unknown as SvcClient;
  const runtime: ProviderRuntime = {
    client: () => client,
    config: () => ({ baseUrl: "http://127.0.0.1", token: "t", workspaceId: "42" }),
    defaultWorkspace: () => "42",
  };
  return { lifecycle: buildLifecycle(definition, runtime), calls, fail, objects, next };
}

const inputs = { name: "w-one", size: 10, workspaceId: "42" };
const failureOf = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e as PartialFailure,
  );

describe("an accepted create is never lost", () => {
  it("finds the id of a create answered with a bare workflow through server faults", async () => {
    const api = widgetApi();
    api.fail("find", serverFault, serverFault);
    const created = await api.lifecycle.create!(inputs);
    expect(created.id).toBe("100");
    expect(api.calls.filter((c) => c === "find")).toHaveLength(3);
  });

  it("records a create whose lookup never answers as pending, and later runs resolve it", async () => {
    const api = widgetApi();
    api.fail("find", ...Array.from({ length: 50 }, () => serverFault));
    const failure = await failureOf(api.lifecycle.create!({ ...inputs, timeouts: { create: "1s" } }));
    expect(failure?.id).toMatch(/^pending-create-\d+$/);
    expect(failure?.message).toMatch(
      /^Widget "w-one": the API accepted the create \(workflow wf-1\) but the lookup of the Widget just created kept failing until the deadline; the last answer: GET \/v1\/widgets answered 500 Internal Server Error: boom\. The Widget may exist in the API without its id being known, so it is kept in the stack as pending-create-\d+: /,
    );
    expect(failure?.properties).toMatchObject({ name: "w-one", size: 10 });
    const id = failure!.id;
    expect(pendingSince(id)).toBeGreaterThan(0);

    // pulumi up: replaced, deleting first (the delete removes what the attempt made).
    expect(await api.lifecycle.diff!(id, failure!.properties, inputs)).toMatchObject({
      changes: true,
      replaces: ["id"],
      deleteBeforeReplace: true,
    });
  });

  it("resolves a pending record to the real id on refresh, and deletes what it made on destroy", async () => {
    const api = widgetApi();
    api.objects.set("100", { name: "w-one", size: 10, workspaceId: "42", state: "READY" });
    const id = `pending-create-${Date.now() - 1000}`;
    const read = await api.lifecycle.read!(id, inputs);
    expect(read.id).toBe("100");
    await api.lifecycle.delete!(id, inputs);
    expect(api.objects.size).toBe(0);
    expect(api.calls).toEqual(["find", "read", "find", "delete", "read"]);
  });

  it("forgets a pending record whose attempt made nothing", async () => {
    const api = widgetApi();
    const id = `pending-create-${Date.now() - 1000}`;
    expect((await api.lifecycle.read!(id, inputs)).id).toBe("");
    await api.lifecycle.delete!(id, inputs);
    expect(api.calls).toEqual(["find", "find"]);
  });
});

describe("a lost create answer", () => {
  it("keeps looking for what the create made through server faults, and adopts it instead of sending again", async () => {
    const api = widgetApi();
    api.fail("create", () => {
      // Committed, then the connection dropped.
      api.objects.set("100", { name: "w-one", size: 10, workspaceId: "42", state: "READY" });
      return lostAnswer();
    });
    api.fail("find", serverFault);
    const created = await api.lifecycle.create!(inputs);
    expect(created.id).toBe("100");
    expect(api.calls.filter((c) => c === "create")).toHaveLength(1);
    expect(api.objects.size).toBe(1);
  });

  it("sends the create again when the lookup shows nothing was made", async () => {
    const api = widgetApi();
    api.fail("create", lostAnswer);
    const created = await api.lifecycle.create!(inputs);
    expect(created.id).toBe("100");
    expect(api.calls.filter((c) => c === "create")).toHaveLength(2);
    expect(api.objects.size).toBe(1);
  });
});

describe("a natural key already taken", () => {
  it("stops before sending anything, naming the exact adoptId and whether the object matches", async () => {
    const api = widgetApi();
    api.objects.set("77", { name: "w-one", size: 10, workspaceId: "42", state: "READY" });
    const message = (await failureOf(api.lifecycle.create!(inputs)))?.message;
    expect(message).toBe(
      'Widget "w-one": a widget named "w-one" exists (id 77). It matches every declared field. ' +
        'This stack has no record of creating it, so it is not taken over on its own. To manage it here, set adoptId: "77"; otherwise choose another name.',
    );
    expect(api.calls).not.toContain("create");
  });

  it("says which declared fields differ", async () => {
    const api = widgetApi();
    api.objects.set("77", { name: "w-one", size: 99, workspaceId: "42", state: "READY" });
    expect((await failureOf(api.lifecycle.create!(inputs)))?.message).toMatch(/It differs from this declaration in size\. .*adoptId: "77"/);
  });

  it("looks through server faults rather than guessing the key is free", async () => {
    const api = widgetApi();
    api.objects.set("77", { name: "w-one", size: 10, workspaceId: "42", state: "READY" });
    api.fail("conflict", serverFault);
    expect((await failureOf(api.lifecycle.create!(inputs)))?.message).toMatch(/adoptId: "77"/);
    expect(api.calls).not.toContain("create");
  });
});

describe("an update command whose answer was lost", () => {
  const olds = { ...inputs, state: "READY" };

  it("is not sent again when the resource shows it applied", async () => {
    const api = widgetApi();
    api.objects.set("100", { ...olds });
    api.fail("resize", () => {
      api.objects.get("100")!.size = 20; // applied, then the answer was lost
      return lostAnswer();
    });
    await api.lifecycle.update!("100", olds, { ...inputs, size: 20 });
    expect(api.calls.filter((c) => c === "resize")).toHaveLength(1);
    expect(api.objects.get("100")!.size).toBe(20);
  });

  it("is sent again when the resource shows it was not applied", async () => {
    const api = widgetApi();
    api.objects.set("100", { ...olds });
    api.fail("resize", lostAnswer);
    await api.lifecycle.update!("100", olds, { ...inputs, size: 20 });
    expect(api.calls.filter((c) => c === "resize")).toHaveLength(2);
    expect(api.objects.get("100")!.size).toBe(20);
  });
});

describe("a create called again after its workflow failed (an onError hook's retry, or the next up)", () => {
  it("deletes the FAILED object before failing without an id, so the create called again makes exactly one", async () => {
    const api = widgetApi();
    api.next.createOutcome = "FAILED";
    const failure = await failureOf(api.lifecycle.create!(inputs));
    expect(failure?.name).not.toBe("PartialFailure");
    expect(failure?.message).toMatch(
      /^Widget "w-one": create failed: workflow create wf-1 ended FAILED\. The Widget it made \(id 100\) ended broken, which a later up would replace, so it was deleted: calling the create again \(an onError hook's retry, or the next pulumi up\) makes it anew\.$/,
    );
    expect([...api.objects.keys()]).toEqual([]);

    api.next.createOutcome = "COMPLETED";
    expect((await api.lifecycle.create!(inputs)).id).toBe("101");
    expect([...api.objects.entries()]).toEqual([["101", { ...inputs, state: "READY" }]]);
  });

  it("keeps the FAILED object in the stack, with its id, when its delete fails too", async () => {
    const api = widgetApi();
    api.next.createOutcome = "FAILED";
    api.fail("delete", () => new ApiError("DELETE", "/v1/widgets/100", 403, "not yours"));
    const failure = await failureOf(api.lifecycle.create!(inputs));
    expect(failure?.name).toBe("PartialFailure");
    expect(failure?.id).toBe("100");
    expect(failure?.message).toMatch(
      /Deleting the broken Widget failed too \(DELETE \/v1\/widgets\/100 answered 403.*The resource \(id 100\) is kept in the stack/,
    );
    expect(failure?.properties).toMatchObject({ state: "FAILED" });
  });

  it("keeps an object a later step left repairable, and the engine's retry (an Update of that id) finishes it", async () => {
    const api = widgetApi();
    api.next.settlesAs = "PENDING";
    const failure = await failureOf(api.lifecycle.create!({ ...inputs, timeouts: { create: "1s" } }));
    expect(failure?.name).toBe("PartialFailure");
    expect(failure?.id).toBe("100");
    expect(failure?.properties).toMatchObject({ state: "PENDING" });
    api.objects.get("100")!.state = "READY";
    // What the engine sends on the retry: Update(id, the recorded outputs, the same inputs).
    const updated = await api.lifecycle.update!("100", failure!.properties, { ...inputs, timeouts: { create: "1s" } });
    expect(updated.outs).toMatchObject({ state: "READY" });
    expect([...api.objects.keys()]).toEqual(["100"]);
  });
});

describe("an update called again after its workflow left the object FAILED (an onError hook's retry)", () => {
  it("fails again on the same id, naming the next up's replacement as the remedy", async () => {
    const api = widgetApi();
    await api.lifecycle.create!(inputs);
    const olds = { ...inputs, state: "READY" };
    // The resize's workflow fails and leaves the widget FAILED; the retry's resize is refused.
    api.fail(
      "resize",
      () => ((api.objects.get("100")!.state = "FAILED"), new Error("resize failed: workflow resize wf-2 ended FAILED")),
      () => new ApiError("POST", "/v1/widgets/100/resize", 409, "widget is FAILED"),
    );
    const remedy =
      /The Widget \(id 100\) is broken, which no update can repair: an update keeps the id, so calling it again \(an onError hook's retry\) meets the same broken Widget; the next pulumi up replaces it\.$/;
    for (const attempt of [1, 2]) {
      // The engine sends the retry with the outputs recorded before the update (UpdateStep.Apply).
      const failure = await failureOf(api.lifecycle.update!("100", olds, { ...inputs, size: 20 }));
      expect([attempt, failure?.name, failure?.message]).toEqual([attempt, "PartialFailure", expect.stringMatching(remedy)]);
      expect(failure?.properties).toMatchObject({ state: "FAILED" });
    }
    expect([...api.objects.keys()]).toEqual(["100"]);
  });
});
