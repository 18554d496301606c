/**
 * Emulator core: atomic requests. A handler that throws midway leaves the store exactly as it
 * was (rows, their order, the id generator), and with --state the file on disk is untouched;
 * a handler that succeeds keeps its writes. The handlers here are test routes mounted on the
 * real request pipeline (buildApp), writing to real tables before they fail.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { FastifyInstance } from "fastify";
import { buildApp, buildServices } from "../src/server";
import { conflict } from "../src/core/errors";
import { ok, type RouteContext, type RouteDef } from "../src/core/router";
import { stringifyJson } from "../src/core/json";
import type { Services } from "../src/core/services";
import { TestApi } from "../src/testing";
import { setTimeout as sleep } from "node:timers/promises";

/** Renames the workspace, deletes the first plan, inserts a disk row and draws from the generator: every kind of write. */
function writeEverywhere(ctx: RouteContext): string {
  const wid = String(ctx.query.wid);
  ctx.store.t.workspaces.update(wid, { name: "renamed midway" });
  const plan = ctx.store.t.plans.all()[0];
  ctx.store.t.plans.delete(plan.id);
  const id = ctx.store.newId();
  ctx.store.table("probes").insert({ id, code: ctx.store.rng.alnum(8) } as never);
  ctx.store.table("probes").update(id, { code: "changed" } as never);
  return id;
}

const routes: RouteDef[] = [
  {
    method: "POST",
    path: "/v1/test/fails-with-api-error",
    handler: (ctx) => {
      writeEverywhere(ctx);
      throw conflict("failed after writing");
    },
  },
  {
    method: "POST",
    path: "/v1/test/fails-with-bug",
    handler: (ctx) => {
      writeEverywhere(ctx);
      (undefined as unknown as { crash(): void }).crash();
      return ok({});
    },
  },
  {
    method: "POST",
    path: "/v1/test/fails-after-await",
    handler: async (ctx) => {
      await sleep(5);
      writeEverywhere(ctx);
      throw conflict("failed after awaiting and writing");
    },
  },
  {
    method: "POST",
    path: "/v1/test/succeeds",
    handler: (ctx) => ok({ id: writeEverywhere(ctx) }),
  },
];

let dir: string;
let file: string;
let services: Services;
let app: FastifyInstance;
let api: TestApi;
let workspaceId: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "emulator-core-atomic-"));
  file = path.join(dir, "state.json");
  const built = buildServices({ stateFile: file, seed: 77, idMode: "small" });
  services = built.services;
  services.store.saveTo(file, 0);
  app = buildApp(services, built.reset, routes);
  await app.listen({ host: "127.0.0.1", port: 0 });
  const address = app.server.address() as { port: number };
  api = new TestApi(`http://127.0.0.1:${address.port}`, built.bootstrap.token);
  workspaceId = built.bootstrap.workspaceId;
});

afterAll(async () => {
  await app.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

type State = ReturnType<Services["store"]["snapshot"]>;

/**
 * A state as the state file holds it (tables in row order, generator, sequence), but for the
 * token's last use, which authentication records before the handler runs, and for empty tables,
 * which a first read creates.
 */
function comparable(state: State): string {
  const copy = structuredClone(state);
  for (const token of (copy.tables.tokens ?? []) as Array<{ lastUsed?: unknown; lastIp?: unknown }>) {
    delete token.lastUsed;
    delete token.lastIp;
  }
  copy.tables = Object.fromEntries(Object.entries(copy.tables).filter(([, rows]) => rows.length > 0));
  return stringifyJson(copy);
}

const everything = () => comparable(services.store.snapshot(0));
const tablesOf = (state: string) => JSON.parse(state).tables;
const onDisk = () => fs.readFileSync(file, "utf8");

describe("a handler that throws midway", () => {
  it.each([
    ["an API error", "/v1/test/fails-with-api-error", 409],
    ["a bug (500)", "/v1/test/fails-with-bug", 500],
    ["an API error after an await", "/v1/test/fails-after-await", 409],
  ])("leaves the store and the state file as they were (%s)", async (_what, route, status) => {
    const before = everything();
    const fileBefore = onDisk();
    const quietBug = jest.spyOn(console, "error").mockImplementation(() => undefined);
    const res = await api.post(route, undefined, { query: { wid: workspaceId } });
    quietBug.mockRestore();
    expect(res.status).toBe(status);
    expect(services.store.table("probes").count()).toBe(0);
    expect(services.store.t.workspaces.get(workspaceId)!.name).not.toBe("renamed midway");
    if (route.endsWith("after-await")) {
      // A handler that awaited may have shared the id generator with other requests: its rows are
      // restored, the identifiers it drew are never issued (the file may be rewritten with the same rows).
      expect(tablesOf(everything())).toEqual(tablesOf(before));
      expect(tablesOf(comparable(JSON.parse(onDisk())))).toEqual(tablesOf(comparable(JSON.parse(fileBefore))));
    } else {
      expect(everything()).toBe(before);
      expect(onDisk()).toBe(fileBefore);
    }
  });
});

describe("a handler that succeeds", () => {
  it("keeps its writes and persists them", async () => {
    const plans = services.store.t.plans.count();
    const res = await api.post("/v1/test/succeeds", undefined, { query: { wid: workspaceId } });
    expect(res.status).toBe(200);
    expect(services.store.table("probes").get(res.body.id)).toMatchObject({ code: "changed" });
    expect(services.store.t.plans.count()).toBe(plans - 1);
    const persisted = JSON.parse(fs.readFileSync(file, "utf8"));
    expect(persisted.tables.workspaces.find((w: { id: string }) => w.id === workspaceId).name).toBe("renamed midway");
    expect(persisted.tables.probes.map((p: { id: string }) => p.id)).toEqual([res.body.id]);
  });
});
