/**
 * Part 2 App templates: the seeded catalogue, reads by any valid token, staff-only writes with
 * their validation (unique names, one http port, slug-unique ports, placeholders), PATCH null
 * rules, delete, lists with filters and paging.
 */
import { useTestEmulator, type TestEmulator } from "../src/testing";
import { makeMember, MISSING_BIG_ID } from "./apps";

let t: TestEmulator;
useTestEmulator((started) => (t = started));

interface TemplateDetail {
  id: string;
  name: string;
  category: string | null;
  environment: Array<{ key: string; value: string | null; description: string }>;
  mounts: unknown[];
  ports: Array<{ name: string; container_port: number; protocol: string; http: boolean }>;
}

const body = (extra: Record<string, unknown> = {}) => ({
  name: "Grafana",
  description: "Dashboards for metrics and logs.",
  image: "grafana/grafana:11.2.2",
  category: "MONITORING",
  environment: [
    { key: "GF_SERVER_HTTP_PORT", value: "{{container_port.web}}", description: "Listen port" },
    { key: "GF_SECURITY_ADMIN_PASSWORD", value: "{{random:20}}", description: "Admin password" },
    { key: "GF_SERVER_DOMAIN", value: null, description: "Public domain" },
  ],
  mounts: [{ host_path: "/opt/grafana", container_path: "/var/lib/grafana" }],
  ports: [{ name: "web", description: "UI", container_port: 3000, protocol: "TCP", http: true }],
  ...extra,
});

async function allSeeded(): Promise<TemplateDetail[]> {
  const list = (await t.api.get("/v1/app-templates", { limit: 100 })).body.items as Array<{ id: string }>;
  return Promise.all(list.map(async (s) => (await t.api.get(`/v1/app-templates/${s.id}`)).body));
}

describe("seeded catalogue", () => {
  test("at least four templates that together use every placeholder kind, a user-supplied value, mounts and several ports", async () => {
    const templates = await allSeeded();
    expect(templates.length).toBeGreaterThanOrEqual(4);
    const values = templates.flatMap((x) => x.environment.map((e) => e.value ?? ""));
    for (const pattern of [
      /\{\{host_port\.[a-z]+\}\}/,
      /\{\{container_port\.[a-z]+\}\}/,
      /\{\{instance\.ip4\}\}/,
      /\{\{instance\.ip6\}\}/,
      /\{\{random:\d+\}\}/,
    ]) {
      expect(values.some((v) => pattern.test(v))).toBe(true);
    }
    expect(templates.some((x) => x.environment.some((e) => e.value === null))).toBe(true);
    expect(templates.some((x) => x.mounts.length > 0)).toBe(true);
    expect(templates.some((x) => x.ports.length >= 3)).toBe(true);
    for (const x of templates) expect(x.ports.filter((p) => p.http).length).toBeLessThanOrEqual(1);
    const categories = new Set(templates.map((x) => x.category));
    for (const c of ["AI", "AUTOMATION", "DEVOPS", "GAMES", "MEDIA", "MONITORING", "PRODUCTIVITY", null])
      expect(categories.has(c)).toBe(true);
  });

  test("seed rows are not live resources (absent from the inventory)", async () => {
    expect((await t.control.get("/_emulator/inventory")).body.resources.appTemplates).toEqual([]);
  });
});

describe("reads", () => {
  test("any valid token reads; no token 403; an unknown token 401", async () => {
    const viewer = makeMember(t, "VIEWER");
    const list = await viewer.get("/v1/app-templates");
    expect(list.status).toBe(200);
    expect(Object.keys(list.body.items[0]).sort()).toEqual(["category", "description", "id", "image", "name"]);
    expect((await viewer.get(`/v1/app-templates/${list.body.items[0].id}`)).status).toBe(200);
    expect((await t.anon.get("/v1/app-templates")).status).toBe(403);
    const bogus = await t.api.as("svc_not_a_token").get("/v1/app-templates");
    expect(bogus.status).toBe(401);
    expect(bogus.message).toMatch(/Unrecognised token/);
  });

  test("filters q, name, image and category; 400 for an unknown category", async () => {
    const names = async (query: Record<string, string>) =>
      (await t.api.get("/v1/app-templates", query)).body.items.map((x: { name: string }) => x.name).sort();
    expect(await names({ q: "password manager" })).toEqual(["Vaultwarden"]);
    expect(await names({ q: "ollama/" })).toEqual(["Ollama"]);
    expect(await names({ name: "MINE" })).toEqual(["Minecraft Server"]);
    expect(await names({ image: "jellyfin" })).toEqual(["Jellyfin"]);
    expect(await names({ category: "GAMES" })).toEqual(["Minecraft Server"]);
    const bad = await t.api.get("/v1/app-templates", { category: "SPORTS" });
    expect(bad.status).toBe(400);
    expect(bad.message).toMatch(/category must be one of/);
  });

  test("page numbers and keyset cursors", async () => {
    const all = (await t.api.get("/v1/app-templates", { sort: "name" })).body.items.map((x: { name: string }) => x.name);
    expect(all).toEqual([...all].sort((a: string, b: string) => a.toLowerCase().localeCompare(b.toLowerCase())));
    const p1 = (await t.api.get("/v1/app-templates", { sort: "name", limit: 3 })).body;
    expect(p1.items.map((x: { name: string }) => x.name)).toEqual(all.slice(0, 3));
    const p2 = (await t.api.get("/v1/app-templates", { sort: "name", limit: 3, after: p1.after })).body;
    expect(p2.items.map((x: { name: string }) => x.name)).toEqual(all.slice(3, 6));
    expect(p2.hasPrevious).toBe(true);
    const back = (await t.api.get("/v1/app-templates", { sort: "name", limit: 3, before: p2.before })).body;
    expect(back.items.map((x: { name: string }) => x.name)).toEqual(all.slice(0, 3));
    const page3 = (await t.api.get("/v1/app-templates", { sort: "name", limit: 3, page: 3 })).body;
    expect(page3.items.map((x: { name: string }) => x.name)).toEqual(all.slice(6, 9));
    expect(page3.hasNext).toBe(false);
  });

  test("404 for an unknown template (a big identifier)", async () => {
    expect((await t.api.get(`/v1/app-templates/${MISSING_BIG_ID}`)).status).toBe(404);
  });
});

describe("staff writes", () => {
  test("create answers 201 with the full detail; defaults filled; the id round-trips above 2^53", async () => {
    const res = await t.staff.post(
      "/v1/app-templates",
      body({ category: undefined, ports: [{ name: "web", container_port: 3000, http: true }] }),
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: "Grafana",
      category: null,
      mounts: [{ host_path: "/opt/grafana", container_path: "/var/lib/grafana", read_only: false }],
      ports: [{ name: "web", description: "", container_port: 3000, protocol: "TCP", http: true }],
    });
    expect(BigInt(res.body.id) > 2n ** 53n).toBe(true);
    expect((await t.api.get(`/v1/app-templates/${res.body.id}`)).body.id).toBe(res.body.id);
    const inv = (await t.control.get("/_emulator/inventory")).body.resources.appTemplates;
    expect(inv).toEqual([{ id: res.body.id, name: "Grafana", workspaceId: null, state: null }]);
  });

  test("a user-scoped token gets 400 (staff only) on create, patch and delete", async () => {
    const id = (await t.api.get("/v1/app-templates")).body.items[0].id;
    for (const res of [
      await t.api.post("/v1/app-templates", body()),
      await t.api.patch(`/v1/app-templates/${id}`, { description: "changed text" }),
      await t.api.delete(`/v1/app-templates/${id}`),
    ]) {
      expect(res.status).toBe(400);
      expect(res.message).toMatch(/administrator/);
    }
  });

  test("409 for a name that already exists", async () => {
    const res = await t.staff.post("/v1/app-templates", body({ name: "Ollama" }));
    expect(res.status).toBe(409);
    expect(res.message).toMatch(/already exists/);
  });

  test.each([
    [
      "two http ports",
      {
        ports: [
          { name: "a", container_port: 1, http: true },
          { name: "b", container_port: 2, http: true },
        ],
        environment: [],
      },
      /ports: at most one port per template may have http true/,
    ],
    [
      "a port name used twice",
      {
        ports: [
          { name: "web", container_port: 1 },
          { name: "web", container_port: 2 },
        ],
        environment: [],
      },
      /ports\[1\]\.name: port name web is used twice/,
    ],
    [
      "a port name that is not a slug",
      { ports: [{ name: "Web UI", container_port: 1 }], environment: [] },
      /ports\[0\]\.name: must be a lowercase slug/,
    ],
    [
      "an environment key used twice",
      {
        environment: [
          { key: "A", value: "1" },
          { key: "A", value: "2" },
        ],
      },
      /environment\[1\]\.key: A is defined twice/,
    ],
    [
      "an unknown placeholder",
      { environment: [{ key: "A", value: "{{instance.hostname}}" }] },
      /environment\[0\]\.value: unknown placeholder \{\{instance\.hostname\}\}/,
    ],
    [
      "a reference to a missing port",
      { environment: [{ key: "A", value: "{{host_port.admin}}" }] },
      /unresolvable placeholder \{\{host_port\.admin\}\}: no template port named admin/,
    ],
    ["random length 0", { environment: [{ key: "A", value: "{{random:0}}" }] }, /random length must be 1 to 128/],
    ["random length 129", { environment: [{ key: "A", value: "{{random:129}}" }] }, /random length must be 1 to 128/],
    ["an image without a tag", { image: "grafana/grafana" }, /image: must be a container image reference with a tag/],
    ["an unknown category", { category: "SPORTS" }, /category/],
    ["a relative mount path", { mounts: [{ host_path: "opt", container_path: "/x" }] }, /mounts\[0\]\.host_path/],
    ["a UDP/TCP typo", { ports: [{ name: "web", container_port: 1, protocol: "tcp" }], environment: [] }, /ports\[0\]\.protocol/],
    ["description missing", { description: undefined }, /description/],
  ])("400 for %s", async (_label, extra, message) => {
    const res = await t.staff.post("/v1/app-templates", body(extra));
    expect(res.status).toBe(400);
    expect(res.message).toMatch(message);
  });

  test("PATCH replaces given fields; category null clears it; answers the updated detail", async () => {
    const created = (await t.staff.post("/v1/app-templates", body())).body;
    const res = await t.staff.patch(`/v1/app-templates/${created.id}`, {
      category: null,
      description: "Observability dashboards.",
      ports: [{ name: "web", container_port: 3001, http: true }],
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: "Grafana",
      category: null,
      description: "Observability dashboards.",
      ports: [{ name: "web", container_port: 3001 }],
    });
    expect(res.body.environment).toEqual(created.environment);
    const again = await t.staff.patch(`/v1/app-templates/${created.id}`, { category: "DEVOPS" });
    expect(again.body.category).toBe("DEVOPS");
  });

  test.each(["name", "description", "image", "environment", "mounts", "ports"])("PATCH %s null is 400", async (field) => {
    const created = (await t.staff.post("/v1/app-templates", body())).body;
    const res = await t.staff.patch(`/v1/app-templates/${created.id}`, { [field]: null });
    expect(res.status).toBe(400);
    expect(res.message).toBe(`${field}: cannot be null`);
  });

  test("PATCH keeps the cross-field rules: ports that orphan a placeholder are 400; a taken name 409", async () => {
    const created = (await t.staff.post("/v1/app-templates", body())).body;
    const orphan = await t.staff.patch(`/v1/app-templates/${created.id}`, { ports: [{ name: "ui", container_port: 3000, http: true }] });
    expect(orphan.status).toBe(400);
    expect(orphan.message).toMatch(/no template port named web/);
    const taken = await t.staff.patch(`/v1/app-templates/${created.id}`, { name: "n8n" });
    expect(taken.status).toBe(409);
    expect((await t.staff.patch(`/v1/app-templates/${created.id}`, { name: "Grafana" })).status).toBe(200);
    expect((await t.staff.patch(`/v1/app-templates/${MISSING_BIG_ID}`, { name: "x" })).status).toBe(404);
  });

  test("DELETE answers 204, then the template is gone", async () => {
    const created = (await t.staff.post("/v1/app-templates", body())).body;
    const res = await t.staff.delete(`/v1/app-templates/${created.id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
    expect((await t.api.get(`/v1/app-templates/${created.id}`)).status).toBe(404);
    expect((await t.staff.delete(`/v1/app-templates/${created.id}`)).status).toBe(404);
  });
});
