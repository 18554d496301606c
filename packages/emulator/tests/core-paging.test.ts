/**
 * Emulator core: the paged envelope (core/paging.ts) on a workspace list (VPCs, after raising the
 * quota) and the keyset-paged catalogue list (GET /v1/plans): page numbers, `after` cursors
 * forward, `before` cursors backward, the envelope at both ends, sort/dir, limit bounds, bad
 * cursors, and keyset stability under inserts and deletes.
 */
import { DEFAULT_QUOTA } from "../src/model";
import { useTestEmulator, type TestApi, type TestEmulator } from "../src/testing";

let t: TestEmulator;
let vpcsPath: string;

useTestEmulator((started) => {
  t = started;
  vpcsPath = `/v1/workspaces/${t.workspaceId}/vpcs`;
});

interface Envelope<T> {
  items: T[];
  hasNext: boolean;
  hasPrevious: boolean;
  after: string | null;
  before: string | null;
}
interface Vpc {
  id: string;
  name: string;
  vlan: number;
  created: string;
}
type Query = Record<string, string | number | undefined>;

const VPC_COUNT = 23;
/** Names in an order unrelated to creation (and so to the random ids). */
const vpcName = (i: number) => `net-${String((i * 7) % VPC_COUNT).padStart(2, "0")}-x`;

async function seedVpcs(n = VPC_COUNT): Promise<Vpc[]> {
  await t.control.patch(`/_emulator/tables/workspaces/${t.workspaceId}`, { quota: { ...DEFAULT_QUOTA, max_vpcs: 100 } });
  const out: Vpc[] = [];
  for (let i = 0; i < n; i++) {
    const res = await t.api.post(vpcsPath, { name: vpcName(i), description: `vpc ${i}`, range: `10.${i}.0.0/16` });
    if (res.status !== 201) throw new Error(`create vpc: ${res.status} ${res.message}`);
    out.push(res.body);
  }
  return out;
}

async function page<T>(path: string, query: Query, api: TestApi = t.api): Promise<Envelope<T>> {
  const res = await api.get<Envelope<T>>(path, query);
  if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${res.message}`);
  return res.body;
}

const byBigInt = (a: string, b: string) => (BigInt(a) < BigInt(b) ? -1 : BigInt(a) > BigInt(b) ? 1 : 0);

/** Follows `after` from the first page to the end; returns the pages. */
async function walkForward<T>(path: string, query: Query): Promise<Array<Envelope<T>>> {
  const pages = [await page<T>(path, query)];
  while (pages[pages.length - 1].after) {
    pages.push(await page<T>(path, { ...query, after: pages[pages.length - 1].after! }));
    if (pages.length > 100) throw new Error("runaway paging");
  }
  return pages;
}

/** Follows `before` from a page back to the start; returns the pages, last visited first. */
async function walkBackward<T>(path: string, query: Query, from: Envelope<T>): Promise<Array<Envelope<T>>> {
  const pages = [from];
  while (pages[pages.length - 1].before) {
    pages.push(await page<T>(path, { ...query, before: pages[pages.length - 1].before! }));
    if (pages.length > 100) throw new Error("runaway paging");
  }
  return pages;
}

/** Envelope flags: first page, middle pages, last page. */
function expectEnds<T>(pages: Array<Envelope<T>>): void {
  pages.forEach((p, i) => {
    const first = i === 0;
    const last = i === pages.length - 1;
    expect({ hasPrevious: p.hasPrevious, hasNext: p.hasNext }).toEqual({ hasPrevious: !first, hasNext: !last });
    expect(p.before === null).toBe(first);
    expect(p.after === null).toBe(last);
  });
}

describe("a page-numbered workspace list (VPCs)", () => {
  it("walks every page by number; the envelope is right at both ends and past the end", async () => {
    const created = await seedVpcs();
    const all = await page<Vpc>(vpcsPath, { limit: 1000 });
    expect(all.items.map((v) => v.id)).toEqual(created.map((v) => v.id).sort(byBigInt)); // default order: id ascending
    expect(all).toMatchObject({ hasNext: false, hasPrevious: false, after: null, before: null });

    const pages: Array<Envelope<Vpc>> = [];
    for (let n = 1; n <= 5; n++) pages.push(await page<Vpc>(vpcsPath, { limit: 5, page: n }));
    expect(pages.map((p) => p.items.length)).toEqual([5, 5, 5, 5, 3]);
    expect(pages.flatMap((p) => p.items)).toEqual(all.items);
    expectEnds(pages);

    expect(await page<Vpc>(vpcsPath, { limit: 5, page: 6 })).toMatchObject({ items: [], hasNext: false, after: null });
    // The default page size is 50: one page holds all 23.
    expect(await page<Vpc>(vpcsPath, {})).toEqual(all);
  });

  it("walks forward with `after` and back with `before`, visiting every row once", async () => {
    await seedVpcs();
    const all = (await page<Vpc>(vpcsPath, { limit: 1000 })).items;
    const forward = await walkForward<Vpc>(vpcsPath, { limit: 4 });
    expect(forward.map((p) => p.items.length)).toEqual([4, 4, 4, 4, 4, 3]);
    expect(forward.flatMap((p) => p.items)).toEqual(all);
    expectEnds(forward);

    const backward = await walkBackward<Vpc>(vpcsPath, { limit: 4 }, forward[forward.length - 1]);
    // Going back from the last (short) page gives full pages aligned to the end.
    expect(backward.map((p) => p.items.length)).toEqual([3, 4, 4, 4, 4, 4]);
    expect([...backward].reverse().flatMap((p) => p.items)).toEqual(all);
    expectEnds([...backward].reverse());

    // A page reached by number hands out cursors that continue from it.
    const third = await page<Vpc>(vpcsPath, { limit: 4, page: 3 });
    expect((await page<Vpc>(vpcsPath, { limit: 4, after: third.after! })).items).toEqual(all.slice(12, 16));
    expect((await page<Vpc>(vpcsPath, { limit: 4, before: third.before! })).items).toEqual(all.slice(4, 8));
  });

  it("sorts by a field in either direction, and keyset walks keep that order", async () => {
    const created = await seedVpcs();
    const names = created.map((v) => v.name).sort();
    const asc = await page<Vpc>(vpcsPath, { sort: "name", limit: 1000 });
    expect(asc.items.map((v) => v.name)).toEqual(names); // dir defaults to asc
    const desc = await page<Vpc>(vpcsPath, { sort: "name", dir: "desc", limit: 1000 });
    expect(desc.items.map((v) => v.name)).toEqual([...names].reverse());

    const walked = await walkForward<Vpc>(vpcsPath, { sort: "name", dir: "desc", limit: 6 });
    expect(walked.flatMap((p) => p.items.map((v) => v.name))).toEqual([...names].reverse());
    const back = await walkBackward<Vpc>(vpcsPath, { sort: "name", dir: "desc", limit: 6 }, walked[walked.length - 1]);
    expect([...back].reverse().flatMap((p) => p.items.map((v) => v.name))).toEqual([...names].reverse());

    const byIdDesc = await page<Vpc>(vpcsPath, { sort: "id", dir: "desc", limit: 1000 });
    expect(byIdDesc.items.map((v) => v.id)).toEqual(
      created
        .map((v) => v.id)
        .sort(byBigInt)
        .reverse(),
    );
  });

  it("breaks ties by id, so keyset pages over equal keys neither skip nor repeat rows", async () => {
    await seedVpcs(12);
    // Give every VPC one of two creation times: long runs of equal sort keys.
    const vpcs = (await page<Vpc>(vpcsPath, { limit: 1000 })).items;
    for (const [i, v] of vpcs.entries()) {
      await t.control.patch(`/_emulator/tables/vpcs/${v.id}`, { created: i % 2 ? "2026-01-01T00:00:00.000Z" : "2026-02-01T00:00:00.000Z" });
    }
    for (const dir of ["asc", "desc"]) {
      const all = (await page<Vpc>(vpcsPath, { sort: "created", dir, limit: 1000 })).items;
      const walked = await walkForward<Vpc>(vpcsPath, { sort: "created", dir, limit: 5 });
      expect(walked.flatMap((p) => p.items.map((v) => v.id))).toEqual(all.map((v) => v.id));
      expect(new Set(all.map((v) => v.id)).size).toBe(12);
    }
  });

  it("rows inserted or deleted between pages do not shift keyset pages (page numbers do shift)", async () => {
    await seedVpcs(10);
    const query = { sort: "name", limit: 4 };
    const all = (await page<Vpc>(vpcsPath, { sort: "name", limit: 1000 })).items;
    const first = await page<Vpc>(vpcsPath, query);
    expect(first.items).toEqual(all.slice(0, 4));

    // Two rows that sort before the cursor, one after it; and a row of page 1 deleted.
    for (const name of ["aaa-first", "aab-second", "zzz-last"]) {
      expect((await t.api.post(vpcsPath, { name, description: "late", range: "10.200.0.0/16" })).status).toBe(201);
    }
    expect((await t.api.delete(`/v1/vpcs/${all[3].id}`)).status).toBe(200); // the cursor's own row

    const second = await page<Vpc>(vpcsPath, { ...query, after: first.after! });
    expect(second.items).toEqual(all.slice(4, 8));
    expect(second.hasPrevious).toBe(true);
    const byNumber = await page<Vpc>(vpcsPath, { ...query, page: 2 });
    expect(byNumber.items.map((v) => v.name)).not.toEqual(second.items.map((v) => v.name));

    const rest = await walkForward<Vpc>(vpcsPath, { ...query, after: second.after! });
    expect(rest.flatMap((p) => p.items.map((v) => v.name))).toEqual([...all.slice(8).map((v) => v.name), "zzz-last"]);
    // Back from the second page: the rows inserted before the cursor now show up there.
    const back = await page<Vpc>(vpcsPath, { ...query, before: second.before! });
    expect(back.items.map((v) => v.name)).toEqual(["aab-second", ...all.slice(0, 3).map((v) => v.name)]);
    expect(back.hasPrevious).toBe(true);
  });

  it("an empty list has an empty envelope", async () => {
    expect(await page<Vpc>(vpcsPath, {})).toEqual({ items: [], hasNext: false, hasPrevious: false, after: null, before: null });
  });
});

describe("the keyset-paged catalogue list (GET /v1/plans)", () => {
  interface Plan {
    id: string;
    name: string;
    rate: number;
  }

  it("walks forward and back with cursors, by default and sorted by rate and name", async () => {
    for (const query of [{ disabled: "true" }, { sort: "rate" }, { sort: "name", dir: "desc", disabled: "true" }] as Query[]) {
      const all = (await page<Plan>("/v1/plans", { ...query, limit: 1000 })).items;
      expect(all.length).toBeGreaterThanOrEqual(6);
      const forward = await walkForward<Plan>("/v1/plans", { ...query, limit: 3 });
      expect(forward.flatMap((p) => p.items)).toEqual(all);
      expectEnds(forward);
      const backward = await walkBackward<Plan>("/v1/plans", { ...query, limit: 3 }, forward[forward.length - 1]);
      expect([...backward].reverse().flatMap((p) => p.items)).toEqual(all);
      expectEnds([...backward].reverse());
      // Page numbers agree with the cursor walk for the first pages.
      expect((await page<Plan>("/v1/plans", { ...query, limit: 3, page: 2 })).items).toEqual(forward[1].items);
    }
    const rates = (await page<Plan>("/v1/plans", { sort: "rate", limit: 1000 })).items.map((p) => p.rate);
    expect(rates).toEqual([...rates].sort((a, b) => a - b));
    // Disabled plans are left out by default, so the filtered walk is shorter.
    expect((await page<Plan>("/v1/plans", { limit: 1000 })).items.length).toBeLessThan(
      (await page<Plan>("/v1/plans", { limit: 1000, disabled: "true" })).items.length,
    );
  });

  it("a limit of 1 walks one plan per page", async () => {
    const all = (await page<Plan>("/v1/plans", { limit: 1000 })).items;
    const walked = await walkForward<Plan>("/v1/plans", { limit: 1 });
    expect(walked).toHaveLength(all.length);
    expect(walked.map((p) => p.items[0])).toEqual(all);
  });
});

describe("parameter validation", () => {
  it.each([
    ["limit", "0"],
    ["limit", "1001"],
    ["limit", "-5"],
    ["limit", "ten"],
    ["limit", "2.5"],
    ["page", "0"],
    ["page", "x"],
    ["sort", "colour"],
    ["dir", "sideways"],
  ])("%s=%s answers 400 with a field error", async (field, value) => {
    for (const path of ["/v1/plans", vpcsPath]) {
      const res = await t.api.get(path, { [field]: value });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: res.message, errors: [{ field, message: expect.any(String) }] });
    }
  });

  it("accepts the limit bounds 1 and 1000", async () => {
    expect((await t.api.get("/v1/plans", { limit: 1 })).body.items).toHaveLength(1);
    expect((await t.api.get("/v1/plans", { limit: 1000 })).status).toBe(200);
  });

  it("a cursor the API did not issue answers 400, never 500", async () => {
    const first = await page<{ id: string }>("/v1/plans", { sort: "name", limit: 2 });
    const handMade = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
    const bad = [
      "not-a-cursor",
      "%%%",
      handMade({ k: 1, id: "abc", s: "id" }),
      handMade({ k: "x", id: "12", s: "id" }),
      handMade({ k: { big: "nope" }, id: "12", s: "id" }),
      handMade(null),
      handMade([1, 2]),
      first.after!, // issued for sort=name, used with the default sort
    ];
    for (const cursor of bad) {
      for (const name of ["after", "before"]) {
        const res = await t.api.get("/v1/plans", { [name]: cursor });
        expect({ cursor, name, status: res.status }).toEqual({ cursor, name, status: 400 });
        expect(res.body.errors).toEqual([{ field: name, message: expect.any(String) }]);
      }
    }
    // The same cursor under its own sort is fine.
    expect((await t.api.get("/v1/plans", { sort: "name", limit: 2, after: first.after! })).status).toBe(200);
  });
});
