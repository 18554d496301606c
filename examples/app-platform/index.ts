/**
 * App platform: one instance running container apps, one from a private registry (with its
 * credential) and two from the staff-curated app templates; a rescue ISO uploaded from a local
 * file; and a recipe of the workspace installed on the instance next to a platform recipe.
 *
 *   pulumi config set svc:baseUrl https://api.example.com
 *   pulumi config set --secret svc:token <token>
 *   pulumi config set svc:workspaceId <workspace id>
 *   pulumi config set --secret registryPassword <password>   # default: the emulator's demo account
 *   pulumi config set --secret adminToken <token>             # passed to the recipe as a PASSWORD field
 *   pulumi up
 */
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import * as svc from "pulumi-svc";

const config = new pulumi.Config();
const region = config.get("region") ?? "NA_01";
const registryHost = config.get("registry") ?? "registry.example.com";

// The host: a plan picked by name.
const plan = svc.getPlanOutput({ name: config.get("plan") ?? "lightning-2" });
const host = new svc.Instance("app-host", { name: "app-host", planId: plan.id, region });

// Pull access to the private registry the API image lives in (validated by the API against the registry).
const registry = new svc.RegistryCredential("registry", {
  registry: registryHost,
  username: config.get("registryUser") ?? "deploy",
  password: config.getSecret("registryPassword") ?? pulumi.secret("s3cret-token"),
});

// A custom-image app from that registry, reachable on a custom domain through its http port.
const api = new svc.App(
  "api",
  {
    instanceId: host.id,
    name: "api",
    image: `${registryHost}/team/api:1.4.2`,
    environment: { LOG_LEVEL: "info", DATABASE_URL: config.getSecret("databaseUrl") ?? pulumi.secret("postgres://api@db.internal/api") },
    ports: [{ hostPort: 8080, containerPort: 8080, http: true }],
    mounts: [{ hostPath: "/srv/api/uploads", containerPath: "/app/uploads" }],
    domain: config.get("apiDomain") ?? "api.example.com",
  },
  { dependsOn: [registry] },
);

// Apps from templates, picked by name. Uptime Kuma needs nothing; Vaultwarden leaves DOMAIN for us.
const kuma = svc.getAppTemplateOutput({ name: "Uptime Kuma" });
const status = new svc.App("status", { instanceId: host.id, name: "status", templateId: kuma.id });

const vaultwarden = svc.getAppTemplateOutput({ name: "Vaultwarden" });
const vaultDomain = config.get("vaultDomain") ?? "vault.example.com";
const vault = new svc.App("vault", {
  instanceId: host.id,
  name: "vault",
  templateId: vaultwarden.id,
  environment: { DOMAIN: `https://${vaultDomain}`, SIGNUPS_ALLOWED: "false" },
  domain: vaultDomain,
  mounts: [{ hostPath: "/srv/vaultwarden", containerPath: "/data" }],
});

// A rescue ISO uploaded from a file shipped with the program (streamed to the API's signed URL).
const rescue = new svc.Image("rescue-iso", {
  kind: "ISO",
  name: "rescue-iso",
  description: "Rescue system for the app host",
  source: { type: "UPLOAD", filePath: path.join(__dirname, "fixtures", "rescue.iso") },
  os: { family: "LINUX", name: "Rescue" },
});

// The workspace's own bootstrap recipe, installed on the host; the token is a PASSWORD field (secret).
const bootstrap = new svc.Recipe("bootstrap", {
  name: "app-host-bootstrap",
  category: "DEVOPS",
  description: "# App host bootstrap\nHardens SSH and registers the host with the on-call tooling.",
  commands: [
    { path: "/opt/bootstrap/harden.sh" },
    {
      path: "/opt/bootstrap/register.sh",
      args: ["--email", "$SVC_FIELDS_ADMIN_EMAIL", "--token", "$SVC_FIELDS_ADMIN_TOKEN", "--verbose", "$SVC_FIELDS_VERBOSE"],
    },
  ],
  fields: [
    { id: "ADMIN_EMAIL", label: "On-call email", type: "EMAIL", required: true },
    { id: "ADMIN_TOKEN", label: "On-call API token", type: "PASSWORD", required: true },
    { id: "VERBOSE", label: "Verbose logs", type: "BOOLEAN" },
  ],
});
const installed = new svc.RecipeInstallation("bootstrap-on-host", {
  instanceId: host.id,
  recipeId: bootstrap.id,
  fields: {
    ADMIN_EMAIL: config.get("adminEmail") ?? "oncall@example.com",
    ADMIN_TOKEN: config.getSecret("adminToken") ?? pulumi.secret("change-me-token"),
    VERBOSE: true,
  },
});

// A platform recipe with no fields, found by name.
const docker = svc.getRecipeOutput({ name: "Docker Engine" });
const dockerOnHost = new svc.RecipeInstallation("docker-on-host", { instanceId: host.id, recipeId: docker.id }, { dependsOn: [installed] });

export const hostId = host.id;
export const hostIpv4 = host.ipv4Address;
export const registryCredential = { id: registry.id, registry: registry.registry };
export const apps = {
  api: { id: api.id, state: api.state, ports: api.portAllocations, url: pulumi.interpolate`https://${api.domain}` },
  status: { id: status.id, state: status.state, ports: status.portAllocations, templateId: status.templateId },
  vault: { id: vault.id, state: vault.state, ports: vault.portAllocations, templateId: vault.templateId },
};
/** The values the API resolved for Vaultwarden (its ADMIN_TOKEN is a {{random:48}} secret): stays secret. */
export const vaultEnvironment = vault.resolvedEnvironment;
export const rescueIso = { id: rescue.id, sizeBytes: rescue.size, sha256: rescue.fileSha256, state: rescue.state };
export const recipeInstalls = [
  { id: installed.id, recipe: installed.recipeName, state: installed.installState },
  { id: dockerOnHost.id, recipe: dockerOnHost.recipeName, state: dockerOnHost.installState },
];
