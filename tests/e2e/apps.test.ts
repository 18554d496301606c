/**
 * Apps, app templates and recipes end to end: App (custom image and from a template),
 * AppTemplate (in a second stack on the same emulator, with the operator token), Recipe and
 * RecipeInstallation through the real pulumi engine. The instance the apps run on is an
 * Instance of the same stack. Each test builds on the previous one's state.
 *
 * Kinds: App, AppTemplate, Recipe, RecipeInstallation (scripts/testsOf.js: this file is their end-to-end proof)
 */
import {
  changes,
  failureOf,
  markedSecret,
  plain,
  ref,
  secret,
  startE2E,
  withReplaced,
  writes,
  type Declaration,
  type E2E,
} from "./harness";

jest.setTimeout(900_000);

const PASSWORD = "Recipe-pa55-e2e-4c9d1a";
const PASSWORD_2 = "Recipe-rotated-e2e-77b0e2";

describe("Apps, app templates and recipes through the real pulumi engine", () => {
  let e2e: E2E;
  let staff: E2E;
  let wid: string;
  let plan: string;
  let n8n: string;
  let kuma: string;

  beforeAll(async () => {
    e2e = await startE2E("apps");
    staff = await startE2E("apps-staff", { staff: true, emulator: e2e.emu });
    wid = e2e.emu.workspaceId;
    plan = (await e2e.emu.api.get("/v1/plans", { name: "lightning-2" })).body.items.find(
      (p: { name: string }) => p.name === "lightning-2",
    ).id;
    const templates = (await e2e.emu.api.get("/v1/app-templates", { limit: 100 })).body.items as Array<{ id: string; name: string }>;
    n8n = templates.find((t) => t.name === "n8n")!.id;
    kuma = templates.find((t) => t.name === "Uptime Kuma")!.id;
  });
  afterAll(async () => {
    await staff?.stop();
    await e2e?.stop();
  });

  // The declaration, changed test by test.
  const web: Record<string, unknown> = {
    instanceId: ref("vm.id"),
    name: "web",
    image: "nginx:1.27",
    environment: { MODE: "production", WORKERS: "4" },
    ports: [{ hostPort: 8080, containerPort: 80, http: true }],
    mounts: [{ hostPath: "/srv/web", containerPath: "/usr/share/nginx/html", readOnly: true }],
    domain: "web.example.com",
  };
  const auto: Record<string, unknown> = {
    instanceId: ref("vm.id"),
    name: "automation",
    templateId: "",
    environment: { N8N_BASIC_AUTH_USER: "admin", GENERIC_TIMEZONE: null },
  };
  const recipe: Record<string, unknown> = {
    name: "hello-recipe",
    category: "TOOLS",
    description: "# Hello\nSays hello.",
    commands: [{ path: "/opt/hello/install.sh", args: ["--greeting", "$SVC_FIELDS_GREETING"] }],
    fields: [
      { id: "GREETING", label: "Greeting", type: "TEXT", required: true },
      { id: "TOKEN", label: "Token", type: "PASSWORD" },
      { id: "COUNT", label: "Count", type: "NUMBER" },
    ],
  };
  let installFields: Record<string, unknown> = { GREETING: "hello", TOKEN: PASSWORD, COUNT: 3 };
  const extra: Declaration[] = [];
  const declaration = (): Declaration[] => [
    { type: "Instance", name: "vm", args: { name: "apps-vm", planId: plan, region: "NA_01" } },
    { type: "App", name: "web", args: { ...web } },
    { type: "App", name: "auto", args: { ...auto } },
    { type: "Recipe", name: "rcp", args: { ...recipe } },
    {
      type: "RecipeInstallation",
      name: "inst",
      args: { instanceId: ref("vm.id"), recipeId: ref("rcp.id"), fields: secret(installFields) },
    },
    { lookup: "getAppTemplates", name: "automationTemplates", args: { category: "AUTOMATION" } },
    { lookup: "getAppTemplate", name: "whoami", args: { name: "Whoami" } },
    { lookup: "getRecipes", name: "dbRecipes", args: { category: "DATABASES" } },
    { lookup: "getRecipe", name: "postgres", args: { name: "PostgreSQL 16" } },
    ...extra,
  ];
  /** Resources of the stack, with the stack itself as the engine counts it. */
  const RESOURCES = 6;

  const api = () => e2e.emu.api;
  const get = async (path: string) => (await api().get(path)).body;
  /** Runs up and returns the mutating requests it made. */
  const upLogged = (stack: E2E = e2e, decl: Declaration[] = declaration()) => stack.upLogged(decl);

  it("creates an instance, a custom-image app, a template app, a recipe and its installation; lookups answer", async () => {
    auto.templateId = n8n;
    const result = await e2e.up(declaration());
    expect(changes(result)).toMatchObject({ create: RESOURCES });

    const webApp = await get(`/v1/apps/${await e2e.idOf("web")}`);
    expect(webApp).toMatchObject({
      name: "web",
      image: "nginx:1.27",
      environment: { MODE: "production", WORKERS: "4" },
      ports: [{ host_port: 8080, container_port: 80, protocol: "TCP", http: true }],
      mounts: [{ host_path: "/srv/web", container_path: "/usr/share/nginx/html", read_only: true }],
      domain: "web.example.com",
      state: "AVAILABLE",
      running: true,
      template_id: null,
    });
    const webOut = await e2e.outputsOf("web");
    expect(webOut).toMatchObject({
      state: "AVAILABLE",
      running: true,
      containerId: webApp.live.container_id,
      instanceId: await e2e.idOf("vm"),
      workspaceId: wid,
    });
    expect(webOut.portAllocations).toEqual([{ hostPort: 8080, containerPort: 80, protocol: "TCP", http: true }]);

    const autoApp = await get(`/v1/apps/${await e2e.idOf("auto")}`);
    expect(autoApp.template_id).toBe(n8n);
    expect(autoApp.image).toBe("n8nio/n8n:1.64.0");
    expect(autoApp.environment.N8N_BASIC_AUTH_USER).toBe("admin");
    expect(autoApp.environment).not.toHaveProperty("GENERIC_TIMEZONE");
    expect(autoApp.environment.N8N_ENCRYPTION_KEY).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(autoApp.environment.WEBHOOK_URL).toMatch(/^http:\/\/\d+\.\d+\.\d+\.\d+:5678\/$/);
    const autoOut = await e2e.outputsOf("auto");
    // The resolved values (a {{random:32}} key among them) are recorded, as secrets.
    expect(markedSecret(autoOut.resolvedEnvironment)).toBe(true);
    expect(markedSecret(autoOut.environment)).toBe(true);
    expect(plain(autoOut.resolvedEnvironment)).toEqual(autoApp.environment);
    expect(plain(autoOut.environment)).toEqual({ N8N_BASIC_AUTH_USER: "admin", GENERIC_TIMEZONE: null });
    expect(await e2e.rawState()).not.toContain(autoApp.environment.N8N_ENCRYPTION_KEY);

    const r = await get(`/v1/recipes/${await e2e.idOf("rcp")}`);
    expect(r).toMatchObject({ name: "hello-recipe", category: "TOOLS", owner: { id: wid }, commands: recipe.commands, icon: null });
    expect(r.fields.map((f: { id: string; required: boolean }) => [f.id, f.required])).toEqual([
      ["GREETING", true],
      ["TOKEN", false],
      ["COUNT", false],
    ]);
    expect((await e2e.outputsOf("rcp")).variables).toEqual({
      GREETING: "SVC_FIELDS_GREETING",
      TOKEN: "SVC_FIELDS_TOKEN",
      COUNT: "SVC_FIELDS_COUNT",
    });

    const inst = await e2e.resource("inst");
    expect(inst.id).toMatch(new RegExp(`^${await e2e.idOf("vm")}:${await e2e.idOf("rcp")}:.+$`));
    expect(inst.outputs).toMatchObject({ installState: "COMPLETED", recipeName: "hello-recipe" });
    const wf = await get(`/v1/workflows/${inst.outputs.workflowId}`);
    expect(wf).toMatchObject({ name: "install-recipe", state: "COMPLETED" });
    expect(markedSecret(inst.outputs.fields)).toBe(true);
    expect(await e2e.rawState()).not.toContain(PASSWORD);
    const installs = (await e2e.requests()).filter((q) => q.path === "/v1/commands/install-recipe");
    expect(installs).toHaveLength(1);
    expect(installs[0].body).toMatchObject({ fields: { GREETING: "hello", COUNT: 3 } });

    // Lookups, checked against the API.
    const outputs = await e2e.stack.outputs();
    const auto8n = (await api().get("/v1/app-templates", { category: "AUTOMATION" })).body.items;
    expect(outputs.automationTemplates.value.map((t: { id: string }) => t.id)).toEqual(auto8n.map((t: { id: string }) => t.id));
    const whoami = outputs.whoami.value;
    expect(whoami).toMatchObject({
      name: "Whoami",
      image: "traefik/whoami:v1.10.3",
      category: null,
      ports: [{ name: "web", containerPort: 80, protocol: "TCP", http: true }],
      requiredEnvironment: [],
    });
    const dbs = (await api().get(`/v1/workspaces/${wid}/recipes`, { category: "DATABASES" })).body.items;
    expect(outputs.dbRecipes.value.map((x: { id: string }) => x.id)).toEqual(dbs.map((x: { id: string }) => x.id));
    const pg = outputs.postgres.value;
    expect(pg).toMatchObject({ name: "PostgreSQL 16", owner: null, category: "DATABASES" });
    expect(pg.fields.map((f: { id: string }) => f.id)).toEqual(["DB_NAME", "DB_PASSWORD", "PORT", "ALERT_EMAIL"]);
  });

  it("previews no change and sends no mutating request", async () => {
    const since = await e2e.lastSeq();
    const preview = await e2e.preview(declaration());
    expect(preview.changeSummary).toEqual({ same: RESOURCES });
    expect(await e2e.mutations(since)).toEqual([]);
  });

  it.each([
    [
      "an image without a tag, a repeated host port and a relative mount path",
      () => [
        {
          type: "App",
          name: "web",
          args: {
            ...web,
            image: "nginx",
            ports: [
              { hostPort: 8080, containerPort: 80, http: true },
              { hostPort: 8080, containerPort: 81 },
            ],
            mounts: [{ hostPath: "srv", containerPath: "/data" }],
          },
        },
      ],
      [/image.*with a tag/, /ports\[1\].*duplicate host port and protocol 8080\/TCP/, /mounts\[0\]\.hostPath.*absolute path/],
    ],
    [
      "an app with both image and templateId, and ports on a template app",
      () => [{ type: "App", name: "web", args: { ...web, templateId: "123" } }],
      [/image.*set either image or templateId/, /ports.*takes its ports from the template/],
    ],
    [
      "a domain without an http port, and null in a custom app's environment",
      () => [{ type: "App", name: "web", args: { ...web, ports: [{ hostPort: 8080, containerPort: 80 }], environment: { MODE: null } } }],
      [/domain.*needs at least one port with http true/, /environment.*only for template apps/],
    ],
    [
      "an unknown placeholder",
      () => [{ type: "App", name: "auto", args: { ...auto, environment: { X: "{{random:500}}" } } }],
      [/environment\.X.*random length must be 1 to 128/],
    ],
    [
      "a recipe category outside the list, a relative command, colliding field ids and an unknown field type",
      () => [
        {
          type: "Recipe",
          name: "rcp",
          args: {
            ...recipe,
            category: "GAMING",
            commands: [{ path: "install.sh" }],
            fields: [
              { id: "A", label: "a", type: "TEXT" },
              { id: "a", label: "b", type: "DATE" },
            ],
          },
        },
      ],
      [
        /category.*must be one of DEFAULT/,
        /commands\[0\]\.path.*absolute script path/,
        /fields\[1\]\.type.*TEXT, PASSWORD, NUMBER, EMAIL or BOOLEAN/,
      ],
    ],
  ])("preview rejects %s, naming each property and rule, before any API call", async (_what, change, messages) => {
    const decl = withReplaced(declaration(), change() as Declaration[]);
    const since = await e2e.lastSeq();
    const failure = await failureOf(e2e.preview(decl));
    for (const message of messages) expect(failure).toMatch(message);
    expect(await e2e.mutations(since)).toEqual([]);
  });

  it("redeploys a custom app in place: image, environment, ports and mounts in one PATCH", async () => {
    const id = await e2e.idOf("web");
    Object.assign(web, {
      image: "nginx:1.28",
      environment: { MODE: "staging" },
      ports: [
        { hostPort: 8081, containerPort: 80, http: true },
        { hostPort: 5353, containerPort: 53, protocol: "UDP" },
      ],
      mounts: [],
    });
    const { mutations } = await upLogged();
    expect(await e2e.idOf("web")).toBe(id);
    expect(writes(mutations)).toEqual([`PATCH /v1/apps/${id}`]);
    expect(mutations[0].body).toEqual({
      image: "nginx:1.28",
      environment: { MODE: "staging" },
      mounts: [],
      ports: [
        { host_port: 8081, container_port: 80, protocol: "TCP", http: true },
        { host_port: 5353, container_port: 53, protocol: "UDP", http: false },
      ],
    });
    expect(await get(`/v1/apps/${id}`)).toMatchObject({
      image: "nginx:1.28",
      environment: { MODE: "staging" },
      mounts: [],
      state: "AVAILABLE",
    });
  });

  it("keeps the desired running state through stop and start", async () => {
    const id = await e2e.idOf("web");
    web.running = false;
    let { mutations } = await upLogged();
    expect(writes(mutations)).toEqual([`POST /v1/apps/${id}/stop`]);
    expect(await get(`/v1/apps/${id}`)).toMatchObject({ running: false, state: "AVAILABLE" });
    expect((await e2e.outputsOf("web")).running).toBe(false);
    web.running = true;
    ({ mutations } = await upLogged());
    expect(writes(mutations)).toEqual([`POST /v1/apps/${id}/start`]);
    expect((await get(`/v1/apps/${id}`)).running).toBe(true);
  });

  it("changes a template app's overrides in place: the stored values stay, placeholders resolve, a dropped override restores the default", async () => {
    const id = await e2e.idOf("auto");
    const before = (await get(`/v1/apps/${id}`)).environment;
    auto.environment = { N8N_BASIC_AUTH_USER: "root", EDITOR_PORT: "{{host_port.editor}}", SESSION_SECRET: "{{random:16}}" };
    const { mutations } = await upLogged();
    expect(await e2e.idOf("auto")).toBe(id);
    expect(writes(mutations)).toEqual([`PATCH /v1/apps/${id}`]);
    const after = (await get(`/v1/apps/${id}`)).environment;
    expect(after).toMatchObject({
      N8N_BASIC_AUTH_USER: "root",
      EDITOR_PORT: "5678",
      GENERIC_TIMEZONE: "UTC",
      N8N_ENCRYPTION_KEY: before.N8N_ENCRYPTION_KEY,
      WEBHOOK_URL: before.WEBHOOK_URL,
    });
    expect(after.SESSION_SECRET).toMatch(/^[A-Za-z0-9]{16}$/);
    expect(plain((await e2e.outputsOf("auto")).resolvedEnvironment)).toEqual(after);
    expect((await e2e.preview(declaration())).changeSummary).toEqual({ same: RESOURCES });
  });

  it("patches a recipe in place (lists replace)", async () => {
    const id = await e2e.idOf("rcp");
    Object.assign(recipe, {
      name: "hello-recipe-2",
      description: "Says hello, twice.",
      icon: "https://assets.example.com/hello.svg",
      commands: [
        { path: "/opt/hello/install.sh", args: [] },
        { path: "/opt/hello/again.sh", args: ["$SVC_FIELDS_GREETING"] },
      ],
      fields: [
        { id: "GREETING", label: "Greeting", type: "TEXT", required: true },
        { id: "TOKEN", label: "Token", type: "PASSWORD" },
        { id: "COUNT", label: "How many", type: "NUMBER" },
      ],
    });
    const { mutations } = await upLogged();
    expect(await e2e.idOf("rcp")).toBe(id);
    expect(writes(mutations)).toEqual([`PATCH /v1/recipes/${id}`]);
    expect(await get(`/v1/recipes/${id}`)).toMatchObject({
      name: "hello-recipe-2",
      icon: "https://assets.example.com/hello.svg",
      commands: recipe.commands,
    });
    expect((await e2e.outputsOf("inst")).recipeName).toBe("hello-recipe"); // recorded at install; the next read updates it
  });

  it("re-installs when the fields change (a new installation, the old one forgotten)", async () => {
    const before = await e2e.idOf("inst");
    installFields = { GREETING: "hello again", TOKEN: PASSWORD_2, COUNT: "5" };
    const { result, mutations } = await upLogged();
    expect(changes(result)).toMatchObject({ replace: 1 });
    expect(writes(mutations)).toEqual(["POST /v1/commands/install-recipe"]);
    const after = await e2e.resource("inst");
    expect(after.id).not.toBe(before);
    expect(after.outputs).toMatchObject({ installState: "COMPLETED", recipeName: "hello-recipe-2" });
    expect(e2e.output()).toMatch(/the API has no uninstall: forgetting installation/);
    expect(await e2e.rawState()).not.toContain(PASSWORD_2);
  });

  it("refuses at create an installation whose fields do not match the recipe, before the install request", async () => {
    const since = await e2e.lastSeq();
    installFields = { TOKEN: PASSWORD_2, COUNT: "many", NOPE: "x" };
    const message = await e2e.upFails(declaration());
    expect(message).toMatch(/fields\.NOPE: the recipe has no such field/);
    expect(message).toMatch(/fields\.GREETING: required/);
    expect(message).toMatch(/fields\.COUNT: must be a number/);
    expect(message).not.toContain(PASSWORD_2);
    expect(writes(await e2e.mutations(since))).toEqual([]);
    installFields = { GREETING: "hello again", TOKEN: PASSWORD_2, COUNT: "5" };
  });

  it.each([
    ["a domain (the name is kept: the old app goes first)", "web", () => Object.assign(web, { domain: "www.example.com" })],
    ["a name", "web", () => Object.assign(web, { name: "web-2" })],
    ["a template", "auto", () => Object.assign(auto, { templateId: kuma, environment: { PUBLIC_URL: "https://status.example.com" } })],
  ])("replaces an app on a change of %s: new id, old one gone", async (_what, name, change) => {
    const before = await e2e.idOf(name);
    change();
    const result = await e2e.up(declaration());
    expect(changes(result)).toMatchObject({ replace: 1 });
    const after = await e2e.idOf(name);
    expect(after).not.toBe(before);
    expect((await api().get(`/v1/apps/${before}`)).status).toBe(404);
    expect((await get(`/v1/apps/${after}`)).state).toBe("AVAILABLE");
  });

  it("refresh reads an out-of-band environment change; the next up restores the declaration", async () => {
    const id = await e2e.idOf("web");
    const patched = await api().patch(`/v1/apps/${id}`, { environment: { MODE: "hacked", EXTRA: "1" } });
    await e2e.emu.waitWorkflow(patched.body.id);
    await e2e.refresh();
    expect(plain((await e2e.outputsOf("web")).environment)).toEqual({ MODE: "hacked", EXTRA: "1" });
    const { mutations } = await upLogged();
    expect(writes(mutations)).toEqual([`PATCH /v1/apps/${id}`]);
    expect((await get(`/v1/apps/${id}`)).environment).toEqual({ MODE: "staging" });
  });

  it("refresh drops an app, a recipe and its installation deleted outside Pulumi; the next up recreates them", async () => {
    const appId = await e2e.idOf("auto");
    const recipeId = await e2e.idOf("rcp");
    const del = await api().delete(`/v1/apps/${appId}`);
    await e2e.emu.waitWorkflow(del.body.id);
    expect((await api().delete(`/v1/recipes/${recipeId}`)).status).toBe(200);
    await e2e.refresh();
    const names = (await e2e.state()).map((r) => r.urn.split("::").pop());
    expect(names).not.toContain("auto");
    expect(names).not.toContain("rcp");
    expect(names).not.toContain("inst");
    const result = await e2e.up(declaration());
    expect(changes(result)).toMatchObject({ create: 3 });
    expect(await e2e.idOf("auto")).not.toBe(appId);
    expect(await e2e.idOf("rcp")).not.toBe(recipeId);
    expect((await e2e.outputsOf("inst")).installState).toBe("COMPLETED");
  });

  it("adopts an existing app and an existing recipe, converging them to the declaration", async () => {
    const vm = await e2e.idOf("vm");
    const made = await api().post(`/v1/instances/${vm}/apps`, { name: "legacy", image: "redis:7.2", environment: { OLD: "1" } });
    expect(made.status).toBe(201);
    await e2e.emu.waitWorkflow(made.body.workflow.id);
    const r = await api().post(`/v1/workspaces/${wid}/recipes`, {
      name: "legacy-recipe",
      category: "TOOLS",
      description: "old",
      commands: [{ path: "/opt/old.sh" }],
    });
    expect(r.status).toBe(201);
    extra.push(
      {
        type: "App",
        name: "legacy",
        args: { instanceId: ref("vm.id"), name: "legacy", image: "redis:7.4", environment: { NEW: "1" }, adoptId: made.body.resource.id },
      },
      {
        type: "Recipe",
        name: "legacy-recipe",
        args: { name: "legacy-recipe", category: "TOOLS", description: "adopted", commands: [{ path: "/opt/old.sh" }], adoptId: r.body.id },
      },
    );
    const { mutations } = await upLogged();
    expect(await e2e.idOf("legacy")).toBe(made.body.resource.id);
    expect(await e2e.idOf("legacy-recipe")).toBe(r.body.id);
    expect(writes(mutations).sort()).toEqual([`PATCH /v1/apps/${made.body.resource.id}`, `PATCH /v1/recipes/${r.body.id}`]);
    expect(await get(`/v1/apps/${made.body.resource.id}`)).toMatchObject({ image: "redis:7.4", environment: { NEW: "1" } });
    expect((await get(`/v1/recipes/${r.body.id}`)).description).toBe("adopted");
  });

  it("deletes an app and an installation whose workflows failed, keeping nothing, and the next up creates them", async () => {
    await e2e.emu.control.post("/_emulator/faults", {
      kind: "workflow",
      outcome: "FAILED",
      method: "POST",
      path: "/v1/instances/*/apps",
      times: 1,
    });
    await e2e.emu.control.post("/_emulator/faults", {
      kind: "workflow",
      outcome: "FAILED",
      method: "POST",
      path: "/v1/commands/install-recipe",
      times: 1,
    });
    extra.push(
      { type: "App", name: "flaky", args: { instanceId: ref("vm.id"), name: "flaky", image: "busybox:1.36" } },
      {
        type: "RecipeInstallation",
        name: "flaky-inst",
        args: { instanceId: ref("vm.id"), recipeId: ref("rcp.id"), fields: secret({ GREETING: "x" }) },
      },
    );
    const message = await e2e.upFails(declaration());
    expect(message).toMatch(/App "flaky": create failed: workflow .* ended FAILED/);
    expect(message).toMatch(/RecipeInstallation of recipe .*: create failed: workflow .* ended FAILED/);
    const appId = /The App it made \(id (\d+)\) ended FAILED.*?, which a later up would replace, so it was deleted/.exec(message)?.[1];
    expect(message).toMatch(
      /The RecipeInstallation it made \(id [^)]+\) ended FAILED.*?, which a later up would replace, so it was deleted/,
    );
    const names = (await e2e.state()).map((r) => r.urn.split("::").pop());
    expect(names).not.toContain("flaky");
    expect(names).not.toContain("flaky-inst");
    expect((await api().get(`/v1/apps/${appId}`)).status).toBe(404);
    const result = await e2e.up(declaration());
    expect(changes(result)).toMatchObject({ create: 2 });
    const repaired = await e2e.resource("flaky");
    expect(repaired.id).not.toBe(appId);
    expect(repaired.outputs.state).toBe("AVAILABLE");
    expect((await e2e.resource("flaky-inst")).outputs.installState).toBe("COMPLETED");
  });

  it("recovers a recipe whose create answer was lost: one recipe, adopted", async () => {
    await e2e.emu.control.post("/_emulator/faults", { kind: "drop", method: "POST", path: "/v1/workspaces/*/recipes", times: 1 });
    extra.push({
      type: "Recipe",
      name: "dropped",
      args: { name: "dropped-recipe", category: "DEVOPS", description: "lost answer", commands: [{ path: "/opt/x.sh" }] },
    });
    await e2e.up(declaration());
    const mine = (await api().get(`/v1/workspaces/${wid}/recipes`, { name: "dropped-recipe" })).body.items;
    expect(mine).toHaveLength(1);
    expect(await e2e.idOf("dropped")).toBe(mine[0].id);
    expect(e2e.output()).toMatch(/create answer was lost.*adopted it/);
  });

  it("app templates need the operator token: a normal token gets a clear error and nothing is created", async () => {
    const decl: Declaration[] = [
      ...declaration(),
      { type: "AppTemplate", name: "tpl", args: { name: "Not Allowed", description: "x", image: "nginx:1.27" } },
    ];
    const message = await e2e.upFails(decl);
    expect(message).toMatch(/needs an operator \(staff\) token.*svc:token/s);
    expect((await api().get("/v1/app-templates", { name: "Not Allowed" })).body.items).toEqual([]);
  });

  // AppTemplate, in a second stack on the same emulator with the operator token.
  const tpl: Record<string, unknown> = {
    name: "Team Dashboard",
    description: "Internal dashboard.",
    image: "grafana/grafana:11.2.0",
    category: "MONITORING",
    environment: [
      { key: "GF_SERVER_HTTP_PORT", value: "{{container_port.web}}", description: "listen port" },
      { key: "GF_SECURITY_ADMIN_PASSWORD", value: "{{random:24}}" },
      { key: "GF_SERVER_DOMAIN", value: null, description: "you must supply it" },
    ],
    mounts: [{ hostPath: "/opt/grafana", containerPath: "/var/lib/grafana" }],
    ports: [
      { name: "web", containerPort: 3000, http: true },
      { name: "metrics", containerPort: 9100 },
    ],
  };
  const staffDecl = (): Declaration[] => [{ type: "AppTemplate", name: "tpl", args: { ...tpl } }];

  it("AppTemplate (a second stack, operator token): creates a template, previews clean, and an app of the first stack deploys from it", async () => {
    const result = await staff.up(staffDecl());
    expect(changes(result)).toMatchObject({ create: 2 }); // the template and the stack
    const id = await staff.resource("tpl").then((r) => r.id!);
    expect(await get(`/v1/app-templates/${id}`)).toMatchObject({
      name: "Team Dashboard",
      category: "MONITORING",
      ports: [
        { name: "web", container_port: 3000, protocol: "TCP", http: true, description: "" },
        { name: "metrics", container_port: 9100, protocol: "TCP", http: false },
      ],
      environment: [
        { key: "GF_SERVER_HTTP_PORT", value: "{{container_port.web}}" },
        { key: "GF_SECURITY_ADMIN_PASSWORD", value: "{{random:24}}", description: "" },
        { key: "GF_SERVER_DOMAIN", value: null },
      ],
    });
    const since = await staff.lastSeq();
    expect((await staff.preview(staffDecl())).changeSummary).toEqual({ same: 2 });
    expect(await staff.mutations(since)).toEqual([]);

    // A template app must supply the null defaults: said at create, before the request.
    extra.push({ type: "App", name: "dash", args: { instanceId: ref("vm.id"), name: "dash", templateId: id, domain: "dash.example.com" } });
    expect(await e2e.upFails(declaration())).toMatch(/leaves GF_SERVER_DOMAIN for you to supply/);
    extra[extra.length - 1].args = { ...extra[extra.length - 1].args, environment: { GF_SERVER_DOMAIN: "dash.example.com" } };
    await e2e.up(declaration());
    const dash = await get(`/v1/apps/${await e2e.idOf("dash")}`);
    expect(dash).toMatchObject({
      template_id: id,
      image: "grafana/grafana:11.2.0",
      domain: "dash.example.com",
      environment: { GF_SERVER_HTTP_PORT: "3000", GF_SERVER_DOMAIN: "dash.example.com" },
    });
    expect(dash.environment.GF_SECURITY_ADMIN_PASSWORD).toMatch(/^[A-Za-z0-9]{24}$/);
  });

  it.each([
    [
      "two http ports and a placeholder naming no port",
      () => ({
        ...tpl,
        ports: [
          { name: "a", containerPort: 1, http: true },
          { name: "b", containerPort: 2, http: true },
        ],
        environment: [{ key: "P", value: "{{host_port.admin}}" }],
      }),
      [/ports.*at most one port per template may have http true/, /environment.*names no port of this template/],
    ],
    [
      "a port name that is not a slug, a repeated key and an image without a tag",
      () => ({
        ...tpl,
        image: "grafana/grafana",
        ports: [{ name: "Web Port", containerPort: 1 }],
        environment: [{ key: "A" }, { key: "A" }],
      }),
      [/ports\[0\]\.name.*slug/, /environment\[1\].*duplicate environment key A/, /image.*with a tag/],
    ],
  ])("AppTemplate preview rejects %s before any API call", async (_what, args, messages) => {
    const since = await staff.lastSeq();
    const failure = await failureOf(staff.preview([{ type: "AppTemplate", name: "tpl", args: args() }]));
    for (const message of messages) expect(failure).toMatch(message);
    expect(await staff.mutations(since)).toEqual([]);
  });

  it("AppTemplate: patches every field in place; lists replace; a null category clears it", async () => {
    const id = (await staff.resource("tpl")).id!;
    Object.assign(tpl, {
      name: "Team Dashboard v2",
      description: "Internal dashboard, upgraded.",
      image: "grafana/grafana:11.3.0",
      category: null,
      environment: [{ key: "GF_SERVER_HTTP_PORT", value: "{{container_port.web}}" }],
      mounts: [],
      ports: [{ name: "web", containerPort: 3000, http: true }],
    });
    const { mutations } = await upLogged(staff, staffDecl());
    expect((await staff.resource("tpl")).id).toBe(id);
    expect(writes(mutations)).toEqual([`PATCH /v1/app-templates/${id}`]);
    expect(await get(`/v1/app-templates/${id}`)).toMatchObject({
      name: "Team Dashboard v2",
      category: null,
      mounts: [],
      ports: [{ name: "web" }],
      environment: [{ key: "GF_SERVER_HTTP_PORT" }],
    });
  });

  it("AppTemplate: refresh reads an out-of-band change; refresh drops a deleted template; adoption takes one back", async () => {
    const id = (await staff.resource("tpl")).id!;
    await staff.emu.staff.patch(`/v1/app-templates/${id}`, { category: "DEVOPS" });
    await staff.refresh();
    expect((await staff.resource("tpl")).outputs.category).toBe("DEVOPS");
    const { mutations } = await upLogged(staff, staffDecl());
    expect(mutations[0].body).toEqual({ category: null });

    const other = await staff.emu.staff.post("/v1/app-templates", { name: "Hand Made", description: "made by hand", image: "nginx:1.27" });
    expect(other.status).toBe(201);
    await staff.up([
      ...staffDecl(),
      {
        type: "AppTemplate",
        name: "adopted",
        args: { name: "Hand Made", description: "now managed", image: "nginx:1.27", adoptId: other.body.id },
      },
    ]);
    expect((await staff.resource("adopted")).id).toBe(other.body.id);
    expect((await get(`/v1/app-templates/${other.body.id}`)).description).toBe("now managed");

    expect((await staff.emu.staff.delete(`/v1/app-templates/${id}`)).status).toBe(204);
    await staff.refresh();
    expect((await staff.state()).some((r) => r.urn.endsWith("::tpl"))).toBe(false);
  });

  it("AppTemplate: destroy of the staff stack removes its templates", async () => {
    await staff.destroy();
    expect((await e2e.inventoryTotal()).resources.appTemplates).toEqual([]);
  });

  it("destroy leaves the emulator's inventory empty", async () => {
    await e2e.destroy();
    const inventory = await e2e.inventoryTotal();
    for (const table of ["apps", "recipes", "appTemplates", "instances"]) expect(inventory.resources[table]).toEqual([]);
    expect(inventory.total).toBe(0);
  });
});
