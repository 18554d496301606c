import * as svc from "pulumi-svc";

const plan = svc.getPlanOutput({ name: "lightning-2" });
const image = svc.getImageOutput({ name: "Ubuntu 24.04 LTS" });
const network = new svc.Vpc("app-net", { name: "app-net", description: "web tier", range: "10.42.0.0/16" });

const web = new svc.Instance("web", {
  name: "web",
  planId: plan.id,
  imageId: image.id,
  region: "NA_01",
  vpcIds: [network.id],
  firewallEnabled: true,
});

export const publicIpv4 = web.ipv4Address;
export const privateIps = web.privateIps;
