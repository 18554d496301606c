/**
 * App, Recipe and RecipeInstallation on both faces, in process (tests/support/inProcess.ts):
 * creates checked against the API, each in-place change in the requests the spec names, an app's
 * replacements (its old object deleted first: names are unique), an installation's re-install
 * (installed anew, the old one forgotten), drift read and put back under the same id, objects
 * deleted outside Pulumi read as gone, adoption, failed and lost creates, the refusals at create
 * (an app template with a normal token, installation fields the recipe does not take), and the
 * secret outputs the plugin marks. AppTemplate, and an app leaving its template's null default
 * unset, are appTemplate.test.ts (tests/inprocess/support/apps.ts: what the two share). The
 * refusals at preview are tests/unit/resources/{app,appTemplate,recipe,recipeInstallation}.test.ts
 * (the few not proven there are here, as check failures); what only the engine proves (secrets
 * kept out of the state file, the lookups a program calls) is tests/e2e/apps.test.ts.
 */
import { describeEachFace, type Props } from "../support/inProcess";
import { PASSWORD, appsHarness, collectNotices, helloRecipe, runningInstance } from "./support/apps";

// The notices the provider shows are collected, not printed.
collectNotices();

describeEachFace("App, Recipe and RecipeInstallation", (ctx) => {
  const { state, api, get, lastSeq, mutations, writes, upLogged, upFails, refresh, outsOf, declaredSecret, secretsOn } = appsHarness(ctx);
  let wid: string;
  let vm: string;
  let n8n: string;
  let kuma: string;

  // The declarations, changed case by case.
  const web: Props = {
    name: "web",
    image: "nginx:1.27",
    environment: { MODE: "production", WORKERS: "4" },
    ports: [{ hostPort: 8080, containerPort: 80, http: true }],
    mounts: [{ hostPath: "/srv/web", containerPath: "/usr/share/nginx/html", readOnly: true }],
    domain: "web.example.com",
  };
  const auto: Props = { name: "automation", environment: { N8N_BASIC_AUTH_USER: "admin", GENERIC_TIMEZONE: null } };
  const recipe = helloRecipe();
  const installFields: Props = { GREETING: "hello", TOKEN: PASSWORD, COUNT: 3 };
  const installation = () => ({ instanceId: vm, recipeId: state.rcp.id, fields: declaredSecret(installFields) });

  beforeAll(async () => {
    wid = ctx().emu.workspaceId;
    const templates = (await api().get("/v1/app-templates", { limit: 100 })).body.items as Array<{ id: string; name: string }>;
    n8n = templates.find((t) => t.name === "n8n")!.id;
    kuma = templates.find((t) => t.name === "Uptime Kuma")!.id;
    vm = await runningInstance(ctx, "apps-vm");
    Object.assign(web, { instanceId: vm });
    Object.assign(auto, { instanceId: vm, templateId: n8n });
  });

  it("creates a custom-image app, checked against the API", async () => {
    expect((await upLogged("web", "App", web)).step).toBe("create");
    const app = await get(`/v1/apps/${state.web.id}`);
    expect(app).toMatchObject({
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
    const { outs, secrets } = outsOf("web");
    expect(outs).toMatchObject({ state: "AVAILABLE", running: true, containerId: app.live.container_id, instanceId: vm, workspaceId: wid });
    expect(outs.portAllocations).toEqual([{ hostPort: 8080, containerPort: 80, protocol: "TCP", http: true }]);
    expect(secrets.sort()).toEqual(secretsOn(["environment", "resolvedEnvironment"]));
  });

  it("creates a template app: the overrides sent, a null removing a default, the API's resolved values recorded (secret)", async () => {
    expect((await upLogged("auto", "App", auto)).step).toBe("create");
    const app = await get(`/v1/apps/${state.auto.id}`);
    expect(app.template_id).toBe(n8n);
    expect(app.image).toBe("n8nio/n8n:1.64.0");
    expect(app.environment.N8N_BASIC_AUTH_USER).toBe("admin");
    expect(app.environment).not.toHaveProperty("GENERIC_TIMEZONE");
    expect(app.environment.N8N_ENCRYPTION_KEY).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(app.environment.WEBHOOK_URL).toMatch(/^http:\/\/\d+\.\d+\.\d+\.\d+:5678\/$/);
    const { outs, secrets } = outsOf("auto");
    expect(outs.resolvedEnvironment).toEqual(app.environment);
    expect(outs.environment).toEqual({ N8N_BASIC_AUTH_USER: "admin", GENERIC_TIMEZONE: null });
    // The {{random:32}} key is among the resolved values: the plugin answers them secret.
    expect(secrets.sort()).toEqual(secretsOn(["environment", "resolvedEnvironment"]));
  });

  it("creates a recipe and installs it: one install request, the synthetic id, the field values secret", async () => {
    expect((await upLogged("rcp", "Recipe", recipe)).step).toBe("create");
    const r = await get(`/v1/recipes/${state.rcp.id}`);
    expect(r).toMatchObject({ name: "hello-recipe", category: "TOOLS", owner: { id: wid }, commands: recipe.commands, icon: null });
    expect(r.fields.map((f: { id: string; required: boolean }) => [f.id, f.required])).toEqual([
      ["GREETING", true],
      ["TOKEN", false],
      ["COUNT", false],
    ]);
    expect(outsOf("rcp").outs.variables).toEqual({ GREETING: "SVC_FIELDS_GREETING", TOKEN: "SVC_FIELDS_TOKEN", COUNT: "SVC_FIELDS_COUNT" });

    const { step, mutations: sent } = await upLogged("inst", "RecipeInstallation", installation());
    expect(step).toBe("create");
    expect(writes(sent)).toEqual(["POST /v1/commands/install-recipe"]);
    // The emulator's request log masks a PASSWORD field's value.
    expect(sent[0].body).toMatchObject({ fields: { GREETING: "hello", TOKEN: "[masked]", COUNT: 3 } });
    expect(state.inst.id).toMatch(new RegExp(`^${vm}:${state.rcp.id}:.+$`));
    const { outs, secrets } = outsOf("inst");
    expect(outs).toMatchObject({ installState: "COMPLETED", recipeName: "hello-recipe", fields: installFields });
    expect(await get(`/v1/workflows/${outs.workflowId}`)).toMatchObject({ name: "install-recipe", state: "COMPLETED" });
    expect(secrets).toEqual(secretsOn(["fields"]));
  });

  it("diffs the same declarations as no change and sends no mutating request", async () => {
    for (const [name, kind, declared] of [
      ["web", "App", web],
      ["auto", "App", auto],
      ["rcp", "Recipe", recipe],
      ["inst", "RecipeInstallation", installation()],
    ] as const) {
      const { step, mutations: sent } = await upLogged(name, kind, declared);
      expect({ name, step, sent }).toEqual({ name, step: "same", sent: [] });
    }
  });

  // The rest of what preview refuses is tests/unit/resources/{app,recipe}.test.ts.
  it.each([
    [
      "a relative host path of an app's mount",
      "App",
      () => ({ ...web, mounts: [{ hostPath: "srv", containerPath: "/data" }] }),
      /^mounts\[0\]\.hostPath: must be an absolute path/,
    ],
  ])("check refuses %s, naming the property, and sends nothing", async (_what, kind, declared, reason) => {
    const since = await lastSeq();
    const { failures } = await ctx().face.check(kind, declared());
    expect(failures.map((f) => `${f.property}: ${f.reason}`)).toContainEqual(expect.stringMatching(reason));
    expect(await mutations(since)).toEqual([]);
  });

  it("redeploys a custom app in place: image, environment, ports and mounts in one PATCH", async () => {
    const id = state.web.id;
    Object.assign(web, {
      image: "nginx:1.28",
      environment: { MODE: "staging" },
      ports: [
        { hostPort: 8081, containerPort: 80, http: true },
        { hostPort: 5353, containerPort: 53, protocol: "UDP" },
      ],
      mounts: [],
    });
    const { step, now, mutations: sent } = await upLogged("web", "App", web);
    expect({ step, id: now.id }).toEqual({ step: "update", id });
    expect(writes(sent)).toEqual([`PATCH /v1/apps/${id}`]);
    expect(sent[0].body).toEqual({
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

  it("replaces an app left unnamed that moves to another instance by creating it there first, under a new name", async () => {
    const other = await runningInstance(ctx, "apps-vm-2");
    const moving: Props = { image: "nginx:1.27", ports: [{ hostPort: 8090, containerPort: 80 }], instanceId: vm };
    const made = await upLogged("moving", "App", moving);
    const first = made.now.outs.name as string;
    expect(first).toMatch(/^moving-[0-9a-f]{7}$/);
    const before = made.now.id;
    const { step, diff, now, mutations: sent } = await upLogged("moving", "App", { ...moving, instanceId: other });
    // No collision: the name is made anew for the replacement, and its host port is on another instance.
    expect({ step, deleteBeforeReplace: diff?.deleteBeforeReplace }).toEqual({ step: "replace", deleteBeforeReplace: false });
    expect(writes(sent).filter((w) => !w.startsWith("POST /v1/workflows"))[0]).toMatch(new RegExp(`^POST /v1/instances/${other}/apps`));
    expect(writes(sent)).toContainEqual(`DELETE /v1/apps/${before}`);
    expect((await get(`/v1/apps/${now.id}`)).name).toMatch(/^moving-[0-9a-f]{7}$/);
    expect(now.outs.name).not.toBe(first);
    // Not a resource of the other cases: gone with its instance before they end.
    await ctx().face.delete("App", now.id, now.outs);
    delete state.moving;
    const removal = await api().delete(`/v1/instances/${other}`);
    await ctx().emu.waitWorkflow(removal.body.id);
  });

  it("keeps the desired running state through stop and start", async () => {
    const id = state.web.id;
    web.running = false;
    let { mutations: sent } = await upLogged("web", "App", web);
    expect(writes(sent)).toEqual([`POST /v1/apps/${id}/stop`]);
    expect(await get(`/v1/apps/${id}`)).toMatchObject({ running: false, state: "AVAILABLE" });
    expect(outsOf("web").outs.running).toBe(false);
    web.running = true;
    ({ mutations: sent } = await upLogged("web", "App", web));
    expect(writes(sent)).toEqual([`POST /v1/apps/${id}/start`]);
    expect((await get(`/v1/apps/${id}`)).running).toBe(true);
  });

  it("changes a template app's overrides in place: the stored values stay, placeholders resolve, a dropped override restores the default", async () => {
    const id = state.auto.id;
    const before = (await get(`/v1/apps/${id}`)).environment;
    auto.environment = { N8N_BASIC_AUTH_USER: "root", EDITOR_PORT: "{{host_port.editor}}", SESSION_SECRET: "{{random:16}}" };
    const { step, mutations: sent } = await upLogged("auto", "App", auto);
    expect({ step, id: state.auto.id }).toEqual({ step: "update", id });
    expect(writes(sent)).toEqual([`PATCH /v1/apps/${id}`]);
    const after = (await get(`/v1/apps/${id}`)).environment;
    expect(after).toMatchObject({
      N8N_BASIC_AUTH_USER: "root",
      EDITOR_PORT: "5678",
      GENERIC_TIMEZONE: "UTC",
      N8N_ENCRYPTION_KEY: before.N8N_ENCRYPTION_KEY,
      WEBHOOK_URL: before.WEBHOOK_URL,
    });
    expect(after.SESSION_SECRET).toMatch(/^[A-Za-z0-9]{16}$/);
    expect(outsOf("auto").outs.resolvedEnvironment).toEqual(after);
    // The placeholders the API resolved match what was declared: no change left.
    expect((await upLogged("auto", "App", auto)).step).toBe("same");
  });

  it.each([
    ["a domain (the name is kept)", "web", "domain", () => Object.assign(web, { domain: "www.example.com" })],
    ["a name", "web", "name", () => Object.assign(web, { name: "web-2" })],
    [
      "a template",
      "auto",
      "templateId",
      () => Object.assign(auto, { templateId: kuma, environment: { PUBLIC_URL: "https://status.example.com" } }),
    ],
  ])("replaces an app on a change of %s, deleting the old one first: new id, old one gone", async (_what, name, field, change) => {
    const before = state[name].id;
    const { step, diff, now, mutations: sent } = await upLogged(name, "App", change());
    // Names are unique in the workspace and host ports on the instance: the old app goes first.
    expect({ step, replaces: diff?.replaces, deleteBeforeReplace: diff?.deleteBeforeReplace }).toEqual({
      step: "replace",
      replaces: [field],
      deleteBeforeReplace: true,
    });
    expect(writes(sent)[0]).toBe(`DELETE /v1/apps/${before}`);
    expect(writes(sent)).toContainEqual(expect.stringMatching(new RegExp(`^POST /v1/instances/${vm}/apps`)));
    expect(now.id).not.toBe(before);
    expect((await api().get(`/v1/apps/${before}`)).status).toBe(404);
    expect((await get(`/v1/apps/${now.id}`)).state).toBe("AVAILABLE");
  });

  it("a read finds an out-of-band environment change; the next up puts the declaration back under the same id", async () => {
    const id = state.web.id;
    const patched = await api().patch(`/v1/apps/${id}`, { environment: { MODE: "hacked", EXTRA: "1" } });
    await ctx().emu.waitWorkflow(patched.body.id);
    expect((await refresh("web", "App")).id).toBe(id);
    expect(outsOf("web").outs.environment).toEqual({ MODE: "hacked", EXTRA: "1" });
    const { step, now, mutations: sent } = await upLogged("web", "App", web);
    expect({ step, id: now.id }).toEqual({ step: "update", id });
    expect(writes(sent)).toEqual([`PATCH /v1/apps/${id}`]);
    expect((await get(`/v1/apps/${id}`)).environment).toEqual({ MODE: "staging" });
  });

  it("reads an app, a recipe and its installation deleted outside Pulumi as gone (no id); the next up creates them", async () => {
    const appId = state.auto.id;
    const recipeId = state.rcp.id;
    const del = await api().delete(`/v1/apps/${appId}`);
    await ctx().emu.waitWorkflow(del.body.id);
    expect((await api().delete(`/v1/recipes/${recipeId}`)).status).toBe(200);
    // The installation is gone with its recipe: its read checks that the instance and the recipe still exist.
    for (const [name, kind] of [
      ["auto", "App"],
      ["rcp", "Recipe"],
      ["inst", "RecipeInstallation"],
    ] as const)
      expect({ name, id: (await refresh(name, kind)).id }).toEqual({ name, id: "" });
    expect((await upLogged("auto", "App", auto)).step).toBe("create");
    expect((await upLogged("rcp", "Recipe", recipe)).step).toBe("create");
    expect((await upLogged("inst", "RecipeInstallation", installation())).step).toBe("create");
    expect(state.auto.id).not.toBe(appId);
    expect(state.rcp.id).not.toBe(recipeId);
    expect(outsOf("inst").outs.installState).toBe("COMPLETED");
  });

  it("adopts an existing app and an existing recipe by adoptId, converging each with one PATCH", async () => {
    const made = await api().post(`/v1/instances/${vm}/apps`, { name: "legacy", image: "redis:7.2", environment: { OLD: "1" } });
    expect(made.status).toBe(201);
    await ctx().emu.waitWorkflow(made.body.workflow.id);
    const appId = String(made.body.resource.id);
    const r = await api().post(`/v1/workspaces/${wid}/recipes`, {
      name: "legacy-recipe",
      category: "TOOLS",
      description: "old",
      commands: [{ path: "/opt/old.sh" }],
    });
    expect(r.status).toBe(201);
    const recipeId = String(r.body.id);
    const app = await upLogged("legacy", "App", {
      instanceId: vm,
      name: "legacy",
      image: "redis:7.4",
      environment: { NEW: "1" },
      adoptId: appId,
    });
    expect({ id: app.now.id, writes: writes(app.mutations) }).toEqual({ id: appId, writes: [`PATCH /v1/apps/${appId}`] });
    const adopted = await upLogged("legacy-recipe", "Recipe", {
      name: "legacy-recipe",
      category: "TOOLS",
      description: "adopted",
      commands: [{ path: "/opt/old.sh" }],
      adoptId: recipeId,
    });
    expect({ id: adopted.now.id, writes: writes(adopted.mutations) }).toEqual({ id: recipeId, writes: [`PATCH /v1/recipes/${recipeId}`] });
    expect(await get(`/v1/apps/${appId}`)).toMatchObject({ image: "redis:7.4", environment: { NEW: "1" } });
    expect((await get(`/v1/recipes/${recipeId}`)).description).toBe("adopted");
  });

  it("deletes an app and an installation whose workflows failed, keeping nothing; the next up creates them", async () => {
    for (const path of ["/v1/instances/*/apps", "/v1/commands/install-recipe"])
      await ctx().emu.control.post("/_emulator/faults", { kind: "workflow", outcome: "FAILED", method: "POST", path, times: 1 });
    const flaky = { instanceId: vm, name: "flaky", image: "busybox:1.36" };
    const flakyInst = () => ({ instanceId: vm, recipeId: state.rcp.id, fields: declaredSecret({ GREETING: "x" }) });

    const app = await upFails("flaky", "App", flaky);
    expect(app.err.message).toMatch(/App "flaky": create failed: workflow .* ended FAILED/);
    const appId = /The App it made \(id (\d+)\) ended FAILED.*?, which a later up would replace, so it was deleted/s.exec(
      app.err.message,
    )?.[1];
    expect(appId).toMatch(/^\d+$/);
    expect(app.err.kept).toBeUndefined(); // nothing for the engine to keep in state
    expect((await api().get(`/v1/apps/${appId}`)).status).toBe(404);

    const inst = await upFails("flaky-inst", "RecipeInstallation", flakyInst());
    expect(inst.err.message).toMatch(/RecipeInstallation of recipe .*: create failed: workflow .* ended FAILED/);
    expect(inst.err.message).toMatch(
      /The RecipeInstallation it made \(id [^)]+\) ended FAILED.*?, which a later up would replace, so it was deleted/s,
    );
    expect(inst.err.kept).toBeUndefined();

    const repaired = await upLogged("flaky", "App", flaky);
    expect(repaired.now.id).not.toBe(appId);
    expect(outsOf("flaky").outs.state).toBe("AVAILABLE");
    await upLogged("flaky-inst", "RecipeInstallation", flakyInst());
    expect(outsOf("flaky-inst").outs.installState).toBe("COMPLETED");
  });

  it("an app template needs the operator token: a normal token gets the API's refusal with what to do, and nothing is created", async () => {
    const { err } = await upFails("tpl", "AppTemplate", { name: "Not Allowed", description: "x", image: "nginx:1.27" });
    expect(err.message).toMatch(/needs an operator \(staff\) token.*svc:token/s);
    expect((await api().get("/v1/app-templates", { name: "Not Allowed" })).body.items).toEqual([]);
  });

  it("deletes everything it made in the engine's order (installations are forgotten), leaving the inventory empty", async () => {
    for (const [name, kind] of [
      ["inst", "RecipeInstallation"],
      ["flaky-inst", "RecipeInstallation"],
      ["web", "App"],
      ["auto", "App"],
      ["legacy", "App"],
      ["flaky", "App"],
      ["rcp", "Recipe"],
      ["legacy-recipe", "Recipe"],
    ] as const) {
      await ctx().face.delete(kind, state[name].id, state[name].outs);
      delete state[name];
    }
    // The instance was made through the API (not a resource of these cases): removed the same way.
    const removal = await api().delete(`/v1/instances/${vm}`);
    expect(removal.status).toBe(202);
    await ctx().emu.waitWorkflow(removal.body.id);
    const inventory = (await ctx().emu.control.get("/_emulator/inventory")).body as { total: number; resources: Record<string, unknown[]> };
    for (const table of ["apps", "recipes", "appTemplates", "instances"])
      expect({ table, left: inventory.resources[table] }).toEqual({ table, left: [] });
    expect(inventory.total).toBe(0);
  });
});
