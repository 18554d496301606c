/**
 * Apps and recipes through the real pulumi engine, in one `pulumi up`: what only the engine and a
 * program prove. A template app's null override (removing a template default) inside its secret
 * environment comes back from the engine as null, so the next diff finds the declaration; the
 * secret outputs of an App (its environment and the values the API resolved, a {{random:32}} key
 * among them) and of a RecipeInstallation (its field values) are recorded secret and never reach
 * the state file in plaintext; the app lookups a program calls answer with the API's data,
 * filters applied, as stack outputs.
 *
 * Every per-kind behaviour of App, AppTemplate, Recipe and RecipeInstallation (creates, in-place
 * changes and their requests, replacements, drift, deletion, adoption, failed and lost creates,
 * the API's refusals, the outputs the plugin marks secret) is tests/inprocess/{app,appTemplate,recipe,recipeInstallation}.test.ts, on
 * both faces; the refusals at preview are tests/unit/resources/{app,appTemplate,recipe,recipeInstallation}.test.ts.
 */
import { changes, markedSecret, plain, ref, secret, startE2E, type Declaration, type E2E } from "./harness";

jest.setTimeout(900_000);

const PASSWORD = "Recipe-pa55-e2e-4c9d1a";

describe("Apps and recipes through the real pulumi engine", () => {
  let e2e: E2E;
  let wid: string;
  let plan: string;
  let n8n: string;

  beforeAll(async () => {
    e2e = await startE2E("apps");
    wid = e2e.emu.workspaceId;
    plan = (await e2e.emu.api.get("/v1/plans", { name: "lightning-2" })).body.items.find(
      (p: { name: string }) => p.name === "lightning-2",
    ).id;
    const templates = (await e2e.emu.api.get("/v1/app-templates", { limit: 100 })).body.items as Array<{ id: string; name: string }>;
    n8n = templates.find((t) => t.name === "n8n")!.id;
  });
  afterAll(async () => {
    // stop() destroys the stack.
    await e2e?.stop();
  });

  const api = () => e2e.emu.api;
  const get = async (path: string) => (await api().get(path)).body;

  it("records an app's environments and an installation's fields as secrets, out of the state file; lookups answer", async () => {
    const declaration: Declaration[] = [
      { type: "Instance", name: "vm", args: { name: "apps-vm", planId: plan, region: "NA_01" } },
      {
        type: "App",
        name: "auto",
        args: {
          instanceId: ref("vm.id"),
          name: "automation",
          templateId: n8n,
          environment: { N8N_BASIC_AUTH_USER: "admin", GENERIC_TIMEZONE: null },
        },
      },
      {
        type: "Recipe",
        name: "rcp",
        args: {
          name: "hello-recipe",
          category: "TOOLS",
          description: "# Hello\nSays hello.",
          commands: [{ path: "/opt/hello/install.sh", args: ["--greeting", "$SVC_FIELDS_GREETING"] }],
          fields: [
            { id: "GREETING", label: "Greeting", type: "TEXT", required: true },
            { id: "TOKEN", label: "Token", type: "PASSWORD" },
          ],
        },
      },
      {
        type: "RecipeInstallation",
        name: "inst",
        args: { instanceId: ref("vm.id"), recipeId: ref("rcp.id"), fields: secret({ GREETING: "hello", TOKEN: PASSWORD }) },
      },
      { lookup: "getAppTemplates", name: "automationTemplates", args: { category: "AUTOMATION" } },
      { lookup: "getAppTemplate", name: "whoami", args: { name: "Whoami" } },
      { lookup: "getRecipes", name: "dbRecipes", args: { category: "DATABASES" } },
      { lookup: "getRecipe", name: "postgres", args: { name: "PostgreSQL 16" } },
    ];
    expect(changes(await e2e.up(declaration))).toMatchObject({ create: 5 }); // four resources and the stack

    // The App's environments: the class marks them (the dynamic face), the engine keeps them encrypted.
    const autoApp = await get(`/v1/apps/${await e2e.idOf("auto")}`);
    const autoOut = await e2e.outputsOf("auto");
    expect(markedSecret(autoOut.resolvedEnvironment)).toBe(true);
    expect(markedSecret(autoOut.environment)).toBe(true);
    expect(plain(autoOut.resolvedEnvironment)).toEqual(autoApp.environment);
    // A null (removing a template default) inside a secret comes back through the engine as null:
    // the in-process diff of that record against the declaration is no change.
    expect(plain(autoOut.environment)).toEqual({ N8N_BASIC_AUTH_USER: "admin", GENERIC_TIMEZONE: null });
    expect(autoApp.environment.N8N_ENCRYPTION_KEY).toMatch(/^[A-Za-z0-9]{32}$/);
    const raw = await e2e.rawState();
    expect(raw).not.toContain(autoApp.environment.N8N_ENCRYPTION_KEY);

    // The installation's fields: declared secret, recorded secret, never in plaintext.
    const inst = await e2e.resource("inst");
    expect(inst.outputs).toMatchObject({ installState: "COMPLETED", recipeName: "hello-recipe" });
    expect(markedSecret(inst.outputs.fields)).toBe(true);
    expect(raw).not.toContain(PASSWORD);

    // Lookups, checked against the API.
    const outputs = await e2e.outputs();
    const automation = (await api().get("/v1/app-templates", { category: "AUTOMATION" })).body.items;
    expect(outputs.automationTemplates.value.map((t: { id: string }) => t.id)).toEqual(automation.map((t: { id: string }) => t.id));
    expect(outputs.whoami.value).toMatchObject({
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
});
