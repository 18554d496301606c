import * as svc from "pulumi-svc";

const web = new svc.Instance("web", { name: "web", planId: svc.getPlanOutput({ name: "lightning-2" }).id, region: "NA_01" });
const cluster = new svc.K3sCluster("cluster", {});
const node = new svc.K3sNode("node-1", { instanceId: web.id }, { dependsOn: [cluster] });

const service = new svc.K3sService(
  "web",
  {
    name: "web",
    image: "nginx:1.27",
    mode: "SPREAD",
    replicas: 2,
    targetInstanceIds: [web.id],
    ports: [{ hostPort: 8080, containerPort: 80, protocol: "TCP", http: true }],
    environment: { APP_ENV: "production" },
  },
  { dependsOn: [node] },
);

export const serviceStatus = service.status;
