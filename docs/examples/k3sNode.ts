import * as svc from "pulumi-svc";

const web = new svc.Instance("web", { name: "web", planId: svc.getPlanOutput({ name: "lightning-2" }).id, region: "NA_01" });
const cluster = new svc.K3sCluster("cluster", {});

new svc.K3sNode("node-1", { instanceId: web.id }, { dependsOn: [cluster] });
