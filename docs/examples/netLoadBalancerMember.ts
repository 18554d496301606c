import * as svc from "pulumi-svc";

const web = new svc.Instance("web", { name: "web", planId: svc.getPlanOutput({ name: "lightning-2" }).id, region: "NA_01" });
const ip = new svc.FloatingIp("vip", { family: "IPv4" });
const balancer = new svc.NetLoadBalancer("web-lb", { name: "web-lb", address: ip.address });

new svc.NetLoadBalancerMember("web-lb-web", { loadBalancerId: balancer.id, instanceId: web.id });
