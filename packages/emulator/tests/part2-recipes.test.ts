/**
 * Part 2 Recipes and POST /v1/commands/install-recipe: the seeded platform recipes, summaries vs
 * full fetch, administrator and workspace lists (filters, paging), create/patch/delete with
 * access rules, and install-recipe field validation, preconditions and password masking.
 */
import { stringifyJson } from "../src/core/json";
import { useTestEmulator, type TestEmulator } from "../src/testing";
import { makeForeignWorkspace, makeInstance, makeMember, MISSING_BIG_ID } from "./apps";

let t: TestEmulator;
const seeded: Record<string, string> = {};

useTestEmulator((started) => (t = started));
beforeAll(async () => {
  for (const r of (await t.api.get(`/v1/workspaces/${t.workspaceId}/recipes`, { limit: 100 })).body.items) seeded[r.name] = r.id;
});

const recipesPath = () => `/v1/workspaces/${t.workspaceId}/recipes`;

const recipe = (extra: Record<string, unknown> = {}) => ({
  name: "Nextcloud",
  category: "PRODUCTIVITY",
  description: "Files and collaboration",
  icon: "https://icons.example.com/nextcloud.svg",
  commands: [{ path: "/opt/recipes/nextcloud.sh", args: ["--admin", "$SVC_FIELDS_ADMIN_USER"] }],
  fields: [{ id: "ADMIN_USER", label: "Admin user", type: "TEXT", required: true }],
  ...extra,
});

interface Field {
  id: string;
  type: string;
  required: boolean;
}
interface Recipe {
  id: string;
  name: string;
  fields: Field[];
  commands: Array<{ path: string; args: string[] }>;
}

describe("seeded platform recipes", () => {
  test("fields of every type, required and optional; args reference SVC_FIELDS_<FIELD_ID>; one recipe without fields", async () => {
    const all: Recipe[] = await Promise.all(Object.values(seeded).map(async (id) => (await t.api.get(`/v1/recipes/${id}`)).body));
    const fields = all.flatMap((r) => r.fields);
    for (const type of ["TEXT", "PASSWORD", "NUMBER", "EMAIL", "BOOLEAN"]) expect(fields.some((f) => f.type === type)).toBe(true);
    expect(fields.some((f) => f.required)).toBe(true);
    expect(fields.some((f) => !f.required)).toBe(true);
    expect(all.some((r) => r.fields.length === 0)).toBe(true);
    for (const r of all) {
      const args = r.commands.flatMap((c) => c.args).join(" ");
      for (const f of r.fields) expect(args).toContain(`SVC_FIELDS_${f.id}`);
    }
    expect((await t.control.get("/_emulator/inventory")).body.resources.recipes).toEqual([]);
  });

  test("lists return only summaries; the fetch adds commands and fields", async () => {
    const list = (await t.api.get(recipesPath())).body.items;
    expect(Object.keys(list[0]).sort()).toEqual(["category", "description", "icon", "id", "name", "owner"]);
    expect(list[0].owner).toBeNull();
    const full = (await t.api.get(`/v1/recipes/${list[0].id}`)).body;
    expect(Object.keys(full).sort()).toEqual(["category", "commands", "description", "fields", "icon", "id", "name", "owner"]);
  });
});

describe("create, patch, delete", () => {
  test("workspace create: 201 owned by the workspace; administrator create: 201 with no owner; user token on the admin endpoint 400", async () => {
    const own = await t.api.post(recipesPath(), recipe());
    expect(own.status).toBe(201);
    expect(own.body).toMatchObject({
      name: "Nextcloud",
      owner: { id: t.workspaceId, name: "demo-workspace" },
      fields: [{ id: "ADMIN_USER", description: null, required: true }],
    });
    expect(BigInt(own.body.id) > 2n ** 53n).toBe(true);
    const platform = await t.staff.post("/v1/recipes", recipe({ name: "Platform thing", icon: undefined, fields: undefined }));
    expect(platform.status).toBe(201);
    expect(platform.body).toMatchObject({ owner: null, icon: null, fields: [] });
    const user = await t.api.post("/v1/recipes", recipe());
    expect(user.status).toBe(400);
    expect(user.message).toMatch(/administrator/);
    const inv = (await t.control.get("/_emulator/inventory")).body.resources.recipes;
    expect(inv).toEqual(
      expect.arrayContaining([
        { id: own.body.id, name: "Nextcloud", workspaceId: t.workspaceId, state: null },
        { id: platform.body.id, name: "Platform thing", workspaceId: null, state: null },
      ]),
    );
  });

  test.each([
    ["name missing", { name: undefined }, /name/],
    ["an unknown category", { category: "KITCHEN" }, /category/],
    ["description missing", { description: undefined }, /description/],
    ["commands missing", { commands: undefined }, /commands/],
    ["no commands", { commands: [] }, /commands/],
    ["a relative script path", { commands: [{ path: "install.sh", args: [] }] }, /commands\[0\]\.path: must be an absolute script path/],
    ["args that are not strings", { commands: [{ path: "/a.sh", args: [1] }] }, /commands\[0\]\.args\[0\]/],
    ["an unknown field type", { fields: [{ id: "A", label: "A", type: "DATE" }] }, /fields\[0\]\.type/],
    ["a field id with a dash", { fields: [{ id: "admin-user", label: "A", type: "TEXT" }] }, /fields\[0\]\.id/],
    ["a field without label", { fields: [{ id: "A", type: "TEXT" }] }, /fields\[0\]\.label/],
    [
      "two fields with one id",
      {
        fields: [
          { id: "PORT", label: "A", type: "NUMBER" },
          { id: "port", label: "B", type: "NUMBER" },
        ],
      },
      /fields\[1\]\.id: port is used twice/,
    ],
    ["an icon that is not a URL", { icon: "not a url" }, /icon/],
  ])("400 for %s", async (_label, extra, message) => {
    const res = await t.api.post(recipesPath(), recipe(extra));
    expect(res.status).toBe(400);
    expect(res.message).toMatch(message);
  });

  test("PATCH: given fields replace (lists whole), icon and description null clear; others null 400", async () => {
    const own = (await t.api.post(recipesPath(), recipe())).body;
    const res = await t.api.patch(`/v1/recipes/${own.id}`, {
      name: "Nextcloud Hub",
      icon: null,
      description: null,
      fields: [{ id: "DOMAIN", label: "Domain", type: "TEXT", required: false }],
      commands: [{ path: "/opt/recipes/nextcloud-hub.sh", args: ["$SVC_FIELDS_DOMAIN"] }],
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: "Nextcloud Hub",
      category: "PRODUCTIVITY",
      icon: null,
      description: null,
      fields: [{ id: "DOMAIN", label: "Domain", type: "TEXT", required: false, description: null }],
      commands: [{ path: "/opt/recipes/nextcloud-hub.sh", args: ["$SVC_FIELDS_DOMAIN"] }],
    });
    for (const field of ["name", "category", "commands", "fields"]) {
      const bad = await t.api.patch(`/v1/recipes/${own.id}`, { [field]: null });
      expect(bad.status).toBe(400);
      expect(bad.message).toMatch(new RegExp(field));
    }
  });

  test("platform recipes: user token 400 on PATCH/DELETE, staff may; workspace recipes: VIEWER 403", async () => {
    const platformId = seeded["Docker Engine"];
    expect((await t.api.patch(`/v1/recipes/${platformId}`, { name: "Mine" })).status).toBe(400);
    expect((await t.api.delete(`/v1/recipes/${platformId}`)).status).toBe(400);
    expect((await t.staff.patch(`/v1/recipes/${platformId}`, { category: "TOOLS" })).body.category).toBe("TOOLS");
    const own = (await t.api.post(recipesPath(), recipe())).body;
    const viewer = makeMember(t, "VIEWER");
    expect((await viewer.get(`/v1/recipes/${own.id}`)).status).toBe(200);
    expect((await viewer.patch(`/v1/recipes/${own.id}`, { name: "x" })).status).toBe(403);
    expect((await viewer.delete(`/v1/recipes/${own.id}`)).status).toBe(403);
    expect((await viewer.post(recipesPath(), recipe({ name: "v" }))).status).toBe(403);
  });

  test("DELETE is synchronous and answers an audit entry; the recipe is gone", async () => {
    const own = (await t.api.post(recipesPath(), recipe())).body;
    const res = await t.api.delete(`/v1/recipes/${own.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      action: "recipe.delete",
      target: { kind: "RECIPE", id: own.id },
      actor: { id: t.emu.userId, name: "Demo User" },
      workspace_id: t.workspaceId,
    });
    expect((await t.api.get(`/v1/recipes/${own.id}`)).status).toBe(404);
    const staffDelete = await t.staff.delete(`/v1/recipes/${seeded["Netdata Agent"]}`);
    expect(staffDelete.status).toBe(200);
    expect(staffDelete.body.workspace_id).toBeNull();
  });

  test("another workspace's recipes are invisible (404) and absent from our list", async () => {
    const foreign = makeForeignWorkspace(t);
    const theirs = (await foreign.owner.post(`/v1/workspaces/${foreign.workspaceId}/recipes`, recipe({ name: "Their recipe" }))).body;
    expect((await t.api.get(`/v1/recipes/${theirs.id}`)).status).toBe(404);
    expect((await t.api.patch(`/v1/recipes/${theirs.id}`, { name: "x" })).status).toBe(404);
    const names = (await t.api.get(recipesPath(), { limit: 100 })).body.items.map((r: { name: string }) => r.name);
    expect(names).not.toContain("Their recipe");
    expect((await t.api.get(`/v1/workspaces/${foreign.workspaceId}/recipes`)).status).toBe(404);
    expect((await t.anon.get(recipesPath())).status).toBe(403);
    expect((await t.api.get(`/v1/recipes/${MISSING_BIG_ID}`)).status).toBe(404);
  });
});

describe("lists", () => {
  async function setUp() {
    const foreign = makeForeignWorkspace(t);
    const mine = (
      await t.api.post(recipesPath(), recipe({ name: "Nextcloud", category: "PRODUCTIVITY", description: "Files and **collaboration**" }))
    ).body;
    const theirs = (
      await foreign.owner.post(`/v1/workspaces/${foreign.workspaceId}/recipes`, recipe({ name: "Their recipe", category: "TOOLS" }))
    ).body;
    return { foreign, mine, theirs };
  }
  const names = async (path: string, query: Record<string, string | string[]>, api = t.api) =>
    (await api.get(path, { limit: 100, ...query })).body.items.map((r: { name: string }) => r.name).sort();

  test("workspace list: platform plus own; filters q, id, owner, name, description, category", async () => {
    const { mine } = await setUp();
    expect(await names(recipesPath(), {})).toEqual([...Object.keys(seeded), "Nextcloud"].sort());
    expect(await names(recipesPath(), { q: "collaboration" })).toEqual(["Nextcloud"]);
    expect(await names(recipesPath(), { q: mine.id })).toEqual(["Nextcloud"]);
    expect(await names(recipesPath(), { id: [mine.id, seeded.WordPress] })).toEqual(["Nextcloud", "WordPress"]);
    expect(await names(recipesPath(), { owner: t.workspaceId })).toEqual(["Nextcloud"]);
    expect(await names(recipesPath(), { name: "postgres" })).toEqual(["PostgreSQL 16"]);
    expect(await names(recipesPath(), { description: "systemd" })).toEqual(["Minecraft Paper Server"]);
    expect(await names(recipesPath(), { category: "GAMES" })).toEqual(["Minecraft Paper Server"]);
    const bad = await t.api.get(recipesPath(), { category: "KITCHEN" });
    expect(bad.status).toBe(400);
    expect(bad.message).toMatch(/category must be one of/);
  });

  test("administrator list: every recipe; owner filter; a user token 400", async () => {
    const { foreign } = await setUp();
    expect(await names("/v1/recipes", {}, t.staff)).toEqual([...Object.keys(seeded), "Nextcloud", "Their recipe"].sort());
    expect(await names("/v1/recipes", { owner: foreign.workspaceId }, t.staff)).toEqual(["Their recipe"]);
    expect(await names("/v1/recipes", { category: "TOOLS" }, t.staff)).toEqual(["Their recipe"]);
    const user = await t.api.get("/v1/recipes");
    expect(user.status).toBe(400);
    expect(user.message).toMatch(/administrator/);
  });

  test("keyset cursors and page numbers", async () => {
    await setUp();
    const all = (await t.staff.get("/v1/recipes")).body.items.map((r: { id: string }) => r.id);
    expect(all.length).toBe(7);
    const p1 = (await t.staff.get("/v1/recipes", { limit: 3 })).body;
    expect(p1.items.map((r: { id: string }) => r.id)).toEqual(all.slice(0, 3));
    const p2 = (await t.staff.get("/v1/recipes", { limit: 3, after: p1.after })).body;
    expect(p2.items.map((r: { id: string }) => r.id)).toEqual(all.slice(3, 6));
    const p3 = (await t.staff.get("/v1/recipes", { limit: 3, after: p2.after })).body;
    expect(p3.items.map((r: { id: string }) => r.id)).toEqual(all.slice(6));
    expect(p3).toMatchObject({ hasNext: false, after: null, hasPrevious: true });
    const back = (await t.staff.get("/v1/recipes", { limit: 3, before: p3.before })).body;
    expect(back.items.map((r: { id: string }) => r.id)).toEqual(all.slice(3, 6));
    expect((await t.staff.get("/v1/recipes", { limit: 3, page: 2 })).body.items.map((r: { id: string }) => r.id)).toEqual(all.slice(3, 6));
    const byName = (await t.staff.get("/v1/recipes", { sort: "name", limit: 2 })).body.items.map((r: { name: string }) => r.name);
    expect(byName).toEqual(["Docker Engine", "Minecraft Paper Server"]);
  });
});

describe("install-recipe", () => {
  const install = (body: unknown, api = t.api) => api.post("/v1/commands/install-recipe", body);
  const wordpress = (instance: string, fields: Record<string, unknown>) => ({
    instance: BigInt(instance),
    recipe: BigInt(seeded.WordPress),
    fields,
  });
  const goodFields = { SITE_TITLE: "My blog", ADMIN_EMAIL: "me@example.com", ADMIN_PASSWORD: "Sup3r-secret-pw!", ENABLE_SSL: "yes" };

  test("202 workflow; raw big integers round-trip; the password is never stored or logged", async () => {
    const fx = makeInstance(t);
    const res = await t.api.post("/v1/commands/install-recipe", undefined, {
      rawBody: `{"instance":${fx.instance.id},"recipe":${seeded.WordPress},"fields":${JSON.stringify(goodFields)}}`,
    });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ name: "install-recipe", state: "QUEUED" });
    expect(await t.waitWorkflow(res.body.id)).toBe("COMPLETED");
    const wf = t.emu.services.store.t.workflows.get(res.body.id)!;
    expect(wf.resource).toEqual({ kind: "instances", id: fx.instance.id });
    expect(wf.args).toEqual({
      recipeId: seeded.WordPress,
      fields: { SITE_TITLE: "My blog", ADMIN_EMAIL: "me@example.com", ENABLE_SSL: "true" },
      passwordsSet: ["ADMIN_PASSWORD"],
    });
    const state = stringifyJson(t.emu.services.store.snapshot(0));
    expect(state).not.toContain("Sup3r-secret-pw!");
    const log = JSON.stringify((await t.control.get("/_emulator/requests", { path: "/v1/commands/install-recipe" })).body);
    expect(log).not.toContain("Sup3r-secret-pw!");
    expect(log).toContain("My blog");
    expect(t.emu.services.store.t.instances.get(fx.instance.id)!.state).toBe("AVAILABLE");
  });

  test("a recipe without fields takes {}; optional fields may be left out", async () => {
    const fx = makeInstance(t);
    expect((await install({ instance: BigInt(fx.instance.id), recipe: BigInt(seeded["Docker Engine"]), fields: {} })).status).toBe(202);
    const pg = await install({
      instance: BigInt(fx.instance.id),
      recipe: BigInt(seeded["PostgreSQL 16"]),
      fields: { DB_NAME: "app", DB_PASSWORD: "pw-123456", PORT: null },
    });
    expect(pg.status).toBe(202);
  });

  test.each([
    ["a required field missing", { ...goodFields, SITE_TITLE: undefined }, /fields\.SITE_TITLE: Site title is required/],
    ["a required field empty", { ...goodFields, ADMIN_PASSWORD: "" }, /fields\.ADMIN_PASSWORD: Administrator password is required/],
    ["an unknown field id", { ...goodFields, THEME: "dark" }, /fields\.THEME: the recipe has no field with this id/],
    ["an invalid email", { ...goodFields, ADMIN_EMAIL: "me-at-example" }, /fields\.ADMIN_EMAIL: must be a valid email address/],
    ["a boolean that is not boolean-ish", { ...goodFields, ENABLE_SSL: "maybe" }, /fields\.ENABLE_SSL: must be a boolean/],
    ["text sent as a number", { ...goodFields, SITE_TITLE: 5 }, /fields\.SITE_TITLE: must be a string/],
    ["a password sent as a number", { ...goodFields, ADMIN_PASSWORD: 123456 }, /fields\.ADMIN_PASSWORD: must be a string/],
  ])("400 for %s", async (_label, fields, message) => {
    const fx = makeInstance(t);
    const res = await install(wordpress(fx.instance.id, fields));
    expect(res.status).toBe(400);
    expect(res.message).toMatch(message);
  });

  test.each([
    ["42", true],
    [42, true],
    [" 3.5 ", true],
    ["abc", false],
    ["", false],
    [true, false],
  ])("NUMBER field value %j accepted: %s", async (value, accepted) => {
    const fx = makeInstance(t);
    const res = await install({
      instance: BigInt(fx.instance.id),
      recipe: BigInt(seeded["Minecraft Paper Server"]),
      fields: { MAX_PLAYERS: value },
    });
    expect(res.status).toBe(accepted ? 202 : 400);
    if (!accepted) expect(res.message).toMatch(/fields\.MAX_PLAYERS/);
  });

  test.each([[true], [false], ["true"], ["No"], ["1"], [0], ["on"]])("BOOLEAN field value %j is boolean-ish", async (value) => {
    const fx = makeInstance(t);
    const res = await install({
      instance: BigInt(fx.instance.id),
      recipe: BigInt(seeded["Netdata Agent"]),
      fields: { STABLE_CHANNEL: value },
    });
    expect(res.status).toBe(202);
  });

  test.each([
    ["fields missing", (i: string) => ({ instance: BigInt(i), recipe: BigInt(seeded["Docker Engine"]) }), /fields/],
    ["fields not an object", (i: string) => ({ instance: BigInt(i), recipe: BigInt(seeded["Docker Engine"]), fields: [] }), /fields/],
    ["instance missing", () => ({ recipe: BigInt(seeded["Docker Engine"]), fields: {} }), /instance/],
    ["recipe missing", (i: string) => ({ instance: BigInt(i), fields: {} }), /recipe/],
    [
      "instance as a string",
      (i: string) => ({ instance: i, recipe: BigInt(seeded["Docker Engine"]), fields: {} }),
      /instance: must be an integer identifier/,
    ],
  ])("400 for %s", async (_label, make, message) => {
    const fx = makeInstance(t);
    const res = await install(make(fx.instance.id));
    expect(res.status).toBe(400);
    expect(res.message).toMatch(message);
  });

  test("passwords are masked in the request log even when the request is refused", async () => {
    const fx = makeInstance(t);
    await install(wordpress(fx.instance.id, { ...goodFields, ADMIN_EMAIL: "broken" }));
    await install({ instance: BigInt(fx.instance.id), recipe: BigInt(MISSING_BIG_ID), fields: { ADMIN_PASSWORD: "Sup3r-secret-pw!" } });
    const log = (await t.control.get("/_emulator/requests", { path: "/v1/commands/install-recipe" })).body.requests;
    expect(log.map((r: { status: number }) => r.status)).toEqual([400, 404]);
    expect(JSON.stringify(log)).not.toContain("Sup3r-secret-pw!");
    expect(log[0].body.fields.ADMIN_PASSWORD).toBe("[masked]");
  });

  test("409 unless the instance is online and AVAILABLE", async () => {
    const offline = makeInstance(t, { online: false });
    const res = await install({ instance: BigInt(offline.instance.id), recipe: BigInt(seeded["Docker Engine"]), fields: {} });
    expect(res.status).toBe(409);
    expect(res.message).toMatch(/online and AVAILABLE/);
    const suspended = makeInstance(t, { state: "SUSPENDED" });
    expect((await install({ instance: BigInt(suspended.instance.id), recipe: BigInt(seeded["Docker Engine"]), fields: {} })).status).toBe(
      409,
    );
  });

  test("404 for an unknown instance or recipe, another workspace's recipe or instance; 403 for no token or VIEWER", async () => {
    const fx = makeInstance(t);
    const docker = BigInt(seeded["Docker Engine"]);
    expect(
      (
        await t.api.post("/v1/commands/install-recipe", undefined, {
          rawBody: `{"instance":${MISSING_BIG_ID},"recipe":${docker},"fields":{}}`,
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await t.api.post("/v1/commands/install-recipe", undefined, {
          rawBody: `{"instance":${fx.instance.id},"recipe":${MISSING_BIG_ID},"fields":{}}`,
        })
      ).status,
    ).toBe(404);
    const foreign = makeForeignWorkspace(t);
    const theirRecipe = (await foreign.owner.post(`/v1/workspaces/${foreign.workspaceId}/recipes`, recipe({ fields: [] }))).body;
    expect((await install({ instance: BigInt(fx.instance.id), recipe: BigInt(theirRecipe.id), fields: {} })).status).toBe(404);
    const theirInstance = makeInstance(t, { workspaceId: foreign.workspaceId });
    expect((await install({ instance: BigInt(theirInstance.instance.id), recipe: docker, fields: {} })).status).toBe(404);
    expect(
      (await install({ instance: BigInt(theirInstance.instance.id), recipe: BigInt(theirRecipe.id), fields: {} }, foreign.owner)).status,
    ).toBe(202);
    expect((await install({ instance: BigInt(fx.instance.id), recipe: docker, fields: {} }, t.anon)).status).toBe(403);
    const viewer = makeMember(t, "VIEWER");
    expect((await install({ instance: BigInt(fx.instance.id), recipe: docker, fields: {} }, viewer)).status).toBe(403);
    const own = (await t.api.post(recipesPath(), recipe({ fields: [] }))).body;
    expect((await install({ instance: BigInt(fx.instance.id), recipe: BigInt(own.id), fields: {} })).status).toBe(202);
  });

  test("a failed install workflow leaves the instance AVAILABLE", async () => {
    const fx = makeInstance(t);
    await t.control.post("/_emulator/faults", { kind: "workflow", outcome: "FAILED", path: "/v1/commands/install-recipe", times: 1 });
    const res = await install({ instance: BigInt(fx.instance.id), recipe: BigInt(seeded["Docker Engine"]), fields: {} });
    expect(await t.waitWorkflow(res.body.id)).toBe("FAILED");
    expect(t.emu.services.store.t.instances.get(fx.instance.id)!.state).toBe("AVAILABLE");
  });
});
