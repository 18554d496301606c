import * as svc from "pulumi-svc";

const web = new svc.Instance("web", { name: "web", planId: svc.getPlanOutput({ name: "lightning-2" }).id, region: "NA_01" });

// A container on the instance, from a custom image.
const site = new svc.App("site", {
  instanceId: web.id,
  name: "site",
  image: "nginx:1.27",
  ports: [{ hostPort: 8080, containerPort: 80, protocol: "TCP", http: true }],
  environment: { APP_ENV: "production" },
});

export const appState = site.state;
