/**
 * What an interrupted create made (provider/lifecycle/interruptedVerdict.ts), as a table: the verdict from what the
 * spec's lookups answer. The same rules run end to end in tests/e2e/recover*.test.ts.
 */
import type { SvcClient } from "../../../provider/client/client";
import type { OperationContext } from "../../../provider/context";
import { hiding, judgeInterrupted, type InterruptedProbes } from "../../../provider/lifecycle/interruptedVerdict";

/** A list the fake API answers: objects with ids, each made before or since the update began. */
type Row = { id: string; since: boolean; replaceFieldsDiffer?: boolean };

function fakeClient(rows: Row[]): SvcClient {
  return { request: async () => ({ items: rows }) } as unknown as SvcClient;
}

const ctxOver = (rows: Row[]): OperationContext =>
  ({
    client: fakeClient(rows),
    startedAt: 0,
    keepTrying: (_what: string, lookup: () => Promise<unknown>) => lookup(),
  }) as unknown as OperationContext;

/** findExisting as the specs write it: the first listed object made since the update began. */
const listed = (rows: Row[]): InterruptedProbes => ({
  kind: "Widget",
  async findExisting(ctx) {
    const { items } = await ctx.client.request<{ items: Row[] }>("GET", "/v1/widgets");
    return items.find((r) => r.since)?.id;
  },
  unmatched: async (_ctx, id) => {
    const row = rows.find((r) => r.id === id);
    return row && (row.replaceFieldsDiffer ? ["name"] : []);
  },
});

/** A kind with one object per key (a cluster): conflict answers the holder, findExisting the same. */
const keyed = (holder: string | undefined): InterruptedProbes => ({
  kind: "Cluster",
  conflict: async () => (holder ? { id: holder, description: `the workspace has cluster ${holder}` } : undefined),
  findExisting: async () => holder,
  unmatched: async () => [],
});

const CASES: Array<[string, Row[] | InterruptedProbes, string, string[]?]> = [
  ["one object made since: recorded", [{ id: "7", since: true }], "made 7"],
  ["nothing since: cleared", [], "nothing"],
  ["only a person's older object: cleared, never taken", [{ id: "3", since: false }], "nothing"],
  [
    "the person's older one and ours: ours",
    [
      { id: "3", since: false },
      { id: "7", since: true },
    ],
    "made 7",
  ],
  [
    "two made since: a person chooses",
    [
      { id: "7", since: true },
      { id: "8", since: true },
    ],
    "unclear",
    ["7", "8"],
  ],
  [
    "made since but a creation-only field differs: a person chooses",
    [{ id: "7", since: true, replaceFieldsDiffer: true }],
    "unclear",
    ["7"],
  ],
  ["the one holder of a key: recorded", keyed("5"), "made 5"],
  ["no holder of the key: cleared", keyed(undefined), "nothing"],
  ["no lookup at all: a person chooses", { kind: "Thing", unmatched: async () => [] }, "unclear", []],
];

describe("judgeInterrupted", () => {
  it.each(CASES)("%s", async (...[, setup, expected, candidates]) => {
    const rows = Array.isArray(setup) ? setup : [];
    const probes = Array.isArray(setup) ? listed(setup) : setup;
    const verdict = await judgeInterrupted(ctxOver(rows), probes);
    expect(verdict.verdict === "made" ? `made ${verdict.id}` : verdict.verdict).toBe(expected);
    if (candidates) expect(verdict).toMatchObject({ candidates });
  });

  it("hides one object from every list the client answers", async () => {
    const client = hiding(
      fakeClient([
        { id: "7", since: true },
        { id: "8", since: true },
      ]),
      "7",
    );
    expect(await client.request("GET", "/v1/widgets")).toEqual({ items: [{ id: "8", since: true }] });
  });
});
