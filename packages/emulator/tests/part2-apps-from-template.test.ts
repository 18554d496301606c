/**
 * Part 2 POST /v1/instances/{iid}/apps/from-template: environment overrides and required values,
 * placeholder resolution (stored once), host-port allocation, mounts and domain rules.
 */
import { useTestEmulator, type TestEmulator } from "../src/testing";
import { makeForeignWorkspace, makeInstance, makeMember, MISSING_BIG_ID, type InstanceFixture } from "./apps";

let t: TestEmulator;
const templates: Record<string, string> = {};

useTestEmulator((started) => (t = started));
beforeAll(async () => {
  for (const item of (await t.api.get("/v1/app-templates", { limit: 100 })).body.items) templates[item.name] = item.id;
});

const N8N_USER = { N8N_BASIC_AUTH_USER: "admin" };

function fromTemplate(fx: InstanceFixture, template: string, extra: Record<string, unknown> = {}) {
  return t.api.post(`/v1/instances/${fx.instance.id}/apps/from-template`, {
    template_id: templates[template],
    name: template.toLowerCase().replace(/\W+/g, "-"),
    ...extra,
  });
}

test("deploys the template: image, ports, mounts and resolved environment, stored once", async () => {
  const fx = makeInstance(t);
  const res = await fromTemplate(fx, "n8n", { environment: N8N_USER });
  expect(res.status).toBe(201);
  expect(res.body.workflow).toMatchObject({ name: "deploy-app", state: "QUEUED" });
  const app = res.body.resource;
  expect(app).toMatchObject({
    name: "n8n",
    image: "n8nio/n8n:1.64.0",
    template_id: templates.n8n,
    state: "PENDING",
    ports: [{ host_port: 5678, container_port: 5678, protocol: "TCP", http: true }],
    mounts: [{ host_path: "/opt/n8n", container_path: "/home/node/.n8n", read_only: false }],
  });
  expect(app.environment).toEqual({
    N8N_ENCRYPTION_KEY: expect.stringMatching(/^[A-Za-z0-9]{32}$/),
    WEBHOOK_URL: `http://${fx.ip4}:5678/`,
    N8N_BASIC_AUTH_USER: "admin",
    GENERIC_TIMEZONE: "UTC",
  });
  expect(await t.waitWorkflow(res.body.workflow.id)).toBe("COMPLETED");
  const detail = (await t.api.get(`/v1/apps/${app.id}`)).body;
  expect(detail.state).toBe("AVAILABLE");
  expect(detail.environment).toEqual(app.environment);
  await t.waitWorkflow((await t.api.post(`/v1/apps/${app.id}/restart`)).body.id);
  expect((await t.api.get(`/v1/apps/${app.id}`)).body.environment.N8N_ENCRYPTION_KEY).toBe(app.environment.N8N_ENCRYPTION_KEY);
});

test("every placeholder kind resolves: container ports, host ports, IPv4 and IPv6 (the first of each family)", async () => {
  const fx = makeInstance(t, { ipv4: 2 });
  const ollama = (await fromTemplate(fx, "Ollama")).body.resource;
  expect(ollama.environment).toEqual({
    OLLAMA_HOST: "0.0.0.0:11434",
    OLLAMA_ORIGINS: `http://[${fx.ip6}]:11434,http://${fx.ip4}:11434`,
  });
  const kuma = (await fromTemplate(fx, "Uptime Kuma")).body.resource;
  expect(kuma.environment).toEqual({ UPTIME_KUMA_PORT: "3001", PUBLIC_URL: `http://${fx.ip4}:3001` });
});

test("a taken container port falls back to a random host port from 20000 to 60000, and placeholders follow it", async () => {
  const fx = makeInstance(t);
  await fromTemplate(fx, "Uptime Kuma");
  const second = await fromTemplate(fx, "Uptime Kuma", { name: "kuma-2" });
  expect(second.status).toBe(201);
  const port = second.body.resource.ports[0].host_port;
  expect(port).toBeGreaterThanOrEqual(20000);
  expect(port).toBeLessThanOrEqual(60000);
  expect(second.body.resource.ports[0].container_port).toBe(3001);
  expect(second.body.resource.environment.PUBLIC_URL).toBe(`http://${fx.ip4}:${port}`);
  expect(second.body.resource.environment.UPTIME_KUMA_PORT).toBe("3001");
  // A custom app on the allocated port now conflicts.
  const clash = await t.api.post(`/v1/instances/${fx.instance.id}/apps`, {
    name: "x",
    image: "nginx:1.27",
    ports: [{ host_port: port, container_port: 80 }],
  });
  expect(clash.status).toBe(409);
});

test("ports are allocated per protocol: TCP and UDP of one number coexist", async () => {
  const fx = makeInstance(t);
  const mc = (await fromTemplate(fx, "Minecraft Server", { environment: { MOTD: "hello" } })).body.resource;
  expect(mc.ports).toEqual([
    { host_port: 25565, container_port: 25565, protocol: "TCP", http: false },
    { host_port: 25565, container_port: 25565, protocol: "UDP", http: false },
    { host_port: 25575, container_port: 25575, protocol: "TCP", http: false },
  ]);
  expect(mc.environment).toMatchObject({ EULA: "TRUE", MOTD: "hello", RCON_PORT: "25575", SERVER_ADDRESS: `${fx.ip4}:25565` });
  expect(mc.environment.RCON_PASSWORD).toMatch(/^[A-Za-z0-9]{24}$/);
});

test("environment overrides: a string replaces the default, null removes it, new keys are added and may use placeholders", async () => {
  const fx = makeInstance(t);
  const res = await fromTemplate(fx, "n8n", {
    environment: {
      ...N8N_USER,
      GENERIC_TIMEZONE: "Europe/Paris",
      N8N_ENCRYPTION_KEY: null,
      EXTRA_URL: "{{instance.ip6}}",
      TOKEN: "{{random:128}}",
    },
  });
  expect(res.status).toBe(201);
  const env = res.body.resource.environment;
  expect(env.GENERIC_TIMEZONE).toBe("Europe/Paris");
  expect(env).not.toHaveProperty("N8N_ENCRYPTION_KEY");
  expect(env.EXTRA_URL).toBe(fx.ip6);
  expect(env.TOKEN).toMatch(/^[A-Za-z0-9]{128}$/);
});

test("two deploys get different random values", async () => {
  const fx = makeInstance(t);
  const a = (await fromTemplate(fx, "Vaultwarden", { environment: { DOMAIN: "https://a.example.com" } })).body.resource;
  const b = (await fromTemplate(fx, "Vaultwarden", { name: "vault-2", environment: { DOMAIN: "https://b.example.com" } })).body.resource;
  expect(a.environment.ADMIN_TOKEN).toMatch(/^[A-Za-z0-9]{48}$/);
  expect(b.environment.ADMIN_TOKEN).not.toBe(a.environment.ADMIN_TOKEN);
});

test.each([
  [
    "a value the template leaves null is missing",
    "n8n",
    {},
    /environment\.N8N_BASIC_AUTH_USER: the template leaves N8N_BASIC_AUTH_USER for you to supply/,
  ],
  [
    "a value the template leaves null is sent as null",
    "n8n",
    { environment: { N8N_BASIC_AUTH_USER: null } },
    /environment\.N8N_BASIC_AUTH_USER/,
  ],
  [
    "an unknown placeholder",
    "n8n",
    { environment: { ...N8N_USER, X: "{{instance.name}}" } },
    /environment\.X: unknown placeholder \{\{instance\.name\}\}/,
  ],
  [
    "a reference to a port the template lacks",
    "n8n",
    { environment: { ...N8N_USER, X: "{{host_port.web}}" } },
    /environment\.X: unresolvable placeholder \{\{host_port\.web\}\}/,
  ],
  ["random length 0", "n8n", { environment: { ...N8N_USER, X: "{{random:0}}" } }, /random length must be 1 to 128/],
  ["random length 129", "n8n", { environment: { ...N8N_USER, X: "{{random:129}}" } }, /random length must be 1 to 128/],
  [
    "a domain on a template without an http port",
    "Minecraft Server",
    { environment: { MOTD: "x" }, domain: "mc.example.com" },
    /domain: the template has no http port/,
  ],
  ["a template_id sent as an integer", "n8n", { template_id: 5, environment: N8N_USER }, /template_id/],
  ["a template_id that is not digits", "n8n", { template_id: "abc", environment: N8N_USER }, /template_id: must be a string of digits/],
  ["a relative mount", "n8n", { environment: N8N_USER, mounts: [{ host_path: "x", container_path: "/y" }] }, /mounts\[0\]\.host_path/],
])("400 for %s", async (_label, template, extra, message) => {
  const fx = makeInstance(t);
  const res = await fromTemplate(fx, template, extra);
  expect(res.status).toBe(400);
  expect(res.message).toMatch(message);
});

test("400 when the instance has no IPv6 address for {{instance.ip6}}", async () => {
  const fx = makeInstance(t, { ipv6: false });
  const res = await fromTemplate(fx, "Ollama");
  expect(res.status).toBe(400);
  expect(res.message).toMatch(
    /environment\.OLLAMA_ORIGINS: unresolvable placeholder \{\{instance\.ip6\}\}: the instance has no IPv6 address/,
  );
});

test("mounts replace the template's; a domain is accepted with an http port", async () => {
  const fx = makeInstance(t);
  const res = await fromTemplate(fx, "Jellyfin", {
    mounts: [{ host_path: "/mnt/media", container_path: "/media", read_only: true }],
    domain: "tv.example.com",
  });
  expect(res.status).toBe(201);
  expect(res.body.resource.mounts).toEqual([{ host_path: "/mnt/media", container_path: "/media", read_only: true }]);
  expect(res.body.resource.domain).toBe("tv.example.com");
  const kept = await fromTemplate(fx, "Gitea", { environment: { GITEA__server__DOMAIN: "git.example.com" } });
  expect(kept.body.resource.mounts).toEqual([{ host_path: "/opt/gitea", container_path: "/data", read_only: false }]);
  expect(kept.body.resource.environment.GITEA__server__SSH_PORT).toBe("22");
  expect(kept.body.resource.environment.GITEA__security__SECRET_KEY).toMatch(/^[A-Za-z0-9]{64}$/);
});

test("a staff-created template with a big identifier deploys by its string id, exactly", async () => {
  const created = await t.staff.post("/v1/app-templates", {
    name: "Echo",
    description: "Echo server",
    image: "ealen/echo-server:0.9.2",
    ports: [{ name: "http", container_port: 80, http: true }],
    environment: [{ key: "PORT", value: "{{container_port.http}}" }],
  });
  const id = created.body.id as string;
  expect(BigInt(id) > 2n ** 53n).toBe(true);
  const fx = makeInstance(t);
  const res = await t.api.request("POST", `/v1/instances/${fx.instance.id}/apps/from-template`, undefined, {
    rawBody: `{"template_id":"${id}","name":"echo"}`,
  });
  expect(res.status).toBe(201);
  expect(res.body.resource.template_id).toBe(id);
  expect(res.body.resource.environment).toEqual({ PORT: "80" });
});

test("404 for an unknown template or instance; 409 for a taken name or an unavailable instance", async () => {
  const fx = makeInstance(t);
  expect((await fromTemplate(fx, "n8n", { template_id: MISSING_BIG_ID, environment: N8N_USER })).status).toBe(404);
  expect((await t.api.post(`/v1/instances/${MISSING_BIG_ID}/apps/from-template`, { template_id: templates.n8n, name: "x" })).status).toBe(
    404,
  );
  await fromTemplate(fx, "Uptime Kuma");
  const taken = await fromTemplate(fx, "Uptime Kuma");
  expect(taken.status).toBe(409);
  expect(taken.message).toMatch(/already exists/);
  const pending = makeInstance(t, { state: "PENDING" });
  expect((await fromTemplate(pending, "Uptime Kuma")).status).toBe(409);
});

test("authorization: no token 403, VIEWER 403, another workspace 404", async () => {
  const fx = makeInstance(t);
  expect(
    (await t.anon.post(`/v1/instances/${fx.instance.id}/apps/from-template`, { template_id: templates.Ollama, name: "x" })).status,
  ).toBe(403);
  const viewer = makeMember(t, "VIEWER");
  expect(
    (await viewer.post(`/v1/instances/${fx.instance.id}/apps/from-template`, { template_id: templates.Ollama, name: "x" })).status,
  ).toBe(403);
  const foreign = makeForeignWorkspace(t);
  const theirs = makeInstance(t, { workspaceId: foreign.workspaceId });
  expect((await fromTemplate(theirs, "Ollama")).status).toBe(404);
  expect(
    (await foreign.owner.post(`/v1/instances/${theirs.instance.id}/apps/from-template`, { template_id: templates.Ollama, name: "x" }))
      .status,
  ).toBe(201);
});
