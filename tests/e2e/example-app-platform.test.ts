/**
 * The examples/app-platform program end to end with the real CLI: up, its outputs checked against
 * the emulator, a clean preview, destroy and an empty inventory.
 */
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { startE2E, type E2E } from "./harness";

jest.setTimeout(600_000);

const EXAMPLE = path.resolve(__dirname, "..", "..", "examples", "app-platform");

describe("examples/app-platform", () => {
  let e2e: E2E;
  beforeAll(async () => {
    e2e = await startE2E("app-platform", { programDir: EXAMPLE });
  });
  afterAll(async () => {
    await e2e?.stop();
  });

  const get = async (p: string) => (await e2e.emu.api.get(p)).body;

  it("comes up, and its outputs match the API", async () => {
    const result = await e2e.up([]);
    // Instance, credential, three apps, the ISO, the recipe, two installations, and the stack.
    expect(result.summary.resourceChanges).toEqual({ create: 10 });
    const out = await e2e.stack.outputs();
    const host = await get(`/v1/instances/${out.hostId.value}`);
    expect(host).toMatchObject({ name: "app-host", state: "AVAILABLE", online: true });
    expect(out.hostIpv4.value).toBe(host.ips.find((ip: { family: string }) => ip.family === "IPv4").address);

    const creds = (await e2e.emu.api.get(`/v1/workspaces/${e2e.emu.workspaceId}/registries`)).body.items;
    expect(creds.map((c: { id: string; registry: string }) => [c.id, c.registry])).toEqual([
      [out.registryCredential.value.id, "registry.example.com"],
    ]);

    const apps = out.apps.value;
    const api = await get(`/v1/apps/${apps.api.id}`);
    expect(api).toMatchObject({
      name: "api",
      image: "registry.example.com/team/api:1.4.2",
      state: "AVAILABLE",
      running: true,
      domain: "api.example.com",
      template_id: null,
    });
    expect(apps.api.url).toBe("https://api.example.com");
    const templates = (await e2e.emu.api.get("/v1/app-templates", { limit: 100 })).body.items as Array<{ id: string; name: string }>;
    const status = await get(`/v1/apps/${apps.status.id}`);
    expect(status).toMatchObject({
      state: "AVAILABLE",
      template_id: templates.find((t) => t.name === "Uptime Kuma")!.id,
      image: "louislam/uptime-kuma:1.23.13",
    });
    expect(apps.status.ports).toEqual([{ hostPort: 3001, containerPort: 3001, protocol: "TCP", http: true }]);
    const vault = await get(`/v1/apps/${apps.vault.id}`);
    expect(vault).toMatchObject({
      state: "AVAILABLE",
      domain: "vault.example.com",
      environment: { DOMAIN: "https://vault.example.com", SIGNUPS_ALLOWED: "false" },
      mounts: [{ host_path: "/srv/vaultwarden", container_path: "/data", read_only: false }],
    });
    expect(vault.environment.ADMIN_TOKEN).toMatch(/^[A-Za-z0-9]{48}$/);
    expect(out.vaultEnvironment.secret).toBe(true);
    expect(out.vaultEnvironment.value).toEqual(vault.environment);
    expect(await e2e.rawState()).not.toContain(vault.environment.ADMIN_TOKEN);

    const fixture = fs.readFileSync(path.join(EXAMPLE, "fixtures", "rescue.iso"));
    const iso = await get(`/v1/images/${out.rescueIso.value.id}`);
    expect(iso).toMatchObject({
      kind: "ISO",
      state: "AVAILABLE",
      size: fixture.length,
      source: { type: "UPLOAD", size_bytes: fixture.length },
    });
    expect(out.rescueIso.value).toMatchObject({
      sizeBytes: fixture.length,
      sha256: crypto.createHash("sha256").update(fixture).digest("hex"),
      state: "AVAILABLE",
    });
    expect(e2e.output()).toContain(`uploaded ${fixture.length} of ${fixture.length} bytes (100%`);

    const [bootstrap, docker] = out.recipeInstalls.value;
    expect(bootstrap).toMatchObject({ recipe: "app-host-bootstrap", state: "COMPLETED" });
    expect(docker).toMatchObject({ recipe: "Docker Engine", state: "COMPLETED" });
    for (const install of [bootstrap, docker]) {
      const workflowId = String(install.id).split(":")[2];
      expect(await get(`/v1/workflows/${workflowId}`)).toMatchObject({ name: "install-recipe", state: "COMPLETED" });
    }
    expect(await e2e.rawState()).not.toContain("change-me-token");
  });

  it("previews no change and sends no mutating request", async () => {
    const since = await e2e.lastSeq();
    const preview = await e2e.preview([]);
    expect(preview.changeSummary).toEqual({ same: 10 });
    expect(await e2e.mutations(since)).toEqual([]);
  });

  it("destroy leaves the emulator's inventory empty", async () => {
    await e2e.destroy();
    expect((await e2e.inventoryTotal()).total).toBe(0);
  });
});
