import * as svc from "pulumi-svc";

const web = new svc.Instance("web", { name: "web", planId: svc.getPlanOutput({ name: "lightning-2" }).id, region: "NA_01" });
const network = new svc.Vpc("app-net", { name: "app-net", description: "web tier", range: "10.42.0.0/16" });

// The same as listing the VPC in the instance's vpcIds, declared on its own (use one or the other).
new svc.VpcAttachment("web-net", { instanceId: web.id, vpcId: network.id });
