/**
 * The quickstart (examples/quickstart) through the provider plugin instead of dynamic resources:
 * the same program, with the typed classes generated from the plugin's schema (sdk/nodejs,
 * published as pulumi-svc-sdk). Resources are `svc:index:<Kind>` served by bin/pulumi-resource-svc,
 * so `pulumi import` and per-property diffs work as in the YAML quickstart.
 *
 *   pulumi config set svc:baseUrl https://api.example.com
 *   pulumi config set --secret svc:token <token>
 *   pulumi config set svc:workspaceId <workspace id>
 *   pulumi config set --secret dbPassword <password>
 *   pulumi up
 */
import * as pulumi from "@pulumi/pulumi";
import * as svc from "pulumi-svc-sdk";

const config = new pulumi.Config();
const region = config.get("region") ?? "NA_01";
const adminCidr = config.get("adminCidr") ?? "203.0.113.0/24";

// Pick a plan and an image by name.
const plan = svc.getPlanOutput({ name: config.get("plan") ?? "lightning-2" });
const image = svc.getImageOutput({ name: config.get("image") ?? "Ubuntu 24.04 LTS" });

// No name: Pulumi names it from "app-net" and a suffix, so two stacks of this program can share a workspace.
const network = new svc.Vpc("app-net", { description: "quickstart web tier", range: "10.42.0.0/16" });

const web = [1, 2].map(
  (n) =>
    new svc.Instance(`web-${n}`, {
      name: `web-${n}`,
      planId: plan.id,
      imageId: image.id,
      region,
      vpcIds: [network.id],
      firewallEnabled: true,
    }),
);

// Default-deny from the first rule: allow SSH from the admin range and HTTP from anywhere.
web.forEach((instance, i) => {
  new svc.FirewallRule(`web-${i + 1}-ssh`, {
    instanceId: instance.id,
    type: "IPv4",
    protocol: "TCP",
    action: "ACCEPT",
    portStart: 22,
    remote: adminCidr,
    priority: 10,
    description: "ssh from admins",
  });
  new svc.FirewallRule(`web-${i + 1}-http`, {
    instanceId: instance.id,
    type: "IPv4",
    protocol: "TCP",
    action: "ACCEPT",
    portStart: 8080,
    priority: 5,
    description: "web service",
  });
});

const data = new svc.Disk("data", { name: "web-1-data", size: 20 * 1024 ** 3, backend: "LOCAL", region, instanceId: web[0].id });

const cluster = new svc.K3sCluster("cluster", {});
const nodes = web.map((instance, i) => new svc.K3sNode(`node-${i + 1}`, { instanceId: instance.id }, { dependsOn: [cluster] }));

const secret = new svc.K3sSecret(
  "app-secret",
  { name: "app-secret", data: { DATABASE_PASSWORD: config.getSecret("dbPassword") ?? pulumi.secret("change-me") } },
  { dependsOn: [cluster] },
);

const service = new svc.K3sService(
  "web",
  {
    name: "web",
    image: "nginx:1.27",
    mode: "SPREAD",
    replicas: 2,
    targetInstanceIds: web.map((w) => w.id),
    ports: [{ hostPort: 8080, containerPort: 80, protocol: "TCP", http: true }],
    environment: { APP_ENV: "production" },
    secretRefs: [secret.name],
  },
  { dependsOn: nodes },
);

export const vpcRange = network.range;
export const instances = web.map((w) => ({ name: w.name, id: w.id, publicIpv4: w.ipv4Address, privateIps: w.privateIps, state: w.state }));
export const dataDisk = { id: data.id, attachedTo: data.instanceId, sizeBytes: data.size };
export const clusterName = cluster.name;
export const clusterStatus = cluster.status;
export const serviceStatus = service.status;
export const serviceReplicas = pulumi.interpolate`${service.availableReplicas}/${service.desiredReplicas}`;
export const url = pulumi.interpolate`http://${web[0].ipv4Address}:8080`;
