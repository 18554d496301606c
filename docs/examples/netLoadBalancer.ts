import * as svc from "pulumi-svc";

const ip = new svc.FloatingIp("vip", { family: "IPv4" });
const balancer = new svc.NetLoadBalancer("web-lb", { name: "web-lb", address: ip.address });

export const balancerId = balancer.id;
