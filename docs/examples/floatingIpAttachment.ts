import * as svc from "pulumi-svc";

const web = new svc.Instance("web", { name: "web", planId: svc.getPlanOutput({ name: "lightning-2" }).id, region: "NA_01" });
const ip = new svc.FloatingIp("public", { family: "IPv4" });

// A change of instanceId moves the address (detach, then attach).
new svc.FloatingIpAttachment("public-web", { ipId: ip.id, instanceId: web.id });
